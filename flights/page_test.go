package flights

import (
	"context"
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/flightserver/flightserver/internal/golden"
)

// unfilteredTrips is a spread of the searches a traveller makes without a
// filter: busy and thin pairs, a remote pair, metro codes at either end or
// both, on dates that include both of Europe's and America's clock changes.
func unfilteredTrips(t testing.TB, c *Catalog) []Trip {
	t.Helper()
	dates := []string{"2026-12-15", "2027-03-14", "2027-03-28", "2027-07-04", "2027-10-31", "2027-11-07"}
	named := [][2]string{
		{"JFK", "LHR"}, {"LHR", "JFK"}, {"SFO", "NRT"}, {"FRA", "SIN"}, {"ORD", "DEN"}, {"SYD", "LAX"},
		{"BOS", "JFK"}, {"AMS", "BRU"}, {"CGH", "MIA"}, {"ACC", "DSS"}, {"DXB", "BKK"}, {"GRU", "MAD"},
		{"NYC", "LON"}, {"LON", "NYC"}, {"NYC", "PAR"}, {"TYO", "SEL"}, {"CHI", "WAS"}, {"LON", "JFK"},
	}
	codes := c.AirportCodes()
	for i := 0; i < len(codes); i += 4 {
		o, d := codes[i], codes[(i*7+3)%len(codes)]
		if o != d && DistanceKm(c.Airport(o), c.Airport(d)) >= minLegKm {
			named = append(named, [2]string{o, d})
		}
	}
	var trips []Trip
	for i, p := range named {
		trip := tripFor(t, c, p[0], p[1], dates[i%len(dates)])
		trip.Passengers = 2
		trips = append(trips, trip)
	}
	return trips
}

// fingerprint is one search's answer in a line: how many flights, the
// first and last id, and a hash of every flight in order (id, fares,
// cabins, every segment's number, airports and times).
func fingerprint(trip Trip, fs []Flight) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %d %d %+v", f.ID, f.Cabin, f.PriceUSD, f.TotalUSD, f.Fare)
		for _, s := range f.Segments {
			fmt.Fprintf(&b, " | %s %s %s %s %s %s %s", s.FlightNumber, s.Airline, s.Cabin, s.From, s.Depart.Format("2006-01-02T15:04Z07:00"), s.To, s.Arrive.Format("2006-01-02T15:04Z07:00"))
		}
		b.WriteString("\n")
	}
	first, last := "-", "-"
	if len(fs) > 0 {
		first, last = fs[0].ID, fs[len(fs)-1].ID
	}
	sum := sha256.Sum256([]byte(b.String()))
	return fmt.Sprintf("%s-%s %s: %d flights, %s .. %s, %x\n", trip.Origin, trip.Destination, trip.Date.Format(DateLayout),
		len(fs), first, last, sum[:8])
}

// An unfiltered search returns what it returned before filters were
// applied ahead of the page's cut: the same flights, ids, fares and order,
// over a spread of pairs and dates. The golden was written by the provider
// as it was before the reserve (each pair's page capped at maxResults and
// nothing else kept); it must not move unless the schedule itself changes.
// Regenerate with: go test ./flights -run UnfilteredPages -update
func TestUnfilteredPagesAreUnchanged(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	var b strings.Builder
	trips := unfilteredTrips(t, c)
	for _, trip := range trips {
		fs, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatalf("%s-%s: %v", trip.Origin, trip.Destination, err)
		}
		b.WriteString(fingerprint(trip, fs))
	}
	if len(trips) < 50 {
		t.Fatalf("%d trips: too few to pin the pages", len(trips))
	}
	golden.Check(t, "unfiltered-pages.golden", []byte(b.String()))
}

