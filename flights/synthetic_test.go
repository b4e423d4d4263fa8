package flights

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/golden"
)

func tripFor(t testing.TB, c *Catalog, origin, dest, date string) Trip {
	t.Helper()
	trip, err := Validator{Catalog: c, Now: now}.Validate(Request{Origin: origin, Destination: dest, Date: date})
	if err != nil {
		t.Fatalf("trip %s-%s %s: %v", origin, dest, date, err)
	}
	return trip
}

// checkFlights asserts what must hold of any search result.
func checkFlights(t *testing.T, c *Catalog, trip Trip, fs []Flight) {
	t.Helper()
	ids := map[string]bool{}
	for _, f := range fs {
		where := fmt.Sprintf("%s-%s %s %s", trip.Origin, trip.Destination, trip.Date.Format(DateLayout), f.ID)
		if ids[f.ID] {
			t.Errorf("%s: id repeated", where)
		}
		ids[f.ID] = true
		o, d, date, err := ParseID(f.ID)
		if err != nil || !slices.Contains(trip.Origins(), o) || !slices.Contains(trip.Destinations(), d) || !date.Equal(trip.Date) {
			t.Errorf("%s: ParseID = %s %s %v %v", where, o, d, date, err)
		}
		if n := len(f.Segments); n < 1 || n > MaxStopsLimit+1 {
			t.Fatalf("%s: %d segments", where, n)
		}
		if f.Segments[0].From != o || f.Segments[len(f.Segments)-1].To != d {
			t.Errorf("%s: goes %s to %s, not the pair its id names", where, f.Segments[0].From, f.Segments[len(f.Segments)-1].To)
		}
		checkCircuity(t, c, where, f, RemoteCircuity)
		if cc := reentered(c, f); cc != "" {
			t.Errorf("%s: leaves %s and comes back to it: %v", where, cc, f.Via())
		}
		if d := f.Depart(); d.Format(DateLayout) != trip.Date.Format(DateLayout) {
			t.Errorf("%s: departs on %s local", where, d.Format(DateLayout))
		}
		if f.PriceUSD <= 0 || f.TotalUSD != f.PriceUSD*trip.Passengers || f.Cabin != trip.Cabin {
			t.Errorf("%s: price %d total %d cabin %s", where, f.PriceUSD, f.TotalUSD, f.Cabin)
		}
		for i, s := range f.Segments {
			from, to := c.Airport(s.From), c.Airport(s.To)
			if s.Depart.Location() != from.Location() || s.Arrive.Location() != to.Location() {
				t.Errorf("%s: segment %d times not local (%v, %v)", where, i, s.Depart.Location(), s.Arrive.Location())
			}
			if got, want := s.Arrive.Sub(s.Depart), BlockTime(from, to); got != want || got <= 0 {
				t.Errorf("%s: segment %d %s-%s takes %v, want block time %v", where, i, s.From, s.To, got, want)
			}
			if km := DistanceKm(from, to); km < minLegKm || km > maxLegKm {
				t.Errorf("%s: segment %d is %.0f km", where, i, km)
			}
			if !strings.HasPrefix(s.FlightNumber, s.Airline) || c.Airline(s.Airline) == nil {
				t.Errorf("%s: flight number %s of airline %s", where, s.FlightNumber, s.Airline)
			}
			if al := c.Airline(s.Airline); al != nil && (s.Cabin == "" || !al.Sells(s.Cabin) || slices.Index(Cabins, s.Cabin) > slices.Index(Cabins, trip.Cabin)) {
				t.Errorf("%s: segment %d flies %q on %s, which sells %v, in a %s search", where, i, s.Cabin, s.Airline, al.Cabins, trip.Cabin)
			}
			if i > 0 {
				prev := f.Segments[i-1]
				if prev.To != s.From {
					t.Errorf("%s: segment %d leaves %s after landing at %s", where, i, s.From, prev.To)
				}
				if layover, mct := s.Depart.Sub(prev.Arrive), MinConnectTime(c.Airport(prev.From), from, to); layover < mct {
					t.Errorf("%s: %v connection at %s, minimum %v", where, layover, s.From, mct)
				}
			}
		}
	}
}

