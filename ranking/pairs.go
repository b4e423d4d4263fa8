package ranking

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// Pairing a round trip's flights is the one part of a search whose work
// grows as the square of what the provider returns: 7 outbound days and 7
// return days of 47 flights each are 108,000 pairs that could be flown. So
// pairs are never built to be sorted: every pair is looked at once, as
// plain numbers, and only the best few are kept (a bounded heap), with the
// cheapest, the fastest, the best nonstop and each outbound day's best as
// they pass. What a call holds stays small whatever the days, and the cost
// of one call is bounded by MaxLegsPerDay (see docs/BENCHMARKS.md).
//
// A pair is priced as flights.NewRoundTrip prices it: by its
// flights.Pairing, a leg costs less when one airline, or one alliance, sells
// both. So a return's place among an outbound's returns depends on the
// pairing, and each leg carries its score under every pairing.
//
// The pairs kept are varied: the best pairs overall would be the best return
// flight with each of the better outbounds, and three picks sharing one
// return flight are one choice, not three. So the pairs are generated
// lazily in order of score and taken while neither flight is in
// MaxPairsPerFlight of those taken yet. The returns an outbound pairs with
// come from three lists, each in score order under one pairing: all of the
// day's returns priced separately, those of the outbound's airline, and
// those of its alliance; a return is taken from the list of the pairing it
// really has with that outbound. A heap of one next pair per outbound and
// list then yields every pair best first.

// MaxPairsPerFlight is how many of the pairs kept may share one outbound,
// or one return, flight.
const MaxPairsPerFlight = 3

// MaxLegsPerDay bounds the flights of one day, each way, that are paired:
// the best by score. A provider page (47 for the embedded one) is well
// under it; it is there so that a provider with far longer pages cannot
// make one call pair a million pairs.
const MaxLegsPerDay = 100

// Found is what a trip's flights give it (Find): its best options, and
// what a result names besides.
type Found struct {
	// Options are the best options by score, best first (Order): for a
	// round trip, varied (see MaxPairsPerFlight).
	Options []Option
	// Standouts are the cheapest, the fastest and the best nonstop option
	// of all that could be flown, whether or not they are among Options.
	Standouts Standouts
	// Days has one entry per outbound day of trip.Dates(): the day's best
	// option and its lowest fare, and on a flexible round trip the same for
	// each return day of trip.ReturnDates() (Day.Returns).
	Days []Day
	// Feasible is how many options could be flown within the trip's
	// limits: flights, or pairs.
	Feasible int
	// FewestStops is the fewest connections of any feasible option (for a
	// round trip, on either leg: 0 is both nonstop); -1 when none is
	// feasible.
	FewestStops int
}

// Find is what the flights found give trip, at most limit options: for one
// way, its flights filtered and ordered (Candidates); for a round trip, the
// best pairs of outs and rets, its return flights (PairRoundTrips).
func (w Weights) Find(trip flights.Trip, outs, rets []flights.Flight, limit int) Found {
	if trip.IsRoundTrip() {
		return w.PairRoundTrips(trip, outs, rets, limit)
	}
	cands := w.Candidates(trip, outs)
	all := OneWay(cands)
	f := Found{Standouts: oneWayStandouts(cands), Feasible: len(cands), FewestStops: -1,
		Days: Options{Trip: trip, List: all}.calendar(trip.Dates()), Options: all[:min(len(all), max(limit, 0))]}
	if len(cands) > 0 {
		f.FewestStops = minOf(cands, (*flights.Flight).Stops)
	}
	return f
}

// Standouts are the options a result names whatever was picked, so that a
// traveller always learns the cheapest and the fastest option, and the
// nonstop one when the picks have none. Each is nil when there is none.
type Standouts struct {
	Cheapest, Fastest, Nonstop *Pick
}

