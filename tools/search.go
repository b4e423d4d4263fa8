package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// A search covers every day a flexible trip allows (date ± flexDays, and
// the return days that go with them) and every airport of a city or metro
// (the provider searches each pair), and turns what it finds into the
// Options the ladder ranks: the one-way candidates, or the best round-trip
// pairs, and what a result names besides (the cheapest, the fastest and the
// nonstop option; the calendar; what each filter cost when they left
// nothing).

// searched is what a search found.
type searched struct {
	options ranking.Options
	// found is every flight the search returned, both ways, all days.
	found int
	// calendar has one day per outbound date of a flexible trip.
	calendar []ranking.Day
	// standouts are the cheapest, fastest and nonstop options of all.
	standouts ranking.Standouts
	// relaxed says, when the filters left nothing of what was found, what
	// dropping each one would give.
	relaxed []ranking.Relaxation
}

// A search is reused for a while: the same trip asked again (a popular
// route, the next round of a 2026-07-28 call, a host that retries) gets the
// options already found, priced and ordered, instead of searching again.
// Prices move, so an entry lives searchTTL at most. The cache holds
// searchCacheSize trips and searchCacheBytes of them, the least recently
// asked dropped first, and each entry is a compact copy of what it returns
// (cachedBytes), never a slice of the search's larger arrays.
const (
	searchTTL        = time.Minute
	searchCacheSize  = 64
	searchCacheBytes = 4 << 20
	// maxEntryBytes is the largest entry cached: a search bigger than a
	// sixteenth of the cache is answered, not kept.
	maxEntryBytes = searchCacheBytes / 16
)

// searchCache holds recent searches by trip, and the gate every search
// that is not reused passes.
type searchCache struct {
	mu      sync.Mutex // orders the byte count with the LRU's evictions
	entries *lru.Cache[string, cachedSearch]
	bytes   int
	now     func() time.Time
	gate    *searchGate
}

type cachedSearch struct {
	found searched
	at    time.Time
	bytes int
}

func newSearchCache(now func() time.Time) *searchCache {
	c := &searchCache{now: now, gate: newSearchGate(searchGateUnits, maxSearchWaiters, searchQueueWait)}
	// Evictions run inside Add and RemoveOldest, under c.mu.
	c.entries, _ = lru.NewWithEvict(searchCacheSize, func(_ string, e cachedSearch) { c.bytes -= e.bytes }) // errors only for a size <= 0
	return c
}

// get is the entry for key if it is fresh.
func (c *searchCache) get(key string, now time.Time) (searched, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries.Get(key)
	if !ok || now.Sub(e.at) >= searchTTL {
		return searched{}, false
	}
	return e.found, true
}

// add keeps a compact copy of s under key, dropping the least recently
// asked entries until the cache is within its bytes.
func (c *searchCache) add(key string, s searched, now time.Time) {
	s, n := compactSearch(s)
	if n > maxEntryBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries.Remove(key)
	for c.bytes+n > searchCacheBytes && c.entries.Len() > 0 {
		c.entries.RemoveOldest()
	}
	c.entries.Add(key, cachedSearch{found: s, at: now, bytes: n})
	c.bytes += n
}

