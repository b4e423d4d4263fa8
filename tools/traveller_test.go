package tools

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/ranking"
)

// What a traveller expects of a flight search, through the whole server in
// both eras and transports: places by name, round trips through every rung,
// flexible dates, the filters people use, and totals.

// roundTrip is a week in London, from New York (every airport of the metro).
var roundTrip = map[string]any{"origin": "NYC", "destination": "London", "date": "2026-12-15", "returnDate": "2026-12-22"}

func TestPlacesByNameAndMetroCode(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			t.Run(via+"/"+era.Name, func(t *testing.T) {
				c := connect(t, newServer(t), via, era.Version)
				var r FindResult
				decode(t, callTool(t, c, FindBestFlightName, map[string]any{"origin": "new york city", "destination": "LON", "date": "2026-12-15"}), &r)
				if len(r.Trip.OriginAirports) < 2 || !slices.Contains(r.Trip.OriginAirports, "EWR") || len(r.Trip.DestinationAirports) < 3 {
					t.Errorf("searched %v to %v", r.Trip.OriginAirports, r.Trip.DestinationAirports)
				}
				from := map[string]bool{}
				for _, f := range r.Flights {
					from[f.Segments[0].From] = true
				}
				// Asked for many: the candidates, not just the picks, come
				// from more than one origin airport.
				if r.Candidates < 10 || len(r.Flights) != 3 {
					t.Errorf("%d candidates, %d picks", r.Candidates, len(r.Flights))
				}
				res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "NYC", "destination": "Springfield of Nowhere", "date": "2026-12-15"})
				if !res.IsError || !strings.Contains(text(res), "destination") {
					t.Errorf("an unknown place: %s", text(res))
				}
			})
		}
	}
}

func TestFindAirports(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	for _, tc := range []struct {
		args map[string]any
		want []string // codes that must be listed
	}{
		{map[string]any{"query": "new york"}, []string{"EWR", "JFK", "LGA"}},
		{map[string]any{"query": "NYC"}, []string{"EWR", "JFK", "LGA"}},
		{map[string]any{"query": "heathrow"}, []string{"LHR"}},
		{map[string]any{"query": "london", "country": "GB"}, []string{"LHR", "LGW"}},
	} {
		res := callTool(t, c, FindAirportsName, tc.args)
		var r AirportsResult
		decodeWith(t, airportsOutputSchema, res, &r)
		var codes []string
		for _, a := range r.Airports {
			codes = append(codes, a.Code)
			if a.Name == "" || a.City == "" || a.Country == "" || a.TimeZone == "" {
				t.Errorf("%v: incomplete %+v", tc.args, a)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(codes, w) {
				t.Errorf("%v: %v lacks %s", tc.args, codes, w)
			}
		}
	}
	for _, bad := range []map[string]any{{}, {"query": "x", "country": "Atlantis"}, {"query": 42}} {
		if res := callTool(t, c, FindAirportsName, bad); !res.IsError {
			t.Errorf("%v: %s", bad, text(res))
		}
	}
}

// A round trip returns pairs, each with its return flight on the return
// date and a fare for the pair, through every rung.
func TestRoundTripThroughEveryRung(t *testing.T) {
	var logs serverbin.Log
	_, withLLM := withEndpoint(t, fakemodel.Answers, &logs)
	check := func(t *testing.T, r FindResult, method string) {
		t.Helper()
		if r.Method != method || r.Trip.ReturnDate != "2026-12-22" || len(r.Flights) == 0 {
			t.Fatalf("method %s, trip %+v, %d picks, attempts %+v", r.Method, r.Trip, len(r.Flights), r.Attempts)
		}
		for _, f := range r.Flights {
			if f.Return == nil || !strings.HasPrefix(f.Return.Depart, "2026-12-22") || !strings.HasPrefix(f.Depart, "2026-12-15") ||
				f.ID != f.FlightID+"_"+f.Return.FlightID || f.Return.PriceUSD <= 0 || f.PriceUSD <= 0 || f.TotalUSD != f.PriceUSD*r.Trip.Passengers {
				t.Errorf("pick %s: out %s, return %+v", f.ID, f.Depart, f.Return)
			}
			if f.Segments[0].From == "" || f.Return.Segments[len(f.Return.Segments)-1].To == "" {
				t.Errorf("pick %s without segments", f.ID)
			}
		}
	}
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			plain := connect(t, newServer(t), "inprocess", era.Version)
			var r FindResult
			decode(t, callTool(t, plain, FindBestFlightName, roundTrip), &r)
			check(t, r, "deterministic")
			decode(t, callTool(t, plain, FindBestFlightName, with(roundTrip, "strategy", "candidates")), &r)
			check(t, r, "candidates")

			sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
			sampling := connect(t, newServer(t), "inprocess", era.Version, client.WithSamplingHandler(sampler))
			decode(t, callTool(t, sampling, FindBestFlightName, roundTrip), &r)
			check(t, r, "client_sampling")
			// One prompt for the pairs, compact.
			p := sampler.Requests()[0]
			if b, _ := json.Marshal(p); len(b) > 12000 {
				t.Errorf("sampling request of %d bytes", len(b))
			}

			llm := connect(t, newServer(t, withLLM), "inprocess", era.Version)
			decode(t, callTool(t, llm, FindBestFlightName, roundTrip), &r)
			check(t, r, "server_llm")
		})
	}
}

