package tools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
)

// What a traveller is told, in structuredContent (all some hosts show the
// model) and in the text: airline names and airports, every connection,
// where the flights come from, and the options that stand out whether or
// not they were picked. Both eras.
func TestResultTellsTheTravellerEverything(t *testing.T) {
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			c := connect(t, newServer(t), "inprocess", era.Version)
			for name, args := range map[string]map[string]any{
				"one way":    {"origin": "BOS", "destination": "SIN", "date": "2026-12-15"},
				"round trip": roundTrip,
			} {
				res := callTool(t, c, FindBestFlightName, args)
				var r FindResult
				decode(t, res, &r)
				txt := text(res)
				if !r.Provider.Synthetic || r.Provider.Name == "" || !strings.Contains(r.Provider.Note, "not real") {
					t.Errorf("%s: provider %+v", name, r.Provider)
				}
				if !strings.Contains(r.Summary, "synthetic sample data") || !strings.Contains(txt, "synthetic sample data") {
					t.Errorf("%s: the summary does not say the flights are synthetic: %s", name, r.Summary)
				}
				if r.Cheapest == nil || r.Fastest == nil || r.Cheapest.ID == "" || r.Cheapest.TotalUSD <= 0 || r.Fastest.DurationMinutes <= 0 {
					t.Fatalf("%s: cheapest %+v, fastest %+v", name, r.Cheapest, r.Fastest)
				}
				for _, f := range r.Flights {
					if f.PriceUSD < r.Cheapest.PriceUSD {
						t.Errorf("%s: %s at $%d is cheaper than the cheapest, $%d", name, f.ID, f.PriceUSD, r.Cheapest.PriceUSD)
					}
					legs := []struct {
						segs     []SegmentOut
						layovers []LayoverOut
					}{{f.Segments, f.Layovers}}
					if f.Return != nil {
						legs = append(legs, struct {
							segs     []SegmentOut
							layovers []LayoverOut
						}{f.Return.Segments, f.Return.Layovers})
					}
					for _, leg := range legs {
						if len(leg.layovers) != len(leg.segs)-1 {
							t.Errorf("%s: %s has %d segments and %d layovers", name, f.ID, len(leg.segs), len(leg.layovers))
						}
						for i, s := range leg.segs {
							if s.AirlineName == "" || s.AirlineName == s.Airline || r.Airports[s.From] == "" || r.Airports[s.To] == "" {
								t.Errorf("%s: segment %+v unnamed (airports %v)", name, s, r.Airports)
							}
							if !strings.Contains(txt, s.FlightNumber+" "+s.AirlineName+" "+s.From+"→"+s.To) {
								t.Errorf("%s: the text lacks %s %s", name, s.FlightNumber, s.AirlineName)
							}
							if i > 0 {
								l := leg.layovers[i-1]
								if l.Airport != leg.segs[i-1].To || l.Minutes <= 0 || l.ChangeOfAirport != (leg.segs[i-1].To != s.From) {
									t.Errorf("%s: layover %+v between %+v and %+v", name, l, leg.segs[i-1], s)
								}
							}
						}
					}
				}
				if !strings.Contains(txt, "Cheapest of all: "+r.Cheapest.ID) || !strings.Contains(txt, "Fastest of all: "+r.Fastest.ID) {
					t.Errorf("%s: the text does not name the cheapest and fastest:\n%s", name, txt)
				}
			}
		})
	}
}

// When the route has a nonstop and the picks have none, the result names
// it and the summary says so; when the fastest is not picked, likewise.
// The nonstops are made dear (dearNonstops), so no catalogue change can put
// one among the picks.
func TestResultNamesTheNonstopItDidNotPick(t *testing.T) {
	s := newServer(t, func(cfg *Config) {
		cfg.Provider = dearNonstops{flights.NewSynthetic(cfg.Catalog, cfg.Now, 0)}
	})
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20260728)
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15"}), &r)
	for _, f := range r.Flights {
		if f.Stops == 0 {
			t.Fatalf("%s, a nonstop at six times its fare, is among the picks", f.ID)
		}
	}
	if r.Nonstop == nil {
		t.Fatal("JFK-LHR names no nonstop")
	}
	if r.Nonstop.Stops != 0 || r.Nonstop.Position != 0 || !strings.Contains(r.Summary, "The route has nonstops, and none is listed") {
		t.Errorf("nonstop %+v; summary %s", r.Nonstop, r.Summary)
	}
	if r.Fastest.Position != 0 || !strings.Contains(r.Summary, "Not listed: the fastest, "+r.Fastest.ID) {
		t.Errorf("the fastest (a nonstop) is not listed and the summary does not say so: fastest %+v, summary %s", r.Fastest, r.Summary)
	}
}