// searchKey names a trip by everything a search depends on, and the day it
// is asked on (fares depend on how far ahead the flight is): each field in
// turn, "|" after each, lists joined by "," (airport and airline codes,
// which hold neither).
func searchKey(trip flights.Trip, today time.Time) string {
	b := make([]byte, 0, 128)
	list := func(xs []string) {
		for i, x := range xs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, x...)
		}
		b = append(b, '|')
	}
	clock := func(c *flights.Clock) {
		if c != nil {
			b = strconv.AppendInt(b, int64(*c), 10)
		}
		b = append(b, '|')
	}
	list(trip.Origins())
	list(trip.Destinations())
	b = append(trip.Date.AppendFormat(b, flights.DateLayout), '|')
	b = append(trip.ReturnDate.AppendFormat(b, flights.DateLayout), '|')
	b = append(strconv.AppendInt(b, int64(trip.FlexDays), 10), '|')
	b = append(strconv.AppendBool(b, trip.FlexIndependent), '|')
	b = append(strconv.AppendInt(b, int64(trip.Passengers), 10), '|')
	b = append(append(b, trip.Cabin...), '|')
	b = append(strconv.AppendInt(b, int64(trip.MaxStops), 10), '|')
	clock(trip.DepartAfter)
	clock(trip.DepartBefore)
	clock(trip.ArriveAfter)
	clock(trip.ArriveBefore)
	b = append(strconv.AppendFloat(b, trip.MaxPriceUSD, 'g', -1, 64), '|')
	list(trip.Airlines)
	list(trip.ExcludeAirlines)
	b = today.AppendFormat(b, flights.DateLayout)
	return string(b)
}

// search finds the trip's options, or reuses a recent search of the same
// trip. A search that is not reused waits for its share of the search
// gate first (searchGate), and a *busyError says when there was none.
func (t *Toolset) search(ctx context.Context, trip flights.Trip) (searched, error) {
	now := t.searches.now()
	key := searchKey(trip, now)
	if s, ok := t.searches.get(key, now); ok {
		s.options.Trip = trip // the same trip, as this call validated it
		return s, nil
	}
	release, err := t.searches.gate.acquire(ctx, searchCost(trip))
	if err != nil {
		return searched{}, err
	}
	defer release()
	found, err := t.searchAnew(ctx, trip)
	if err == nil {
		t.searches.add(key, found, now)
	}
	return found, err
}

// searchAnew searches the provider.
func (t *Toolset) searchAnew(ctx context.Context, trip flights.Trip) (searched, error) {
	outs, err := t.searchDays(ctx, trip.SearchDates(), trip.On)
	if err != nil {
		return searched{}, err
	}
	var rets []flights.Flight
	if trip.IsRoundTrip() {
		if rets, err = t.searchDays(ctx, trip.ReturnDates(), trip.Return); err != nil {
			return searched{}, err
		}
	}
	f := t.weights.Find(trip, outs, rets, ranking.MaxOptions)
	s := searched{found: len(outs) + len(rets), options: ranking.Options{Trip: trip, List: f.Options}, standouts: f.Standouts}
	if trip.FlexDays > 0 {
		s.calendar = f.Days
	}
	if f.Feasible == 0 {
		return t.relax(ctx, s, trip)
	}
	return s, nil
}

// relax is s, whose filters left nothing, with what the same days give
// without them: how many flights (found) and what dropping each filter
// would give (ranking.Relax). The provider applied the filters before its
// page's cut, so only a search without them shows what they rejected.
func (t *Toolset) relax(ctx context.Context, s searched, trip flights.Trip) (searched, error) {
	wider := ranking.Unfiltered(trip)
	outs, err := t.searchDays(ctx, trip.SearchDates(), wider.On)
	if err != nil {
		return searched{}, err
	}
	var rets []flights.Flight
	if trip.IsRoundTrip() {
		if rets, err = t.searchDays(ctx, trip.ReturnDates(), wider.Return); err != nil {
			return searched{}, err
		}
	}
	s.found = max(s.found, len(outs)+len(rets))
	if len(outs) > 0 && (!trip.IsRoundTrip() || len(rets) > 0) {
		s.relaxed = t.weights.Relax(trip, outs, rets)
	}
	return s, nil
}

// searchDays searches leg(day) for every day and returns what all found.
func (t *Toolset) searchDays(ctx context.Context, days []time.Time, leg func(time.Time) flights.Trip) ([]flights.Flight, error) {
	var all []flights.Flight
	for _, d := range days {
		found, err := t.provider.Search(ctx, leg(d))
		if err != nil {
			return nil, fmt.Errorf("search %s: %w", d.Format(flights.DateLayout), err)
		}
		all = append(all, found...)
	}
	return all, nil
}

