package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/golden"
	"github.com/flightserver/flightserver/ranking"
)

// The listed definition of every tool, pinned, so a schema change is a
// reviewed diff. Regenerate with: go test ./tools -run Golden -update
//
// There are two listings: what a client that cannot show forms sees (trip
// details required), and what one that can sees (optional, so the server
// can ask).
func TestToolDefinitionsGolden(t *testing.T) {
	forms := &fakeclient.Form{Behaviour: fakeclient.Declines}
	for file, opts := range map[string][]client.ClientOption{
		"tools.golden.json":           nil,
		"tools.eliciting.golden.json": {client.WithElicitationHandler(forms)},
	} {
		c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, opts...)
		res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.MarshalIndent(res.Tools, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, file, append(got, '\n'))
	}
}

// The listing is decided per request, from what the client declared: only a
// client that can show forms sees the trip details optional. In 2026-07-28
// that is every request's own declaration, and the list result's cache hints
// say not to reuse it.
func TestListingFollowsTheClientsCapabilities(t *testing.T) {
	required := func(tools []mcp.Tool) []string {
		for _, tool := range tools {
			if tool.Name == FindBestFlightName {
				// As a client reads it: from the tool's JSON.
				b, err := json.Marshal(tool)
				if err != nil {
					t.Fatal(err)
				}
				var def struct {
					InputSchema struct{ Required []string } `json:"inputSchema"`
				}
				if err := json.Unmarshal(b, &def); err != nil {
					t.Fatal(err)
				}
				return def.InputSchema.Required
			}
		}
		t.Fatal("findBestFlight not listed")
		return nil
	}
	urlOnly := client.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}})
	for _, via := range transports {
		for _, era := range eras {
			for name, tc := range map[string]struct {
				opts []client.ClientOption
				want []string
			}{
				"no elicitation": {nil, tripFields},
				"url mode only":  {[]client.ClientOption{urlOnly}, tripFields},
				"form":           {[]client.ClientOption{client.WithElicitationHandler(&fakeclient.Form{})}, nil},
			} {
				t.Run(via+"/"+era.Name+"/"+name, func(t *testing.T) {
					c := connect(t, newServer(t), via, era.Version, tc.opts...)
					res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
					if err != nil {
						t.Fatal(err)
					}
					if got := required(res.Tools); !slices.Equal(got, tc.want) {
						t.Errorf("required %v, want %v", got, tc.want)
					}
				})
			}
		}
	}

	// By hand, one modern request at a time: the same server, two
	// declarations, two listings, each marked not to be reused.
	s := newServer(t)
	for caps, want := range map[string][]string{`{}`: tripFields, `{"elicitation":{}}`: nil} {
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
		b, err := json.Marshal(s.HandleMessage(context.Background(), []byte(msg)))
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Result struct {
				Tools      []mcp.Tool `json:"tools"`
				TTLMs      *int64     `json:"ttlMs"`
				CacheScope string     `json:"cacheScope"`
			}
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if got := required(out.Result.Tools); !slices.Equal(got, want) {
			t.Errorf("capabilities %s: required %v, want %v", caps, got, want)
		}
		if out.Result.TTLMs == nil || *out.Result.TTLMs != 0 || out.Result.CacheScope != "private" {
			t.Errorf("capabilities %s: cache hints %s", caps, b[:min(len(b), 300)])
		}
	}
}

var idPattern = regexp.MustCompile(`^[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-HJKMNP-TV-Z]{5}$`)

