package flights

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultMaxResults is how many flights the synthetic provider returns for a
// well-served pair (and for a search over several airport pairs, in all):
// about what a search page shows.
const DefaultMaxResults = 47

// Synthetic is the embedded provider: synthetic sample data, not real
// flights. For any two known airports at least minLegKm apart and any date
// it builds the flights a traveller would expect to find, from the network
// model (network.go: which airlines fly which nonstops, how often) and the
// season's timetable (schedule.go: the same flight numbers at the same
// local times every week): the nonstops that operate that day, one-stop
// connections at a hub or focus city of either airline, on one airline or
// two partners, and two-stop connections. No connection goes further than
// Circuity times the direct distance (MaxCircuity on a short hop, less on
// a long haul), in whole or in part, nor waits more than maxLayover, so a
// busy long-haul pair gets about DefaultMaxResults options, a short hop
// its nonstops and the few
// connections that are nearly straight, and a pair no airline connects
// (an airport with domestic flights only, to abroad; two remote airports
// no hub is on the way between) none at all. A traveller's search does not
// offer flights that leave within minBookingLead of the provider's clock
// (see Search). Everything is
// derived from the catalog and the date, so the same trip gives the same
// flights and ids on every machine.
//
// Building a pair's schedule for a date is the expensive part (a few
// hundred µs for a busy pair) and does not change during the day, so
// schedules are kept in a bounded LRU cache; prices are computed on every
// search because they depend on the cabin, the passengers and today's date.
// A pair's schedule is its page (what an unfiltered search shows) and a
// reserve of the options the page left out, from which a filtered search
// fills its page (see Search and pairSchedule).
type Synthetic struct {
	catalog    *Catalog
	now        func() time.Time
	maxResults int
	schedules  *lru.Cache[scheduleKey, *pairSchedule]
	reserves   *lru.Cache[scheduleKey, []itinerary] // written (see extra)
}

type scheduleKey struct {
	origin, destination string
	date                time.Time
}

// The caches' bounds, in pair-days: docs/BENCHMARKS.md states what an
// entry and each cache hold at most. A pair's reserve is at most
// reservePerPage times maxResults options beyond its page; written, it is
// ten times the size of its candidates, so fewer are kept written (about
// the pair-days of one filtered metro search with flexible dates).
const (
	scheduleCacheSize = 512
	reserveCacheSize  = 64
	reservePerPage    = 3
)

// minBookingLead is how soon before departure a flight stops being offered:
// about when check-in closes.
const minBookingLead = time.Hour

// NewSynthetic returns the embedded provider over catalog. now is the clock
// for advance-purchase pricing and for what has already left (nil means
// time.Now); maxResults caps each result (0 means DefaultMaxResults).
func NewSynthetic(catalog *Catalog, now func() time.Time, maxResults int) *Synthetic {
	if now == nil {
		now = time.Now
	}
	if maxResults <= 0 {
		maxResults = DefaultMaxResults
	}
	schedules, err := lru.New[scheduleKey, *pairSchedule](scheduleCacheSize)
	if err != nil { // only for a non-positive size
		panic(err)
	}
	reserves, err := lru.New[scheduleKey, []itinerary](reserveCacheSize)
	if err != nil {
		panic(err)
	}
	return &Synthetic{catalog: catalog, now: now, maxResults: maxResults, schedules: schedules, reserves: reserves}
}