// compactSearch copies what s returns into storage of its own, each flight
// once (the pairs of a round trip share their legs), all segments in one
// block, and says how many bytes the copy holds. The search's own arrays
// (every flight of every day, the provider's segment blocks) are left for
// the collector: an entry retains what it returns and no more.
func compactSearch(s searched) (searched, int) {
	seen := map[string]*flights.Flight{}
	var nflights, nsegs int
	count := func(f *flights.Flight) {
		if _, ok := seen[f.ID]; !ok {
			seen[f.ID] = nil
			nflights++
			nsegs += len(f.Segments)
		}
	}
	s.options.List = append([]ranking.Option(nil), s.options.List...)
	picks := []*ranking.Pick{s.standouts.Cheapest, s.standouts.Fastest, s.standouts.Nonstop}
	opts := make([]*ranking.Option, 0, len(s.options.List)+len(picks))
	for i := range s.options.List {
		opts = append(opts, &s.options.List[i])
	}
	for i, p := range picks {
		if p != nil {
			c := *p
			picks[i] = &c
			opts = append(opts, &c.Option)
		}
	}
	var all []*flights.Flight
	for _, o := range opts {
		all = append(all, &o.Flight)
		if o.Return != nil {
			ret := *o.Return
			o.Return = &ret
			all = append(all, o.Return)
		}
	}
	s.standouts = ranking.Standouts{Cheapest: picks[0], Fastest: picks[1], Nonstop: picks[2]}
	for _, f := range all {
		count(f)
	}
	segs := make([]flights.Segment, 0, nsegs)
	for _, f := range all {
		if c := seen[f.ID]; c != nil {
			*f = *c
			continue
		}
		segs = append(segs, f.Segments...)
		f.Segments = segs[len(segs)-len(f.Segments) : len(segs) : len(segs)]
		c := *f
		seen[f.ID] = &c
	}
	s.calendar = append([]ranking.Day(nil), s.calendar...)
	s.relaxed = append([]ranking.Relaxation(nil), s.relaxed...)
	s.options.Trip = flights.Trip{} // get gives each call its own trip
	return s, cachedBytes(s, nflights, segs)
}

// cachedBytes is what a compacted search holds: its slices' arrays, the
// picks, and the strings it owns (flight ids and numbers; airport and
// airline codes are the catalogue's, and shared).
func cachedBytes(s searched, nflights int, segs []flights.Segment) int {
	n := int(unsafe.Sizeof(s)) + cap(segs)*int(unsafe.Sizeof(flights.Segment{})) +
		cap(s.options.List)*int(unsafe.Sizeof(ranking.Option{})) +
		cap(s.calendar)*int(unsafe.Sizeof(ranking.Day{})) + cap(s.relaxed)*int(unsafe.Sizeof(ranking.Relaxation{}))
	for _, o := range s.options.List {
		if o.Return != nil {
			n += int(unsafe.Sizeof(flights.Flight{}))
		}
	}
	for _, p := range []*ranking.Pick{s.standouts.Cheapest, s.standouts.Fastest, s.standouts.Nonstop} {
		if p != nil {
			n += int(unsafe.Sizeof(*p) + unsafe.Sizeof(flights.Flight{}))
		}
	}
	for _, seg := range segs {
		n += len(seg.FlightNumber)
	}
	n += nflights * 2 * 24 // each flight's id, once per flight and once in the pairs that share it, on average
	for _, d := range s.calendar {
		n += len(d.BestID) + cap(d.Returns)*int(unsafe.Sizeof(ranking.Day{}))
		for _, r := range d.Returns {
			n += len(r.BestID)
		}
	}
	for _, r := range s.relaxed {
		n += len(r.Filter) + len(r.Limit) + len(r.Gives)
	}
	return n
}

