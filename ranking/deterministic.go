package ranking

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
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
	s := "score = fare + " + usd(k*w.StopPenaltyUSD) + " per stop + " + usd(k*w.HourCostUSD) + " per hour; lowest first"
	if k != 1 {
		s += " (" + cabin.Words() + ": x" + num(k) + " the economy " + usd(w.StopPenaltyUSD) + " and " + usd(w.HourCostUSD) + ")"
	}
	return s
}

func usd(v float64) string {
	var buf [textSize]byte
	return string(appendUSD(buf[:0], v))
}

// appendUSD appends v to b as usd writes it.
func appendUSD(b []byte, v float64) []byte {
	return strconv.AppendFloat(append(b, '$'), math.Round(v), 'f', -1, 64)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// orderFlights sorts flights best first, in place, as Order sorts them
// as one-way options.
func (w Weights) orderFlights(fs []flights.Flight) {
	perm := w.order(len(fs), func(i int) orderKey {
		return orderKey{score: w.Score(fs[i]), duration: fs[i].Duration(), depart: fs[i].Depart().Unix()}
	}, func(i int) (string, string) { return fs[i].ID, "" })
	sorted := make([]flights.Flight, len(fs))
	for i, j := range perm {
		sorted[i] = fs[j]
	}
	copy(fs, sorted)
}

// Candidates filters the search result by the trip and orders it best
// first: the list every tier works from (the LLM tiers show it in this
// order, the deterministic tier takes its head).
func (w Weights) Candidates(trip flights.Trip, found []flights.Flight) []flights.Flight {
	fs := Filter(trip, found)
	w.orderFlights(fs)
	return fs
}

// Rank returns n of options (filtered and ordered, as Find gives them)
// with a reason each. all are the standouts of every option found, of
// which options may be only the first few (Found.Standouts): a one-way
// pick's reason calls it the cheapest or the fastest "of all" only when it
// is that among them all (zero Standouts: options are all there is). It
// never fails: this is the tier every other one falls back on. For a round trip it takes the best, then
// the best that fly neither an outbound nor a return flight already
// picked, so that three picks are three ways to make the trip, not one
// return flight with three outbounds; only when there are not enough of
// those does a pick share a flight.
func (w Weights) Rank(options []Option, n int, all Standouts) Ranking {
	r := Ranking{Method: Deterministic, Ranked: true, Considered: len(options)}
	if len(options) == 0 {
		return r
	}
	best := extremes{
		price:    minOf(options, (*Option).PriceUSD),
		duration: minOf(options, (*Option).Duration),
		score:    w.ScoreOption(options[0]),
	}
	if options[0].Return == nil { // a round trip's reason compares with "these" only
		if all.Cheapest != nil {
			best.price = min(best.price, all.Cheapest.PriceUSD())
		}
		if all.Fastest != nil {
			best.duration = min(best.duration, all.Fastest.Duration())
		}
	} else {
		all = Standouts{}
	}
	best.priceShared = shared(options, best.price, (*Option).PriceUSD, all.Cheapest)
	best.durationShared = shared(options, best.duration, (*Option).Duration, all.Fastest)
	picked := varied(options, n)
	r.Picks = make([]Pick, len(picked))
	for k, i := range picked {
		r.Picks[k] = Pick{Option: options[i], Reason: w.reason(k, options[i], best)}
	}
	return r
}

// extremes are what a reason compares a pick with: the lowest fare and
// duration (of every one-way option found; of a round trip's options), and
// the first option's score.
type extremes struct {
	price    int
	duration time.Duration
	score    float64
	// priceShared and durationShared say that more than one option has
	// that fare or that duration, so a pick is the joint cheapest or
	// fastest, not the one.
	priceShared, durationShared bool
}

// shared reports whether more than one option has v for key: two of
// options, or one of them and the standout of all found (when it is
// another option, or none of options has v).
func shared[T comparable](options []Option, v T, key func(*Option) T, standout *Pick) bool {
	n, at := 0, 0
	for i := range options {
		if key(&options[i]) == v {
			if n++; n > 1 {
				return true
			}
			at = i
		}
	}
	return standout != nil && key(&standout.Option) == v && (n == 0 || standout.ID() != options[at].ID())
}

// Shortlist is the candidates tier: the first n of options (filtered and
// ordered), for the host's model to choose from with the user, each with
// its facts (Describe). It is marked unranked because the order is a
// convenience, not a recommendation.
func (w Weights) Shortlist(options []Option, n int) Ranking {
	r := Ranking{Method: Candidates, Ranked: false, Considered: len(options)}
	for _, o := range options[:min(n, len(options))] {
		r.Picks = append(r.Picks, described(o))
	}
	return r
}

// described is o as a pick with its facts as the reason.
func described(o Option) Pick { return Pick{Option: o, Reason: Describe(o)} }

// appendFare appends a fare to b: "$600", or "$600 ($1800 for 3)" when
// the total covers more than one passenger.
func appendFare(b []byte, price, total int) []byte {
	b = strconv.AppendInt(append(b, '$'), int64(price), 10)
	if price <= 0 || total <= price {
		return b
	}
	b = strconv.AppendInt(append(b, " ($"...), int64(total), 10)
	b = strconv.AppendInt(append(b, " for "...), int64(total/price), 10)
	return append(b, ')')
}

// StopsText is "nonstop", "1 stop (ORD)" or "2 stops (ORD, FRA)".
func StopsText(f flights.Flight) string {
	if f.Stops() == 0 {
		return nonstop
	}
	var buf [textSize]byte
	return string(AppendStops(buf[:0], f))
}

const nonstop = "nonstop"

// AppendStops appends f's stops to b as StopsText writes them, for text
// built in one buffer.
func AppendStops(b []byte, f flights.Flight) []byte {
	switch n := f.Stops(); n {
	case 0:
		return append(b, nonstop...)
	case 1:
		b = append(b, "1 stop ("...)
	default:
		b = append(strconv.AppendInt(b, int64(n), 10), " stops ("...)
	}
	for i, s := range f.Segments[:len(f.Segments)-1] {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, s.To...)
	}
	return append(b, ')')
}

