package ranking

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/golden"
)

// searchAll validates req and searches every day it asks for, both ways,
// as the tool layer does for flexible dates and round trips.
func searchAll(t testing.TB, req flights.Request) (trip flights.Trip, outs, rets []flights.Flight) {
	t.Helper()
	c, err := flights.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	trip, err = flights.Validator{Catalog: c, Now: now}.Validate(req)
	if err != nil {
		t.Fatal(err)
	}
	p := flights.NewSynthetic(c, now, 0)
	for _, d := range trip.SearchDates() {
		fs, err := p.Search(context.Background(), trip.On(d))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, fs...)
	}
	for _, d := range trip.ReturnDates() {
		fs, err := p.Search(context.Background(), trip.Return(d))
		if err != nil {
			t.Fatal(err)
		}
		rets = append(rets, fs...)
	}
	return trip, outs, rets
}

// everyPair is every pair of trip's flights that can be flown within its
// limits, built the slow way: what the tests hold the pairing to.
func everyPair(trip flights.Trip, outs, rets []flights.Flight) []flights.RoundTrip {
	var all []flights.RoundTrip
	for _, o := range Filter(trip, outs) {
		for _, r := range Filter(trip.Return(trip.ReturnDate), rets) {
			if !trip.Pairs(trip.DepartDay(o.Depart()), civil(r.Depart())) {
				continue
			}
			if rt, err := flights.NewRoundTrip(o, r); err == nil && (trip.MaxPriceUSD == 0 || float64(rt.PriceUSD()) <= trip.MaxPriceUSD) {
				all = append(all, rt)
			}
		}
	}
	return all
}

// roundTripCandidates are the best limit pairs of PairRoundTrips, as
// pairs.
func roundTripCandidates(trip flights.Trip, outs, rets []flights.Flight, limit int) []flights.RoundTrip {
	var rs []flights.RoundTrip
	for _, o := range DefaultWeights.PairRoundTrips(trip, outs, rets, limit).Options {
		rs = append(rs, o.roundTrip())
	}
	return rs
}

// orderPairs sorts round trips best first, in place, as Order sorts them
// as options.
func orderPairs(rs []flights.RoundTrip) {
	os := Paired(rs)
	DefaultWeights.Order(os)
	for i, o := range os {
		rs[i] = o.roundTrip()
	}
}