// before is what a search returned before filters came ahead of the cut,
// built from the same cached pages: each pair's page, what the trip's
// cabin and clock offer of it, merged by quality and cut to maxResults for
// several pairs; and then what trip.Admits keeps of that, which is what
// the ranking used to keep of it afterwards.
func before(t *testing.T, p *Synthetic, trip Trip) []Flight { return fromPages(t, p, trip, true) }

// shown is what a search must keep whatever its filters: the flights of
// the unfiltered economy search (the pages, merged) that the trip offers
// and admits.
func shown(t *testing.T, p *Synthetic, trip Trip) []Flight { return fromPages(t, p, trip, false) }

// fromPages is before (offeredFirst) or shown.
func fromPages(t *testing.T, p *Synthetic, trip Trip, offeredFirst bool) []Flight {
	t.Helper()
	q, err := p.quote(trip, p.catalog.Airport(trip.Origins()[0]))
	if err != nil {
		t.Fatal(err)
	}
	var all []*itinerary
	pairs := 0
	for _, oc := range trip.Origins() {
		for _, dc := range trip.Destinations() {
			o, d := p.catalog.Airport(oc), p.catalog.Airport(dc)
			if DistanceKm(o, d) < minLegKm {
				continue
			}
			pairs++
			ps := p.cached(o, d, trip.Date)
			for i := range ps.page {
				if !offeredFirst || q.offered(&ps.page[i]) {
					all = append(all, &ps.page[i])
				}
			}
		}
	}
	if pairs > 1 {
		all = best(all, p.maxResults)
	}
	var out []Flight
	for _, it := range all {
		if f, _ := q.flight(it, nil); q.offered(it) && trip.Admits(f) {
			out = append(out, f)
		}
	}
	return out
}

// An unfiltered search is what it was, also against the way it was built:
// over every trip of the golden and more, in economy and with a price
// cap or an exclusion no flight meets (a filter that admits every flight
// changes nothing), single pairs and metro codes.
func TestUnfilteredSearchIsWhatItWas(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	for _, trip := range unfilteredTrips(t, c) {
		want := before(t, p, trip)
		admitsAll := trip
		admitsAll.MaxPriceUSD, admitsAll.ExcludeAirlines = 1e6, []string{"ZZ"}
		for name, trip := range map[string]Trip{"unfiltered": trip, "a filter that admits all": admitsAll} {
			got, err := p.Search(context.Background(), trip)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
				t.Errorf("%s-%s %s, %s: %d flights, want the %d it returned before", trip.Origin, trip.Destination, trip.Date.Format(DateLayout), name, len(got), len(want))
			}
		}
	}
}

