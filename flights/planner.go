package flights

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"time"
)

// MaxCircuity bounds every connection: its legs add up to at most this many
// times the great-circle distance, and so do the legs between any two of its
// airports, so no routing doubles back, not even in part. A long haul is
// bounded tighter, as travellers and planners bound it (see Circuity): no
// one flies Auckland to Honolulu through Sydney (1.46 times as far), nor
// Los Angeles to Perth through Rome. A pair
// that no connection within its bound serves gets those within MaxCircuity;
// and one that none within MaxCircuity serves (two airports far from any
// hub on the way between, such as Accra and Sao Paulo) those within
// RemoteCircuity, as a traveller would still fly them.
const (
	MaxCircuity      = 1.6
	LongHaulCircuity = 1.4
	RemoteCircuity   = 2.4
)

// Circuity is the bound on the connections of a pair km apart, where some
// within it serve the pair: MaxCircuity up to 3,500 km (a short or
// medium haul's connection through a hub off to the side costs an hour or
// two), falling to LongHaulCircuity from 8,000 km (where half as far again
// is most of a day).
func Circuity(km float64) float64 {
	return MaxCircuity - (MaxCircuity-LongHaulCircuity)*smoothstep(2000, 7000, km)
}

// Routing limits. A leg longer than the longest flights scheduled today is
// not plausible; nor is one shorter than a short hop. No connection waits
// longer than maxLayover (an overnight one included).
const (
	minLegKm   = 150
	maxLegKm   = 15500
	maxLayover = 12 * time.Hour
)

// candidate is an itinerary before it is chosen and written out: which
// departure of which route each leg is, on which local day.
type candidate struct {
	legs    [MaxStopsLimit + 1]int32 // route ids
	dep     [MaxStopsLimit + 1]int16 // index into the route's departures
	day     [MaxStopsLimit + 1]int8  // the leg's local departure day, from the date
	n       int8                     // legs
	routing int32                    // the same routes in the same order: one routing
	quality float64
}

// planner finds one pair's candidates on one date.
type planner struct {
	n       *network
	tt      *timetable
	date    time.Time
	o, d    int
	direct  float64
	offset  []int32 // minutes east of UTC at each airport on the date, once known
	seed    uint64
	cands   []candidate
	routing int32
	// circuity bounds the connections: Circuity of the direct distance,
	// or a wider bound for a pair with nothing within it (see MaxCircuity).
	circuity float64
}

const unknownOffset = math.MinInt32

// offsetOf is airport x's UTC offset at noon on the date, in minutes: close
// enough to match connections; write checks them with the exact times.
func (p *planner) offsetOf(x int) int {
	if p.offset[x] == unknownOffset {
		noon := time.Date(p.date.Year(), p.date.Month(), p.date.Day(), 12, 0, 0, 0, time.UTC)
		_, off := noon.In(p.n.airports[x].Location()).Zone()
		p.offset[x] = int32(off / 60)
	}
	return int(p.offset[x])
}

// departs is when departure k of route id on local day leaves, in minutes
// after midnight UTC of the date.
func (p *planner) departs(id int32, k int, day int) int {
	r := &p.n.routes[id]
	return day*1440 + int(p.tt.of(id)[k].minute) - p.offsetOf(int(r.from))
}

// weekday is the weekday of local day (from the date).
func (p *planner) weekday(day int) time.Weekday {
	return time.Weekday((int(p.date.Weekday()) + day%7 + 7) % 7)
}