// Search implements Provider. It searches every pair of the trip's origin
// and destination airports (skipping pairs closer than a flight) and merges
// them: a single pair gives its page; several share maxResults, the most
// attractive itineraries of any pair first, so NYC to LON is the best of
// JFK-LHR, EWR-LGW and the rest rather than 15 times as many flights. Each
// flight keeps its own pair's id, so ParseID and Find find it again.
//
// A flight is offered in the trip's cabin only if the airline of its
// longest leg sells that cabin there (see cabinOn): a first-class search
// finds no IndiGo flights, no short hops and no Perth to London nonstop
// (see flagship). Its other legs fly the best cabin they have up to the
// trip's, which each Segment.Cabin says.
//
// Filters come before the cut, as Provider asks. A flight is admitted if it
// is offered and trip.Admits it. A search that admits every flight of a
// pair's page gets that page, unchanged; one that admits less keeps what
// it admits of the page and fills the rest from the pair's reserve, the
// most attractive first, by the page's own rules (see choose); and a
// search of several pairs keeps what it admits of their merged page and
// fills the rest from all pairs' pages so built, the most attractive first.
// So a filter never takes away a flight that the unfiltered search shows
// and the filter admits; it only adds others in place of those it rejects,
// up to the reserve.
func (s *Synthetic) Search(ctx context.Context, trip Trip) ([]Flight, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var pairs []*pairSchedule
	var from *Airport // the first origin, whose "today" prices the trip
	for _, oc := range trip.Origins() {
		o := s.catalog.Airport(oc)
		if from == nil {
			from = o
		}
		for _, dc := range trip.Destinations() {
			d := s.catalog.Airport(dc)
			if o == nil || d == nil || o == d {
				return nil, fmt.Errorf("search: %s to %s is not a route between two known airports", oc, dc)
			}
			if DistanceKm(o, d) < minLegKm {
				continue
			}
			pairs = append(pairs, s.cached(o, d, trip.Date))
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("search: %s to %s: every pair of airports is closer than %d km, too close for a flight", trip.Origin, trip.Destination, minLegKm)
	}
	q, err := s.quote(trip, from)
	if err != nil {
		return nil, err
	}
	filtered := trip.Filtered()
	admitted := func(it *itinerary) bool {
		return q.offered(it) && (!filtered || trip.Admits(q.judged(it)))
	}
	its := s.merge(pairs, admitted)
	// Copy the segments into one fresh block, so callers own what they get
	// and the cached schedule cannot be changed through them.
	total := 0
	for _, it := range its {
		total += len(it.segments)
	}
	segs := make([]Segment, 0, total)
	out := make([]Flight, len(its))
	for i, it := range its {
		out[i], segs = q.flight(it, segs)
	}
	return out, nil
}

// Find implements Finder: the flight id names, among every flight a search
// of trip could show whatever its filters (its pair's page and reserve),
// priced as Search prices it for trip; false if no search of trip could
// show it (another route or date, a cabin it is not sold in). It is found
// whether or not it has left when trip is built from the id, without
// BookableFrom, so that its caller can say it has.
func (s *Synthetic) Find(ctx context.Context, trip Trip, id string) (Flight, bool, error) {
	if err := ctx.Err(); err != nil {
		return Flight{}, false, fmt.Errorf("find: %w", err)
	}
	oc, dc, date, err := ParseID(id)
	if err != nil {
		return Flight{}, false, err
	}
	if !date.Equal(trip.Date) || !slices.Contains(trip.Origins(), oc) || !slices.Contains(trip.Destinations(), dc) {
		return Flight{}, false, nil
	}
	o, d, from := s.catalog.Airport(oc), s.catalog.Airport(dc), s.catalog.Airport(trip.Origins()[0])
	if o == nil || d == nil || from == nil || o == d {
		return Flight{}, false, fmt.Errorf("find: %s to %s is not a route between two known airports", oc, dc)
	}
	if DistanceKm(o, d) < minLegKm {
		return Flight{}, false, nil
	}
	q, err := s.quote(trip, from)
	if err != nil {
		return Flight{}, false, err
	}
	ps := s.cached(o, d, date)
	if f, ok := q.find(ps.page, id); ok {
		return f, true, nil
	}
	f, ok := q.find(s.extra(ps), id) // the reserve is written only for an id the page has not
	return f, ok, nil
}

// quote is how a search offers and prices its itineraries.
type quote struct {
	trip Trip
	ci   int // the cabin, by index in Cabins
	// cutoff is the earliest departure offered: nothing that has left, or
	// leaves within minBookingLead, for a traveller's (validated) trip; no
	// limit for a trip built by hand from an id (no BookableFrom), which
	// finds the flight whatever the time, so that its caller can say it has
	// left.
	cutoff  time.Time
	advance float64 // advanceFactor of booking today for the trip's date
}

// quote is how trip, from the first origin from, is offered and priced.
func (s *Synthetic) quote(trip Trip, from *Airport) (quote, error) {
	cabin := trip.Cabin
	if cabin == "" {
		cabin = Economy
	}
	q := quote{trip: trip, ci: slices.Index(Cabins, cabin), advance: advanceFactor(trip.Date.Sub(s.today(from)).Hours() / 24)}
	if q.ci < 0 {
		return quote{}, fmt.Errorf("search: %q is not a cabin", cabin)
	}
	if !trip.BookableFrom.IsZero() {
		q.cutoff = s.now().Add(minBookingLead)
	}
	return q, nil
}

// offered reports whether the itinerary is sold in the trip's cabin and
// leaves after the cutoff.
func (q *quote) offered(it *itinerary) bool {
	return it.sold[q.ci] && it.segments[0].Depart.After(q.cutoff)
}

// flight is the itinerary as a flight of the trip, priced, its segments
// (with the cabin each flies) appended to segs, which it returns.
func (q *quote) flight(it *itinerary, segs []Segment) (Flight, []Segment) {
	price := it.price(q.ci, q.advance)
	start := len(segs)
	for k, seg := range it.segments {
		seg.Cabin = Cabins[it.cabins[q.ci][k]]
		segs = append(segs, seg)
	}
	return Flight{ID: it.id, Segments: segs[start:len(segs):len(segs)], Cabin: q.trip.Cabin, PriceUSD: price, TotalUSD: price * q.trip.Passengers, Fare: it.fare(price)}, segs
}

// judged is the itinerary as the flight trip.Admits judges: q.flight
// without the copy. Its segments are the schedule's own, read and then
// dropped, their Cabin not set: Admits reads stops, times, airlines and
// the price, never a cabin or a fare.
func (q *quote) judged(it *itinerary) Flight {
	price := it.price(q.ci, q.advance)
	return Flight{ID: it.id, Segments: it.segments, Cabin: q.trip.Cabin, PriceUSD: price, TotalUSD: price * q.trip.Passengers}
}

// find is the offered flight with id among its.
func (q *quote) find(its []itinerary, id string) (Flight, bool) {
	for i := range its {
		if it := &its[i]; it.id == id && q.offered(it) {
			f, _ := q.flight(it, nil)
			return f, true
		}
	}
	return Flight{}, false
}

// longCabinKm is the shortest leg with premium economy and first: the
// widebody cabins.
const longCabinKm = 3000

// cabinOn is the best cabin up to want that airline al sells on a leg of
// km: premium economy only on legs of at least longCabinKm, and first only
// on those of them that are flagship routes (see flagship).
func cabinOn(al *Airline, want Cabin, km float64, flagship bool) Cabin {
	for i := slices.Index(Cabins, want); i > 0; i-- {
		c := Cabins[i]
		switch {
		case !al.Sells(c):
		case c == First && (km < longCabinKm || !flagship):
		case c == PremiumEconomy && km < longCabinKm:
		default:
			return c
		}
	}
	return Economy
}

// flagship reports whether route r is one its airline flies its first
// class on: an airline that sells first fits it to only part of its fleet
// (British Airways' and American's 777s, Singapore Airlines' A380s), which
// it flies between major airports (of IntlTier 4 or more, or Tier 5 with
// IntlTier 3: a world city's) or from its main hub to one, as its first
// class is sold: Heathrow, Frankfurt, New York and Sydney to Los Angeles
// have it; Perth, Orlando and Denver do not.
func (n *network) flagship(r *route) bool {
	al := &n.c.airlines[r.airline]
	major := func(x int16) bool {
		a := n.airports[x]
		return a.IntlTier >= 4 || (a.Tier >= 5 && a.IntlTier >= 3) || a.Code == al.Hubs[0]
	}
	return major(r.from) && major(r.to)
}

// pairSchedule is one pair's schedule on one date, as the cache keeps it:
// its page and its reserve.
//
// The page is the at most maxResults options choose picks of the pair's
// candidates, written, in departure order: what an unfiltered search
// returns. The reserve is the candidates choose left off, the most
// attractive first, at most reservePerPage times maxResults of them: what
// a filtered search fills its page from. Most searches need no reserve,
// and writing an itinerary (exact times, id, fares) costs more than
// finding it, so the reserve stays candidates (40 bytes each) until a
// search or a Find needs it written (see extra).
type pairSchedule struct {
	key      scheduleKey
	o, d     *Airport
	page     []itinerary
	reserve  []candidate
	routings int32 // how many routings the candidates have (see choose)
}

// cached is the schedule of one pair on date, built once.
func (s *Synthetic) cached(o, d *Airport, date time.Time) *pairSchedule {
	key := scheduleKey{o.Code, d.Code, date}
	ps, ok := s.schedules.Get(key)
	if !ok {
		ps = s.schedule(o, d, date, s.maxResults)
		s.schedules.Add(key, ps)
	}
	return ps
}

// extra is the pair's reserve, written, the most attractive first; kept in
// their own cache, as they are larger. Ids the page has are not given
// again (see flightID), so the same reserve gets the same ids whenever it
// is written.
func (s *Synthetic) extra(ps *pairSchedule) []itinerary {
	if len(ps.reserve) == 0 {
		return nil
	}
	if its, ok := s.reserves.Get(ps.key); ok {
		return its
	}
	p := s.planner(ps.o, ps.d, ps.key.date, 0)
	seen := make(map[string]bool, len(ps.page)+len(ps.reserve))
	for i := range ps.page {
		seen[ps.page[i].id] = true
	}
	its := make([]itinerary, 0, len(ps.reserve))
	for _, c := range ps.reserve {
		if it, ok := s.write(p, c, seen); ok {
			its = append(its, it)
		}
	}
	s.reserves.Add(ps.key, its)
	return its
}

// pick is the pair's page for a search that admits what admitted reports:
// the page itself if it admits all of it, in departure order; else what it
// admits of the page, filled from what it admits of the reserve by
// choose's rules, in the order choose picks them.
func (s *Synthetic) pick(ps *pairSchedule, admitted func(*itinerary) bool) []*itinerary {
	kept := make([]*itinerary, 0, len(ps.page))
	for i := range ps.page {
		if it := &ps.page[i]; admitted(it) {
			kept = append(kept, it)
		}
	}
	if len(kept) == len(ps.page) {
		return kept // the page, in departure order
	}
	// What the page keeps counts first towards choose's rules; the
	// reserve follows in order of attractiveness.
	extra := s.extra(ps)
	its := append(make([]*itinerary, 0, len(kept)+len(extra)), kept...)
	for i := range extra {
		if it := &extra[i]; admitted(it) {
			its = append(its, it)
		}
	}
	opts := make([]option, len(its))
	for i, it := range its {
		opts[i] = option{legs: int8(len(it.segments)), routing: it.routing}
	}
	picked := choose(opts, len(kept), ps.routings, s.maxResults)
	out := make([]*itinerary, len(picked))
	for i, k := range picked {
		out[i] = its[k]
	}
	return out
}

// merge is the search's page over one or several pairs: a single pair's
// pick; for several, the maxResults most attractive itineraries of their
// pages (by their routing's quality, then pair and page order, so the
// choice is the same on every run), in departure order. A search that
// does not admit all of that merged page keeps what it admits of it and
// fills the rest from the pairs' picks, the most attractive first.
func (s *Synthetic) merge(pairs []*pairSchedule, admitted func(*itinerary) bool) []*itinerary {
	if len(pairs) == 1 {
		out := s.pick(pairs[0], admitted)
		sortByDeparture(out)
		return out
	}
	size := 0
	for _, ps := range pairs {
		size += len(ps.page)
	}
	all := make([]*itinerary, 0, size)
	for _, ps := range pairs {
		for i := range ps.page {
			all = append(all, &ps.page[i])
		}
	}
	page := best(all, s.maxResults)
	if !slices.ContainsFunc(page, func(it *itinerary) bool { return !admitted(it) }) {
		return page
	}
	kept := make(map[*itinerary]bool, len(page))
	out := slices.DeleteFunc(page, func(it *itinerary) bool {
		kept[it] = admitted(it)
		return !kept[it]
	})
	all = all[:0]
	for _, ps := range pairs {
		for _, it := range s.pick(ps, admitted) {
			if !kept[it] {
				all = append(all, it)
			}
		}
	}
	out = append(out, best(all, s.maxResults-len(out))...)
	sortByDeparture(out)
	return out
}

// best is the n most attractive of its (by quality, ties in the order
// given), in departure order. It sorts positions, not the pointers
// themselves, which is several times cheaper than a stable sort of them.
func best(its []*itinerary, n int) []*itinerary {
	order := make([]int32, len(its))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(cmp.Compare(its[a].quality, its[b].quality), cmp.Compare(a, b)) })
	out := make([]*itinerary, min(len(its), n))
	for i := range out {
		out[i] = its[order[i]]
	}
	sortByDeparture(out)
	return out
}