// leg is one flight as pairing reads it: numbers, and the fare that says
// how it pairs.
type leg struct {
	// score and share are the leg's score and fare per passenger as part
	// of a round trip priced under each flights.Pairing.
	score        [flights.Pairings]float64
	share        [flights.Pairings]int
	fare         flights.Fare
	dur          time.Duration
	dep, arr     int64 // Unix seconds
	price, total int   // as a one-way
	day          int   // days since the epoch of the trip day it counts for
	stops        int
	i            int // index in the filtered, ordered flights
}

func (w Weights) legs(trip flights.Trip, fs []flights.Flight, out bool) []leg {
	ls := make([]leg, len(fs))
	for i, f := range fs {
		day := f.Depart()
		if out {
			day = trip.DepartDay(day)
		}
		y, m, d := day.Date()
		ls[i] = leg{fare: f.Fare, dur: f.Duration(), dep: f.Depart().Unix(), arr: f.Arrive().Unix(),
			price: f.PriceUSD, total: f.TotalUSD, day: int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400), stops: f.Stops(), i: i}
		stops, hours := w.penalties(f)
		for p := range flights.Pairings {
			// As Score adds them, so that a pair's score is exactly
			// ScoreOption of the round trip NewRoundTrip makes.
			ls[i].share[p] = f.RoundTripShareUSD(flights.Pairing(p))
			ls[i].score[p] = float64(ls[i].share[p]) + stops + hours
		}
	}
	return ls
}

// capPerDay keeps the first MaxLegsPerDay flights of each day of ordered
// (best first), in order.
func capPerDay(trip flights.Trip, ordered []flights.Flight, out bool) []flights.Flight {
	perDay := map[time.Time]int{}
	kept := ordered[:0:0]
	for _, f := range ordered {
		day := f.Depart()
		if out {
			day = trip.DepartDay(day)
		}
		y, m, d := day.Date()
		k := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		if perDay[k] < MaxLegsPerDay {
			perDay[k]++
			kept = append(kept, f)
		}
	}
	return kept
}

// pairKey is a feasible pair as the heap orders it.
type pairKey struct {
	score float64
	dur   time.Duration
	o, r  int // indexes into the legs
}

// pairing is the pairing of one round trip: its legs, their flights, and
// the lists of returns an outbound pairs with (see returnLists).
type pairing struct {
	outs, rets   []flights.Flight
	oLegs, rLegs []leg
	lists        map[listKey][]leg
}

// listKey names a list of returns in score order under one pairing: the
// returns of one day (anyDay for every day) priced separately (name ""),
// sold by one airline (OneCarrier, name its code) or by one alliance
// (Partners, name the alliance).
type listKey struct {
	day  int
	as   flights.Pairing
	name string
}

// anyDay is the day of the lists of a trip whose dates move independently.
const anyDay = math.MinInt

// less orders pairs best first: by score, then shorter time in the air and
// connecting, then earlier outbound and return departures, then the legs'
// ids, so equal scores give one answer on every machine.
func (p *pairing) less(a, b pairKey) bool {
	if c := cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.dur, b.dur),
		cmp.Compare(p.oLegs[a.o].dep, p.oLegs[b.o].dep), cmp.Compare(p.rLegs[a.r].dep, p.rLegs[b.r].dep)); c != 0 {
		return c < 0
	}
	return cmp.Or(strings.Compare(p.outs[p.oLegs[a.o].i].ID, p.outs[p.oLegs[b.o].i].ID),
		strings.Compare(p.rets[p.rLegs[a.r].i].ID, p.rets[p.rLegs[b.r].i].ID)) < 0
}

// feasible reports whether o and r, priced together as pr, can be flown
// together within the trip's limits (their days are already the trip's to
// pair).
func feasible(trip flights.Trip, o, r leg, pr flights.Pairing) bool {
	return r.dep-o.arr >= int64(flights.MinTurnaround/time.Second) && o.total*r.price == r.total*o.price &&
		(trip.MaxPriceUSD <= 0 || float64(o.share[pr]+r.share[pr]) <= trip.MaxPriceUSD)
}