// reentered is the first country the flight comes back to after leaving
// it (NZ-US-CA-US: US), or "" if it never does: a domestic trip through
// another country, or a zigzag across a border, which no one sells.
func reentered(c *Catalog, f Flight) string {
	left := map[string]bool{}
	last := c.Airport(f.Segments[0].From).Country
	for _, s := range f.Segments {
		next := c.Airport(s.To).Country
		if next != last {
			left[last] = true
			if left[next] {
				return next
			}
			last = next
		}
	}
	return ""
}

// checkCircuity asserts that a flight does not double back: between any two
// of its airports, the legs flown add up to at most limit times the
// great-circle distance (the whole itinerary is the widest such span).
func checkCircuity(t *testing.T, c *Catalog, where string, f Flight, limit float64) {
	t.Helper()
	if got := maxSpan(c, f); got > limit+1e-9 {
		t.Errorf("%s: a part of it flies %.2f times the direct distance, more than %.1f: %v", where, got, limit, f.Via())
	}
}

// maxSpan is the most, between any two of the flight's airports, that the
// legs flown between them exceed the great-circle distance, as a ratio.
func maxSpan(c *Catalog, f Flight) float64 {
	points := []*Airport{c.Airport(f.Segments[0].From)}
	for _, s := range f.Segments {
		points = append(points, c.Airport(s.To))
	}
	worst := 1.0
	for i := range points {
		flown := 0.0
		for j := i + 1; j < len(points); j++ {
			flown += DistanceKm(points[j-1], points[j])
			worst = math.Max(worst, flown/DistanceKm(points[i], points[j]))
		}
	}
	return worst
}

// openAirport reports whether an airport has no limits of its own: flights
// to anywhere its airlines fly, by airlines of any kind.
func openAirport(a *Airport) bool {
	l := a.limits
	return l.maxKm == 0 && len(l.countries) == 0 && len(l.kinds) == 0
}

// No routing doubles back, over every pair of a sample of airports from
// every region, the routes spread over three dates: the property the whole
// schedule must have, not only the golden route. A pair has connections
// within MaxCircuity, or (a remote pair with none) only connections within
// RemoteCircuity; and nearly every pair of open airports has flights at
// all. Business class too (SFO-YVR-YYC-JFK, a 13h20 detour, must not sell).
func TestNoRoutingDoublesBack(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	codes := c.AirportCodes()
	var sample []string
	for i := 0; i < len(codes); i += 3 {
		sample = append(sample, codes[i])
	}
	sample = append(sample, "SFO", "JFK", "YVR", "YYC")
	if len(sample) < 40 {
		t.Fatalf("a sample of %d airports, want 40 or more", len(sample))
	}
	dates := []string{"2026-12-15", "2027-03-28", "2027-06-30"} // 28 March: Europe's clocks go forward
	routes, flightsSeen, withStops, remote := 0, 0, 0, 0
	open, openEmpty := 0, 0
	for _, o := range sample {
		for _, d := range sample {
			if o == d || DistanceKm(c.Airport(o), c.Airport(d)) < minLegKm {
				continue
			}
			trip := tripFor(t, c, o, d, dates[routes%len(dates)])
			trip.Cabin = Business
			fs, err := p.Search(context.Background(), trip)
			if err != nil {
				t.Fatalf("%s-%s: %v", o, d, err)
			}
			if openAirport(c.Airport(o)) && openAirport(c.Airport(d)) {
				open++
				if len(fs) == 0 {
					openEmpty++
				}
			}
			far := slices.ContainsFunc(fs, func(f Flight) bool { return maxSpan(c, f) > MaxCircuity+1e-9 })
			if far {
				remote++
			}
			for _, f := range fs {
				where := o + "-" + d + " " + f.ID
				switch span := maxSpan(c, f); {
				case far && (span <= MaxCircuity || f.Stops() == 0):
					t.Errorf("%s: %.2fx (%d stops) among connections over %.1fx: a pair with a straight option gets no remote ones", where, span, f.Stops(), MaxCircuity)
				default:
					checkCircuity(t, c, where, f, RemoteCircuity)
				}
				if cc := reentered(c, f); cc != "" {
					t.Errorf("%s: leaves %s and comes back to it: %v", where, cc, f.Via())
				}
				if f.Stops() > 0 {
					withStops++
				}
			}
			routes++
			flightsSeen += len(fs)
		}
	}
	t.Logf("%d routes, %d flights, %d with stops, %d remote pairs; %d of %d pairs of open airports without flights", routes, flightsSeen, withStops, remote, openEmpty, open)
	if routes < 1500 || withStops < flightsSeen/3 {
		t.Errorf("%d routes, %d of %d flights with stops: the sample is too thin to say anything", routes, withStops, flightsSeen)
	}
	if openEmpty*100 > open*8 {
		t.Errorf("%d of %d pairs of open airports have no flights on the day: more than 8%%", openEmpty, open)
	}
}