// Searches that are not reused cost CPU and memory in proportion to the
// provider searches they make: a day and a pair of airports each (a flexible
// round trip between two metro areas is 14 days of 15 pairs). So they pass a
// gate of searchGateUnits such units: a burst of expensive searches queues,
// at most maxSearchWaiters of them and for at most searchQueueWait (and never
// past the call's budget), and past that is refused with a hint to call
// again, instead of taking the process's memory.
const (
	searchGateUnits   = 512
	maxSearchWaiters  = 64
	searchQueueWait   = 10 * time.Second
	searchRetryAfter  = 5 * time.Second
	minSearchUnitCost = 1
)

// searchCost is the trip's units: provider searches, one per day and pair
// of airports, at most the whole gate.
func searchCost(trip flights.Trip) int {
	days := len(trip.SearchDates()) + len(trip.ReturnDates())
	return max(minSearchUnitCost, min(searchGateUnits, days*len(trip.Origins())*len(trip.Destinations())))
}

// searchGate is a weighted semaphore: acquirers take their units one
// acquirer at a time, in turn, so two large searches cannot each hold half
// the units and wait for the other.
type searchGate struct {
	units   chan struct{}
	turn    chan struct{}
	waiting atomic.Int32
	// wait is how long an acquirer may queue; maxWaiters how many may.
	wait       time.Duration
	maxWaiters int32
}

func newSearchGate(units, maxWaiters int, wait time.Duration) *searchGate {
	return &searchGate{units: make(chan struct{}, units), turn: make(chan struct{}, 1), wait: wait, maxWaiters: int32(maxWaiters)}
}

// busyError is a search refused at the gate.
type busyError struct {
	waiting    int
	retryAfter time.Duration
	why        string
}

func (e *busyError) Error() string {
	return fmt.Sprintf("the server is busy with other flight searches (%s); call again in %s", e.why, fallback.FormatWait(e.retryAfter))
}

// acquire takes n units, at once when they are free, else waiting in turn
// for at most the gate's wait and what ctx's budget leaves; release gives
// them back.
func (g *searchGate) acquire(ctx context.Context, n int) (release func(), err error) {
	n = min(n, cap(g.units))
	wait := fallback.Waitable(ctx, g.wait)
	var timer *time.Timer // started by the first thing that has to wait, which counts as a waiter
	defer func() {
		if timer != nil {
			timer.Stop()
			g.waiting.Add(-1)
		}
	}()
	// take sends on ch, at once if it can, else within the wait.
	take := func(ch chan struct{}) error {
		select {
		case ch <- struct{}{}:
			return nil
		default:
		}
		if timer == nil {
			if wait <= 0 {
				return &busyError{waiting: int(g.waiting.Load()), retryAfter: searchRetryAfter, why: "no time left in the call budget to wait for a slot"}
			}
			if w := g.waiting.Add(1); w > g.maxWaiters {
				g.waiting.Add(-1)
				return &busyError{waiting: int(w - 1), retryAfter: searchRetryAfter, why: fmt.Sprintf("%d already waiting", w-1)}
			}
			timer = time.NewTimer(wait)
		}
		select {
		case ch <- struct{}{}:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("wait for a search slot: %w", ctx.Err())
		case <-timer.C:
			return &busyError{waiting: int(g.waiting.Load() - 1), retryAfter: searchRetryAfter, why: fmt.Sprintf("no slot within %s", fallback.FormatWait(wait))}
		}
	}
	if err := take(g.turn); err != nil {
		return nil, err
	}
	defer func() { <-g.turn }()
	for taken := 0; taken < n; taken++ {
		if err := take(g.units); err != nil {
			g.give(taken)
			return nil, err
		}
	}
	var once sync.Once
	return func() { once.Do(func() { g.give(n) }) }, nil
}

func (g *searchGate) give(n int) {
	for range n {
		<-g.units
	}
}

// isBusy reports whether err is a search refused at the gate.
func isBusy(err error) (*busyError, bool) {
	var b *busyError
	return b, errors.As(err, &b)
}