// A filter fills the page a wider search would have filled: a search with
// it keeps every flight it admits of the unfiltered page and adds others
// from the reserve (or, over several pairs, from every pair's), up to
// maxResults. Measured (2026-12-01, economy unless named; the unfiltered
// page's admitted flights before, the search's flights now):
//
//	JFK-LHR airlines DL             2 -> 8   (14 DL-only options in all; choose's 3 a routing keeps the rest)
//	NYC-LON airlines DL             3 -> 33  (2027-01-20: long hauls bounded by Circuity)
//	JFK-LHR departAfter 20:00      10 -> 31
//	NYC-LON departAfter 20:00      16 -> 47
//	NYC-LON nonstop, 17:00-22:00   21 -> 21  (every such nonstop was on the merged page already)
//	JFK-LHR departBefore 09:00      8 -> 43
//	SFO-NRT arriving 06:00-09:00    0 -> 7   (2027-01-20: long hauls bounded by Circuity)
//	SFO-NRT departAfter 20:00       5 -> 28  (2026-12-06: 10 -> 16, since Phoenix and Salt Lake City
//	                                          feed no trunk to Tokyo: the connections through them went)
//	FRA-SIN airlines BA             1 -> 6
//	FRA-SIN maxPrice 450            1 -> 5
//	EWR-LHR airlines UA             6 -> 9
//	LAX-SYD departAfter 20:00       6 -> 10  (2026-12-05: SYD-LAX after 20:00 is 11 -> 11, every option on the page already, since no airline flies over 11,000 km more than daily)
//	JFK-LHR first                  10 -> 26  (2027-01-20: first only on the flagship legs, so fewer to fill from)
//	LHR-JFK the same day, at noon  14 -> 47
func TestFiltersFillThePage(t *testing.T) {
	c := mustCatalog(t)
	clock := func(s string) *Clock {
		k, err := ParseClock(s)
		if err != nil {
			t.Fatal(err)
		}
		return &k
	}
	for _, tc := range []struct {
		name       string
		o, d, date string
		set        func(*Trip)
		least      int // what it must return at least now
	}{
		{"an airline", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.Airlines = []string{"DL"} }, 8},
		{"an airline over a metro's pairs", "NYC", "LON", "2027-01-20", func(t *Trip) { t.Airlines = []string{"DL"} }, 30},
		{"an evening departure", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.DepartAfter = clock("20:00") }, 25},
		{"an evening departure over a metro's pairs", "NYC", "LON", "2027-01-20", func(t *Trip) { t.DepartAfter = clock("20:00") }, 40},
		{"a morning departure", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.DepartBefore = clock("09:00") }, 30},
		{"an arrival window no page flight meets", "SFO", "NRT", "2027-01-20", func(t *Trip) { t.ArriveAfter, t.ArriveBefore = clock("06:00"), clock("09:00") }, 5},
		{"a late departure", "SFO", "NRT", "2027-01-20", func(t *Trip) { t.DepartAfter = clock("20:00") }, 15},
		{"an airline with few options", "FRA", "SIN", "2027-01-20", func(t *Trip) { t.Airlines = []string{"BA"} }, 5},
		{"a price cap", "FRA", "SIN", "2027-01-20", func(t *Trip) { t.MaxPriceUSD = 480 }, 4},
		{"a partner's airline", "EWR", "LHR", "2027-01-20", func(t *Trip) { t.Airlines = []string{"UA"} }, 8},
		{"a late departure, long haul", "LAX", "SYD", "2027-01-20", func(t *Trip) { t.DepartAfter = clock("20:00") }, 10},
		{"first class", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.Cabin = First }, 20},
		{"business in the evening", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.Cabin, t.DepartAfter = Business, clock("18:00") }, 40},
		{"one stop at most, after 17:00", "JFK", "LHR", "2027-01-20", func(t *Trip) { t.MaxStops, t.DepartAfter = 1, clock("17:00") }, 40},
		{"the same day, at noon", "LHR", "JFK", "2026-11-30", func(*Trip) {}, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewSynthetic(c, now, 0)
			trip := tripFor(t, c, tc.o, tc.d, tc.date)
			tc.set(&trip)
			was := before(t, p, trip)
			got, err := p.Search(context.Background(), trip)
			if err != nil {
				t.Fatal(err)
			}
			checkAnswer(t, p, trip, got)
			if len(got) <= len(was) || len(got) < tc.least {
				t.Errorf("%d flights, %d before: want more than before, and at least %d", len(got), len(was), tc.least)
			}
			t.Logf("%s-%s %s: %d -> %d", tc.o, tc.d, tc.name, len(was), len(got))
		})
	}
}