// A search from a metro or city searches each pair of airports, keeps each
// flight's own pair in its id, and finds the same flights a search of that
// pair alone finds, so an id from a NYC-LON search is looked up as JFK-LHR.
func TestSyntheticSearchesEveryAirportPair(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	trip := tripFor(t, c, "NYC", "London", "2027-01-20")
	trip.Passengers = 3
	fs, err := p.Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	checkFlights(t, c, trip, fs)
	if len(fs) != DefaultMaxResults {
		t.Errorf("%d flights, want the cap of %d shared by the pairs", len(fs), DefaultMaxResults)
	}
	origins, dests := map[string]bool{}, map[string]bool{}
	for _, f := range fs {
		o, d, date, _ := ParseID(f.ID)
		origins[o], dests[d] = true, true
		alone, err := p.Search(context.Background(), Trip{Origin: o, Destination: d, Date: date, Passengers: 3, Cabin: Economy, MaxStops: 2})
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(alone, func(g Flight) bool { return g.ID == f.ID }); i < 0 || !reflect.DeepEqual(alone[i], f) {
			t.Errorf("%s is not found the same by a search of %s-%s alone", f.ID, o, d)
		}
	}
	if len(origins) < 2 || len(dests) < 2 {
		t.Errorf("searched from %v to %v: want more than one airport at each end", origins, dests)
	}
	for i := 1; i < len(fs); i++ {
		if fs[i].Depart().Before(fs[i-1].Depart()) {
			t.Errorf("%s departs before %s, listed after it", fs[i].ID, fs[i-1].ID)
		}
	}
	again, _ := NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if !reflect.DeepEqual(fs, again) {
		t.Error("two searches of NYC-LON differ")
	}

	// Pairs too close to fly are skipped: EWR is 130 km from PHL.
	trip = tripFor(t, c, "NYC", "PHL", "2027-01-20")
	fs, err = p.Search(context.Background(), trip)
	if err != nil || len(fs) == 0 {
		t.Fatalf("NYC-PHL: %d flights, %v", len(fs), err)
	}
	for _, f := range fs {
		if f.Segments[0].From == "EWR" {
			t.Errorf("%s flies EWR-PHL, %.0f km", f.ID, DistanceKm(c.Airport("EWR"), c.Airport("PHL")))
		}
	}
}

// The provider's promises, over a spread of pairs and dates: every pair gets
// flights, and every flight is physically and commercially plausible.
func TestSyntheticInvariantsOverManyPairs(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	codes := c.AirportCodes()
	dates := []string{"2026-12-01", "2027-03-28", "2027-07-04", "2027-11-28"} // includes DST changes in the window
	pairs, empty := 0, 0
	for i, o := range codes {
		for j := i%7 + 1; j < len(codes); j += 7 { // every 7th destination, a different offset per origin
			d := codes[(i+j)%len(codes)]
			if o == d || DistanceKm(c.Airport(o), c.Airport(d)) < minLegKm { // too close: refused by validation
				continue
			}
			trip := tripFor(t, c, o, d, dates[pairs%len(dates)])
			fs, err := p.Search(context.Background(), trip)
			if err != nil {
				t.Fatalf("Search %s-%s: %v", o, d, err)
			}
			if len(fs) > DefaultMaxResults {
				t.Errorf("%s-%s: %d flights", o, d, len(fs))
			}
			if len(fs) == 0 {
				empty++
			}
			if len(fs) == 0 && c.Airport(o).Tier >= 4 && c.Airport(d).Tier >= 4 && openAirport(c.Airport(o)) && openAirport(c.Airport(d)) {
				t.Errorf("%s-%s: no flights between two big open airports", o, d)
			}
			checkFlights(t, c, trip, fs)
			pairs++
		}
	}
	if pairs < 1000 || empty*5 > pairs {
		t.Errorf("%d pairs checked, %d of them without flights", pairs, empty)
	}
}