// key is the pair of outbound oi and return r as the heap orders it.
func (p *pairing) key(oi int, r leg, pr flights.Pairing) pairKey {
	o := p.oLegs[oi]
	return pairKey{score: o.score[pr] + r.score[pr], dur: o.dur + r.dur, o: oi, r: r.i}
}

// returnDay is the day of the lists an outbound pairs from: the day that
// keeps the stay, or anyDay.
func returnDay(trip flights.Trip, o leg) int {
	if trip.FlexIndependent {
		return anyDay
	}
	return o.day + trip.StayDays()
}

// returnLists sorts the returns into the lists outbounds pair from: each
// return is in its day's separate list, its airline's and its alliance's
// (and in the anyDay lists, for a trip whose dates move independently),
// each list in the order the heap pops pairs of one outbound: by score
// under the list's pairing, then duration, departure and id.
func (p *pairing) returnLists(trip flights.Trip) {
	p.lists = map[listKey][]leg{}
	for _, r := range p.rLegs {
		day := r.day
		if trip.FlexIndependent {
			day = anyDay
		}
		p.lists[listKey{day, flights.Separately, ""}] = append(p.lists[listKey{day, flights.Separately, ""}], r)
		if r.fare.Carrier != "" {
			p.lists[listKey{day, flights.OneCarrier, r.fare.Carrier}] = append(p.lists[listKey{day, flights.OneCarrier, r.fare.Carrier}], r)
		}
		if r.fare.Alliance != "" {
			p.lists[listKey{day, flights.Partners, r.fare.Alliance}] = append(p.lists[listKey{day, flights.Partners, r.fare.Alliance}], r)
		}
	}
	for k, l := range p.lists {
		slices.SortFunc(l, func(a, b leg) int {
			return cmp.Or(cmp.Compare(a.score[k.as], b.score[k.as]), cmp.Compare(a.dur, b.dur), cmp.Compare(a.dep, b.dep),
				strings.Compare(p.rets[a.i].ID, p.rets[b.i].ID))
		})
	}
}

// listsFor are the lists outbound o pairs from, with the pairing of each.
func (p *pairing) listsFor(trip flights.Trip, o leg) [flights.Pairings]listKey {
	day := returnDay(trip, o)
	return [flights.Pairings]listKey{
		{day, flights.Separately, ""},
		{day, flights.OneCarrier, o.fare.Carrier},
		{day, flights.Partners, o.fare.Alliance},
	}
}

// next is an outbound, one of its lists and the position of its next
// return there, for the lazy generation of pairs in score order.
type next struct {
	key  pairKey
	list []leg
	j    int // index into list
}

// varied takes the best limit pairs, generated lazily best first, each
// outbound and each return flight in at most MaxPairsPerFlight of them.
// It holds one pending pair per outbound, and stops once it has limit.
func (p *pairing) varied(trip flights.Trip, limit int) []flights.RoundTrip {
	if limit <= 0 {
		return nil
	}
	h := &bestFirst{p: p}
	// push queues the next return of list, from j, that outbound oi pairs
	// with as the list prices it and can be flown with.
	push := func(oi int, list []leg, as flights.Pairing, j int) {
		o := p.oLegs[oi]
		for ; j < len(list); j++ {
			if r := list[j]; flights.PairingOf(o.fare, r.fare) == as && feasible(trip, o, r, as) {
				heap.Push(h, next{key: p.key(oi, r, as), list: list, j: j})
				return
			}
		}
	}
	for oi, o := range p.oLegs {
		for _, k := range p.listsFor(trip, o) {
			if k.as == flights.Separately || k.name != "" {
				push(oi, p.lists[k], k.as, 0)
			}
		}
	}
	perOut, perRet := make([]int, len(p.oLegs)), make([]int, len(p.rLegs))
	var out []flights.RoundTrip
	for h.Len() > 0 && len(out) < limit {
		n := heap.Pop(h).(next)
		if k := n.key; perOut[k.o] < MaxPairsPerFlight && perRet[k.r] < MaxPairsPerFlight {
			perOut[k.o]++
			perRet[k.r]++
			out = append(out, p.roundTrip(k))
		}
		if perOut[n.key.o] < MaxPairsPerFlight {
			push(n.key.o, n.list, flights.PairingOf(p.oLegs[n.key.o].fare, n.list[n.j].fare), n.j+1)
		}
	}
	return out
}