// next finds the first departure of route id at or after minute t (UTC,
// from the date's midnight) and within maxLayover of arrived: its index
// and local day.
func (p *planner) next(id int32, t, arrived int) (int, int, bool) {
	r := &p.n.routes[id]
	local := t + p.offsetOf(int(r.from))
	day := floorDiv(local, 1440)
	deps := p.tt.of(id)
	for ; ; day++ {
		for k, dep := range deps {
			at := day*1440 + int(dep.minute) - p.offsetOf(int(r.from))
			if at < t || !dep.on(p.weekday(day)) {
				continue
			}
			if at-arrived > int(maxLayover.Minutes()) {
				return 0, 0, false
			}
			return k, day, true
		}
		if (day+1)*1440-p.offsetOf(int(r.from))-arrived > int(maxLayover.Minutes()) {
			return 0, 0, false
		}
	}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// planner is a planner of the pair on date, with room for the candidates
// of a page of limit.
func (s *Synthetic) planner(o, d *Airport, date time.Time, limit int) *planner {
	n := s.catalog.network()
	ss := seasonOf(date)
	p := &planner{n: n, tt: s.catalog.timetable(ss), date: date, o: n.index[o.Code], d: n.index[d.Code],
		direct: DistanceKm(o, d), offset: make([]int32, n.size()), seed: hash64(o.Code, d.Code, ss.String()), circuity: Circuity(DistanceKm(o, d)),
		cands: make([]candidate, 0, 6*limit)}
	for i := range p.offset {
		p.offset[i] = unknownOffset
	}
	return p
}

// schedule builds the pair's schedule on date: a page of up to limit
// itineraries, and the reserve.
func (s *Synthetic) schedule(o, d *Airport, date time.Time, limit int) *pairSchedule {
	p := s.planner(o, d, date, limit)
	p.nonstops()
	p.connections(limit)
	// Nothing within the pair's bound: a pair off the hubs' paths gets the
	// connections a traveller would still take.
	for _, wider := range []float64{MaxCircuity, RemoteCircuity} {
		if len(p.cands) > 0 {
			break
		}
		if wider > p.circuity {
			p.circuity = wider
			p.connections(limit)
		}
	}
	slices.SortFunc(p.cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.quality, b.quality), cmp.Compare(a.routing, b.routing), cmp.Compare(a.dep[0], b.dep[0]))
	})
	opts := make([]option, len(p.cands))
	for i, c := range p.cands {
		opts[i] = option{legs: c.n, routing: c.routing}
	}
	picked := choose(opts, 0, p.routing, limit)
	ps := &pairSchedule{key: scheduleKey{o.Code, d.Code, date}, o: o, d: d, page: make([]itinerary, 0, len(picked)),
		reserve: make([]candidate, 0, min(len(p.cands)-len(picked), reservePerPage*limit)), routings: p.routing}
	seen := map[string]bool{}
	onPage := make([]bool, len(p.cands))
	for _, i := range picked {
		onPage[i] = true
		if it, ok := s.write(p, p.cands[i], seen); ok {
			ps.page = append(ps.page, it)
		}
	}
	slices.SortFunc(ps.page, func(a, b itinerary) int { return departureOrder(&a, &b) })
	for i, c := range p.cands {
		if !onPage[i] && len(ps.reserve) < cap(ps.reserve) {
			ps.reserve = append(ps.reserve, c)
		}
	}
	return ps
}

// connections schedules the most attractive one- and two-stop routings:
// enough of each for choose to pick from.
func (p *planner) connections(limit int) {
	p.scheduleRoutings(p.oneStops(), 3*limit)
	p.scheduleRoutings(p.twoStops(), limit)
}

func (p *planner) nonstops() {
	for _, id := range p.n.routesBetween(p.o, p.d) {
		p.routing++
		for k, dep := range p.tt.of(id) {
			if dep.on(p.date.Weekday()) {
				p.add(candidate{legs: [3]int32{id}, dep: [3]int16{int16(k)}, n: 1, routing: p.routing}, 1, 0)
			}
		}
	}
}

// routing is a path of routes from the origin to the destination that
// may be flown on one ticket, before it is scheduled; base is its quality
// before the times (see add).
type routing struct {
	legs [MaxStopsLimit + 1]int32
	n    int8
	base float64
}

