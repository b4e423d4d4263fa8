package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/flightserver/flightserver/internal/golden"
	"github.com/flightserver/flightserver/ranking"
)

// declaresView is a client that renders MCP Apps.
var declaresView = client.WithClientCapabilities(mcp.ClientCapabilities{Extensions: map[string]any{
	UIExtension: map[string]any{"mimeTypes": []any{ViewMIME}},
}})

// The results view is negotiated per request like every other capability:
// only a client that declared MCP Apps sees the link, the resource and a
// view attempt marked used; every other client sees the tools exactly as
// before, and its result is the same.
func TestViewOnlyForClientsThatDeclareIt(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			for _, declared := range []bool{true, false} {
				name := via + "/" + era.Name + "/not declared"
				var opts []client.ClientOption
				if declared {
					name, opts = via+"/"+era.Name+"/declared", []client.ClientOption{declaresView}
				}
				t.Run(name, func(t *testing.T) {
					c := connect(t, newServer(t), via, era.Version, opts...)
					ctx := context.Background()
					list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
					if err != nil {
						t.Fatal(err)
					}
					b, _ := json.Marshal(list.Tools)
					if got := strings.Contains(string(b), ViewURI); got != declared {
						t.Errorf("tools/list mentions %s: %v, want %v", ViewURI, got, declared)
					}
					// The view's own tool: listed for the view only, or not at all.
					at := slices.IndexFunc(list.Tools, func(tool mcp.Tool) bool { return tool.Name == ListOptionsName })
					if (at >= 0) != declared {
						t.Errorf("%s listed: %v, want %v", ListOptionsName, at >= 0, declared)
					}
					if at >= 0 {
						if meta, _ := json.Marshal(list.Tools[at].Meta); string(meta) != `{"ui":{"visibility":["app"]}}` {
							t.Errorf("%s _meta %s, want it for the view only", ListOptionsName, meta)
						}
					}
					_, callErr := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: ListOptionsName, Arguments: jfkLHR}})
					if (callErr == nil) != declared {
						t.Errorf("calling %s: %v (declared %v)", ListOptionsName, callErr, declared)
					}
					for _, tool := range list.Tools {
						meta, _ := json.Marshal(tool.Meta)
						if declared && tool.Name == FindBestFlightName && (!strings.Contains(string(meta), `"ui":{"resourceUri":"`+ViewURI+`"}`) || !strings.Contains(string(meta), `"ui/resourceUri":"`+ViewURI+`"`)) {
							t.Errorf("findBestFlight _meta %s", meta)
						}
						if !declared && strings.Contains(string(meta), "ui") {
							t.Errorf("%s carries ui metadata for a client without the extension: %s", tool.Name, meta)
						}
					}
					resources, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
					if err != nil {
						t.Fatal(err)
					}
					offered := len(resources.Resources) == 1 && resources.Resources[0].URI == ViewURI && resources.Resources[0].MIMEType == ViewMIME
					if offered != declared || (!declared && len(resources.Resources) != 0) {
						t.Errorf("resources %+v", resources.Resources)
					}
					read, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: ViewURI}})
					if declared {
						if err != nil || len(read.Contents) != 1 {
							t.Fatalf("read: %v %+v", err, read)
						}
						tc, ok := read.Contents[0].(mcp.TextResourceContents)
						if !ok || tc.MIMEType != ViewMIME || !strings.HasPrefix(tc.Text, "<!doctype html>") || tc.Meta["ui"] == nil {
							t.Errorf("contents: %T mime %q, meta %v, %.40q", read.Contents[0], tc.MIMEType, tc.Meta, tc.Text)
						}
					} else if err == nil {
						t.Error("the view was served to a client that did not declare MCP Apps")
					}

					var r FindResult
					decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
					view := r.Attempts[len(r.Attempts)-1]
					if want := map[bool]string{true: "used", false: "skipped"}[declared]; view.Step != stepView || view.Outcome != want {
						t.Errorf("view attempt %+v, want %s", view, want)
					}
					// The view adds; the text and the data are whole for everyone.
					if len(r.Flights) != 3 || !strings.Contains(text(callTool(t, c, FindBestFlightName, jfkLHR)), r.Flights[0].ID) {
						t.Error("the result is not complete without the view")
					}
				})
			}
		}
	}
}