func sortByDeparture(its []*itinerary) { slices.SortFunc(its, departureOrder) }

// departureOrder orders itineraries by departure, then id.
func departureOrder(a, b *itinerary) int {
	return cmp.Or(a.segments[0].Depart.Compare(b.segments[0].Depart), cmp.Compare(a.id, b.id))
}

func (s *Synthetic) today(a *Airport) time.Time {
	t := s.now().In(a.Location())
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// itinerary is a scheduled routing, not yet priced.
type itinerary struct {
	id       string
	segments []Segment
	legs     [MaxStopsLimit + 1]int32 // the route of each segment
	routing  int32                    // its candidate's (see choose)
	mainLeg  int                      // the longest segment: its airline sells the fare
	carrier  *Airline
	directKm float64
	quality  float64 // lower is more attractive: what choose and merge keep first
	// fares are the fare per passenger in each cabin (by index in Cabins)
	// before the booking date: basePrice times cabinFactor.
	fares [4]float64
	// sold says in which cabins it is offered (its main leg's airline sells
	// them there), and cabins which cabin each segment then flies (see
	// cabinOn), by index in Cabins.
	sold   [4]bool
	cabins [4][MaxStopsLimit + 1]uint8
	// rtDiscount is how much less it costs as half of a round trip on its
	// carrier (roundTripDiscount).
	rtDiscount float64
}