// A pick's reason calls it the cheapest or the fastest "of all" only when
// the result's own cheapest and fastest say so too: with flexible dates
// far more flights are found than are ranked, and the cheapest of them all
// may not be among those ranked.
func TestPicksCheapestOrFastestOfAllAreTrue(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	for _, route := range [][2]string{{"JFK", "LAX"}, {"SFO", "SIN"}, {"LHR", "JFK"}} {
		var r FindResult
		decode(t, callTool(t, c, FindBestFlightName, map[string]any{"origin": route[0], "destination": route[1], "date": "2026-12-15", "flexDays": 3, "strategy": "deterministic"}), &r)
		if r.Cheapest == nil || r.Fastest == nil || len(r.Flights) == 0 {
			t.Fatalf("%s-%s: no cheapest, fastest or picks: %+v", route[0], route[1], r)
		}
		for i, f := range r.Flights {
			if strings.Contains(f.Reason, "cheapest") && f.PriceUSD != r.Cheapest.PriceUSD {
				t.Errorf("%s-%s: pick %d says %q at $%d; the cheapest of all is %s at $%d", route[0], route[1], i+1, f.Reason, f.PriceUSD, r.Cheapest.ID, r.Cheapest.PriceUSD)
			}
			if strings.Contains(f.Reason, "fastest") && f.DurationMinutes != r.Fastest.DurationMinutes {
				t.Errorf("%s-%s: pick %d says %q at %d min; the fastest of all is %s at %d min", route[0], route[1], i+1, f.Reason, f.DurationMinutes, r.Fastest.ID, r.Fastest.DurationMinutes)
			}
		}
	}
}

// dearNonstops is the embedded provider with every nonstop at six times
// its fare.
type dearNonstops struct{ *flights.Synthetic }

func (d dearNonstops) Search(ctx context.Context, trip flights.Trip) ([]flights.Flight, error) {
	fs, err := d.Synthetic.Search(ctx, trip)
	for i := range fs {
		if fs[i].Stops() == 0 {
			fs[i].PriceUSD, fs[i].TotalUSD = 6*fs[i].PriceUSD, 6*fs[i].TotalUSD
		}
	}
	return fs, err
}

// A flexible round trip keeps the stay's length unless asked otherwise,
// its picks share no flight, and one that changes airport says so.
func TestFlexibleRoundTripKeepsTheStay(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	stays := func(r FindResult) map[int]bool {
		out := map[int]bool{}
		for _, f := range r.Flights {
			out[days(t, f.Depart, f.Return.Depart)] = true
		}
		return out
	}
	var together, apart FindResult
	decode(t, callTool(t, c, FindBestFlightName, with(roundTrip, "flexDays", 3)), &together)
	if s := stays(together); len(s) != 1 || !s[7] {
		t.Errorf("stays of %v nights; want 7 only", s)
	}
	seen := map[string]bool{}
	for _, f := range together.Flights {
		if seen[f.FlightID] || seen[f.Return.FlightID] {
			t.Errorf("picks share a flight: %s", f.ID)
		}
		seen[f.FlightID], seen[f.Return.FlightID] = true, true
		from, home := f.Segments[0].From, f.Return.Segments[len(f.Return.Segments)-1].To
		landed, leaves := f.Segments[len(f.Segments)-1].To, f.Return.Segments[0].From
		if want := (from != home) || (landed != leaves); want != (len(f.AirportChanges) > 0) || (want && !strings.Contains(together.Summary, "changes airport")) {
			t.Errorf("%s: %s→%s, back %s→%s, changes %v", f.ID, from, landed, leaves, home, f.AirportChanges)
		}
	}
	decode(t, callTool(t, c, FindBestFlightName, with(with(roundTrip, "flexDays", 3), "flexIndependently", true)), &apart)
	if apart.Candidates == 0 || len(apart.Calendar) != 7 {
		t.Errorf("independent: %d candidates, calendar %v", apart.Candidates, apart.Calendar)
	}
}

func parseDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func days(t *testing.T, from, to string) int {
	t.Helper()
	if len(from) < 10 || len(to) < 10 {
		t.Fatalf("dates %q %q", from, to)
	}
	a, b := parseDay(t, from[:10]), parseDay(t, to[:10])
	return int(b.Sub(a).Hours() / 24)
}

// A filter that empties the result is named, with what dropping it gives.
func TestEmptyResultNamesTheFilter(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	for _, tc := range []struct {
		name   string
		args   map[string]any
		filter string
		gives  string
	}{
		{"price", with(jfkLHR, "maxPrice", 50), "maxPrice", "the cheapest is $"},
		{"round trip price", with(roundTrip, "maxPrice", 80), "maxPrice", "the cheapest is $"},
		{"airline", with(jfkLHR, "airlines", "QF"), "airlines", "flown by "},
	} {
		res := callTool(t, c, FindBestFlightName, tc.args)
		var r FindResult
		decode(t, res, &r)
		if r.Candidates != 0 || len(r.Relaxed) == 0 {
			t.Fatalf("%s: %d candidates, relaxed %+v", tc.name, r.Candidates, r.Relaxed)
		}
		x := r.Relaxed[0]
		if x.Filter != tc.filter || x.Options == 0 || !strings.Contains(x.Gives, tc.gives) || !strings.Contains(r.Summary, "without "+tc.filter) {
			t.Errorf("%s: relaxed %+v; summary %s", tc.name, r.Relaxed, r.Summary)
		}
	}
}