// bestFirst is a min-heap of pending pairs.
type bestFirst struct {
	p  *pairing
	ns []next
}

func (h *bestFirst) Len() int           { return len(h.ns) }
func (h *bestFirst) Less(i, j int) bool { return h.p.less(h.ns[i].key, h.ns[j].key) }
func (h *bestFirst) Swap(i, j int)      { h.ns[i], h.ns[j] = h.ns[j], h.ns[i] }
func (h *bestFirst) Push(x any)         { h.ns = append(h.ns, x.(next)) }
func (h *bestFirst) Pop() any {
	n := h.ns[len(h.ns)-1]
	h.ns = h.ns[:len(h.ns)-1]
	return n
}

// roundTrip is the pair k, priced as flights.NewRoundTrip prices it. Only
// feasible pairs become keys, and feasible checks what NewRoundTrip does, so
// its error cannot happen; were it to, the legs keep their one-way fares,
// the dearer price.
func (p *pairing) roundTrip(k pairKey) flights.RoundTrip {
	out, ret := p.outs[p.oLegs[k.o].i], p.rets[p.rLegs[k.r].i]
	if rt, err := flights.NewRoundTrip(out, ret); err == nil {
		return rt
	}
	return flights.RoundTrip{Out: out, Return: ret}
}

// pairPrice is the fare per passenger of the pair k, both legs.
func (p *pairing) pairPrice(k pairKey) int {
	o, r := p.oLegs[k.o], p.rLegs[k.r]
	pr := flights.PairingOf(o.fare, r.fare)
	return o.share[pr] + r.share[pr]
}

func (p *pairing) pick(k pairKey) *Pick {
	rt := p.roundTrip(k)
	return &Pick{Option: Option{Flight: rt.Out, Return: &rt.Return}}
}

