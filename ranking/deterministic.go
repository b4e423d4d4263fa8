package ranking

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// Weights turn stops and time into dollars so that one number can compare a
// cheap slow flight with a dear fast one. The dollars scale with the cabin:
// a connection and an hour cost a business traveller about as many times
// more as the fare does, so a two-stop itinerary that is $300 cheaper than
// a one-stop on a $3,000 ticket is not the better buy.
type Weights struct {
	// StopPenaltyUSD is added per connection in economy: the risk of a
	// missed connection and the bother of changing planes.
	StopPenaltyUSD float64
	// HourCostUSD is charged per hour of door-to-door time in economy.
	HourCostUSD float64
	// PremiumEconomyScale, BusinessScale and FirstScale multiply both
	// penalties for a flight in that cabin; 0 means the default scale
	// (DefaultBusinessScale and the others), 1 no scaling.
	PremiumEconomyScale, BusinessScale, FirstScale float64
}

// The cabin scales a Weights gets where it leaves them 0: about how much
// dearer each cabin's fare is than economy on the same flight, so a
// trade-off that is right in economy stays right in business.
const (
	DefaultPremiumEconomyScale = 1.7
	DefaultBusinessScale       = 4.2
	DefaultFirstScale          = 7.0
)

// DefaultWeights value a connection at $75 and an hour of a traveller's time
// at $20 in economy: a nonstop that costs $100 more than a one-stop taking
// three hours longer is the better buy (75 + 3*20 = 135 > 100). The cabin
// scales are the defaults.
var DefaultWeights = Weights{StopPenaltyUSD: 75, HourCostUSD: 20}

// Scale is what the penalties are multiplied by for cabin: 1 for economy
// and for a cabin the weights do not know.
func (w Weights) Scale(cabin flights.Cabin) float64 {
	pick := func(set, def float64) float64 {
		if set > 0 {
			return set
		}
		return def
	}
	switch cabin {
	case flights.PremiumEconomy:
		return pick(w.PremiumEconomyScale, DefaultPremiumEconomyScale)
	case flights.Business:
		return pick(w.BusinessScale, DefaultBusinessScale)
	case flights.First:
		return pick(w.FirstScale, DefaultFirstScale)
	}
	return 1
}

// Score is the fare per passenger plus the stop penalty plus the cost of
// time, both scaled for the flight's cabin. Lower is better.
func (w Weights) Score(f flights.Flight) float64 {
	stops, hours := w.penalties(f)
	return float64(f.PriceUSD) + stops + hours
}

// penalties are the dollars Score adds for f's stops and for its hours.
func (w Weights) penalties(f flights.Flight) (stops, hours float64) {
	k := w.Scale(f.Cabin)
	return k * w.StopPenaltyUSD * float64(f.Stops()), k * w.HourCostUSD * f.Duration().Hours()
}

// Explain is the scoring in one line, for a result to show how its
// deterministic picks were made.
func (w Weights) Explain() string {
	return fmt.Sprintf("score = fare + %s per stop + %s per hour in economy, both x%s in premium economy, x%s in business, x%s in first; lowest first",
		usd(w.StopPenaltyUSD), usd(w.HourCostUSD), num(w.Scale(flights.PremiumEconomy)), num(w.Scale(flights.Business)), num(w.Scale(flights.First)))
}

// ExplainCabin is the scoring that applies to a trip in cabin, in one line.
func (w Weights) ExplainCabin(cabin flights.Cabin) string {
	k := w.Scale(cabin)
	s := fmt.Sprintf("score = fare + %s per stop + %s per hour; lowest first", usd(k*w.StopPenaltyUSD), usd(k*w.HourCostUSD))
	if k != 1 {
		s += fmt.Sprintf(" (%s: x%s the economy %s and %s)", strings.ReplaceAll(string(cabin), "_", " "), num(k), usd(w.StopPenaltyUSD), usd(w.HourCostUSD))
	}
	return s
}

