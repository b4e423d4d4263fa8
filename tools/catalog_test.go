package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
)

// With LoadCatalog the catalog is built when the first call needs it: the
// handshake and the listing answer without it, the call waits for it and
// then answers as usual, and a catalog that cannot be built makes every
// call answer an error that says so.
func TestCatalogBuiltForTheFirstCall(t *testing.T) {
	find := map[string]any{"origin": "SFO", "destination": "JFK", "date": today().AddDate(0, 0, 14).Format("2006-01-02")}
	for _, via := range transports {
		for _, era := range eras {
			t.Run(via+"/"+era.Name, func(t *testing.T) {
				release, asked := make(chan struct{}), make(chan struct{})
				s := newServer(t, func(c *Config) {
					c.Catalog = nil
					c.LoadCatalog = func() (*flights.Catalog, error) {
						close(asked)
						<-release
						return mustCatalog(t), nil
					}
				})
				c := connect(t, s, via, era.Version) // initialize, with the catalog not built
				if list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil || len(list.Tools) == 0 {
					t.Fatalf("tools/list without the catalog: %v", err)
				}
				select {
				case <-asked:
					t.Fatal("the catalog was built before any call needed it")
				default:
				}
				type answer struct {
					res *mcp.CallToolResult
					err error
				}
				done := make(chan answer, 1)
				go func() {
					req := mcp.CallToolRequest{}
					req.Params.Name, req.Params.Arguments = FindBestFlightName, find
					res, err := c.CallTool(context.Background(), req)
					done <- answer{res, err}
				}()
				<-asked // the call asked for the catalog
				select {
				case a := <-done:
					t.Fatalf("a call answered before the catalog was built: %v %v", a.res, a.err)
				case <-time.After(200 * time.Millisecond):
				}
				close(release)
				a := <-done
				if a.err != nil {
					t.Fatal(a.err)
				}
				var r FindResult
				decode(t, a.res, &r)
				if a.res.IsError || len(r.Flights) == 0 {
					t.Fatalf("no flights once the catalog was built: %s", text(a.res))
				}
			})
		}
	}
	t.Run("fails", func(t *testing.T) {
		s := newServer(t, func(c *Config) {
			c.Catalog = nil
			c.LoadCatalog = func() (*flights.Catalog, error) { return nil, errors.New("airports.csv: line 3: broken") }
		})
		c := connect(t, s, "inprocess", eras[0].Version)
		res := callTool(t, c, FindBestFlightName, find)
		if !res.IsError || !strings.Contains(text(res), "could not load its flight data") || !strings.Contains(text(res), "airports.csv: line 3: broken") {
			t.Fatalf("want an error naming the catalog's failure, got %v: %s", res.IsError, text(res))
		}
		if d := errorDetails(t, res); d.Error != ErrorSearchFailed || d.Reason != "airports.csv: line 3: broken" {
			t.Fatalf("details %+v", d)
		}
	})
}
