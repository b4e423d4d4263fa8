package ranking

import (
	"errors"
	"fmt"
	"time"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking/answer"
)

// Options are what the rungs of the ladder choose among for one trip: its
// one-way flights, or, for a round trip, the best pairs of an outbound and
// a return flight, in the deterministic order (Candidates, or
// PairRoundTrips). Every rung works on Options, so a round trip goes
// through the same ladder as a one-way search: the deterministic ranker, the
// shortlist, and both LLM rungs with one prompt.
type Options struct {
	Trip flights.Trip
	List []Option
}

// MaxOptions is how many options the rungs choose among: as many as one
// day of a one-way search has (typically 47), across the days of a
// flexible search, so its prompt stays as small as a single day's; for a
// round trip, the best pairs of (typically) 47 outbound and 47 return
// flights, which keeps the prompt under 8 KB. The calendar still covers
// every day.
const MaxOptions = 47

// Len is how many options there are.
func (o Options) Len() int { return len(o.List) }

// IDs are the options' ids, in order: what an LLM's answer must name.
func (o Options) IDs() []string {
	ids := make([]string, len(o.List))
	for i, opt := range o.List {
		ids[i] = opt.ID()
	}
	return ids
}

// Prompt is the prompt both LLM rungs send for these options.
func (o Options) Prompt() Prompt { return NewPrompt(o.Trip, o.List) }

// FromReply reads a model's reply to o.Prompt() with answer.Parse (or
// answer.ParseInputs, when the model called the answer tool) and ranks n of
// the options with it, for tier: the end of the pipeline both LLM rungs
// share, so an answer counts, or does not, for the same reasons
// whichever model wrote it. The error, when the reply does not count, is an
// *answer.Error whose Reason says why in a few words.
func FromReply(tier Tier, reply Reply, o Options, n int) (Ranking, error) {
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
	r := fromAnswer(tier, o.List, picks, n)
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

// calendar is one Day per outbound date searched, in date order, each
// option on the day of the trip it counts for (flights.Trip.DepartDay); a
// day with no option has LowestUSD 0 and no BestID.
func (o Options) calendar(dates []time.Time) []Day {
	days := make([]Day, len(dates))
	index := make(map[string]int, len(dates))
	for i, d := range dates {
		days[i].Date = d
		index[d.Format(flights.DateLayout)] = i
	}
	for _, p := range o.List { // in deterministic order: the first of a day is its best
		k, ok := index[o.Trip.DepartDay(p.Flight.Depart()).Format(flights.DateLayout)]
		if !ok {
			continue
		}
		d := &days[k]
		if d.BestID == "" {
			d.BestID = p.ID()
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