// The server says it serves MCP Apps, as the extension asks.
func TestServerDeclaresTheExtension(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	if _, ok := c.GetServerCapabilities().Extensions[UIExtension]; !ok {
		t.Errorf("server capabilities %+v lack %s", c.GetServerCapabilities(), UIExtension)
	}
}

// listFlightOptions' definition as a client that renders MCP Apps sees it,
// pinned like the other tools'. Regenerate with: go test ./tools -run Golden -update
func TestListOptionsDefinitionGolden(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, declaresView)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(res.Tools, func(tool mcp.Tool) bool { return tool.Name == ListOptionsName })
	if at < 0 {
		t.Fatalf("%s not listed to a client that declared MCP Apps", ListOptionsName)
	}
	got, err := json.MarshalIndent(res.Tools[at], "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "listflightoptions.golden.json", append(got, '\n'))
}

var optionsOutputSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return outputSchemaOf(listOptionsTool()) })

// listFlightOptions lists every option findBestFlight chose among, in the
// deterministic order, so the view can sort and filter all of them: the
// picks are among them, the standouts are the cheapest and fastest of them,
// and a flexible round trip's calendar has every return day.
func TestListOptionsListsEveryOption(t *testing.T) {
	c := connect(t, newServer(t), "http", mcp.ProtocolVersion20260728, declaresView)
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"one way", jfkLHR},
		{"flexible one way", map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "flexDays": 2}},
		{"round trip, dates apart", map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "returnDate": "2026-12-20", "flexDays": 1, "flexIndependently": true}},
		{"filtered", map[string]any{"origin": "NYC", "destination": "LON", "date": "2026-12-15", "passengers": 4, "cabin": "business", "maxStops": 1, "excludeAirlines": []any{"VS"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var find FindResult
			decode(t, callTool(t, c, FindBestFlightName, tc.args), &find)
			var opts OptionsResult
			decodeWith(t, optionsOutputSchema, callTool(t, c, ListOptionsName, tc.args), &opts)

			// The options, then any standout beyond them.
			n := min(find.Candidates, len(opts.Options))
			for _, o := range []*OptionOut{find.Cheapest, find.Fastest, find.Nonstop} {
				if o != nil && !slices.ContainsFunc(opts.Options[:n], func(f FlightOut) bool { return f.ID == o.ID }) &&
					!slices.ContainsFunc(opts.Options[n:], func(f FlightOut) bool { return f.ID == o.ID && strings.HasSuffix(f.Reason, "option of all found") }) {
					t.Errorf("standout %s is not listed", o.ID)
				}
			}
			if beyond := len(opts.Options) - find.Candidates; beyond < 0 || beyond > 3 || opts.Found != find.Found || len(opts.Options) < 3 {
				t.Fatalf("%d options of %d found; findBestFlight chose among %d of %d", len(opts.Options), opts.Found, find.Candidates, find.Found)
			}
			byID := map[string]FlightOut{}
			lowest, fastest := opts.Options[0], opts.Options[0]
			for i, o := range opts.Options {
				if o.Position != i+1 {
					t.Errorf("option %d has position %d", i+1, o.Position)
				}
				byID[o.ID] = o
				if o.PriceUSD < lowest.PriceUSD {
					lowest = o
				}
				if o.DurationMinutes+returnMinutes(o) < fastest.DurationMinutes+returnMinutes(fastest) {
					fastest = o
				}
				for _, seg := range append(slices.Clone(o.Segments), returnSegments(o)...) {
					if opts.Airports[seg.From] == "" || opts.Airports[seg.To] == "" || seg.AirlineName == "" {
						t.Errorf("%s: segment %+v unnamed", o.ID, seg)
					}
				}
			}
			for _, f := range find.Flights {
				if o, ok := byID[f.ID]; !ok || o.PriceUSD != f.PriceUSD || o.Depart != f.Depart {
					t.Errorf("pick %s is not among the options as findBestFlight gave it", f.ID)
				}
			}
			if find.Cheapest == nil || lowest.PriceUSD != find.Cheapest.PriceUSD {
				t.Errorf("cheapest option $%d, findBestFlight's cheapest %+v", lowest.PriceUSD, find.Cheapest)
			}
			if find.Fastest == nil || fastest.DurationMinutes+returnMinutes(fastest) != find.Fastest.DurationMinutes {
				t.Errorf("fastest option %d min, findBestFlight's fastest %+v", fastest.DurationMinutes+returnMinutes(fastest), find.Fastest)
			}
			if !opts.Provider.Synthetic || !strings.Contains(opts.Summary, "synthetic") {
				t.Errorf("provider %+v, summary %q", opts.Provider, opts.Summary)
			}
			if len(opts.Calendar) != len(find.Calendar) {
				t.Fatalf("calendar of %d days, findBestFlight's %d", len(opts.Calendar), len(find.Calendar))
			}
			for i, d := range opts.Calendar {
				if d.DayOut != find.Calendar[i] {
					t.Errorf("day %+v, findBestFlight's %+v", d.DayOut, find.Calendar[i])
				}
				if want := map[bool]int{true: 3}[find.Trip.ReturnDate != ""]; len(d.Returns) != want {
					t.Errorf("%s: %d return days, want %d", d.Date, len(d.Returns), want)
				}
			}
		})
	}
}

