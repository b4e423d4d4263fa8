package flights

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultMaxResults is how many flights the synthetic provider returns for a
// well-served pair (and for a search over several airport pairs, in all):
// about what a search page shows.
const DefaultMaxResults = 47

// Synthetic is the embedded provider. For any two known airports at least
// 150 km apart and any date it builds a realistic set of flights: nonstops
// flown by airlines with a hub at either end (and, on a domestic route, by
// the country's airlines), one-stop connections through an airline's own
// hubs, and two-stop connections between hubs of the same alliance. No
// connection goes further than MaxCircuity times the direct distance, in
// whole or in part, so a busy long-haul pair gets about DefaultMaxResults
// options while a short hop gets only its nonstops and the few connections
// that are nearly straight (as few as four flights for AMS-BRU), and a
// remote pair gets what geography allows plus nonstops flown by its
// countries' or the nearest hub's airlines. Everything is derived from a
// hash of the route and date, so the same trip gives the same flights and
// ids on every machine.
//
// Building a route's schedule is the expensive part (about 150 µs for a busy
// pair) and does not change during the day, so schedules are kept in a
// bounded LRU cache; prices are computed on every search because they depend
// on the cabin, the passengers and today's date.
type Synthetic struct {
	catalog    *Catalog
	now        func() time.Time
	maxResults int
	schedules  *lru.Cache[scheduleKey, []itinerary]
}

type scheduleKey struct {
	origin, destination string
	date                time.Time
}

// scheduleCacheSize bounds the cache: about 10 KB a route, so a few MB.
const scheduleCacheSize = 512

// NewSynthetic returns the embedded provider over catalog. now is the clock
// for advance-purchase pricing (nil means time.Now); maxResults caps each
// result (0 means DefaultMaxResults).
func NewSynthetic(catalog *Catalog, now func() time.Time, maxResults int) *Synthetic {
	if now == nil {
		now = time.Now
	}
	if maxResults <= 0 {
		maxResults = DefaultMaxResults
	}
	cache, err := lru.New[scheduleKey, []itinerary](scheduleCacheSize)
	if err != nil { // only for a non-positive size
		panic(err)
	}
	return &Synthetic{catalog: catalog, now: now, maxResults: maxResults, schedules: cache}
}

// Search implements Provider. It searches every pair of the trip's origin
// and destination airports (skipping pairs closer than a flight) and merges
// them: a single pair gives its whole schedule; several share maxResults,
// the most attractive itineraries of any pair first, so NYC to LON is the
// best of JFK-LHR, EWR-LGW and the rest rather than 15 times as many
// flights. Each flight keeps its own pair's id, so ParseID and a search of
// that one pair find it again.
func (s *Synthetic) Search(ctx context.Context, trip Trip) ([]Flight, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var pairs [][]itinerary
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
	its := pairs[0]
	if len(pairs) > 1 {
		its = s.merge(pairs)
	}
	daysAhead := trip.Date.Sub(s.today(from)).Hours() / 24
	// Copy the segments into one fresh block, so callers own what they get
	// and the cached schedule cannot be changed through them.
	n := 0
	for _, it := range its {
		n += len(it.segments)
	}
	segs := make([]Segment, 0, n)
	out := make([]Flight, len(its))
	for i := range its {
		it := &its[i]
		price := it.price(trip.Cabin, daysAhead)
		segs = append(segs, it.segments...)
		out[i] = Flight{ID: it.id, Segments: segs[len(segs)-len(it.segments):], Cabin: trip.Cabin, PriceUSD: price, TotalUSD: price * trip.Passengers}
	}
	return out, nil
}

// cached is the schedule of one pair on date, built once.
func (s *Synthetic) cached(o, d *Airport, date time.Time) []itinerary {
	key := scheduleKey{o.Code, d.Code, date}
	its, ok := s.schedules.Get(key)
	if !ok {
		its = s.schedule(o, d, date, s.maxResults)
		s.schedules.Add(key, its)
	}
	return its
}

// merge keeps the maxResults most attractive itineraries of several pairs'
// schedules (by their routing's quality, then pair and schedule order, so
// the choice is the same on every run), in departure order.
func (s *Synthetic) merge(pairs [][]itinerary) []itinerary {
	type ref struct{ pair, i int }
	var all []ref
	for p, its := range pairs {
		for i := range its {
			all = append(all, ref{p, i})
		}
	}
	slices.SortStableFunc(all, func(a, b ref) int { return cmp.Compare(pairs[a.pair][a.i].quality, pairs[b.pair][b.i].quality) })
	out := make([]itinerary, 0, min(len(all), s.maxResults))
	for _, r := range all[:min(len(all), s.maxResults)] {
		out = append(out, pairs[r.pair][r.i])
	}
	sortByDeparture(out)
	return out
}