// The round-trip prompt for 47 options each way stays under 8 KB.
func TestRoundTripPromptIsSmall(t *testing.T) {
	ts := newToolsetForTest(t)
	args := FindArgs{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-22"}
	trip, ps := ts.validator.Validate(args.request())
	if ps != nil {
		t.Fatal(ps)
	}
	found, err := ts.search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	p := found.options.Prompt()
	if found.options.Len() != ranking.MaxOptions || p.Size() > 8<<10 {
		t.Errorf("%d pairs in %d bytes; want %d pairs in at most 8 KB", found.options.Len(), p.Size(), ranking.MaxOptions)
	}
	t.Logf("round-trip prompt: %d pairs, %d bytes, ~%d tokens", found.options.Len(), p.Size(), p.EstimatedTokens())
}

func TestFlexibleDatesCalendar(t *testing.T) {
	for _, era := range eras {
		c := connect(t, newServer(t), "http", era.Version)
		for name, args := range map[string]map[string]any{
			"one way":    {"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "flexDays": 2},
			"round trip": with(roundTrip, "flexDays", 2),
		} {
			var r FindResult
			res := callTool(t, c, FindBestFlightName, args)
			decode(t, res, &r)
			if len(r.Calendar) != 5 || r.Calendar[0].Date != "2026-12-13" || r.Calendar[4].Date != "2026-12-17" {
				t.Errorf("%s/%s: calendar %+v", era.Name, name, r.Calendar)
			}
			for _, d := range r.Calendar {
				if d.BestID == "" || d.LowestUSD <= 0 || !strings.Contains(d.BestID, d.Date[2:4]+d.Date[5:7]+d.Date[8:10]) {
					t.Errorf("%s/%s: day %+v", era.Name, name, d)
				}
			}
			if !strings.Contains(text(res), "Lowest fare per day: 12-13 $") || !strings.Contains(text(res), "[12-15 $") {
				t.Errorf("%s/%s: the text lacks the calendar:\n%s", era.Name, name, text(res))
			}
		}
	}
}

func TestArrivalWindowAirlinesAndTotals(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	var r FindResult
	res := callTool(t, c, FindBestFlightName, with(with(jfkLHR, "arriveBefore", "14:00"), "passengers", 3))
	decode(t, res, &r)
	for _, f := range r.Flights {
		if f.Arrive[11:16] > "14:00" || f.TotalUSD != 3*f.PriceUSD {
			t.Errorf("%s arrives %s, $%d each, $%d in all", f.ID, f.Arrive, f.PriceUSD, f.TotalUSD)
		}
		if !strings.Contains(text(res), "($"+strconv.Itoa(f.TotalUSD)+")") {
			t.Errorf("the text does not show the total $%d:\n%s", f.TotalUSD, text(res))
		}
	}
	decode(t, callTool(t, c, FindBestFlightName, with(jfkLHR, "airlines", []any{"BA"})), &r)
	for _, f := range r.Flights {
		if slices.ContainsFunc(f.Airlines, func(a string) bool { return a != "BA" }) {
			t.Errorf("%s flies %v, want BA only", f.ID, f.Airlines)
		}
	}
	decode(t, callTool(t, c, FindBestFlightName, with(jfkLHR, "excludeAirlines", "BA")), &r)
	for _, f := range r.Flights {
		if slices.Contains(f.Airlines, "BA") {
			t.Errorf("%s flies BA", f.ID)
		}
	}
	if res := callTool(t, c, FindBestFlightName, with(jfkLHR, "airlines", []any{"ZZ"})); !res.IsError || !strings.Contains(text(res), "airlines") {
		t.Errorf("an unknown airline: %s", text(res))
	}
}

// bookFlight and saveItinerary take a round trip's id (or its booking
// reference), and the calendar file holds both flights.
func TestBookAndSaveARoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = dir }), "inprocess", mcp.ProtocolVersion20251125)
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, roundTrip), &r)
	id := r.Flights[0].ID
	var b BookResult
	decodeWith(t, bookOutputSchema, callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Ada Lovelace"}), &b)
	if b.FlightID != id || b.PriceUSD != r.Flights[0].PriceUSD || !strings.Contains(b.Summary, "back ") {
		t.Errorf("booking %+v", b)
	}
	s, res := save(t, c, map[string]any{"bookingRef": b.Reference})
	if res.IsError {
		t.Fatal(text(res))
	}
	ics, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	events := strings.Count(string(ics), "BEGIN:VEVENT")
	want := len(r.Flights[0].Segments) + len(r.Flights[0].Return.Segments)
	if events != want {
		t.Errorf("%d events, want one per segment of both flights (%d)", events, want)
	}
	// An id whose legs do not fit together is refused.
	bad := r.Flights[0].Return.FlightID + "_" + r.Flights[0].FlightID
	if res := callTool(t, c, BookFlightName, map[string]any{"flightId": bad, "confirm": true, "passengerName": "Ada Lovelace"}); !res.IsError {
		t.Errorf("a round trip that returns before it leaves: %s", text(res))
	}
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}

