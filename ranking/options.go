package ranking

import (
	"errors"
	"fmt"
	"time"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking/answer"
)

// Options are what the rungs of the ladder choose among for one trip: its
// one-way candidates, or, for a round trip, the best pairs of an outbound
// and a return flight. Every rung works on Options, so a round trip goes
// through the same ladder as a one-way search: the deterministic ranker, the
// shortlist, and both LLM rungs with one prompt for the pairs.
type Options struct {
	Trip flights.Trip
	// Flights are the one-way candidates, filtered and ordered
	// (Weights.Candidates); empty for a round trip.
	Flights []flights.Flight
	// Pairs are the round-trip candidates, paired and ordered
	// (Weights.RoundTripCandidates); empty for one way.
	Pairs []flights.RoundTrip
}

// MaxPairs is how many round trips the rungs choose among: the best pairs of
// (typically) 47 outbound and 47 return flights, as many as a one-way
// search has options, which keeps the prompt under 8 KB.
const MaxPairs = 47

// RoundTrip reports whether the options are pairs.
func (o Options) RoundTrip() bool { return o.Trip.IsRoundTrip() }

// Len is how many options there are.
func (o Options) Len() int {
	if o.RoundTrip() {
		return len(o.Pairs)
	}
	return len(o.Flights)
}

// IDs are the options' ids, in order: what an LLM's answer must name.
func (o Options) IDs() []string {
	ids := make([]string, o.Len())
	for i := range ids {
		ids[i] = o.id(i)
	}
	return ids
}

// id is the i-th option's id.
func (o Options) id(i int) string {
	if o.RoundTrip() {
		return o.Pairs[i].ID()
	}
	return o.Flights[i].ID
}

// pick is the i-th option as a pick, without a reason.
func (o Options) pick(i int) Pick {
	if o.RoundTrip() {
		ret := o.Pairs[i].Return
		return Pick{Flight: o.Pairs[i].Out, Return: &ret}
	}
	return Pick{Flight: o.Flights[i]}
}

// described is the i-th option's pick with its facts as the reason.
func (o Options) described(i int) Pick {
	p := o.pick(i)
	if o.RoundTrip() {
		r := o.Pairs[i]
		p.Reason = DescribeRoundTrip(r) + ": out " + Describe(r.Out) + "; back " + Describe(r.Return)
	} else {
		p.Reason = Describe(p.Flight)
	}
	return p
}

// Prompt is the prompt both LLM rungs send for these options.
func (o Options) Prompt() Prompt {
	if o.RoundTrip() {
		return NewRoundTripPrompt(o.Trip, o.Pairs)
	}
	return NewPrompt(o.Trip, o.Flights)
}

// Deterministic is the deterministic rung: the best n options with a reason
// each. It never fails.
func (w Weights) Deterministic(o Options, n int) Ranking {
	if !o.RoundTrip() {
		return w.Rank(o.Flights, n)
	}
	r := Ranking{Method: Deterministic, Ranked: true, Considered: len(o.Pairs)}
	for _, p := range w.RankRoundTrips(o.Pairs, n) {
		ret := p.RoundTrip.Return
		r.Picks = append(r.Picks, Pick{Flight: p.RoundTrip.Out, Return: &ret, Reason: p.Reason})
	}
	return r
}

// ShortlistOf is the candidates rung: the first n options, unranked.
func (w Weights) ShortlistOf(o Options, n int) Ranking {
	if !o.RoundTrip() {
		return w.Shortlist(o.Flights, n)
	}
	r := Ranking{Method: Candidates, Ranked: false, Considered: len(o.Pairs)}
	for i := range min(n, len(o.Pairs)) {
		r.Picks = append(r.Picks, o.described(i))
	}
	return r
}

// FromReply reads a model's reply to o.Prompt() with answer.Parse (or
// answer.ParseInputs, when the model called the answer tool) and ranks n of
// the options with it, for tier: the end of the pipeline both LLM rungs
// share, so an answer counts, or does not, for the same reasons
// whichever model wrote it. The error, when the reply does not count, is an
// *answer.Error whose Reason says why in a few words.
func (w Weights) FromReply(tier Tier, reply Reply, o Options, n int) (Ranking, error) {
	picks, err := reply.read(o.IDs())
	if err != nil {
		reason := "the answer could not be read"
		if ae, ok := errors.AsType[*answer.Error](err); ok {
			reason = ae.Reason
		}
		if reply.CutOff {
			reason += " (it was cut off at its token limit)"
		}
		return Ranking{}, &answer.Error{Reason: reason}
	}
	var r Ranking
	if o.RoundTrip() {
		r = fromAnswer(tier, len(o.Pairs), o.id, o.described, picks, n)
	} else {
		r = w.FromAnswer(tier, o.Flights, picks, n)
	}
	r.Model = reply.Model
	return r, nil
}

// Day is one day of a flexible-dates search: the lowest fare per passenger
// that day (both legs, for a round trip), and the option the deterministic
// order puts first.
type Day struct {
	Date      time.Time
	LowestUSD int
	BestID    string
	// Returns, for a flexible round trip, has one entry per return day of
	// the trip (flights.Trip.ReturnDates): the best pair leaving on this
	// day and coming back on that one, and its lowest fare; a return day no
	// pair fits has LowestUSD 0 and no BestID. Nil for one way.
	Returns []Day
}

// Calendar is one Day per outbound date searched, in date order, each
// option on the day of the trip it counts for (flights.Trip.DepartDay); a
// day with no option has LowestUSD 0 and no BestID.
func (o Options) Calendar(dates []time.Time) []Day {
	days := make([]Day, len(dates))
	index := make(map[string]int, len(dates))
	for i, d := range dates {
		days[i].Date = d
		index[d.Format(flights.DateLayout)] = i
	}
	for i := range o.Len() {
		id, p := o.id(i), o.pick(i) // in deterministic order: the first of a day is its best
		k, ok := index[o.Trip.DepartDay(p.Flight.Depart()).Format(flights.DateLayout)]
		if !ok {
			continue
		}
		d := &days[k]
		if d.BestID == "" {
			d.BestID = id
		}
		if price := p.PriceUSD(); d.LowestUSD == 0 || price < d.LowestUSD {
			d.LowestUSD = price
		}
	}
	return days
}

// String is a day as the text shows it: "Tue 15 Dec $412".
func (d Day) String() string {
	if d.BestID == "" {
		return d.Date.Format("Mon 2 Jan") + " —"
	}
	return fmt.Sprintf("%s $%d", d.Date.Format("Mon 2 Jan"), d.LowestUSD)
}
