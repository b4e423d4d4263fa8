package ranking

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// Option is one way to make a trip, what every rung chooses among: a
// flight, or a round trip's outbound Flight and its Return. A round trip's
// legs are priced as a pair (flights.NewRoundTrip), so its fare is theirs
// together.
type Option struct {
	Flight flights.Flight
	// Return is the return flight of a round trip; nil for one way.
	Return *flights.Flight
}

// OneWay are the flights as one-way options, in their order.
func OneWay(fs []flights.Flight) []Option {
	os := make([]Option, len(fs))
	for i, f := range fs {
		os[i] = Option{Flight: f}
	}
	return os
}

// Paired are the pairs as round-trip options, in their order.
func Paired(rs []flights.RoundTrip) []Option {
	if rs == nil {
		return nil
	}
	os := make([]Option, len(rs))
	rets := make([]flights.Flight, len(rs)) // one block for the returns
	for i, r := range rs {
		rets[i] = r.Return
		os[i] = Option{Flight: r.Out, Return: &rets[i]}
	}
	return os
}

// roundTrip is the option's pair; only for an option with a Return.
func (o Option) roundTrip() flights.RoundTrip {
	return flights.RoundTrip{Out: o.Flight, Return: *o.Return}
}

// ID is the option's id: the flight's, or the round trip's (both legs').
func (o Option) ID() string {
	if o.Return != nil {
		return o.roundTrip().ID()
	}
	return o.Flight.ID
}

// TotalUSD is what the option costs everyone travelling, both legs included.
func (o Option) TotalUSD() int {
	if o.Return != nil {
		return o.Flight.TotalUSD + o.Return.TotalUSD
	}
	return o.Flight.TotalUSD
}

// PriceUSD is the option's fare per passenger, both legs included.
func (o Option) PriceUSD() int {
	if o.Return != nil {
		return o.Flight.PriceUSD + o.Return.PriceUSD
	}
	return o.Flight.PriceUSD
}

// Duration is the time the option spends flying and connecting, both legs
// included.
func (o Option) Duration() time.Duration {
	if o.Return != nil {
		return o.Flight.Duration() + o.Return.Duration()
	}
	return o.Flight.Duration()
}

// Stops is the number of connections on every leg of the option together.
func (o Option) Stops() int {
	if o.Return != nil {
		return o.Flight.Stops() + o.Return.Stops()
	}
	return o.Flight.Stops()
}

// Nonstop reports whether every leg of the option is nonstop.
func (o Option) Nonstop() bool {
	return o.Flight.Stops() == 0 && (o.Return == nil || o.Return.Stops() == 0)
}

// ScoreOption is the option's score: its flight's (Score), plus its
// return's for a round trip. Lower is better.
func (w Weights) ScoreOption(o Option) float64 {
	if o.Return != nil {
		return w.Score(o.Flight) + w.Score(*o.Return)
	}
	return w.Score(o.Flight)
}

// Describe is an option in one line of facts: a flight's fare (and the
// total, for more than one passenger), stops and duration; for a round
// trip, its fare, then each leg's: "$1150 round trip: out $600, nonstop,
// 7h05m; back $550, 1 stop (DUB), 9h40m".
func Describe(o Option) string {
	var buf [reasonSize]byte
	return string(appendDescription(buf[:0], o))
}

// appendDescription appends o's line of facts to b as Describe writes it.
func appendDescription(b []byte, o Option) []byte {
	if o.Return != nil {
		b = append(appendFare(b, o.PriceUSD(), o.TotalUSD()), " round trip: out "...)
		b = append(appendFlight(b, o.Flight), "; back "...)
		return appendFlight(b, *o.Return)
	}
	return appendFlight(b, o.Flight)
}

// appendFlight appends one flight's fare, stops and duration to b.
func appendFlight(b []byte, f flights.Flight) []byte {
	b = append(appendFare(b, f.PriceUSD, f.TotalUSD), ", "...)
	b = append(AppendStops(b, f), ", "...)
	return flights.AppendDuration(b, f.Duration())
}

// Order sorts options best first, in place: by score, then shorter time in
// the air and connecting, then earlier departure (the outbound's, then the
// return's), then the legs' ids, so that equal scores still give one answer
// on every machine. It is the order Candidates and PairRoundTrips keep.
func (w Weights) Order(os []Option) {
	perm := w.order(len(os), func(i int) orderKey {
		o := os[i]
		k := orderKey{score: w.ScoreOption(o), duration: o.Duration(), depart: o.Flight.Depart().Unix()}
		if o.Return != nil {
			k.back = o.Return.Depart().Unix()
		}
		return k
	}, func(i int) (string, string) {
		if os[i].Return != nil {
			return os[i].Flight.ID, os[i].Return.ID
		}
		return os[i].Flight.ID, ""
	})
	sorted := make([]Option, len(os))
	for i, j := range perm {
		sorted[i] = os[j]
	}
	copy(os, sorted)
}

// orderKey is an option as Order compares it, before its ids.
type orderKey struct {
	score        float64
	duration     time.Duration
	depart, back int64 // Unix seconds; back is 0 for one way
}

// order is the permutation that sorts n options best first by their keys,
// each computed once, not once per comparison, and then by their legs' ids.
func (w Weights) order(n int, key func(i int) orderKey, ids func(i int) (out, back string)) []int {
	type keyed struct { // no pointers: sorting moves plain words
		orderKey
		i int
	}
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{key(i), i}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.duration, b.duration), cmp.Compare(a.depart, b.depart),
			cmp.Compare(a.back, b.back)); c != 0 {
			return c
		}
		ao, ab := ids(a.i)
		bo, bb := ids(b.i)
		return cmp.Or(strings.Compare(ao, bo), strings.Compare(ab, bb))
	})
	perm := make([]int, n)
	for i, k := range ks {
		perm[i] = k.i
	}
	return perm
}