// checkAnswer asserts what must hold of a search's answer, filtered or
// not: checkFlights; every flight offered and admitted; no more than
// maxResults; every flight of the unfiltered page that the trip offers and
// admits kept (a filter only adds: shown); and for a single pair, no
// admitted option left out that choose's rules would take (the page is
// full, or the option's routing has its share).
func checkAnswer(t *testing.T, p *Synthetic, trip Trip, got []Flight) {
	t.Helper()
	checkFlights(t, p.catalog, trip, got)
	if len(got) > p.maxResults {
		t.Errorf("%d flights, more than %d", len(got), p.maxResults)
	}
	ids := map[string]bool{}
	for _, f := range got {
		ids[f.ID] = true
		if !trip.Admits(f) {
			t.Errorf("%s is not admitted by the trip", f.ID)
		}
		if !trip.BookableFrom.IsZero() && !f.Depart().After(now().Add(minBookingLead)) {
			t.Errorf("%s leaves at %s, within the hour", f.ID, f.Depart())
		}
	}
	for _, f := range shown(t, p, trip) {
		if !ids[f.ID] {
			t.Errorf("%s was on the page, and the trip admits it, but the search dropped it", f.ID)
		}
	}
	if len(trip.Origins()) > 1 || len(trip.Destinations()) > 1 || len(got) == p.maxResults {
		return
	}
	o, d := p.catalog.Airport(trip.Origin), p.catalog.Airport(trip.Destination)
	ps := p.cached(o, d, trip.Date)
	q, _ := p.quote(trip, o)
	routings := map[int32]int{}
	for _, f := range got {
		for _, it := range pool(p, ps) {
			if it.id == f.ID {
				routings[it.routing]++
			}
		}
	}
	for _, it := range pool(p, ps) {
		f, _ := q.flight(it, nil)
		if q.offered(it) && trip.Admits(f) && !ids[it.id] && (len(it.segments) == 1 || routings[it.routing] < perRouting1) {
			t.Errorf("%s is admitted and its routing has %d of %d on a page of %d, but the search left it out", it.id, routings[it.routing], perRouting1, len(got))
		}
	}
}

// pool is every itinerary of a pair's schedule: its page and its reserve.
func pool(p *Synthetic, ps *pairSchedule) []*itinerary {
	var out []*itinerary
	for _, its := range [][]itinerary{ps.page, p.extra(ps)} {
		for i := range its {
			out = append(out, &its[i])
		}
	}
	return out
}

// searchFilters are filters a traveller sets, alone and together.
func searchFilters(t *testing.T) []func(*Trip) {
	clock := func(s string) *Clock {
		k, err := ParseClock(s)
		if err != nil {
			t.Fatal(err)
		}
		return &k
	}
	return []func(*Trip){
		func(t *Trip) { t.MaxStops = 0 },
		func(t *Trip) { t.MaxStops = 1 },
		func(t *Trip) { t.DepartAfter = clock("18:00") },
		func(t *Trip) { t.DepartBefore = clock("10:00") },
		func(t *Trip) { t.DepartAfter, t.DepartBefore = clock("22:00"), clock("02:00") }, // across midnight
		func(t *Trip) { t.ArriveAfter, t.ArriveBefore = clock("07:00"), clock("12:00") },
		func(t *Trip) { t.MaxPriceUSD = 400 },
		func(t *Trip) { t.Airlines = []string{"AA", "BA", "IB"} },
		func(t *Trip) { t.ExcludeAirlines = []string{"UA", "LH", "EK"} },
		func(t *Trip) { t.Cabin = Business },
		func(t *Trip) { t.Cabin, t.Passengers = First, 2 },
		func(t *Trip) { t.MaxStops, t.DepartAfter, t.DepartBefore = 0, clock("17:00"), clock("23:00") },
		func(t *Trip) { t.MaxStops, t.MaxPriceUSD, t.ExcludeAirlines = 1, 900, []string{"BA"} },
	}
}

