package ranking

import (
	"cmp"
	"container/heap"
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
// The pairs kept are varied: the best pairs overall would be the best return
// flight with each of the better outbounds, and three picks sharing one
// return flight are one choice, not three. So the pairs are generated
// lazily in order of score (each outbound's returns are in score order, so
// a heap of one next pair per outbound yields every pair best first) and
// taken while neither flight is in MaxPairsPerFlight of those taken yet.

// MaxPairsPerFlight is how many of the pairs kept may share one outbound,
// or one return, flight.
const MaxPairsPerFlight = 3

// MaxLegsPerDay bounds the flights of one day, each way, that are paired:
// the best by score. A provider page (47 for the embedded one) is well
// under it; it is there so that a provider with far longer pages cannot
// make one call pair a million pairs.
const MaxLegsPerDay = 100

// RoundTrips is what pairing a round trip's flights found.
type RoundTrips struct {
	// Pairs are the best pairs by score, best first (OrderRoundTrips).
	Pairs []flights.RoundTrip
	// Standouts are the cheapest, the fastest and the best nonstop pair of
	// all that could be flown, whether or not they are among Pairs.
	Standouts Standouts
	// Days has one entry per outbound day of trip.Dates(): the day's best
	// pair and its lowest fare, and on a flexible trip the same for each
	// return day of trip.ReturnDates() (Day.Returns).
	Days []Day
	// Feasible is how many pairs could be flown within the trip's limits.
	Feasible int
	// FewestStops is the fewest connections on either leg of any feasible
	// pair (0: both nonstop); -1 when none is feasible.
	FewestStops int
}

// Standouts are the options a result names whatever was picked, so that a
// traveller always learns the cheapest and the fastest option, and the
// nonstop one when the picks have none. Each is nil when there is none.
type Standouts struct {
	Cheapest, Fastest, Nonstop *Pick
}

// leg is one flight as pairing reads it: plain numbers, no pointers.
type leg struct {
	score        float64
	dur          time.Duration
	dep, arr     int64 // Unix seconds
	price, total int
	day          int // days since the epoch of the trip day it counts for
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
		ls[i] = leg{score: w.Score(f), dur: f.Duration(), dep: f.Depart().Unix(), arr: f.Arrive().Unix(),
			price: f.PriceUSD, total: f.TotalUSD, day: int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400), stops: f.Stops(), i: i}
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

// pairs is the pairing of one round trip: its legs and their flights.
type pairing struct {
	outs, rets   []flights.Flight
	oLegs, rLegs []leg
}

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

// feasible reports whether o and r can be flown together within the trip's
// limits (their days are already the trip's to pair).
func feasible(trip flights.Trip, o, r leg) bool {
	return r.dep-o.arr >= int64(flights.MinTurnaround/time.Second) && o.total*r.price == r.total*o.price &&
		(trip.MaxPriceUSD <= 0 || float64(o.price+r.price) <= trip.MaxPriceUSD)
}

// returnsFor are the return legs an outbound may pair with, best first.
func returnsFor(trip flights.Trip, o leg, all []leg, byDay map[int][]leg) []leg {
	if trip.FlexIndependent {
		return all
	}
	return byDay[o.day+trip.StayDays()]
}

// next is an outbound and the position of its next return, for the lazy
// generation of pairs in score order.
type next struct {
	key pairKey
	j   int // index into the outbound's returns
}

// varied takes the best limit pairs, generated lazily best first, each
// outbound and each return flight in at most MaxPairsPerFlight of them.
// It holds one pending pair per outbound, and stops once it has limit.
func (p *pairing) varied(trip flights.Trip, byDay map[int][]leg, limit int) []flights.RoundTrip {
	if limit <= 0 {
		return nil
	}
	rets := make([][]leg, len(p.oLegs))
	h := &bestFirst{p: p}
	push := func(oi, j int) {
		for ; j < len(rets[oi]); j++ { // the next return this outbound can be flown with
			if r := rets[oi][j]; feasible(trip, p.oLegs[oi], r) {
				heap.Push(h, next{key: pairKey{score: p.oLegs[oi].score + r.score, dur: p.oLegs[oi].dur + r.dur, o: oi, r: r.i}, j: j})
				return
			}
		}
	}
	for oi, o := range p.oLegs {
		rets[oi] = returnsFor(trip, o, p.rLegs, byDay)
		push(oi, 0)
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
			push(n.key.o, n.j+1)
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

func (p *pairing) roundTrip(k pairKey) flights.RoundTrip {
	return flights.RoundTrip{Out: p.outs[p.oLegs[k.o].i], Return: p.rets[p.rLegs[k.r].i]}
}

func (p *pairing) pick(k pairKey) *Pick {
	rt := p.roundTrip(k)
	return &Pick{Flight: rt.Out, Return: &rt.Return}
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
func (w Weights) PairRoundTrips(trip flights.Trip, outs, rets []flights.Flight, limit int) RoundTrips {
	res := RoundTrips{FewestStops: -1}
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
	// The returns of each day, so a trip whose dates move together looks
	// only at the day that keeps the stay.
	byDay := map[int][]leg{}
	for _, r := range p.rLegs {
		byDay[r.day] = append(byDay[r.day], r)
	}

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
		for _, r := range returnsFor(trip, o, p.rLegs, byDay) {
			if !feasible(trip, o, r) {
				continue
			}
			k := pairKey{score: o.score + r.score, dur: o.dur + r.dur, o: oi, r: r.i}
			res.Feasible++
			if s := max(o.stops, r.stops); res.FewestStops < 0 || s < res.FewestStops {
				res.FewestStops = s
			}
			cheapest = better(cheapest, k, func(k pairKey) (int64, bool) {
				return int64(p.oLegs[k.o].price + p.rLegs[k.r].price), true
			})
			fastest = better(fastest, k, func(k pairKey) (int64, bool) { return int64(k.dur), true })
			if o.stops == 0 && r.stops == 0 {
				nonstop = better(nonstop, k, func(pairKey) (int64, bool) { return 0, true })
			}
			if d := o.day - firstDay; d >= 0 && d < len(days) {
				keep(&days[d], k, o.price+r.price)
				if rd, ok := retDay[r.day]; ok && cells != nil {
					keep(&cells[d][rd], k, o.price+r.price)
				}
			}
		}
	}
	res.Pairs = p.varied(trip, byDay, limit)
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

// OneWayStandouts are the cheapest, the fastest and the best nonstop of
// candidates (filtered and ordered, best first): ties go to the better
// score.
func OneWayStandouts(candidates []flights.Flight) Standouts {
	var s Standouts
	for i := range candidates {
		f := &candidates[i]
		if s.Cheapest == nil || f.PriceUSD < s.Cheapest.Flight.PriceUSD {
			s.Cheapest = &Pick{Flight: *f}
		}
		if s.Fastest == nil || f.Duration() < s.Fastest.Flight.Duration() {
			s.Fastest = &Pick{Flight: *f}
		}
		if s.Nonstop == nil && f.Stops() == 0 {
			s.Nonstop = &Pick{Flight: *f}
		}
	}
	return s
}
