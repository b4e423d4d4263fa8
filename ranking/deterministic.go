package ranking

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// Weights turn stops and time into dollars so that one number can compare a
// cheap slow flight with a dear fast one.
type Weights struct {
	// StopPenaltyUSD is added per connection: the risk of a missed
	// connection and the bother of changing planes.
	StopPenaltyUSD float64
	// HourCostUSD is charged per hour of door-to-door time.
	HourCostUSD float64
}

// DefaultWeights value a connection at $75 and an hour of a traveller's time
// at $20: a nonstop that costs $100 more than a one-stop taking three hours
// longer is the better buy (75 + 3*20 = 135 > 100).
var DefaultWeights = Weights{StopPenaltyUSD: 75, HourCostUSD: 20}

// Score is the price per passenger plus the stop penalty plus the cost of
// time. Lower is better.
func (w Weights) Score(f flights.Flight) float64 {
	return float64(f.PriceUSD) + w.StopPenaltyUSD*float64(f.Stops()) + w.HourCostUSD*f.Duration().Hours()
}

// Order sorts flights best first, in place: by score, then shorter duration,
// then earlier departure, then id, so that equal scores still give one
// answer on every machine. Keys are computed once per flight, not once per
// comparison.
func (w Weights) Order(fs []flights.Flight) {
	type keyed struct { // no pointers: sorting moves plain words
		score    float64
		duration time.Duration
		depart   int64
		i        int
	}
	ks := make([]keyed, len(fs))
	for i, f := range fs {
		ks[i] = keyed{w.Score(f), f.Duration(), f.Depart().Unix(), i}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.duration, b.duration),
			cmp.Compare(a.depart, b.depart), cmp.Compare(fs[a.i].ID, fs[b.i].ID))
	})
	sorted := make([]flights.Flight, len(fs))
	for i, k := range ks {
		sorted[i] = fs[k.i]
	}
	copy(fs, sorted)
}

// Candidates filters the search result by the trip and orders it best
// first: the list every tier works from (the LLM tiers show it in this
// order, the deterministic tier takes its head).
func (w Weights) Candidates(trip flights.Trip, found []flights.Flight) []flights.Flight {
	fs := Filter(trip, found)
	w.Order(fs)
	return fs
}

// Rank returns the best n of candidates (from Candidates: filtered and
// ordered) with a reason each. It never fails: this is the tier every other
// one falls back on.
func (w Weights) Rank(candidates []flights.Flight, n int) Ranking {
	r := Ranking{Method: Deterministic, Ranked: true, Considered: len(candidates)}
	for i, f := range candidates[:min(n, len(candidates))] {
		r.Picks = append(r.Picks, Pick{Flight: f, Reason: w.reason(i, f, candidates)})
	}
	return r
}

// Shortlist is the candidates tier: the first n of candidates (filtered and
// ordered), for the host's model to choose from with the user. It is marked
// unranked because the order is a convenience, not a recommendation.
func (w Weights) Shortlist(candidates []flights.Flight, n int) Ranking {
	r := Ranking{Method: Candidates, Ranked: false, Considered: len(candidates)}
	for _, f := range candidates[:min(n, len(candidates))] {
		r.Picks = append(r.Picks, Pick{Flight: f, Reason: Describe(f)})
	}
	return r
}

// Describe is a flight in one line of facts: fare, stops, duration.
func Describe(f flights.Flight) string {
	return fmt.Sprintf("$%d, %s, %s", f.PriceUSD, StopsText(f), flights.FormatDuration(f.Duration()))
}

// StopsText is "nonstop", "1 stop (ORD)" or "2 stops (ORD, FRA)".
func StopsText(f flights.Flight) string {
	switch n := f.Stops(); n {
	case 0:
		return "nonstop"
	case 1:
		return "1 stop (" + f.Via()[0] + ")"
	default:
		return fmt.Sprintf("%d stops (%s)", n, strings.Join(f.Via(), ", "))
	}
}

// reason says why the flight at position i (in the ordered fs) is there:
// what it is, what stands out about it, and its score.
func (w Weights) reason(i int, f flights.Flight, fs []flights.Flight) string {
	var notes []string
	if f.PriceUSD == minOf(fs, func(g flights.Flight) int { return g.PriceUSD }) {
		notes = append(notes, "cheapest")
	}
	if f.Duration() == minOf(fs, flights.Flight.Duration) {
		notes = append(notes, "fastest")
	}
	lead := "best balance of price, stops and time"
	if i > 0 {
		lead = fmt.Sprintf("next best (score %+.0f vs #1)", w.Score(f)-w.Score(fs[0]))
	}
	if len(notes) > 0 {
		lead += "; " + strings.Join(notes, " and ") + " of all"
	}
	return fmt.Sprintf("%s: %s (score %.0f)", Describe(f), lead, w.Score(f))
}

func minOf[T cmp.Ordered](fs []flights.Flight, key func(flights.Flight) T) T {
	m := key(fs[0])
	for _, f := range fs[1:] {
		m = min(m, key(f))
	}
	return m
}