// PairRoundTrips gives exactly what pairing everything, sorting and
// taking the best pairs that share no flight with MaxPairsPerFlight pairs
// already taken would, without keeping every pair; every pair can be
// flown, keeps the trip's limits and is priced for the party.
func TestRoundTripCandidatesAreTheBestPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  flights.Request
	}{
		{"flexible round trip", flights.Request{Origin: "NYC", Destination: "LON", Date: "2026-12-15", ReturnDate: "2026-12-17", FlexDays: ptr(2), Passengers: ptr(2)}},
		{"flexible round trip, dates apart", flights.Request{Origin: "NYC", Destination: "LON", Date: "2026-12-15", ReturnDate: "2026-12-17", FlexDays: ptr(2), FlexIndependent: true}},
		{"overnight departures", flights.Request{Origin: "NYC", Destination: "LON", Date: "2026-12-15", ReturnDate: "2026-12-20", FlexDays: ptr(1), DepartAfter: "17:00", DepartBefore: "01:00"}},
		{"day trip", flights.Request{Origin: "BOS", Destination: "WAS", Date: "2026-12-15", ReturnDate: "2026-12-15"}},
		{"business with limits", flights.Request{Origin: "SFO", Destination: "NRT", Date: "2027-01-10", ReturnDate: "2027-01-20", Cabin: "business",
			MaxStops: ptr(1), MaxPriceUSD: ptr(9000.0), ArriveAfter: "09:00", ExcludeAirlines: []string{"UA"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trip, outs, rets := searchAll(t, tc.req)
			got := roundTripCandidates(trip, outs, rets, 10)

			all := everyPair(trip, outs, rets)
			orderPairs(all)
			if len(all) < 10 {
				t.Fatalf("only %d feasible pairs: the case is too thin", len(all))
			}
			perRet, perOut := map[string]int{}, map[string]int{}
			var want []flights.RoundTrip
			for _, rt := range all {
				if perOut[rt.Out.ID] < MaxPairsPerFlight && perRet[rt.Return.ID] < MaxPairsPerFlight && len(want) < 10 {
					perOut[rt.Out.ID]++
					perRet[rt.Return.ID]++
					want = append(want, rt)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("candidates differ from the best 10 of all %d pairs under the caps", len(all))
			}
			if !reflect.DeepEqual(got[0], all[0]) {
				t.Errorf("the first candidate is not the best pair")
			}
			for _, rt := range got {
				if rt.Stay() < flights.MinTurnaround || rt.TotalUSD() != trip.Passengers*rt.PriceUSD() {
					t.Errorf("%s: stay %v, total %d for %d passengers at %d", rt.ID(), rt.Stay(), rt.TotalUSD(), trip.Passengers, rt.PriceUSD())
				}
				if trip.MaxPriceUSD > 0 && float64(rt.PriceUSD()) > trip.MaxPriceUSD {
					t.Errorf("%s: $%d over the cap", rt.ID(), rt.PriceUSD())
				}
				if len(Filter(trip, []flights.Flight{rt.Out})) != 1 || len(Filter(trip.Return(trip.ReturnDate), []flights.Flight{rt.Return})) != 1 {
					t.Errorf("%s: a leg breaks the trip's limits", rt.ID())
				}
			}
		})
	}
	if got := DefaultWeights.PairRoundTrips(flights.Trip{MaxStops: 2}, nil, []flights.Flight{flight("a", "08:00", 7, 0, 500)}, 10).Options; got != nil {
		t.Errorf("no outbound flights gave %d pairs", len(got))
	}
}

func TestRankRoundTrips(t *testing.T) {
	trip, outs, rets := searchAll(t, flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-22", Passengers: ptr(3)})
	picks := DefaultWeights.Rank(DefaultWeights.PairRoundTrips(trip, outs, rets, 47).Options, 3, Standouts{}).Picks
	if len(picks) != 3 {
		t.Fatalf("%d picks", len(picks))
	}
	first := picks[0]
	for _, want := range []string{fmt.Sprintf("$%d ($%d for 3) round trip", first.PriceUSD(), first.TotalUSD()), "out $", "; back $", "best balance", "score "} {
		if !strings.Contains(first.Reason, want) {
			t.Errorf("reason %q lacks %q", first.Reason, want)
		}
	}
	if !strings.Contains(picks[1].Reason, "next best (score +") {
		t.Errorf("second reason %q", picks[1].Reason)
	}
	// Three ways to make the trip: no outbound or return flight twice.
	seen := map[string]bool{}
	for _, p := range picks {
		if seen[p.Flight.ID] || seen[p.Return.ID] {
			t.Errorf("picks share a flight: %s", p.ID())
		}
		seen[p.Flight.ID], seen[p.Return.ID] = true, true
	}
	if got := DefaultWeights.Rank(nil, 3, Standouts{}).Picks; len(got) != 0 {
		t.Errorf("no candidates gave %v", got)
	}
}

// The golden picks make every change to the scoring, the schedules or the
// reasons visible in review: the deterministic tier's answer for a few
// real trips. Regenerate with: go test ./ranking -run Golden -update
func TestDeterministicGolden(t *testing.T) {
	var b strings.Builder
	fmt.Fprintln(&b, DefaultWeights.Explain())
	for _, req := range []flights.Request{
		{Origin: "JFK", Destination: "LHR", Date: "2026-12-15"},
		{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", Cabin: "business", Passengers: ptr(2)},
		{Origin: "San Francisco", Destination: "JFK", Date: "2026-12-15", Cabin: "business"},
		{Origin: "NYC", Destination: "London", Date: "2026-12-15", ReturnDate: "2026-12-20", FlexDays: ptr(1), Passengers: ptr(2)},
	} {
		trip, outs, rets := searchAll(t, req)
		fmt.Fprintf(&b, "\n%s %v -> %s %v, %s, %d pax, %s\n%s\n", trip.Origin, trip.Origins(), trip.Destination, trip.Destinations(),
			strings.TrimSpace(req.Date+" "+req.ReturnDate), trip.Passengers, trip.Cabin, DefaultWeights.ExplainCabin(trip.Cabin))
		if trip.IsRoundTrip() {
			for _, p := range DefaultWeights.Rank(DefaultWeights.PairRoundTrips(trip, outs, rets, 10).Options, 3, Standouts{}).Picks {
				fmt.Fprintf(&b, "%s\n  %s\n", p.ID(), p.Reason)
			}
			continue
		}
		for _, p := range DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(trip, outs)), 3, Standouts{}).Picks {
			fmt.Fprintf(&b, "%s via %v\n  %s\n", p.Flight.ID, p.Flight.Via(), p.Reason)
		}
	}
	golden.Check(t, "deterministic.golden", []byte(b.String()))
}

func ptr[T any](v T) *T { return &v }

// civil is t's local date, as the trip's dates are held.
func civil(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// A flexible round trip's calendar has, for each outbound day, the lowest
// fare and the best pair for each return day: exactly what looking at every
// pair that can be flown gives, an empty cell where none can, and the day's
// own lowest the lowest of its cells.
func TestRoundTripDaysHaveTheLowestFarePerReturnDay(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  flights.Request
	}{
		{"dates apart", flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-17", FlexDays: ptr(2), FlexIndependent: true}},
		{"dates together", flights.Request{Origin: "NYC", Destination: "LON", Date: "2026-12-15", ReturnDate: "2026-12-20", FlexDays: ptr(1), MaxStops: ptr(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trip, outs, rets := searchAll(t, tc.req)
			days := DefaultWeights.PairRoundTrips(trip, outs, rets, MaxOptions).Days
			retDates := trip.ReturnDates()
			type cell struct{ out, ret string }
			lowest, best := map[cell]int{}, map[cell]flights.RoundTrip{}
			all := everyPair(trip, outs, rets)
			orderPairs(all) // best first: the first of a cell is its best
			for _, rt := range all {
				k := cell{trip.DepartDay(rt.Out.Depart()).Format(flights.DateLayout), civil(rt.Return.Depart()).Format(flights.DateLayout)}
				if _, ok := best[k]; !ok {
					best[k] = rt
				}
				if p := rt.PriceUSD(); lowest[k] == 0 || p < lowest[k] {
					lowest[k] = p
				}
			}
			filled, empty := 0, 0
			for _, d := range days {
				if len(d.Returns) != len(retDates) {
					t.Fatalf("%s: %d return days, want %d", d.Date.Format(flights.DateLayout), len(d.Returns), len(retDates))
				}
				dayLowest := 0
				for j, c := range d.Returns {
					k := cell{d.Date.Format(flights.DateLayout), c.Date.Format(flights.DateLayout)}
					if !c.Date.Equal(retDates[j]) {
						t.Errorf("%v: cell %d is %s, want %s", k, j, k.ret, retDates[j].Format(flights.DateLayout))
					}
					if c.LowestUSD != lowest[k] || (lowest[k] != 0 && c.BestID != best[k].ID()) {
						t.Errorf("%v: $%d best %s, want $%d best %s", k, c.LowestUSD, c.BestID, lowest[k], best[k].ID())
					}
					if lowest[k] == 0 {
						empty++
						if c.BestID != "" {
							t.Errorf("%v: no pair can be flown, yet best %s", k, c.BestID)
						}
						continue
					}
					filled++
					if dayLowest == 0 || c.LowestUSD < dayLowest {
						dayLowest = c.LowestUSD
					}
				}
				if d.LowestUSD != dayLowest {
					t.Errorf("%s: lowest $%d, its cells' lowest $%d", d.Date.Format(flights.DateLayout), d.LowestUSD, dayLowest)
				}
			}
			if filled == 0 || empty == 0 {
				t.Errorf("%d cells filled and %d empty: the case shows neither kind", filled, empty)
			}
		})
	}
	trip, outs, rets := searchAll(t, flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-20"})
	if days := DefaultWeights.PairRoundTrips(trip, outs, rets, MaxOptions).Days; len(days) != 1 || days[0].Returns != nil {
		t.Errorf("a trip on fixed dates has return cells: %+v", days)
	}
}