// textSize is room on the stack for one of the short texts built here (a
// fare, a flight's stops); a longer one still fits, on the heap.
const textSize = 64

// reason says why the option that is the k-th pick is there: what it
// is, what stands out about it, and its score taken apart.
func (w Weights) reason(k int, o Option, best extremes) string {
	var buf [reasonSize]byte
	b := append(appendDescription(buf[:0], o), ": "...)
	if k == 0 {
		b = append(b, "best balance of price, stops and time"...)
	} else {
		b = append(b, "next best (score "...)
		b = append(appendSigned(b, w.ScoreOption(o)-best.score), " vs #1)"...)
	}
	if o.Return == nil {
		cheapest, fastest := o.PriceUSD() == best.price, o.Duration() == best.duration
		if cheapest {
			b = append(joint(append(b, "; "...), best.priceShared), "cheapest"...)
		}
		if cheapest && fastest {
			b = append(b, " and "...)
		} else if fastest {
			b = append(b, "; "...)
		}
		if fastest {
			b = append(joint(b, best.durationShared), "fastest"...)
		}
		if cheapest || fastest {
			b = append(b, " of all"...)
		}
		b = append(w.appendScore(append(b, " ("...), o.Flight), ')')
		return string(b)
	}
	if o.PriceUSD() == best.price {
		b = append(append(joint(append(b, "; "...), best.priceShared), "cheapest"...), " of these"...)
	}
	b = appendWhole(append(b, " (score "...), w.ScoreOption(o))
	b = appendWhole(append(b, ": out "...), w.Score(o.Flight))
	b = appendWhole(append(b, " + back "...), w.Score(*o.Return))
	b = append(b, ')')
	for _, change := range AirportChanges(o) {
		b = append(append(b, "; "...), change...)
	}
	return string(b)
}

// joint appends "joint " when the extreme that follows is shared.
func joint(b []byte, shared bool) []byte {
	if shared {
		return append(b, "joint "...)
	}
	return b
}

// reasonSize is room on the stack for a typical reason, so that building
// one allocates only the string it returns.
const reasonSize = 256

// appendWhole appends v rounded to a whole number, as %.0f writes it.
func appendWhole(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'f', 0, 64) }

// appendSigned is appendWhole with the sign always written, as %+.0f
// writes it.
func appendSigned(b []byte, v float64) []byte {
	at := len(b)
	b = appendWhole(b, v)
	if b[at] == '-' || b[at] == '+' {
		return b
	}
	b = append(b, 0)
	copy(b[at+1:], b[at:])
	b[at] = '+'
	return b
}

// appendScore appends a flight's score and what it is made of to b:
// "score 1573 = $600 fare + $315 for 1 stop + $658 for 7h50m".
func (w Weights) appendScore(b []byte, f flights.Flight) []byte {
	stops, hours := w.penalties(f)
	b = appendWhole(append(b, "score "...), w.Score(f))
	b = strconv.AppendInt(append(b, " = $"...), int64(f.PriceUSD), 10)
	b = append(b, " fare"...)
	if n := f.Stops(); n > 0 {
		b = appendUSD(append(b, " + "...), stops)
		b = strconv.AppendInt(append(b, " for "...), int64(n), 10)
		b = append(b, " stop"...)
		if n > 1 {
			b = append(b, 's')
		}
	}
	b = appendUSD(append(b, " + "...), hours)
	return flights.AppendDuration(append(b, " for "...), f.Duration())
}

// minOf is the least key over xs (flights or round trips), which must not
// be empty. key reads each element in place: an option is too large to
// copy for each.
func minOf[E any, T cmp.Ordered](xs []E, key func(*E) T) T {
	m := key(&xs[0])
	for i := range xs[1:] {
		m = min(m, key(&xs[i+1]))
	}
	return m
}

// varied picks n of the ordered options: each in turn when it shares no
// flight with an earlier pick (a one-way option always qualifies), then
// the best of the rest.
func varied(os []Option, n int) []int {
	used := map[string]bool{}
	out := make([]int, 0, min(n, len(os)))
	taken := make([]bool, len(os))
	for i, o := range os {
		if len(out) == n {
			return out
		}
		if o.Return == nil {
			taken[i] = true
			out = append(out, i)
		} else if !used[o.Flight.ID] && !used[o.Return.ID] {
			used[o.Flight.ID], used[o.Return.ID], taken[i] = true, true, true
			out = append(out, i)
		}
	}
	for i := range os {
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
// uses the same airports both ways, and for a one-way option.
func AirportChanges(o Option) []string {
	if o.Return == nil {
		return nil
	}
	r := o.roundTrip()
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
