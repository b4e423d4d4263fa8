package tools

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// worstTrip is the costliest search a caller can ask for: a round trip
// between two metro areas (15 pairs of airports), both dates flexible by
// the most and apart (49 date pairs), on day offset days from the tests'
// today.
func worstTrip(t testing.TB, ts *Toolset, offset int) flights.Trip {
	t.Helper()
	date := today().AddDate(0, 0, 20+offset)
	args := FindArgs{Origin: "LON", Destination: "NYC", Date: date.Format(flights.DateLayout), ReturnDate: date.AddDate(0, 0, 7).Format(flights.DateLayout),
		FlexDays: ptr(flights.MaxFlexDays), FlexIndependent: true}
	trip, err := ts.validator.Validate(args.request())
	if err != nil {
		t.Fatal(err)
	}
	return trip
}

// heapLive is the live heap after a full collection.
func heapLive() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A cache entry retains what it returns and no more: the flights of its
// options and standouts, each once, and their segments, not the search's
// arrays of every flight of every day (which a slice of them would keep
// alive). Measured on the live heap, against the entry's own account of its
// bytes, for the worst trip; the search kept as found retains several
// times as much, which is what the test would see if the cache kept it.
func TestCacheEntryRetainsNoMoreThanItReturns(t *testing.T) {
	ts := newToolsetForTest(t)
	trip := worstTrip(t, ts, 0)
	if _, err := ts.searchAnew(context.Background(), trip); err != nil { // the provider's own schedule cache, warmed
		t.Fatal(err)
	}
	measure := func(keep func(searched) any) (retained uint64, kept any) {
		before := heapLive()
		s, err := ts.searchAnew(context.Background(), trip)
		if err != nil {
			t.Fatal(err)
		}
		kept = keep(s)
		after := heapLive()
		runtime.KeepAlive(kept)
		return after - min(after, before), kept
	}
	var accounted int
	compact := func(s searched) any {
		c, n := compactSearch(s)
		accounted = n
		return c
	}
	// Once each first: the heap settles (the toolset's background work
	// ends, the runtime's own structures grow) before what counts.
	measure(compact)
	measure(func(s searched) any { return s })
	retained, entry := measure(compact)
	raw, rawKept := measure(func(s searched) any { return s })
	runtime.KeepAlive(entry)
	runtime.KeepAlive(rawKept)
	runtime.KeepAlive(ts) // its provider's schedules must not be freed mid-measure
	e := entry.(searched)
	e.options.Trip = trip // as get gives it back
	if e.options.Len() == 0 || e.standouts.Cheapest == nil {
		t.Fatalf("the entry holds %d options", e.options.Len())
	}
	t.Logf("entry: %d options, %d bytes accounted, %d retained; the search as found retains %d", e.options.Len(), accounted, retained, raw)
	if slack := uint64(16 << 10); retained > uint64(accounted)+slack {
		t.Errorf("the entry retains %d bytes but accounts for %d", retained, accounted)
	}
	if raw < 2*retained {
		t.Errorf("the search as found retains %d bytes, the entry %d: the measure cannot tell them apart", raw, retained)
	}
	if accounted > maxEntryBytes {
		t.Errorf("the worst trip's entry is %d bytes, over the %d an entry may have: it would never be cached", accounted, maxEntryBytes)
	}
	// What it returns, it returns whole: every segment slice is its own.
	for _, o := range e.options.List {
		if o.Return == nil {
			t.Fatalf("%s: a round trip's option without a return", o.Flight.ID)
		}
		for _, f := range []flights.Flight{o.Flight, *o.Return} {
			if cap(f.Segments) != len(f.Segments) {
				t.Errorf("%s: segments with room for %d more", f.ID, cap(f.Segments)-len(f.Segments))
			}
		}
	}
}

