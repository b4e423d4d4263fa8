package tools

import (
	"context"
	"fmt"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// A search covers every day a flexible trip allows (date ± flexDays, and
// the return window likewise) and every airport of a city or metro (the
// provider searches each pair), and turns what it finds into the Options the
// ladder ranks: the one-way candidates, or the best round-trip pairs.

// searched is what a search found.
type searched struct {
	options ranking.Options
	// found is every flight the search returned, both ways, all days.
	found int
	// calendar has one day per outbound date of a flexible trip.
	calendar []ranking.Day
}

// maxOptions bounds the one-way options the rungs choose among, across the
// days of a flexible search: as many as one day has, so the prompt stays
// as small as a single day's. The calendar still covers every day.
const maxOptions = 47

// A search is reused for a while: the same trip asked again (a popular
// route, the next round of a 2026-07-28 call, a host that retries) gets the
// options already found, priced and ordered, instead of searching again.
// Prices move, so an entry lives searchTTL at most, and the cache holds
// searchCacheSize trips, the least recently asked dropped first.
const (
	searchTTL       = time.Minute
	searchCacheSize = 64
)

// searchCache holds recent searches by trip.
type searchCache struct {
	entries *lru.Cache[string, cachedSearch]
	now     func() time.Time
}

type cachedSearch struct {
	found searched
	at    time.Time
}

func newSearchCache(now func() time.Time) *searchCache {
	c, _ := lru.New[string, cachedSearch](searchCacheSize) // errors only for a size <= 0
	return &searchCache{entries: c, now: now}
}

// searchKey names a trip by everything a search depends on, and the day it
// is asked on (fares depend on how far ahead the flight is).
func searchKey(trip flights.Trip, today time.Time) string {
	clock := func(c *flights.Clock) string {
		if c == nil {
			return "-"
		}
		return c.String()
	}
	return fmt.Sprint(trip.Origins(), trip.Destinations(), trip.Date.Format(flights.DateLayout), trip.ReturnDate.Format(flights.DateLayout),
		trip.FlexDays, trip.Passengers, trip.Cabin, trip.MaxStops, clock(trip.DepartAfter), clock(trip.DepartBefore),
		clock(trip.ArriveAfter), clock(trip.ArriveBefore), trip.MaxPriceUSD, trip.Airlines, trip.ExcludeAirlines, today.Format(flights.DateLayout))
}

// search finds the trip's options, or reuses a recent search of the same
// trip.
func (t *Toolset) search(ctx context.Context, trip flights.Trip) (searched, error) {
	now := t.searches.now()
	key := searchKey(trip, now)
	if e, ok := t.searches.entries.Get(key); ok && now.Sub(e.at) < searchTTL {
		e.found.options.Trip = trip // the same trip, as this call validated it
		return e.found, nil
	}
	found, err := t.searchAnew(ctx, trip)
	if err == nil {
		t.searches.entries.Add(key, cachedSearch{found: found, at: now})
	}
	return found, err
}

// searchAnew searches the provider.
func (t *Toolset) searchAnew(ctx context.Context, trip flights.Trip) (searched, error) {
	outs, err := t.searchDays(ctx, trip.Dates(), trip.On)
	if err != nil {
		return searched{}, err
	}
	s := searched{found: len(outs), options: ranking.Options{Trip: trip}}
	if !trip.IsRoundTrip() {
		cands := t.weights.Candidates(trip, outs)
		if trip.FlexDays > 0 {
			s.calendar = ranking.Options{Trip: trip, Flights: cands}.Calendar(trip.Dates())
		}
		s.options.Flights = cands[:min(len(cands), maxOptions)]
		return s, nil
	}
	rets, err := t.searchDays(ctx, trip.ReturnDates(), trip.Return)
	if err != nil {
		return searched{}, err
	}
	s.found += len(rets)
	s.options.Pairs = t.weights.RoundTripCandidates(trip, outs, rets, ranking.MaxPairs)
	if trip.FlexDays > 0 {
		s.calendar = t.pairCalendar(trip, outs, rets)
	}
	return s, nil
}

// searchDays searches leg(day) for every day and returns what all found.
func (t *Toolset) searchDays(ctx context.Context, days []time.Time, leg func(time.Time) flights.Trip) ([]flights.Flight, error) {
	var all []flights.Flight
	for _, d := range days {
		found, err := t.provider.Search(ctx, leg(d))
		if err != nil {
			return nil, fmt.Errorf("search %s: %w", d.Format(flights.DateLayout), err)
		}
		all = append(all, found...)
	}
	return all, nil
}

// calendarPairs is how many of a day's best pairs its calendar entry looks
// at for the lowest fare.
const calendarPairs = 20

// pairCalendar is the calendar of a round trip: for each outbound day, the
// best pair leaving that day and the lowest fare among its best pairs, so a
// day is shown even when none of its pairs is among the options overall.
func (t *Toolset) pairCalendar(trip flights.Trip, outs, rets []flights.Flight) []ranking.Day {
	byDay := map[string][]flights.Flight{}
	for _, f := range outs {
		k := f.Depart().Format(flights.DateLayout)
		byDay[k] = append(byDay[k], f)
	}
	var days []ranking.Day
	for _, d := range trip.Dates() {
		pairs := t.weights.RoundTripCandidates(trip, byDay[d.Format(flights.DateLayout)], rets, calendarPairs)
		days = append(days, ranking.Options{Trip: trip, Pairs: pairs}.Calendar([]time.Time{d})...)
	}
	return days
}