// Every flight a filtered search returns is one the trip admits and the
// cabin and the clock offer, and the answer keeps the unfiltered page's
// admitted flights and leaves out no admitted option choose would take:
// over a spread of pairs and metro codes, each with several filters.
func TestEveryFlightAFilteredSearchReturnsIsAdmitted(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	filters := searchFilters(t)
	codes := c.AirportCodes()
	dates := []string{"2026-12-01", "2027-01-20", "2027-03-28", "2027-07-04"} // the first is today east of UTC+12, tomorrow elsewhere
	var pairs [][2]string
	for i := 0; i < len(codes); i += 3 {
		if o, d := codes[i], codes[(i*11+5)%len(codes)]; o != d && DistanceKm(c.Airport(o), c.Airport(d)) >= minLegKm {
			pairs = append(pairs, [2]string{o, d})
		}
	}
	pairs = append(pairs, [2]string{"NYC", "LON"}, [2]string{"LON", "NYC"}, [2]string{"TYO", "SEL"}, [2]string{"CHI", "WAS"}, [2]string{"JFK", "LHR"})
	searches, filled := 0, 0
	for i, pair := range pairs {
		for k := range 3 {
			set := filters[(i*3+k)%len(filters)]
			trip := tripFor(t, c, pair[0], pair[1], dates[(i+k)%len(dates)])
			set(&trip)
			got, err := p.Search(context.Background(), trip)
			if err != nil {
				t.Fatalf("%s-%s: %v", pair[0], pair[1], err)
			}
			checkAnswer(t, p, trip, got)
			searches++
			if len(got) > len(before(t, p, trip)) {
				filled++
			}
		}
	}
	if searches < 150 || filled*5 < searches {
		t.Errorf("%d filtered searches, %d of them fuller than before: want 150 or more, a fifth of them fuller", searches, filled)
	}
}

// A filtered search gives the same flights and ids on every machine and in
// every order of events: on a fresh provider; after other filters of the
// same pair; after its reserve was dropped from the cache and written
// again; and when several searches write it at once.
func TestFilteredSearchesAreDeterministic(t *testing.T) {
	c := mustCatalog(t)
	filters := searchFilters(t)
	var trips []Trip
	for _, pair := range [][2]string{{"JFK", "LHR"}, {"NYC", "LON"}, {"SFO", "NRT"}} {
		for _, set := range filters {
			trip := tripFor(t, c, pair[0], pair[1], "2027-01-20")
			set(&trip)
			trips = append(trips, trip)
		}
	}
	search := func(p *Synthetic, trip Trip) []Flight {
		fs, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	want := make([][]Flight, len(trips))
	for i, trip := range trips {
		want[i] = search(NewSynthetic(c, now, 0), trip) // each on its own provider
	}
	check := func(how string, i int, got []Flight) {
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s-%s, filter %d, %s: %d flights differ from a fresh provider's %d", trips[i].Origin, trips[i].Destination, i%len(filters), how, len(got), len(want[i]))
		}
	}
	shared := NewSynthetic(c, now, 0)
	for i := len(trips) - 1; i >= 0; i-- { // the other order: other filters first
		check("after other filters", i, search(shared, trips[i]))
	}
	// Drop every reserve: the same pair on other days fills the cache.
	evict := trips[2]
	for d := range reserveCacheSize + 1 {
		evict.Date = trips[2].Date.AddDate(0, 0, d+1)
		search(shared, evict)
	}
	for i, trip := range trips {
		check("after its reserve was written again", i, search(shared, trip))
	}
	concurrent := NewSynthetic(c, now, 0)
	var wg sync.WaitGroup
	got := make([][]Flight, len(trips))
	for i, trip := range trips {
		wg.Go(func() { got[i] = search(concurrent, trip) })
	}
	wg.Wait()
	for i := range trips {
		check("searched at once", i, got[i])
	}
}

// searchOnly is a provider with no Find: Lookup must search it.
type searchOnly struct{ Provider }