// PairRoundTrips pairs a round trip's flights: the outbound flights
// filtered by trip, the returns by trip.Return (the stops, airlines and
// price limits; the time windows are the outbound's), each day's best
// MaxLegsPerDay each way, paired where trip.Pairs allows their days (by
// default the stay keeps its length), where they can be flown together (the
// return leaves at least flights.MinTurnaround after the outbound lands, and
// both are priced alike, as flights.NewRoundTrip checks) and where both legs
// together cost at most trip.MaxPriceUSD per passenger. It returns the best
// limit pairs (varied: see MaxPairsPerFlight) and what a result names
// besides; outs and rets may span several days. Its work is one look at
// each pair that could be flown and a heap of one pending pair per
// outbound; it never holds more than limit pairs.
func (w Weights) PairRoundTrips(trip flights.Trip, outs, rets []flights.Flight, limit int) Found {
	res := Found{FewestStops: -1}
	dates := trip.Dates()
	res.Days = make([]Day, len(dates))
	for i, d := range dates {
		res.Days[i].Date = d
	}
	p := &pairing{outs: capPerDay(trip, w.Candidates(trip, outs), true), rets: capPerDay(trip, w.Candidates(trip.Return(trip.ReturnDate), rets), false)}
	if len(p.outs) == 0 || len(p.rets) == 0 {
		return res
	}
	p.oLegs, p.rLegs = w.legs(trip, p.outs, true), w.legs(trip, p.rets, false)
	firstDay := 0
	if len(dates) > 0 {
		firstDay = int(dates[0].Unix() / 86400)
	}
	p.returnLists(trip)

	var cheapest, fastest, nonstop *pairKey
	better := func(cur *pairKey, k pairKey, key func(pairKey) (int64, bool)) *pairKey {
		if cur == nil {
			return &k
		}
		a, _ := key(k)
		b, _ := key(*cur)
		if a < b || (a == b && p.less(k, *cur)) {
			return &k
		}
		return cur
	}
	type dayBest struct {
		best   pairKey
		set    bool
		lowest int
	}
	days := make([]dayBest, len(dates))
	// cells are each outbound day's best pair per return day (Day.Returns),
	// on a flexible trip.
	var cells [][]dayBest
	retDay := map[int]int{} // days since the epoch -> index in trip.ReturnDates()
	retDates := trip.ReturnDates()
	if trip.FlexDays > 0 {
		for i, d := range retDates {
			retDay[int(d.Unix()/86400)] = i
		}
		cells = make([][]dayBest, len(dates))
		for i := range cells {
			cells[i] = make([]dayBest, len(retDates))
		}
	}
	keep := func(db *dayBest, k pairKey, price int) {
		if !db.set || p.less(k, db.best) {
			db.best, db.set = k, true
		}
		if db.lowest == 0 || price < db.lowest {
			db.lowest = price
		}
	}
	for oi, o := range p.oLegs {
		for _, r := range p.lists[listKey{returnDay(trip, o), flights.Separately, ""}] {
			pr := flights.PairingOf(o.fare, r.fare)
			if !feasible(trip, o, r, pr) {
				continue
			}
			k := p.key(oi, r, pr)
			price := o.share[pr] + r.share[pr]
			res.Feasible++
			if s := max(o.stops, r.stops); res.FewestStops < 0 || s < res.FewestStops {
				res.FewestStops = s
			}
			cheapest = better(cheapest, k, func(k pairKey) (int64, bool) { return int64(p.pairPrice(k)), true })
			fastest = better(fastest, k, func(k pairKey) (int64, bool) { return int64(k.dur), true })
			if o.stops == 0 && r.stops == 0 {
				nonstop = better(nonstop, k, func(pairKey) (int64, bool) { return 0, true })
			}
			if d := o.day - firstDay; d >= 0 && d < len(days) {
				keep(&days[d], k, price)
				if rd, ok := retDay[r.day]; ok && cells != nil {
					keep(&cells[d][rd], k, price)
				}
			}
		}
	}
	res.Options = Paired(p.varied(trip, limit))
	for _, s := range []struct {
		k   *pairKey
		dst **Pick
	}{{cheapest, &res.Standouts.Cheapest}, {fastest, &res.Standouts.Fastest}, {nonstop, &res.Standouts.Nonstop}} {
		if s.k != nil {
			*s.dst = p.pick(*s.k)
		}
	}
	for i, db := range days {
		if db.set {
			res.Days[i].BestID, res.Days[i].LowestUSD = p.roundTrip(db.best).ID(), db.lowest
		}
		if cells == nil {
			continue
		}
		res.Days[i].Returns = make([]Day, len(retDates))
		for j, c := range cells[i] {
			res.Days[i].Returns[j].Date = retDates[j]
			if c.set {
				res.Days[i].Returns[j].BestID, res.Days[i].Returns[j].LowestUSD = p.roundTrip(c.best).ID(), c.lowest
			}
		}
	}
	return res
}

// oneWayStandouts are the cheapest, the fastest and the best nonstop of
// candidates (filtered and ordered, best first): ties go to the better
// score.
func oneWayStandouts(candidates []flights.Flight) Standouts {
	var s Standouts
	for i := range candidates {
		f := &candidates[i]
		if s.Cheapest == nil || f.PriceUSD < s.Cheapest.Flight.PriceUSD {
			s.Cheapest = &Pick{Option: Option{Flight: *f}}
		}
		if s.Fastest == nil || f.Duration() < s.Fastest.Flight.Duration() {
			s.Fastest = &Pick{Option: Option{Flight: *f}}
		}
		if s.Nonstop == nil && f.Stops() == 0 {
			s.Nonstop = &Pick{Option: Option{Flight: *f}}
		}
	}
	return s
}