// The cache is bounded by bytes as well as by entries: adding past its
// bytes drops the least recently used.
func TestSearchCacheIsBoundedByBytes(t *testing.T) {
	ts := newToolsetForTest(t)
	c := newSearchCache(today)
	s, err := ts.searchAnew(context.Background(), worstTrip(t, ts, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, n := compactSearch(s)
	fits := searchCacheBytes / n
	for i := range fits + 5 {
		c.add(fmt.Sprint(i), s, today())
	}
	if c.bytes > searchCacheBytes || c.entries.Len() > fits {
		t.Errorf("%d entries of %d bytes hold %d bytes; the cache holds at most %d", c.entries.Len(), n, c.bytes, searchCacheBytes)
	}
	if _, ok := c.get("0", today()); ok {
		t.Error("the oldest entry is still there")
	}
	if _, ok := c.get(fmt.Sprint(fits+4), today()); !ok {
		t.Error("the newest entry is gone")
	}
	if _, ok := c.get(fmt.Sprint(fits+4), today().Add(searchTTL)); ok {
		t.Error("an entry outlived its TTL")
	}
}

// The gate: units are taken at once when free; a search that must wait
// waits in turn, within the gate's wait and the call's budget, and is
// refused with a retry hint past them, or at once when too many wait.
func TestSearchGate(t *testing.T) {
	ctx := context.Background()
	g := newSearchGate(10, 1, 50*time.Millisecond)
	release, err := g.acquire(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = g.acquire(ctx, 5)
	if b, ok := isBusy(err); !ok || b.retryAfter <= 0 || !strings.Contains(b.Error(), "call again in") {
		t.Fatalf("a search past the units: %v", err)
	}
	if waited := time.Since(start); waited < 40*time.Millisecond {
		t.Errorf("refused after %s, without waiting", waited)
	}
	// It queues: a release lets the waiter in.
	got := make(chan error, 1)
	go func() {
		r, err := g.acquire(ctx, 5)
		if err == nil {
			r()
		}
		got <- err
	}()
	for g.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	// One waiter is all this gate allows: the next is refused at once.
	if _, err := g.acquire(ctx, 5); err == nil || !strings.Contains(err.Error(), "1 already waiting") {
		t.Errorf("a second waiter: %v", err)
	}
	release()
	release() // twice is once
	if err := <-got; err != nil {
		t.Errorf("the waiter: %v", err)
	}
	// Free units are taken even with no time left to wait.
	expired, cancel := context.WithTimeout(ctx, 100*time.Millisecond) // under fallback.AnswerReserve
	defer cancel()
	r, err := g.acquire(expired, 10)
	if err != nil {
		t.Fatalf("free units with no time to wait: %v", err)
	}
	if _, err := g.acquire(expired, 1); !errors.As(err, new(*busyError)) {
		t.Errorf("no unit and no time: %v", err)
	}
	r()
	if len(g.units) != 0 {
		t.Errorf("%d units still taken", len(g.units))
	}
}

// A findBestFlight call that finds the gate full says so, with when to
// call again, in the text and in _meta; a search the cache answers does
// not need the gate at all.
func TestBusySearchSaysWhenToRetry(t *testing.T) {
	ts := newToolsetForTest(t)
	s, err := ts.server(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125)
	var first FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &first)
	ts.searches.gate = newSearchGate(1, 0, time.Millisecond)
	hold, err := ts.searches.gate.acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	res := callTool(t, c, FindBestFlightName, with(jfkLHR, "maxStops", 1))
	if !res.IsError || !strings.Contains(text(res), "busy") || !strings.Contains(text(res), "call again in 5s") {
		t.Fatalf("a full gate: %s", text(res))
	}
	if e := errorDetails(t, res); e.Error != fallback.ErrorBusy || e.RetryAfterSeconds != 5 {
		t.Errorf("_meta: %+v", e)
	}
	var again FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &again)
	if again.Flights[0].ID != first.Flights[0].ID {
		t.Error("a cached search was not served while the gate was full")
	}
}

// BenchmarkWorstCaseSearch is the cost of the costliest search one call
// can ask for (worstTrip: 14 provider days of 15 airport pairs, 49 date
// pairs), each iteration on other dates so neither the provider's schedules
// nor the search cache help; BenchmarkOneDaySearch is its baseline, a
// one-way JFK-LHR search on other dates each time. B/op is every byte a
// call allocates, so also a bound on what it holds at its peak. The
// filtered case adds a price cap most flights miss, so that every provider
// day fills its page from its reserve: the most a filter can add.
func BenchmarkWorstCaseSearch(b *testing.B) {
	for _, tc := range []struct {
		name   string
		filter func(*flights.Trip)
	}{
		{"unfiltered", func(*flights.Trip) {}},
		{"filtered", func(t *flights.Trip) { t.MaxPriceUSD = 300 }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ts := newToolsetForTest(b)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				trip := worstTrip(b, ts, i%300)
				tc.filter(&trip)
				i++
				if _, err := ts.searchAnew(context.Background(), trip); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOneDaySearch(b *testing.B) {
	ts := newToolsetForTest(b)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		date := today().AddDate(0, 0, 20+i%300)
		i++
		trip, err := ts.validator.Validate(flights.Request{Origin: "JFK", Destination: "LHR", Date: date.Format(flights.DateLayout)})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ts.searchAnew(context.Background(), trip); err != nil {
			b.Fatal(err)
		}
	}
}

// A search is reused only for the same trip on the same day: every field
// a search depends on gives another key.
func TestSearchKeyNamesEveryField(t *testing.T) {
	day := today()
	clock := func(c flights.Clock) *flights.Clock { return &c }
	base := flights.Trip{Origin: "NYC", OriginAirports: []string{"JFK", "LGA"}, Destination: "LHR", Date: day.AddDate(0, 0, 14),
		Passengers: 1, Cabin: flights.Economy, MaxStops: 2}
	variants := map[string]func(*flights.Trip){
		"origins":          func(t *flights.Trip) { t.OriginAirports = []string{"JFK"} },
		"destination":      func(t *flights.Trip) { t.Destination = "LGW" },
		"date":             func(t *flights.Trip) { t.Date = t.Date.AddDate(0, 0, 1) },
		"returnDate":       func(t *flights.Trip) { t.ReturnDate = t.Date.AddDate(0, 0, 7) },
		"flexDays":         func(t *flights.Trip) { t.FlexDays = 1 },
		"flexIndependent":  func(t *flights.Trip) { t.FlexIndependent = true },
		"passengers":       func(t *flights.Trip) { t.Passengers = 2 },
		"cabin":            func(t *flights.Trip) { t.Cabin = flights.Business },
		"maxStops":         func(t *flights.Trip) { t.MaxStops = 1 },
		"departAfter":      func(t *flights.Trip) { t.DepartAfter = clock(9 * 60) },
		"departBefore":     func(t *flights.Trip) { t.DepartBefore = clock(9 * 60) },
		"arriveAfter":      func(t *flights.Trip) { t.ArriveAfter = clock(9 * 60) },
		"arriveBefore":     func(t *flights.Trip) { t.ArriveBefore = clock(9 * 60) },
		"departAfter 0:00": func(t *flights.Trip) { t.DepartAfter = clock(0) },
		"maxPrice":         func(t *flights.Trip) { t.MaxPriceUSD = 499.5 },
		"airlines":         func(t *flights.Trip) { t.Airlines = []string{"BA"} },
		"two airlines":     func(t *flights.Trip) { t.Airlines = []string{"BA", "AA"} },
		"excludeAirlines":  func(t *flights.Trip) { t.ExcludeAirlines = []string{"BA"} },
	}
	seen := map[string]string{searchKey(base, day): "the trip itself"}
	if searchKey(base, day.AddDate(0, 0, 1)) == searchKey(base, day) {
		t.Error("the same trip asked a day later has the same key")
	}
	for name, change := range variants {
		trip := base
		change(&trip)
		key := searchKey(trip, day)
		if other, dup := seen[key]; dup {
			t.Errorf("%s: the same key as %s: %q", name, other, key)
		}
		seen[key] = name
	}
	if same := base; searchKey(same, day) != searchKey(base, day) {
		t.Error("the same trip gives two keys")
	}
}