// oneStops lists the connections through each airport where airlines
// connect, straight enough (circuity), on airlines that may be connected
// there (see connection).
func (p *planner) oneStops() []routing {
	n := p.n
	var out []routing
	for _, h := range n.outConnect.row(p.o) {
		h := int(h)
		if h == p.d {
			continue
		}
		d1, d2 := n.km(p.o, h), n.km(h, p.d)
		second := n.routesBetween(h, p.d)
		if d1+d2 > p.circuity*p.direct || len(second) == 0 || n.comesBack(p.o, h, h, p.d) {
			continue
		}
		first := n.routesBetween(p.o, h)
		// Partners' connections first; an interline ticket only where no
		// partners connect here.
		found := false
		for _, want := range []connection{online, interline} {
			for _, r1 := range first {
				for _, r2 := range second {
					kind := n.connection(int(n.routes[r1].airline), int(n.routes[r2].airline), h)
					if kind == noConnection || (want == online) != (kind != interline) {
						continue
					}
					base := (d1+d2)/p.direct + 0.3
					if kind == interline {
						base += interlinePenalty
					}
					out = append(out, routing{legs: [3]int32{r1, r2}, n: 2, base: base})
					found = true
				}
			}
			if found {
				break
			}
		}
	}
	return out
}

// twoStops lists the connections through two such airports, none of whose
// parts doubles back, on one airline or partners. Either airport is on a
// path from the origin to the destination within the bound, so only those
// inside that ellipse are tried.
func (p *planner) twoStops() []routing {
	n := p.n
	limit := p.circuity * p.direct
	inside := func(hs []int32) []int {
		var out []int
		for _, h := range hs {
			if h := int(h); h != p.o && h != p.d && n.km(p.o, h)+n.km(h, p.d) <= limit {
				out = append(out, h)
			}
		}
		return out
	}
	firsts, lasts := inside(n.outConnect.row(p.o)), inside(n.inConnect.row(p.d))
	var out []routing
	for _, h1 := range firsts {
		d1 := n.km(p.o, h1)
		for _, h2 := range lasts {
			if h2 == h1 {
				continue
			}
			d2, d3 := n.km(h1, h2), n.km(h2, p.d)
			if d1+d2+d3 > limit || d1+d2 > p.circuity*n.km(p.o, h2) || d2+d3 > p.circuity*n.km(h1, p.d) || n.comesBack(p.o, h1, h2, p.d) {
				continue
			}
			mid := n.routesBetween(h1, h2)
			if len(mid) == 0 {
				continue
			}
			found := 0
		path:
			for _, r1 := range n.routesBetween(p.o, h1) {
				for _, r2 := range mid {
					if k := n.connection(int(n.routes[r1].airline), int(n.routes[r2].airline), h1); k == noConnection || k == interline {
						continue
					}
					for _, r3 := range n.routesBetween(h2, p.d) {
						if k := n.connection(int(n.routes[r2].airline), int(n.routes[r3].airline), h2); k != noConnection && k != interline {
							out = append(out, routing{legs: [3]int32{r1, r2, r3}, n: 3, base: (d1+d2+d3)/p.direct + 0.6})
							if found++; found == perPath {
								break path
							}
						}
					}
				}
			}
		}
	}
	return out
}

// comesBack reports whether a routing through airports a, b, c, d (a
// one-stop one as a, h, h, d) leaves a country and comes back to it: a
// domestic trip through another country (Los Angeles to New York through
// Toronto, which cabotage rules keep foreign airlines from selling and no
// traveller would take) or a zigzag across a border (Auckland to New York
// through Los Angeles and Toronto). Only a country left between two
// airports can be come back to: the third after the first, or the fourth
// after the first or the second.
func (n *network) comesBack(a, b, c, d int) bool {
	ca, cb, cc, cd := n.country[a], n.country[b], n.country[c], n.country[d]
	return (cc == ca && cb != ca) || (cd == ca && (cb != ca || cc != ca)) || (cd == cb && cc != cb)
}