// A typical well-served pair gets about 47 options with nonstops, one-stop
// and two-stop itineraries, like a real search page. Dubai to Bangkok gets
// fewer: its other connections (through Singapore, Hong Kong) are detours
// a long haul is not sold (see Circuity).
func TestSyntheticTypicalPairs(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	for _, pair := range [][2]string{{"JFK", "LHR"}, {"LHR", "JFK"}, {"FRA", "SIN"}, {"ORD", "CDG"}, {"DXB", "BKK"}} {
		least := 40
		if pair == [2]string{"DXB", "BKK"} {
			least = 25
		}
		trip := tripFor(t, c, pair[0], pair[1], "2027-01-20")
		fs, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatal(err)
		}
		stops := map[int]int{}
		for _, f := range fs {
			stops[f.Stops()]++
		}
		if len(fs) < least || stops[0] == 0 || stops[1] == 0 || stops[2] == 0 {
			t.Errorf("%v: %d flights, by stops %v; want %d or more with nonstop, 1- and 2-stop", pair, len(fs), stops, least)
		}
		// Eastbound across the Atlantic is faster than westbound (jet stream).
		if pair == [2]string{"JFK", "LHR"} {
			east := BlockTime(c.Airport("JFK"), c.Airport("LHR"))
			west := BlockTime(c.Airport("LHR"), c.Airport("JFK"))
			if east >= west || east < 6*time.Hour || west > 9*time.Hour {
				t.Errorf("JFK-LHR %v, LHR-JFK %v: want 6-9 h, eastbound faster", east, west)
			}
		}
	}
}

func TestSyntheticIsDeterministic(t *testing.T) {
	c := mustCatalog(t)
	trip := tripFor(t, c, "SFO", "NRT", "2027-02-14")
	a, err := NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	p := NewSynthetic(c, now, 0)
	for range 2 { // the second search is served from the schedule cache
		b, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two searches for the same trip differ")
		}
	}
	// Callers own what they get: changing it does not change the cache.
	b, _ := p.Search(context.Background(), trip)
	b[0].Segments[0].FlightNumber = "XX1"
	c2, _ := p.Search(context.Background(), trip)
	if c2[0].Segments[0].FlightNumber == "XX1" {
		t.Error("a caller's change reached the cached schedule")
	}
}

// The golden schedule pins ids, flight numbers and times for one trip, so a
// change to the generator (which would break ids handed out earlier, and
// agreement between replicas on different versions) is deliberate.
// Regenerate with: go test ./flights -run Golden -update
func TestSyntheticGoldenSchedule(t *testing.T) {
	c := mustCatalog(t)
	trip := tripFor(t, c, "JFK", "LHR", "2026-12-15")
	trip.Passengers = 2
	fs, err := NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s $%d", f.ID, f.PriceUSD)
		for _, s := range f.Segments {
			fmt.Fprintf(&b, " | %s %s %s - %s %s", s.FlightNumber, s.From, s.Depart.Format("2006-01-02T15:04Z07:00"), s.To, s.Arrive.Format("2006-01-02T15:04Z07:00"))
		}
		b.WriteString("\n")
	}
	golden.Check(t, "schedule-JFK-LHR-2026-12-15.golden", []byte(b.String()))
}

