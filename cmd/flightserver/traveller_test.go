package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// A traveller's search through the built binary over stdio and HTTP, in
// both eras: a city and a metro code, a round trip over flexible dates
// (every pick with its return flight, a calendar of five days), and the
// airport lookup.
func TestTravellerSearchThroughTheBinary(t *testing.T) {
	h := startHTTP(t)
	date, back := time.Now().AddDate(0, 1, 0), time.Now().AddDate(0, 1, 7)
	for _, via := range []string{"stdio", "http"} {
		for _, era := range eras {
			t.Run(via+"/"+era.name, func(t *testing.T) {
				var c *client.Client
				if via == "stdio" {
					c = startStdio(t, nil, []string{"--log-level", "warn"}, nil, client.WithProtocolVersion(era.version))
				} else {
					c = startHTTPClient(t, h.url+"/mcp", era.version)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight", Arguments: map[string]any{
					"origin": "New York", "destination": "LON", "date": date.Format("2006-01-02"), "returnDate": back.Format("2006-01-02"), "flexDays": 2}}})
				if err != nil || res.IsError {
					t.Fatalf("%v %+v", err, res)
				}
				var r struct {
					Trip struct {
						OriginAirports []string
						ReturnDate     string
					}
					Flights []struct {
						ID     string
						Return *struct{ FlightID, Depart string }
					}
					Calendar []struct{ Date, BestID string }
				}
				structured(t, res, &r)
				if len(r.Trip.OriginAirports) < 3 || len(r.Flights) != 3 || len(r.Calendar) != 5 {
					t.Fatalf("airports %v, %d picks, %d days", r.Trip.OriginAirports, len(r.Flights), len(r.Calendar))
				}
				for _, f := range r.Flights {
					if f.Return == nil || !strings.HasSuffix(f.ID, "_"+f.Return.FlightID) {
						t.Errorf("pick %s has no return flight", f.ID)
					}
				}
				res, err = c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findAirports", Arguments: map[string]any{"query": "new york"}}})
				if err != nil || res.IsError {
					t.Fatalf("%v %+v", err, res)
				}
				var a struct{ Airports []struct{ Code string } }
				structured(t, res, &a)
				var codes []string
				for _, x := range a.Airports {
					codes = append(codes, x.Code)
				}
				for _, want := range []string{"EWR", "JFK", "LGA"} {
					if !slices.Contains(codes, want) {
						t.Errorf("findAirports new york: %v lacks %s", codes, want)
					}
				}
			})
		}
	}
}
