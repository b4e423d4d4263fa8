package ranking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// When a trip's filters leave nothing, "no flights within your limits" is
// not enough: the traveller needs to know which limit did it and what
// giving it up would buy. Relax answers that, one filter at a time.

// Relaxation is what dropping one of a trip's filters would give, when the
// filters together left no option.
type Relaxation struct {
	// Filter names the argument: maxPrice, maxStops, departAfter/departBefore,
	// arriveAfter/arriveBefore, airlines or excludeAirlines.
	Filter string
	// Limit is the trip's value for it, as the traveller set it.
	Limit string
	// Options is how many options there would be without it (round trips
	// for a round trip).
	Options int
	// Gives says what those options are, in the filter's own terms: "the
	// cheapest is $412 per passenger", "the fewest stops is 1".
	Gives string
}

// String is the relaxation in one line, for a summary.
func (r Relaxation) String() string {
	if r.Options == 0 {
		return fmt.Sprintf("without %s (%s): still nothing", r.Filter, r.Limit)
	}
	return fmt.Sprintf("without %s (%s): %d options; %s", r.Filter, r.Limit, r.Options, r.Gives)
}

// Relax says, for each filter the trip sets, what the search would give
// without it and with every other filter kept; outs and rets are what the
// provider returned for the trip Unfiltered (rets nil for one way). It is
// for a trip whose options are empty, and costs one pairing per filter set.
func (w Weights) Relax(trip flights.Trip, outs, rets []flights.Flight) []Relaxation {
	var out []Relaxation
	for _, f := range filtersOf(trip) {
		relaxed := trip
		f.clear(&relaxed)
		r := Relaxation{Filter: f.name, Limit: f.limit}
		found := w.Find(relaxed, outs, rets, 0)
		r.Options = found.Feasible
		if found.Feasible > 0 {
			r.Gives = f.gives(relaxed, w.Candidates(relaxed, outs), found.Standouts, found.FewestStops)
		}
		out = append(out, r)
	}
	return out
}

// Unfiltered is trip without any of the filters Relax names: the wider
// search whose flights Relax is given when the filters leave nothing (a
// provider applies them before its page's cut, so what it found for trip
// holds nothing they reject).
func Unfiltered(trip flights.Trip) flights.Trip {
	for _, f := range filtersOf(trip) {
		f.clear(&trip)
	}
	return trip
}

// filter is one of a trip's limits: how to name it, how to drop it, and
// what to say of the options without it.
type filter struct {
	name, limit string
	clear       func(*flights.Trip)
	// gives describes the options without the filter: the outbound
	// flights, the standouts and the fewest stops.
	gives func(t flights.Trip, outs []flights.Flight, s Standouts, fewestStops int) string
}

func filtersOf(t flights.Trip) []filter {
	var fs []filter
	cheapest := func(_ flights.Trip, _ []flights.Flight, s Standouts, _ int) string {
		return fmt.Sprintf("the cheapest is $%d per passenger (%s)", s.Cheapest.PriceUSD(), s.Cheapest.ID())
	}
	if t.MaxPriceUSD > 0 {
		fs = append(fs, filter{name: "maxPrice", limit: fmt.Sprintf("$%g", t.MaxPriceUSD), clear: func(t *flights.Trip) { t.MaxPriceUSD = 0 }, gives: cheapest})
	}
	if t.MaxStops < flights.MaxStopsLimit {
		fs = append(fs, filter{name: "maxStops", limit: fmt.Sprint(t.MaxStops), clear: func(t *flights.Trip) { t.MaxStops = flights.MaxStopsLimit },
			gives: func(_ flights.Trip, _ []flights.Flight, s Standouts, fewest int) string {
				return fmt.Sprintf("the fewest stops is %d; the cheapest is $%d per passenger", fewest, s.Cheapest.PriceUSD())
			}})
	}
	if t.DepartAfter != nil || t.DepartBefore != nil {
		fs = append(fs, filter{name: "departAfter/departBefore", limit: windowText(t.DepartAfter, t.DepartBefore),
			clear: func(t *flights.Trip) { t.DepartAfter, t.DepartBefore = nil, nil },
			gives: func(_ flights.Trip, outs []flights.Flight, _ Standouts, _ int) string {
				return "departures at " + clocks(outs, flights.Flight.Depart)
			}})
	}
	if t.ArriveAfter != nil || t.ArriveBefore != nil {
		fs = append(fs, filter{name: "arriveAfter/arriveBefore", limit: windowText(t.ArriveAfter, t.ArriveBefore),
			clear: func(t *flights.Trip) { t.ArriveAfter, t.ArriveBefore = nil, nil },
			gives: func(_ flights.Trip, outs []flights.Flight, _ Standouts, _ int) string {
				return "arrivals at " + clocks(outs, flights.Flight.Arrive)
			}})
	}
	airlinesOf := func(_ flights.Trip, outs []flights.Flight, s Standouts, _ int) string {
		var codes []string
		for _, f := range outs {
			for _, a := range f.Airlines() {
				if !slices.Contains(codes, a) {
					codes = append(codes, a)
				}
			}
		}
		slices.Sort(codes)
		if len(codes) > maxListed {
			codes = append(codes[:maxListed], "…")
		}
		return fmt.Sprintf("flown by %s; the cheapest is $%d per passenger", strings.Join(codes, ", "), s.Cheapest.PriceUSD())
	}
	if len(t.Airlines) > 0 {
		fs = append(fs, filter{name: "airlines", limit: strings.Join(t.Airlines, ", "), clear: func(t *flights.Trip) { t.Airlines = nil }, gives: airlinesOf})
	}
	if len(t.ExcludeAirlines) > 0 {
		fs = append(fs, filter{name: "excludeAirlines", limit: strings.Join(t.ExcludeAirlines, ", "), clear: func(t *flights.Trip) { t.ExcludeAirlines = nil }, gives: airlinesOf})
	}
	return fs
}

// maxListed bounds the times or airlines a relaxation lists.
const maxListed = 8

// clocks lists the distinct local times of day of the flights' departures
// (or arrivals), earliest first: "06:10, 09:45, 21:30".
func clocks(fs []flights.Flight, at func(flights.Flight) time.Time) string {
	var cs []flights.Clock
	for _, f := range fs {
		if c := flights.ClockOf(at(f)); !slices.Contains(cs, c) {
			cs = append(cs, c)
		}
	}
	slices.Sort(cs)
	parts := make([]string, 0, len(cs))
	for i, c := range cs {
		if i == maxListed {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, ", ")
}

func windowText(after, before *flights.Clock) string {
	text := func(c *flights.Clock) string {
		if c == nil {
			return "any"
		}
		return c.String()
	}
	return text(after) + " to " + text(before)
}