// A flight only a filtered search shows can be found again by its id, as a
// booking does (Lookup, through Find), priced as the search priced it; a
// provider without Find is searched, and finds only what an unfiltered
// search shows.
func TestLookupFindsWhatOnlyAFilterShows(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	ctx := context.Background()
	trip := tripFor(t, c, "JFK", "LHR", "2027-01-20")
	page, err := p.Search(ctx, trip)
	if err != nil {
		t.Fatal(err)
	}
	onPage := map[string]bool{}
	for _, f := range page {
		onPage[f.ID] = true
	}
	evening := trip
	evening.DepartAfter = ptrTo(Clock(20 * 60))
	filtered, err := p.Search(ctx, evening)
	if err != nil {
		t.Fatal(err)
	}
	lookup := Trip{Origin: "JFK", Destination: "LHR", Date: trip.Date, Passengers: 1, Cabin: Economy, MaxStops: MaxStopsLimit}
	fresh := NewSynthetic(c, now, 0) // its reserve not written by a search
	offPage := 0
	for _, f := range append(filtered, page[:5]...) {
		for name, prov := range map[string]Provider{"the searching provider": p, "a fresh one": fresh} {
			got, ok, err := Lookup(ctx, prov, lookup, f.ID)
			if err != nil || !ok || !reflect.DeepEqual(got, f) {
				t.Errorf("%s on %s: found %v (%v), equal %v", f.ID, name, ok, err, reflect.DeepEqual(got, f))
			}
		}
		_, bySearch, err := Lookup(ctx, searchOnly{p}, lookup, f.ID)
		if err != nil || bySearch != onPage[f.ID] {
			t.Errorf("%s by search alone: found %v (%v), on the unfiltered page %v", f.ID, bySearch, err, onPage[f.ID])
		}
		if !onPage[f.ID] {
			offPage++
		}
	}
	if offPage == 0 {
		t.Fatal("the evening search shows no flight the unfiltered page leaves out: nothing to look up")
	}

	notSoldInFirst := slices.IndexFunc(page, func(f Flight) bool { return f.Stops() == 0 && f.Segments[0].Airline == "DL" })
	if notSoldInFirst < 0 {
		t.Fatal("no Delta nonstop on the page")
	}
	first := lookup
	first.Cabin = First
	for _, tc := range []struct {
		name string
		trip Trip
		id   string
	}{
		{"another date", func() Trip { t := lookup; t.Date = t.Date.AddDate(0, 0, 1); return t }(), page[0].ID},
		{"another route", func() Trip { t := lookup; t.Destination = "LGW"; return t }(), page[0].ID},
		{"no such flight", lookup, "JFK-LHR-270120-00000"},
		{"a cabin it does not sell", first, page[notSoldInFirst].ID},
	} {
		if _, ok, err := p.Find(ctx, tc.trip, tc.id); ok || err != nil {
			t.Errorf("%s: found %v, %v; want not found, no error", tc.name, ok, err)
		}
	}
	for _, id := range []string{"ZZZ-LHR-270120-00000", "JFK-LHR"} {
		if _, ok, err := p.Find(ctx, Trip{Origin: "ZZZ", Destination: "LHR", Date: trip.Date}, id); ok || err == nil {
			t.Errorf("%s: found %v, error %v; want an error", id, ok, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := p.Find(cancelled, lookup, page[0].ID); err == nil {
		t.Error("a cancelled context: no error")
	}
}

// The reserve is bounded, and so are the caches: a page of maxResults at
// most, a reserve of reservePerPage times that, written only as much as it
// is, at most reserveCacheSize reserves written and scheduleCacheSize
// schedules kept; for the default page and a smaller one.
func TestTheReserveIsBounded(t *testing.T) {
	c := mustCatalog(t)
	codes := c.AirportCodes()
	for _, limit := range []int{0, 10} {
		p := NewSynthetic(c, now, limit)
		evening := ptrTo(Clock(19 * 60))
		full := 0
		for i := 0; i < len(codes); i += 2 {
			o, d := codes[i], codes[(i*5+1)%len(codes)]
			if o == d || DistanceKm(c.Airport(o), c.Airport(d)) < minLegKm {
				continue
			}
			trip := tripFor(t, c, o, d, "2027-01-20")
			trip.DepartAfter = evening
			if _, err := p.Search(context.Background(), trip); err != nil {
				t.Fatal(err)
			}
			ps := p.cached(c.Airport(o), c.Airport(d), trip.Date)
			written := p.extra(ps)
			if len(ps.page) > p.maxResults || len(ps.reserve) > reservePerPage*p.maxResults || len(written) > len(ps.reserve) {
				t.Errorf("%s-%s: a page of %d, a reserve of %d, %d written; want at most %d, %d and the reserve", o, d, len(ps.page), len(ps.reserve), len(written), p.maxResults, reservePerPage*p.maxResults)
			}
			if len(ps.reserve) == reservePerPage*p.maxResults {
				full++
			}
		}
		if full == 0 {
			t.Errorf("page of %d: no pair fills its reserve, so the bound is never tested", p.maxResults)
		}
		if p.reserves.Len() > reserveCacheSize || p.schedules.Len() > scheduleCacheSize {
			t.Errorf("%d reserves written and %d schedules kept: want at most %d and %d", p.reserves.Len(), p.schedules.Len(), reserveCacheSize, scheduleCacheSize)
		}
	}
}

// choose takes what a page keeps of itself whatever its rules: a filtered
// page keeps the nonstops a pair with few connections had beyond its
// quota, and fills only what is left, by the rules; with nothing kept it
// picks by the rules alone, as the page was picked.
func TestChooseTakesWhatThePageKeeps(t *testing.T) {
	// A page of 10: quotas of 5 nonstops, 4 one-stops and 1 two-stop.
	var opts []option
	for range 8 {
		opts = append(opts, option{legs: 1}) // kept: over the nonstop quota
	}
	for r := range 6 {
		opts = append(opts, option{legs: 2, routing: int32(r + 1)})
	}
	opts = append(opts, option{legs: 3, routing: 7}, option{legs: 3, routing: 7})
	for _, tc := range []struct {
		kept int
		want []int
	}{
		{8, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},    // the kept, then the most attractive of the rest
		{0, []int{0, 1, 2, 3, 4, 8, 9, 10, 11, 14}}, // the quotas
		{3, []int{0, 1, 2, 3, 4, 8, 9, 10, 11, 14}}, // kept within the quotas: the same
	} {
		if got := sorted(choose(opts, tc.kept, 7, 10)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d kept: picked %v, want %v", tc.kept, got, tc.want)
		}
	}
}

func sorted(s []int) []int { s = slices.Clone(s); slices.Sort(s); return s }

// Filtered says whether the trip sets a limit Admits checks: false for a
// trip with none (cabin and passengers are not limits), and then Admits
// refuses no flight of any pair's page or reserve; true for each limit.
func TestFilteredNamesEveryLimit(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	trip := tripFor(t, c, "JFK", "LHR", "2027-01-20")
	trip.Cabin, trip.Passengers = PremiumEconomy, 3
	if trip.Filtered() {
		t.Fatalf("a trip with no limits is Filtered: %+v", trip)
	}
	for _, pair := range [][2]string{{"JFK", "LHR"}, {"SFO", "NRT"}, {"ORD", "DEN"}, {"FRA", "SIN"}} {
		trip := tripFor(t, c, pair[0], pair[1], "2027-01-20")
		o := c.Airport(pair[0])
		q, _ := p.quote(trip, o)
		for _, it := range pool(p, p.cached(o, c.Airport(pair[1]), trip.Date)) {
			if f, _ := q.flight(it, nil); !trip.Admits(f) {
				t.Errorf("%s: refused by a trip with no limits", f.ID)
			}
		}
	}
	limited := 0
	for i, set := range searchFilters(t) {
		limits := trip
		set(&limits)
		if limits.Cabin != trip.Cabin || limits.Passengers != trip.Passengers {
			continue
		}
		limited++
		if !limits.Filtered() {
			t.Errorf("filter %d: not Filtered", i)
		}
	}
	if limited < 10 {
		t.Errorf("%d limits tried", limited)
	}
}