// Every cabin of the same flight costs more than the one below it; a late
// booking more than an early one; a long flight more than a short one.
func TestSyntheticPricing(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	trip := tripFor(t, c, "ORD", "CDG", "2026-12-20")
	prices := map[Cabin]map[string]int{}
	for _, cabin := range Cabins {
		trip.Cabin = cabin
		fs, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatal(err)
		}
		prices[cabin] = map[string]int{}
		for _, f := range fs {
			prices[cabin][f.ID] = f.PriceUSD
		}
	}
	inAll := 0
	for id, economy := range prices[Economy] {
		last, all := economy, true
		for _, cabin := range Cabins[1:] {
			price, ok := prices[cabin][id]
			if !ok {
				all = false
				continue
			}
			if price <= last {
				t.Errorf("%s: %s $%d is not dearer than the cabin below ($%d)", id, cabin, price, last)
			}
			last = price
		}
		if all {
			inAll++
		}
	}
	if inAll < 5 {
		t.Errorf("%d ORD-CDG flights are sold in every cabin: too few to compare", inAll)
	}
	its := p.cached(c.Airport("ORD"), c.Airport("CDG"), trip.Date).page
	if late, early := its[0].price(0, advanceFactor(1)), its[0].price(0, advanceFactor(60)); late <= early {
		t.Errorf("a day ahead $%d, two months ahead $%d: want late dearer", late, early)
	}
	cheapest := func(o, d string) int {
		fs, err := p.Search(context.Background(), tripFor(t, c, o, d, "2026-12-20"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("%s-%s: %d flights, %v", o, d, len(fs), err)
		}
		return slices.MinFunc(fs, func(a, b Flight) int { return a.PriceUSD - b.PriceUSD }).PriceUSD
	}
	if short, long := cheapest("ORD", "DTW"), cheapest("ORD", "LAX"); short >= long {
		t.Errorf("ORD-DTW from $%d, ORD-LAX from $%d: want longer dearer", short, long)
	}
}

func TestSearchRefusesBadInput(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	for _, trip := range []Trip{
		{Origin: "JFK", Destination: "ZZZ", Date: time.Now()},
		{Origin: "NYC", OriginAirports: []string{"JFK", "QQQ"}, Destination: "LHR", Date: time.Now()},
		{Origin: "JFK", Destination: "JFK", Date: time.Now()},
		{Origin: "JFK", Destination: "LGA", Date: time.Now()}, // 17 km
	} {
		if fs, err := p.Search(context.Background(), trip); err == nil {
			t.Errorf("%s %v to %s %v: %d flights, no error", trip.Origin, trip.Origins(), trip.Destination, trip.Destinations(), len(fs))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Search(ctx, tripFor(t, c, "JFK", "LHR", "2026-12-15")); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestParseID(t *testing.T) {
	o, d, date, err := ParseID("JFK-LHR-261215-K3M9P")
	if err != nil || o != "JFK" || d != "LHR" || date.Format(DateLayout) != "2026-12-15" {
		t.Errorf("ParseID = %s %s %v %v", o, d, date, err)
	}
	for _, bad := range []string{"", "JFK-LHR", "JFK-LHR-261315-K3M9P", "jfk-LHR-261215-K3M9P", "JFK-LHR-261215-K3M9", "JFK-LHR-261215-K3M9P-X"} {
		if _, _, _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q): no error", bad)
		}
	}
}

// What a pair gets depends on what the network flies: a short hop its
// nonstops and the nearly straight connections, a domestic field only
// domestic flights, a remote pair what geography allows (perhaps nothing
// that day), a busy long haul the full page.
func TestSyntheticThinPairs(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	for _, tc := range []struct {
		o, d     string
		min, max int
		nonstop  bool
	}{
		{"AMS", "BRU", 2, 12, true},  // 158 km: KLM's nonstops
		{"BOS", "JFK", 10, 47, true}, // 300 km, a shuttle
		{"RKV", "AEY", 1, 12, true},  // Reykjavik's domestic field, to a domestic airport
		{"RKV", "LHR", 0, 0, false},  // and nowhere abroad: Keflavik is Reykjavik's international airport
		{"CGH", "MIA", 0, 47, false}, // Congonhas is domestic only: connections at Rio or Campinas
		{"ACC", "DSS", 0, 10, false}, // no airline of the catalogue flies it, no hub is on the way
		{"JFK", "LHR", 47, 47, true}, // busy: the full page
	} {
		fs, err := p.Search(context.Background(), tripFor(t, c, tc.o, tc.d, "2027-01-20"))
		if err != nil {
			t.Fatal(err)
		}
		nonstop := slices.ContainsFunc(fs, func(f Flight) bool { return f.Stops() == 0 })
		if len(fs) < tc.min || len(fs) > tc.max || nonstop != tc.nonstop {
			t.Errorf("%s-%s: %d flights (nonstop %v), want %d to %d (nonstop %v)", tc.o, tc.d, len(fs), nonstop, tc.min, tc.max, tc.nonstop)
		}
	}
}