func returnMinutes(f FlightOut) int {
	if f.Return == nil {
		return 0
	}
	return f.Return.DurationMinutes
}

// The view's tool takes the trip findBestFlight settled: one left out is an
// error naming it (nobody is asked), and strategy is not among its arguments.
func TestListOptionsRefusesAnIncompleteTrip(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, declaresView)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"origin": "JFK", "destination": "LHR"}, "date"},
		{map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "auto"}, `"strategy": is not an argument`},
		{map[string]any{"origin": "JFK", "destination": "ZZZ", "date": "2026-12-15"}, "destination"},
	} {
		res := callTool(t, c, ListOptionsName, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%v: error %v %q, want it to name %s", tc.args, res.IsError, text(res), tc.want)
		}
	}
}

// maxOptionsBytes bounds listFlightOptions' answer (docs/BENCHMARKS.md): at
// most ranking.MaxOptions options and the three standouts, each at most two
// legs.
const maxOptionsBytes = 96 << 10

// The view's list is bounded whatever the trip: the worst case (a round
// trip between two metro areas, both dates flexible and apart) lists at
// most MaxOptions options and the standouts, within maxOptionsBytes, while
// findBestFlight's own answer stays a few KB.
func TestListOptionsAnswerIsBounded(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728, declaresView)
	args := map[string]any{"origin": "LON", "destination": "NYC", "date": "2026-12-15", "returnDate": "2026-12-22", "flexDays": 3, "flexIndependently": true}
	res := callTool(t, c, ListOptionsName, args)
	var opts OptionsResult
	decodeWith(t, optionsOutputSchema, res, &opts)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Options) > ranking.MaxOptions+3 || len(b) > maxOptionsBytes {
		t.Errorf("%d options in %d bytes, want at most %d in %d", len(opts.Options), len(b), ranking.MaxOptions+3, maxOptionsBytes)
	}
	if len(opts.Calendar) != 7 || len(opts.Calendar[0].Returns) != 7 {
		t.Errorf("calendar %d days x %d return days, want 7 x 7", len(opts.Calendar), len(opts.Calendar[0].Returns))
	}
	find, err := json.Marshal(callTool(t, c, FindBestFlightName, args))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("listFlightOptions: %d options, %d bytes; findBestFlight: %d bytes", len(opts.Options), len(b), len(find))
	if len(find) > 16<<10 {
		t.Errorf("findBestFlight answered %d bytes: the options belong in the view's tool", len(find))
	}
}