func TestFindBestFlightEndToEnd(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			t.Run(via+"/"+era.Name, func(t *testing.T) {
				c := connect(t, newServer(t), via, era.Version)

				list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				// Annotations set on purpose (mcp.NewTool pre-fills the
				// opposite): read-only, destructive, idempotent, open world.
				want := map[string][4]bool{
					FindBestFlightName: {true, false, true, false},
					SaveItineraryName:  {false, false, false, false}, // writes, never destroys unless asked
					BookFlightName:     {false, false, false, false}, // a cancellable hold
					FindAirportsName:   {true, false, true, false},   // a lookup in the server's own data
				}
				if len(list.Tools) != len(want) {
					t.Fatalf("%d tools, want %d", len(list.Tools), len(want))
				}
				for _, tool := range list.Tools {
					a, w := tool.Annotations, want[tool.Name]
					if got := [4]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint}; got != w {
						t.Errorf("%s annotations %v, want %v", tool.Name, got, w)
					}
				}

				res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "jfk", "destination": "LHR", "date": "2026-12-15", "passengers": 2})
				if res.IsError {
					t.Fatalf("isError: %s", text(res))
				}
				var r FindResult
				decode(t, res, &r)
				if r.Method != "deterministic" || !r.Ranked || len(r.Flights) != 3 || r.Found < 40 || r.Candidates != r.Found {
					t.Fatalf("method %s ranked %v flights %d found %d candidates %d", r.Method, r.Ranked, len(r.Flights), r.Found, r.Candidates)
				}
				if r.Trip.Origin != "JFK" || r.Trip.Passengers != 2 || r.Trip.Cabin != "economy" || r.Trip.MaxStops != 2 {
					t.Errorf("trip = %+v", r.Trip)
				}
				for i, f := range r.Flights {
					if !idPattern.MatchString(f.ID) || f.Position != i+1 || f.Reason == "" || f.TotalUSD != 2*f.PriceUSD || len(f.Segments) != f.Stops+1 {
						t.Errorf("flight %d = %+v", i, f)
					}
				}
				// This client declared nothing and no server LLM is configured:
				// the ladder says why it skipped each, then ranks
				// deterministically; last, why there is no view.
				if len(r.Attempts) != 4 || r.Attempts[3].Step != stepView || r.Attempts[3].Outcome != "skipped" || r.Attempts[3].Why != "client_cannot_ask" || r.Attempts[0].Step != "client_sampling" || r.Attempts[0].Outcome != "skipped" ||
					r.Attempts[0].Reason != "client did not declare sampling" ||
					r.Attempts[1].Step != "server_llm" || r.Attempts[1].Outcome != "skipped" || r.Attempts[1].Reason != "no server-side LLM configured" ||
					r.Attempts[2].Step != "deterministic" || r.Attempts[2].Outcome != "used" || r.Attempts[2].Reason == "" {
					t.Errorf("attempts = %+v", r.Attempts)
				}
				// The text for people carries the table and the same summary.
				txt := text(res)
				for _, want := range []string{"JFK → LHR", r.Flights[0].ID, r.Summary, "ranked by method deterministic"} {
					if !strings.Contains(txt, want) {
						t.Errorf("text lacks %q:\n%s", want, txt)
					}
				}
			})
		}
	}
}

func TestFindBestFlightInvalidArguments(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			t.Run(via+"/"+era.Name, func(t *testing.T) {
				c := connect(t, newServer(t), via, era.Version)
				res := callTool(t, c, FindBestFlightName, map[string]any{
					"origin": "JKF", "destination": 42, "date": "2020-01-01", "passengers": 2.5, "strategy": "magic", "from": "NYC",
				})
				if !res.IsError {
					t.Fatalf("want isError, got %s", text(res))
				}
				txt := text(res)
				for _, want := range []string{
					"6 problem(s)",
					`- "from": is not an argument of this tool`,
					`- destination: 42 is not a string`,
					`- passengers: 2.5 is not a whole number`,
					`- origin: "JKF" is not a known airport or metro code (accepted: an IATA airport code (e.g. JFK), a metro code (e.g. NYC) or a city name (e.g. New York); closest known: JFK (John F. Kennedy`,
					`- date: 2020-01-01 is in the past`,
					`- strategy: "magic" is not a strategy (accepted: one of auto, sampling, server_llm, deterministic, candidates)`,
					"Fix these and call again.",
				} {
					if !strings.Contains(txt, want) {
						t.Errorf("error text lacks %q:\n%s", want, txt)
					}
				}
				// A mistyped field is reported once, not also as "missing".
				if strings.Contains(txt, "destination: is missing") {
					t.Errorf("destination reported twice:\n%s", txt)
				}
			})
		}
	}
}