// countingProvider counts the searches that reach the provider.
type countingProvider struct {
	flights.Provider
	mu    sync.Mutex
	calls int
}

func (p *countingProvider) Search(ctx context.Context, trip flights.Trip) ([]flights.Flight, error) {
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
	return p.Provider.Search(ctx, trip)
}

func (p *countingProvider) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// A trip asked again within a minute is not searched again (the rounds of
// one modern call, a popular route); after a minute, or for another trip,
// it is.
func TestRecentSearchesAreReused(t *testing.T) {
	catalog := mustCatalog(t)
	clock := today()
	var mu sync.Mutex
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	p := &countingProvider{Provider: flights.NewSynthetic(catalog, today, 0)}
	c := connect(t, newServer(t, func(c *Config) { c.Provider = p; c.Now = now }), "inprocess", mcp.ProtocolVersion20260728,
		client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: fakemodel.Answers}))
	var first, again FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &first) // two rounds: the question, then the answer
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &again)
	if p.count() != 1 || first.Flights[0].ID != again.Flights[0].ID {
		t.Errorf("%d searches for one trip asked twice (in four rounds)", p.count())
	}
	callTool(t, c, FindBestFlightName, with(jfkLHR, "maxStops", 0))
	if p.count() != 2 {
		t.Errorf("another trip: %d searches, want 2", p.count())
	}
	mu.Lock()
	clock = clock.Add(2 * time.Minute)
	mu.Unlock()
	callTool(t, c, FindBestFlightName, jfkLHR)
	if p.count() != 3 {
		t.Errorf("after a minute: %d searches, want 3", p.count())
	}
}

// Calls at once share the cached searches and must not change them: every
// caller gets the same answer (run under -race in CI, which fails on a
// cached search written by one call while another reads it).
func TestConcurrentCallsShareSearches(t *testing.T) {
	s := newServer(t)
	trips := []map[string]any{jfkLHR, roundTrip, with(jfkLHR, "maxStops", 0)}
	want := make([]string, len(trips))
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125)
	for i, args := range trips {
		var r FindResult
		decode(t, callTool(t, c, FindBestFlightName, args), &r)
		want[i] = r.Flights[0].ID
	}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125)
			for i := range 10 {
				k := (w + i) % len(trips)
				var r FindResult
				decode(t, callTool(t, c, FindBestFlightName, trips[k]), &r)
				if r.Flights[0].ID != want[k] {
					t.Errorf("trip %d: %s, want %s", k, r.Flights[0].ID, want[k])
				}
			}
		}()
	}
	wg.Wait()
}