func sortByDeparture(its []itinerary) {
	slices.SortFunc(its, func(a, b itinerary) int {
		return cmp.Or(a.segments[0].Depart.Compare(b.segments[0].Depart), cmp.Compare(a.id, b.id))
	})
}

func (s *Synthetic) today(a *Airport) time.Time {
	t := s.now().In(a.Location())
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// routing is a path through airports with the airline flying each leg.
// Fixed-size arrays keep the thousands of candidate routings of a busy pair
// off the heap.
type routing struct {
	points   [MaxStopsLimit + 2]*Airport
	airlines [MaxStopsLimit + 1]*Airline
	legs     int
	circuity float64 // flown distance / direct distance
	quality  float64 // lower is more attractive; decides what makes the cut
	perDay   int     // departures a day
}

func (r *routing) stops() int { return r.legs - 1 }

// itinerary is a scheduled routing, not yet priced.
type itinerary struct {
	id         string
	segments   []Segment
	directKm   float64
	quality    float64 // the routing's: what merge keeps first
	airline    *Airline
	priceNoise float64
}

// MaxCircuity bounds every connection: its legs add up to at most this many
// times the great-circle distance, and so do the legs between any two of its
// airports, so no routing doubles back, not even in part.
const MaxCircuity = 1.6

// Routing limits. A leg longer than the longest flights scheduled today is
// not plausible; nor is one shorter than a short hop.
const (
	minLegKm = 150
	maxLegKm = 15500
)

// legOK reports whether a leg of km is one an airline would fly.
func legOK(km float64) bool { return km >= minLegKm && km <= maxLegKm }

// schedule builds up to limit itineraries for the route on date.
func (s *Synthetic) schedule(o, d *Airport, date time.Time, limit int) []itinerary {
	rng := rand.New(rand.NewPCG(routeSeed(o.Code, d.Code, date), 0x9e3779b97f4a7c15))
	direct := DistanceKm(o, d)

	var routings []routing
	// Widen the detour allowed until the route has a reasonable choice or
	// the detour reaches MaxCircuity: a busy pair gets only the straightest
	// connections, a remote one what geography allows (and its nonstops,
	// see nonstopCarriers), a short hop few or none.
	for _, slack := range []float64{1, 1.5, 2.2, 3.5, 6} {
		routings = s.routings(o, d, direct, slack)
		if departures(routings) >= limit || (1.25*direct+700)*slack >= MaxCircuity*direct {
			break
		}
	}
	if departures(routings) < minChoice && legOK(direct) && (len(routings) == 0 || routings[0].legs > 1) {
		routings = nonstops(o, d, direct, s.remoteCarriers(o, d), routings)
	}
	for i := range routings {
		routings[i].quality = routings[i].circuity + 0.3*float64(routings[i].stops()) + 0.2*rng.Float64()
	}
	slices.SortStableFunc(routings, func(a, b routing) int { return cmp.Compare(a.quality, b.quality) })
	routings = pick(routings, limit)

	its := make([]itinerary, 0, limit)
	seen := map[string]bool{}
	for _, r := range routings {
		window := 17 * 60 / r.perDay // departures spread over 06:00-23:00
		for k := 0; k < r.perDay && len(its) < limit; k++ {
			first := 6*60 + k*window + 5*rng.IntN(max(1, (window-30)/5))
			it := s.fly(r, date, first, rng)
			it.directKm, it.quality = direct, r.quality
			it.id = flightID(o.Code, d.Code, date, it.segments, seen)
			its = append(its, it)
		}
	}
	sortByDeparture(its)
	return its
}

func departures(rs []routing) int {
	n := 0
	for _, r := range rs {
		n += r.perDay
	}
	return n
}

// pick keeps the most attractive routings, in quality order, with a mix a
// real search shows: every nonstop (up to a dozen departures), a handful of
// two-stop options, and one-stop connections filling the rest.
func pick(sorted []routing, limit int) []routing {
	quota := map[int]int{0: min(12, limit), 2: limit / 6}
	quota[1] = limit - quota[0] - quota[2]
	var out []routing
	used := map[int]int{}
	take := func(r routing, limit int) bool {
		if used[r.stops()] >= limit {
			return false
		}
		n := min(r.perDay, limit-used[r.stops()])
		r.perDay = n
		used[r.stops()] += n
		out = append(out, r)
		return true
	}
	taken := make([]bool, len(sorted))
	for i, r := range sorted {
		taken[i] = take(r, quota[r.stops()])
	}
	// A route with few nonstops or two-stops gives their share to the others.
	for i, r := range sorted {
		if left := limit - departures(out); !taken[i] && left > 0 {
			r.perDay = min(r.perDay, left)
			out = append(out, r)
		}
	}
	return out
}

// nonstops adds to out a nonstop routing of each airline, as many a day as
// the distance allows.
func nonstops(o, d *Airport, direct float64, airlines []*Airline, out []routing) []routing {
	perDay := 1
	switch {
	case direct < 1500:
		perDay = 4
	case direct < 4500:
		perDay = 3
	case direct < 9000:
		perDay = 2
	}
	for _, al := range airlines {
		out = append(out, routing{points: [4]*Airport{o, d}, airlines: [3]*Airline{al}, legs: 1, circuity: 1, perDay: perDay})
	}
	return out
}

// routings lists the plausible paths from o to d. slack widens the detour a
// connection may make. Distances between hubs come from the catalog's index,
// so the two-stop search is additions, not trigonometry.
func (s *Synthetic) routings(o, d *Airport, direct, slack float64) []routing {
	c := s.catalog
	hubDist := c.hubDistKm()
	fromO, toD := make([]float64, len(c.hubs)), make([]float64, len(c.hubs))
	for i, h := range c.hubs {
		fromO[i], toD[i] = DistanceKm(o, h), DistanceKm(h, d)
	}
	var out []routing
	if legOK(direct) {
		out = nonstops(o, d, direct, s.nonstopCarriers(o, d), out)
	}
	oneStopMax := min((1.25*direct+700)*slack, MaxCircuity*direct)
	twoStopMax := min((1.35*direct+1100)*slack, MaxCircuity*direct)
	for ai := range c.airlines {
		al := &c.airlines[ai]
		for _, hi := range c.airlineHub[ai] {
			h, d1 := c.hubs[hi], fromO[hi]
			if h == o || h == d || !legOK(d1) {
				continue
			}
			if d2 := toD[hi]; legOK(d2) && d1+d2 <= oneStopMax {
				perDay := 1 // a connecting bank or two a day, more the straighter it is
				switch {
				case d1+d2 < 1.1*direct:
					perDay = 3
				case d1+d2 < 1.3*direct:
					perDay = 2
				}
				out = append(out, routing{points: [4]*Airport{o, h, d}, airlines: [3]*Airline{al, al}, legs: 2, circuity: (d1 + d2) / direct, perDay: perDay})
			}
			// Two stops: this airline to its hub, then a partner (or itself)
			// through one of its hubs to the destination.
			for pi := range c.airlines {
				partner := &c.airlines[pi]
				if pi != ai && (al.Alliance == "none" || partner.Alliance != al.Alliance) {
					continue
				}
				for _, h2i := range c.airlineHub[pi] {
					h2, d2, d3 := c.hubs[h2i], hubDist[hi][h2i], toD[h2i]
					if h2 == o || h2 == d || h2i == hi || d1+d2+d3 > twoStopMax || !legOK(d2) || !legOK(d3) {
						continue
					}
					// Nor may either half double back: JFK-CDG-MAN-LHR is
					// only 1.24 times JFK-LHR, but CDG-MAN-LHR is 3 times
					// CDG-LHR.
					if d1+d2 > MaxCircuity*fromO[h2i] || d2+d3 > MaxCircuity*toD[hi] {
						continue
					}
					out = append(out, routing{points: [4]*Airport{o, h, h2, d}, airlines: [3]*Airline{al, partner, partner}, legs: 3,
						circuity: (d1 + d2 + d3) / direct, perDay: 1})
				}
			}
		}
	}
	return out
}

// nonstopCarriers are the airlines that fly o to d nonstop: those with a hub
// at either end, and on a domestic route those based (first hub) there.
func (s *Synthetic) nonstopCarriers(o, d *Airport) []*Airline {
	c := s.catalog
	var out []*Airline
	for i := range c.airlines {
		al := &c.airlines[i]
		home := c.airports[al.Hubs[0]].Country
		if slices.Contains(al.Hubs, o.Code) || slices.Contains(al.Hubs, d.Code) || (o.Country == home && d.Country == home) {
			out = append(out, al)
		}
	}
	return out
}

// remoteCarriers fly a pair that no hub serves and no straight connection
// reaches (ACC-DSS, PPT-NAN), so that it still has a direct flight rather
// than a connection that doubles back past MaxCircuity: the airlines based
// in either country, or failing those the airline whose hub is nearest to
// either end.
func (s *Synthetic) remoteCarriers(o, d *Airport) []*Airline {
	c := s.catalog
	var out []*Airline
	for i := range c.airlines {
		if al := &c.airlines[i]; c.airports[al.Hubs[0]].Country == o.Country || c.airports[al.Hubs[0]].Country == d.Country {
			out = append(out, al)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, end := range []*Airport{o, d} {
		var nearest *Airline
		best := math.Inf(1)
		for ai := range c.airlines {
			for _, hi := range c.airlineHub[ai] {
				if km := DistanceKm(end, c.hubs[hi]); km < best {
					best, nearest = km, &c.airlines[ai]
				}
			}
		}
		if !slices.Contains(out, nearest) {
			out = append(out, nearest)
		}
	}
	return out
}

// minChoice is the fewest departures a pair may have before remoteCarriers
// add nonstops to it.
const minChoice = 5

// fly schedules a routing: first departure at the given local minute of the
// day, each connection at least the minimum connecting time.
func (s *Synthetic) fly(r routing, date time.Time, firstMinute int, rng *rand.Rand) itinerary {
	from := r.points[0]
	dep := time.Date(date.Year(), date.Month(), date.Day(), firstMinute/60, firstMinute%60, 0, 0, from.Location())
	segs := make([]Segment, 0, r.legs)
	for i := 1; i <= r.legs; i++ {
		to := r.points[i]
		arr := dep.Add(BlockTime(from, to)).In(to.Location())
		al := r.airlines[i-1].Code
		segs = append(segs, Segment{FlightNumber: flightNumber(al, from.Code, to.Code, dep), Airline: al, From: from.Code, To: to.Code, Depart: dep, Arrive: arr})
		if i < r.legs {
			layover := MinConnectTime(from, to, r.points[i+1]) + time.Duration(5*rng.IntN(49))*time.Minute
			dep = arr.Add(layover)
		}
		from = to
	}
	return itinerary{segments: segs, airline: r.airlines[0], priceNoise: 0.93 + 0.15*rng.Float64()}
}

// Price model, per passenger in US dollars: distance-based economy fare
// (cheaper per km on long hauls), times cabin, stops, time of day, how far
// ahead the trip is booked, the airline's positioning and some noise.
var cabinFactor = map[Cabin]float64{Economy: 1, PremiumEconomy: 1.7, Business: 4.2, First: 7}

func (it *itinerary) price(cabin Cabin, daysAhead float64) int {
	km := it.directKm
	base := 40 + 0.11*math.Min(km, 3000) + 0.07*math.Max(0, km-3000)
	stops := []float64{1, 0.82, 0.7}[len(it.segments)-1]
	hour := it.segments[0].Depart.Hour()
	tod := 1.0
	switch {
	case hour < 6 || hour >= 22:
		tod = 0.85 // red-eye
	case (hour >= 7 && hour < 9) || (hour >= 17 && hour < 19):
		tod = 1.12 // business peaks
	}
	advance := 0.92 + 0.7*math.Exp(-math.Max(0, daysAhead)/9)
	p := base * cabinFactor[cabin] * stops * tod * advance * airlineFactor(it.airline.Code) * it.priceNoise
	return max(39, int(math.Round(p)))
}

// airlineFactor places an airline between low-cost (0.9) and premium (1.2),
// the same on every run.
func airlineFactor(code string) float64 {
	h := fnv.New32a()
	h.Write([]byte(code))
	return 0.9 + 0.3*float64(h.Sum32()%1000)/1000
}

func routeSeed(o, d string, date time.Time) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s", o, d, date.Format(DateLayout))
	return h.Sum64()
}

func flightNumber(airline, from, to string, dep time.Time) string {
	h := fnv.New32a()
	h.Write([]byte(airline + from + to))
	h.Write([]byte{byte(dep.Hour()), byte(dep.Minute())})
	return airline + strconv.Itoa(int(1+h.Sum32()%1999))
}

// Flight ids: route, date and a short hash of the itinerary in Crockford's
// base32 (no I, L, O, U), so ids read aloud and copy well.
const (
	idDateLayout = "060102"
	idHashLen    = 5
	idAlphabet   = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
)

func flightID(o, d string, date time.Time, segs []Segment, seen map[string]bool) string {
	h := fnv.New64a()
	var buf []byte
	for _, s := range segs {
		buf = strconv.AppendInt(append(append(buf, s.FlightNumber...), '@'), s.Depart.Unix(), 10)
		buf = append(buf, ';')
	}
	h.Write(buf)
	sum := h.Sum64()
	for salt := uint64(0); ; salt++ {
		v := sum ^ (salt * 0x9e3779b97f4a7c15)
		code := make([]byte, idHashLen)
		for i := range code {
			code[i] = idAlphabet[v%32]
			v /= 32
		}
		id := o + "-" + d + "-" + date.Format(idDateLayout) + "-" + string(code)
		if !seen[id] {
			seen[id] = true
			return id
		}
	}
}