// schedule schedules routings, the most attractive first, until want
// candidates are found or none are left: the rest could not make the cut.
func (p *planner) scheduleRoutings(rs []routing, want int) {
	slices.SortFunc(rs, func(a, b routing) int {
		return cmp.Or(cmp.Compare(a.base, b.base), cmp.Compare(a.legs[0], b.legs[0]), cmp.Compare(a.legs[1], b.legs[1]), cmp.Compare(a.legs[2], b.legs[2]))
	})
	found := 0
	for _, r := range rs {
		if found >= want {
			return
		}
		p.routing++
		before := len(p.cands)
		p.connect(r.legs[:r.n], r.base-0.3*float64(r.n-1))
		found += len(p.cands) - before
	}
}

// connect schedules a routing of several legs: from each departure of the
// first that day, the first departure of each next leg that leaves at
// least the minimum connecting time after the last one lands.
func (p *planner) connect(legs []int32, circuity float64) {
	n := p.n
	first := legs[0]
	for k, dep := range p.tt.of(first) {
		if !dep.on(p.date.Weekday()) {
			continue
		}
		c := candidate{n: int8(len(legs)), routing: p.routing}
		c.legs[0], c.dep[0] = first, int16(k)
		at := p.departs(first, k, 0) + int(n.routes[first].block)
		waited, ok := 0, true
		for i := 1; i < len(legs) && ok; i++ {
			prev, r := &n.routes[legs[i-1]], &n.routes[legs[i]]
			mct := int(MinConnectTime(n.airports[prev.from], n.airports[r.from], n.airports[r.to]).Minutes())
			var j, day int
			if j, day, ok = p.next(legs[i], at+mct, at); ok {
				leave := p.departs(legs[i], j, day)
				waited += max(0, leave-at-120)
				c.legs[i], c.dep[i], c.day[i] = legs[i], int16(j), int8(day)
				at = leave + int(r.block)
			}
		}
		if ok {
			p.add(c, circuity, waited)
		}
	}
}

// add records a candidate with its quality: its detour and stops, the
// waits beyond two hours, and a little noise (the same all season).
func (p *planner) add(c candidate, circuity float64, waited int) {
	key := uint64(c.legs[0])<<40 ^ uint64(c.legs[1])<<20 ^ uint64(c.legs[2]) ^ uint64(c.dep[0])<<52
	c.quality = circuity + 0.3*float64(c.n-1) + 0.06*float64(waited)/60 + 0.15*unit(p.seed, key)
	p.cands = append(p.cands, c)
}

// option is what choose knows of a candidate or an itinerary: its legs and
// its routing.
type option struct {
	legs    int8
	routing int32
}

// choose picks from opts, the most attractive first, the mix a real search
// shows: every nonstop (up to half the page), a handful of two-stop
// options, one-stop connections filling the rest, and no more than
// perRouting1 departures of any one routing (numbered below routings), up
// to limit. The first kept of opts are taken whatever the rules (what a
// page keeps of itself) and count towards them. It returns the indexes of
// those it picks, in the order it picks them.
func choose(opts []option, kept int, routings int32, limit int) []int {
	var quota, used [MaxStopsLimit + 2]int // by legs
	quota[1], quota[3] = limit/2, limit/6
	quota[2] = limit - quota[1] - quota[3]
	perRouting := make([]uint8, routings+1)
	taken := make([]bool, len(opts))
	out := make([]int, 0, limit)
	take := func(i int) {
		taken[i] = true
		used[opts[i].legs]++
		perRouting[opts[i].routing]++
		out = append(out, i)
	}
	for i := range kept {
		take(i)
	}
	for pass := 0; pass < 2 && len(out) < limit; pass++ {
		for i, o := range opts {
			if taken[i] || len(out) >= limit {
				continue
			}
			// The first pass keeps to the quotas; the second gives what a
			// pair lacks (few nonstops, no two-stops) to the others.
			if (pass == 0 && used[o.legs] >= quota[o.legs]) || (o.legs > 1 && perRouting[o.routing] >= perRouting1) {
				continue
			}
			take(i)
		}
	}
	return out
}

// perPath is how many ways (airline combinations) through the same two
// connecting airports the two-stop search keeps: a page shows a handful of
// two-stop options, so more would only cost time.
const perPath = 2