func usd(v float64) string { return "$" + strconv.FormatFloat(math.Round(v), 'f', -1, 64) }

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

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
	if len(candidates) == 0 {
		return r
	}
	best := extremes{
		price:    minOf(candidates, func(g flights.Flight) int { return g.PriceUSD }),
		duration: minOf(candidates, flights.Flight.Duration),
		score:    w.Score(candidates[0]),
	}
	for i, f := range candidates[:min(n, len(candidates))] {
		r.Picks = append(r.Picks, Pick{Flight: f, Reason: w.reason(i, f, best)})
	}
	return r
}

// extremes are what a reason compares a pick with: the lowest fare and
// duration among the candidates, and the first pick's score.
type extremes struct {
	price    int
	duration time.Duration
	score    float64
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

// Describe is a flight in one line of facts: fare (and the total, for more
// than one passenger), stops, duration.
func Describe(f flights.Flight) string {
	return fmt.Sprintf("%s, %s, %s", fareText(f.PriceUSD, f.TotalUSD), StopsText(f), flights.FormatDuration(f.Duration()))
}

// fareText is "$600", or "$600 ($1800 for 3)" when the total covers more
// than one passenger.
func fareText(price, total int) string {
	if price <= 0 || total <= price {
		return fmt.Sprintf("$%d", price)
	}
	return fmt.Sprintf("$%d ($%d for %d)", price, total, total/price)
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
// what it is, what stands out about it, and its score taken apart.
func (w Weights) reason(i int, f flights.Flight, best extremes) string {
	var notes []string
	if f.PriceUSD == best.price {
		notes = append(notes, "cheapest")
	}
	if f.Duration() == best.duration {
		notes = append(notes, "fastest")
	}
	lead := "best balance of price, stops and time"
	if i > 0 {
		lead = fmt.Sprintf("next best (score %+.0f vs #1)", w.Score(f)-best.score)
	}
	if len(notes) > 0 {
		lead += "; " + strings.Join(notes, " and ") + " of all"
	}
	return fmt.Sprintf("%s: %s (%s)", Describe(f), lead, w.scoreText(f))
}

// scoreText is a flight's score and what it is made of:
// "score 1573 = $600 fare + $315 for 1 stop + $658 for 7h50m".
func (w Weights) scoreText(f flights.Flight) string {
	stops, hours := w.penalties(f)
	s := fmt.Sprintf("score %.0f = $%d fare", w.Score(f), f.PriceUSD)
	if n := f.Stops(); n > 0 {
		s += fmt.Sprintf(" + %s for %d stop", usd(stops), n)
		if n > 1 {
			s += "s"
		}
	}
	return s + fmt.Sprintf(" + %s for %s", usd(hours), flights.FormatDuration(f.Duration()))
}

// minOf is the least key over xs (flights or round trips), which must not
// be empty.
func minOf[E any, T cmp.Ordered](xs []E, key func(E) T) T {
	m := key(xs[0])
	for _, x := range xs[1:] {
		m = min(m, key(x))
	}
	return m
}

// ScoreRoundTrip is the sum of the legs' scores. Lower is better.
func (w Weights) ScoreRoundTrip(r flights.RoundTrip) float64 {
	return w.Score(r.Out) + w.Score(r.Return)
}

// RoundTripCandidates is the best limit pairs of PairRoundTrips, best
// first (as OrderRoundTrips).
func (w Weights) RoundTripCandidates(trip flights.Trip, outs, rets []flights.Flight, limit int) []flights.RoundTrip {
	if limit <= 0 {
		return nil
	}
	return w.PairRoundTrips(trip, outs, rets, limit).Pairs
}

// OrderRoundTrips sorts round trips best first, in place: by score, then
// shorter time in the air and connecting, then earlier outbound and return
// departures, then the legs' ids, so equal scores give one answer on every
// machine. It is the order PairRoundTrips keeps.
func (w Weights) OrderRoundTrips(rs []flights.RoundTrip) {
	p := &pairing{outs: make([]flights.Flight, len(rs)), rets: make([]flights.Flight, len(rs))}
	ks := make([]pairKey, len(rs))
	for i, r := range rs {
		p.outs[i], p.rets[i] = r.Out, r.Return
		ks[i] = pairKey{score: w.ScoreRoundTrip(r), dur: r.Duration(), o: i, r: i}
	}
	p.oLegs, p.rLegs = make([]leg, len(rs)), make([]leg, len(rs))
	for i, r := range rs {
		p.oLegs[i] = leg{dep: r.Out.Depart().Unix(), i: i}
		p.rLegs[i] = leg{dep: r.Return.Depart().Unix(), i: i}
	}
	slices.SortFunc(ks, func(a, b pairKey) int {
		if p.less(a, b) {
			return -1
		}
		if p.less(b, a) {
			return 1
		}
		return 0
	})
	for i, k := range ks {
		rs[i] = p.roundTrip(k)
	}
}

// RoundTripPick is a chosen round trip and a one-line reason for people.
type RoundTripPick struct {
	RoundTrip flights.RoundTrip
	Reason    string
}

// RankRoundTrips returns n of candidates (from RoundTripCandidates:
// filtered, paired and ordered) with a reason each: the best, then the best
// that fly neither an outbound nor a return flight already picked, so that
// three picks are three ways to make the trip, not one return flight with
// three outbounds; only when there are not enough of those does a pick
// share a flight. Like Rank, it never fails.
func (w Weights) RankRoundTrips(candidates []flights.RoundTrip, n int) []RoundTripPick {
	var picks []RoundTripPick
	if len(candidates) == 0 {
		return nil
	}
	cheapest := minOf(candidates, flights.RoundTrip.PriceUSD)
	for _, i := range varied(candidates, n) {
		r := candidates[i]
		lead := "best balance of price, stops and time"
		if len(picks) > 0 {
			lead = fmt.Sprintf("next best (score %+.0f vs #1)", w.ScoreRoundTrip(r)-w.ScoreRoundTrip(candidates[0]))
		}
		if r.PriceUSD() == cheapest {
			lead += "; cheapest of these"
		}
		reason := fmt.Sprintf("%s: out %s; back %s: %s (score %.0f: out %.0f + back %.0f)",
			DescribeRoundTrip(r), Describe(r.Out), Describe(r.Return), lead, w.ScoreRoundTrip(r), w.Score(r.Out), w.Score(r.Return))
		if changes := AirportChanges(r); len(changes) > 0 {
			reason += "; " + strings.Join(changes, "; ")
		}
		picks = append(picks, RoundTripPick{RoundTrip: r, Reason: reason})
	}
	return picks
}

// varied picks n of the ordered round trips: each in turn when it shares
// no flight with an earlier pick, then the best of the rest.
func varied(rs []flights.RoundTrip, n int) []int {
	used := map[string]bool{}
	var out []int
	taken := make([]bool, len(rs))
	for i, r := range rs {
		if len(out) == n {
			return out
		}
		if !used[r.Out.ID] && !used[r.Return.ID] {
			used[r.Out.ID], used[r.Return.ID], taken[i] = true, true, true
			out = append(out, i)
		}
	}
	for i := range rs {
		if len(out) == n {
			break
		}
		if !taken[i] {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// AirportChanges says where a round trip does not come back the way it
// went: the return lands at another airport of the origin's city than the
// outbound left from (out of EWR, back into LGA), or leaves from another
// airport of the destination's than the outbound landed at. Empty when it
// uses the same airports both ways.
func AirportChanges(r flights.RoundTrip) []string {
	var out []string
	from, landed := r.Out.Segments[0].From, r.Out.Segments[len(r.Out.Segments)-1].To
	leaves, home := r.Return.Segments[0].From, r.Return.Segments[len(r.Return.Segments)-1].To
	if leaves != landed {
		out = append(out, fmt.Sprintf("change of airport at the destination: lands at %s, returns from %s", landed, leaves))
	}
	if home != from {
		out = append(out, fmt.Sprintf("change of airport at home: leaves from %s, returns to %s", from, home))
	}
	return out
}

// DescribeRoundTrip is a round trip's fare in one line, with the total
// when there is more than one passenger: "$1150 ($3450 for 3) round trip".
func DescribeRoundTrip(r flights.RoundTrip) string {
	return fareText(r.PriceUSD(), r.TotalUSD()) + " round trip"
}