func TestFindBestFlightStrategiesAndFilters(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	base := func() map[string]any {
		return map[string]any{"origin": "ORD", "destination": "CDG", "date": "2027-01-20"}
	}

	for _, tc := range []struct {
		name  string
		args  map[string]string
		check func(t *testing.T, r FindResult)
	}{
		{"candidates shortlist", map[string]string{"strategy": "candidates"}, func(t *testing.T, r FindResult) {
			if r.Method != "candidates" || r.Ranked || len(r.Flights) != DefaultShortlist || r.Attempts[0].Step != "candidates" {
				t.Errorf("method %s ranked %v flights %d attempts %+v", r.Method, r.Ranked, len(r.Flights), r.Attempts)
			}
			if !strings.Contains(r.Summary, "not ranked") {
				t.Errorf("summary %q does not say the list is unranked", r.Summary)
			}
		}},
		{"explicit deterministic", map[string]string{"strategy": "Deterministic"}, func(t *testing.T, r FindResult) {
			if r.Method != "deterministic" || !strings.HasPrefix(r.Attempts[0].Reason, "scored each option: score = fare + $75 per stop") {
				t.Errorf("method %s attempt %+v", r.Method, r.Attempts[0])
			}
		}},
		{"nonstop only", map[string]string{"maxStops": "0"}, func(t *testing.T, r FindResult) {
			for _, f := range r.Flights {
				if f.Stops != 0 {
					t.Errorf("%s has %d stops", f.ID, f.Stops)
				}
			}
			// The provider applies the filter before its page's cut: what
			// it found is all nonstop, and all of it a candidate.
			if r.Candidates != r.Found || r.Candidates == 0 {
				t.Errorf("candidates %d of %d", r.Candidates, r.Found)
			}
		}},
		{"window and price", map[string]string{"departAfter": "12:00", "departBefore": "20:00", "maxPrice": "700"}, func(t *testing.T, r FindResult) {
			for _, f := range r.Flights {
				if f.PriceUSD > 700 || f.Depart[11:16] < "12:00" || f.Depart[11:16] > "20:00" {
					t.Errorf("%s departs %s at $%d", f.ID, f.Depart, f.PriceUSD)
				}
			}
		}},
		{"nothing within limits", map[string]string{"maxPrice": "1"}, func(t *testing.T, r FindResult) {
			if len(r.Flights) != 0 || r.Candidates != 0 || !strings.Contains(r.Summary, "but no flights within the trip's limits") {
				t.Errorf("flights %d candidates %d summary %q", len(r.Flights), r.Candidates, r.Summary)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := base()
			for k, v := range tc.args {
				var n json.Number = json.Number(v)
				if _, err := n.Float64(); err == nil {
					args[k] = n
				} else {
					args[k] = v
				}
			}
			res := callTool(t, c, FindBestFlightName, args)
			if res.IsError {
				t.Fatalf("isError: %s", text(res))
			}
			var r FindResult
			decode(t, res, &r)
			tc.check(t, r)
		})
	}
}

// The same trip gives the same flights and ids from any server instance:
// what lets a later call (or another replica) resolve an id.
func TestFindBestFlightIsStableAcrossServers(t *testing.T) {
	args := map[string]any{"origin": "SYD", "destination": "AKL", "date": "2027-02-01"}
	var first []string
	for i := range 2 {
		res := callTool(t, connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName, args)
		var r FindResult
		decode(t, res, &r)
		var ids []string
		for _, f := range r.Flights {
			ids = append(ids, f.ID)
		}
		if i == 0 {
			first = ids
		} else if fmt.Sprint(ids) != fmt.Sprint(first) {
			t.Errorf("second server gave %v, first %v", ids, first)
		}
	}
}

// Everything a caller can send is handled: odd JSON shapes give a clear
// isError, never a crash or a protocol error.
func TestFindBestFlightHostileArguments(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	many := map[string]any{}
	for i := range 5000 {
		many[fmt.Sprintf("arg%d", i)] = i
	}
	for _, args := range []map[string]any{
		many,
		nil,
		{},
		{"origin": nil, "destination": nil, "date": nil},
		{"origin": []any{"JFK"}, "destination": map[string]any{"x": 1}, "date": true},
		{"origin": strings.Repeat("A", 100000), "destination": "LHR", "date": "2026-12-15"},
		{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "passengers": 1e300},
		{"origin": "JFK\x00", "destination": "LHR", "date": "2026-12-15"},
	} {
		res := callTool(t, c, FindBestFlightName, args)
		// Only missing trip details (this client cannot be asked for them)
		// or problems with the arguments.
		if !res.IsError || !strings.Contains(text(res), "problem(s) with the arguments") && !strings.Contains(text(res), "did not search: it needs") {
			t.Errorf("args with %d keys: isError %v, text %.200q", len(args), res.IsError, text(res))
		}
		if len(text(res)) > 4000 {
			t.Errorf("args with %d keys: %d bytes of error text; hostile input must not be echoed in full", len(args), len(text(res)))
		}
	}
}

func TestInvalidArgumentsListsEachProblem(t *testing.T) {
	ps := flights.Problems{{Field: "a", Problem: "is bad", Accepted: "good"}, {Field: "b", Problem: "is worse", Accepted: "better"}}
	handle := fallback.Serve(newToolsetForTest(t).engine, fallback.Spec[struct{}]{Name: "x",
		Handle: func(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			return invalidArguments(c, ps)
		}})
	res, err := handle(context.Background(), mcp.CallToolRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := "x did not run: 2 problem(s) with the arguments.\n- a: is bad (accepted: good)\n- b: is worse (accepted: better)\nFix these and call again."
	if !res.IsError || text(res) != want {
		t.Errorf("got %q", text(res))
	}
	checkErrorShape(t, res)
	if d := errorDetails(t, res); d.Error != fallback.ErrorInvalidArguments || len(d.Fields) != 2 || d.Fields[1] != fallback.Problem(ps[1]) {
		t.Errorf("details %+v", d)
	}
}

// The schema check in decode is not vacuous: a result missing a field, or
// with a field of the wrong type, fails it.
func TestOutputSchemaRejectsWrongShapes(t *testing.T) {
	schema, err := outputSchema()
	if err != nil {
		t.Fatal(err)
	}
	res := callTool(t, connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName,
		map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15"})
	for name, mutate := range map[string]func(m map[string]any){
		"unchanged (must pass)": func(map[string]any) {},
		"missing flights":       func(m map[string]any) { delete(m, "flights") },
		"ranked as string":      func(m map[string]any) { m["ranked"] = "yes" },
		"extra field":           func(m map[string]any) { m["surprise"] = 1 },
	} {
		var m map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &m)
		mutate(m)
		err := schema.Validate(m)
		if pass := strings.HasSuffix(name, "(must pass)"); pass != (err == nil) {
			t.Errorf("%s: Validate = %v", name, err)
		}
	}
}

// The operator's weights reach the ranker: with stops and time free, the
// best flight is simply the cheapest, and the attempt says which weights.
func TestFindBestFlightUsesConfiguredWeights(t *testing.T) {
	c := mustCatalog(t)
	s, err := NewServer(Config{Catalog: c, Now: today, Weights: &ranking.Weights{}, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	res := callTool(t, connect(t, s, "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName,
		map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "deterministic"})
	var r FindResult
	decode(t, res, &r)
	all, err := flights.NewSynthetic(c, today, 0).Search(context.Background(), flights.Trip{Origin: "JFK", Destination: "LHR", Date: time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), Passengers: 1, Cabin: flights.Economy, MaxStops: 2})
	if err != nil {
		t.Fatal(err)
	}
	cheapest := all[0].PriceUSD
	for _, f := range all {
		cheapest = min(cheapest, f.PriceUSD)
	}
	if r.Flights[0].PriceUSD != cheapest || !strings.Contains(r.Attempts[0].Reason, "fare + $0 per stop + $0 per hour") {
		t.Errorf("first pick $%d (cheapest $%d), attempt %q", r.Flights[0].PriceUSD, cheapest, r.Attempts[0].Reason)
	}
}