// interlinePenalty is what an interline connection adds to its quality: a
// search shows partners' connections first.
const interlinePenalty = 0.25

// perRouting1 is the most departures of one connecting routing a pair's
// schedule shows: a traveller sees the routing, not every bank of it.
const perRouting1 = 3

// write turns a candidate into an itinerary with exact local times. It
// fails if a change of clocks between the date's noon and a leg makes a
// connection shorter than the minimum.
func (s *Synthetic) write(p *planner, c candidate, seen map[string]bool) (itinerary, bool) {
	n := p.n
	it := itinerary{legs: c.legs, directKm: p.direct}
	segs := make([]Segment, c.n)
	for i := range int(c.n) {
		r := &n.routes[c.legs[i]]
		from, to := n.airports[r.from], n.airports[r.to]
		dep := p.tt.of(c.legs[i])[c.dep[i]]
		leave := time.Date(p.date.Year(), p.date.Month(), p.date.Day()+int(c.day[i]), int(dep.minute)/60, int(dep.minute)%60, 0, 0, from.Location())
		al := n.c.airlines[r.airline].Code
		segs[i] = Segment{FlightNumber: al + strconv.Itoa(int(dep.number)), Airline: al, From: from.Code, To: to.Code,
			Depart: leave, Arrive: leave.Add(time.Duration(r.block) * time.Minute).In(to.Location())}
		if i > 0 && segs[i].Depart.Sub(segs[i-1].Arrive) < MinConnectTime(n.airports[n.routes[c.legs[i-1]].from], from, to) {
			return itinerary{}, false
		}
		if r.km > n.routes[c.legs[it.mainLeg]].km {
			it.mainLeg = i
		}
	}
	it.segments = segs
	it.carrier = &n.c.airlines[n.routes[c.legs[it.mainLeg]].airline]
	it.quality, it.routing = c.quality, c.routing
	it.id = flightID(n.airports[p.o].Code, n.airports[p.d].Code, p.date, segs, seen)
	base := basePrice(n.c, Flight{Segments: segs}, p.direct, it.carrier, 0.93+0.15*unit(hash64(it.id), 0))
	o, d := n.airports[p.o], n.airports[p.d]
	region := n.c.regionOf[o.Country]
	if region != n.c.regionOf[d.Country] {
		region = ""
	}
	for ci, cabin := range Cabins {
		it.fares[ci] = base * cabinFactor(cabin, p.direct, region)
		for i := range int(c.n) {
			r := &n.routes[c.legs[i]]
			it.cabins[ci][i] = uint8(slices.Index(Cabins, cabinOn(&n.c.airlines[r.airline], cabin, r.km, n.flagship(r))))
		}
		it.sold[ci] = Cabins[it.cabins[ci][it.mainLeg]] == cabin
	}
	it.rtDiscount = roundTripDiscount(it.carrier, p.direct)
	return it, true
}

// Flight ids: route, date and a short hash of the itinerary in Crockford's
// base32 (no I, L, O, U), so ids read aloud and copy well.
const (
	idDateLayout = "060102"
	idHashLen    = 5
	idAlphabet   = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
)

func flightID(o, d string, date time.Time, segs []Segment, seen map[string]bool) string {
	var buf [96]byte
	b := buf[:0]
	for _, s := range segs {
		b = strconv.AppendInt(append(append(b, s.FlightNumber...), '@'), s.Depart.Unix(), 10)
		b = append(b, ';')
	}
	h := fnv.New64a()
	h.Write(b)
	sum := h.Sum64()
	prefix := o + "-" + d + "-" + date.Format(idDateLayout) + "-"
	for salt := uint64(0); ; salt++ {
		v := sum ^ (salt * 0x9e3779b97f4a7c15)
		id := append([]byte(prefix), make([]byte, idHashLen)...)
		for i := len(prefix); i < len(id); i++ {
			id[i] = idAlphabet[v%32]
			v /= 32
		}
		if s := string(id); !seen[s] {
			seen[s] = true
			return s
		}
	}
}