// Overnight windows work, and departures in them count for the evening of
// the date asked for.
func TestOvernightWindow(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	var r FindResult
	res := callTool(t, c, FindBestFlightName, with(with(jfkLHR, "departAfter", "20:00"), "departBefore", "01:00"))
	decode(t, res, &r)
	if len(r.Flights) == 0 {
		t.Fatalf("no flights in a window across midnight: %s", text(res))
	}
	for _, f := range r.Flights {
		d, hm := f.Depart[:10], f.Depart[11:16]
		if !((d == "2026-12-15" && hm >= "20:00") || (d == "2026-12-16" && hm <= "01:00")) {
			t.Errorf("%s departs %s", f.ID, f.Depart)
		}
	}
}

// Errors a traveller can act on: a date the calendar lacks says why; an
// airline by its short name is found, one of several names them; a city
// with no airport here gets the nearest and a pointer to findAirports.
func TestErrorsSayWhy(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	for _, tc := range []struct {
		args map[string]any
		says []string
	}{
		{with(jfkLHR, "date", "2027-02-30"), []string{"February 2027 has 28 days"}},
		{with(jfkLHR, "airlines", "Virgin"), []string{"more than one airline", "VA (Virgin Australia)", "VS (Virgin Atlantic)"}},
		{with(jfkLHR, "destination", "Kraków"), []string{"has no airport", "nearest WAW", "km", "findAirports"}},
		{with(jfkLHR, "destination", "Portland"), []string{"Portland, Oregon, US: nearest SEA", "Portland, Maine, US: nearest BOS"}},
		{with(jfkLHR, "destination", "EGLL"), []string{"ICAO code", "three-letter IATA code", "findAirports"}},
		{with(jfkLHR, "origin", "KJFK"), []string{"ICAO code", "JFK (John F. Kennedy International Airport, New York, US)"}},
	} {
		res := callTool(t, c, FindBestFlightName, tc.args)
		for _, s := range tc.says {
			if !res.IsError || !strings.Contains(text(res), s) {
				t.Errorf("%v: %q not in %s", tc.args, s, text(res))
			}
		}
	}
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, with(jfkLHR, "airlines", []any{"Delta", "KLM"})), &r)
	if strings.Join(r.Trip.Airlines, ",") != "DL,KL" {
		t.Errorf("airlines %v", r.Trip.Airlines)
	}
}

// findAirports suggests close matches, or the nearest airports to a real
// place with none, and its summary quotes the query alone.
func TestFindAirportsSuggests(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	for _, tc := range []struct {
		args     map[string]any
		first    string
		distance bool
		summary  string
	}{
		{map[string]any{"query": "heathrw"}, "LHR", false, `No airport matches "heathrw". Did you mean`},
		{map[string]any{"query": "Kraków"}, "WAW", true, "the nearest airports, by distance"},
		{map[string]any{"query": "Hà Nội"}, "", false, `1 airport(s) match "Hà Nội".`},
		{map[string]any{"query": "KJFK"}, "JFK", false, `No airport matches "KJFK". Did you mean`},
	} {
		res := callTool(t, c, FindAirportsName, tc.args)
		var r AirportsResult
		decodeWith(t, airportsOutputSchema, res, &r)
		if tc.first == "" {
			if len(r.Airports) != 1 || r.Airports[0].Code != "HAN" {
				t.Errorf("%v: %+v", tc.args, r.Airports)
			}
		} else if len(r.Airports) != 0 || len(r.Suggestions) == 0 || r.Suggestions[0].Code != tc.first || (r.Suggestions[0].DistanceKm > 0) != tc.distance {
			t.Errorf("%v: airports %+v, suggestions %+v", tc.args, r.Airports, r.Suggestions)
		}
		if !strings.Contains(r.Summary, tc.summary) || !strings.Contains(r.Summary, "synthetic") || strings.Contains(r.Summary, ` "`+"\"") {
			t.Errorf("%v: summary %q", tc.args, r.Summary)
		}
	}
}

// Premium cabins are sold on some routes only: a search that finds none in
// one says so and points to another cabin, where the route has flights;
// an economy search that finds nothing says only that.
func TestNoFlightsInACabinPointsToAnother(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	trip := map[string]any{"origin": "SIN", "destination": "PER", "date": "2027-01-20"}
	var first, business FindResult
	decode(t, callTool(t, c, FindBestFlightName, with(trip, "cabin", "first")), &first)
	decode(t, callTool(t, c, FindBestFlightName, with(trip, "cabin", "business")), &business)
	if first.Found != 0 || !strings.Contains(first.Summary, "No flights found in the first cabin from SIN to PER on 2027-01-20: not every route sells it; search again in another cabin.") {
		t.Errorf("first class SIN-PER: %d found; summary %q", first.Found, first.Summary)
	}
	if business.Found == 0 {
		t.Errorf("business SIN-PER found nothing: the advice to try another cabin would be wrong here")
	}
}
