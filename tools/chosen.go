package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// flightIDPattern is the shape of a flight id findBestFlight hands out;
// optionIDPattern also admits a round trip's, two flight ids joined by "_".
const (
	flightIDPattern = `[A-Za-z]{3}-[A-Za-z]{3}-[0-9]{6}-[0-9A-Za-z]{5}`
	optionIDPattern = `^` + flightIDPattern + `(_` + flightIDPattern + `)?$`
)

// chosen is what an id from findBestFlight names: one flight, or a round
// trip's two, in order. bookFlight and saveItinerary accept either.
type chosen struct {
	id    string
	cabin flights.Cabin
	legs  []flights.Flight
}

// priceUSD is the fare per passenger, every leg included.
func (c chosen) priceUSD() int {
	total := 0
	for _, f := range c.legs {
		total += f.PriceUSD
	}
	return total
}

// depart is when the first leg leaves.
func (c chosen) depart() time.Time { return c.legs[0].Depart() }

// findChosen is lookupChosen for a tool: the flights, or the isError that
// says truthfully why there are none (a bad id, or the call ended first).
func (t *Toolset) findChosen(ctx context.Context, c *fallback.Call, id string, cabin flights.Cabin) (chosen, *mcp.CallToolResult) {
	ch, err := t.lookupChosen(ctx, id, cabin)
	switch {
	case err == nil:
		return ch, nil
	case ctx.Err() != nil:
		return chosen{}, c.Fail(fallback.ErrorCancelled, "The call ended before the flight could be looked up: it was cancelled, or ran out of its time budget. Call again if it is still wanted.", nil)
	}
	return chosen{}, invalidArguments(c, flights.Problems{{Field: "flightId", Problem: err.Error(), Accepted: "an id findBestFlight returned"}})
}

// lookupChosen finds the flights an id names, priced in cabin; a round
// trip's legs must still fit together.
func (t *Toolset) lookupChosen(ctx context.Context, id string, cabin flights.Cabin) (chosen, error) {
	if !flights.IsRoundTripID(id) {
		f, err := t.lookupFlight(ctx, id, cabin)
		return chosen{id: id, cabin: cabin, legs: []flights.Flight{f}}, err
	}
	outID, retID, err := flights.ParseRoundTripID(id)
	if err != nil {
		return chosen{}, errors.New(fallback.Clean(err.Error(), 120))
	}
	out, err := t.lookupFlight(ctx, outID, cabin)
	if err != nil {
		return chosen{}, err
	}
	ret, err := t.lookupFlight(ctx, retID, cabin)
	if err != nil {
		return chosen{}, err
	}
	rt, err := flights.NewRoundTrip(out, ret)
	if err != nil {
		return chosen{}, fmt.Errorf("%s is not a round trip findBestFlight could offer: %s", flights.Quote(id), fallback.Clean(err.Error(), 120))
	}
	// The legs priced as a round trip, as findBestFlight quoted them.
	return chosen{id: id, cabin: cabin, legs: []flights.Flight{rt.Out, rt.Return}}, nil
}

// lookupFlight finds a flight by the id findBestFlight gave, priced in
// cabin: the id names the route and date, and the provider is
// deterministic, so looking it up (flights.Lookup) finds the same flight on
// any replica, one a filter let onto the page included. A flight that
// exists but is not sold in cabin is refused as such.
func (t *Toolset) lookupFlight(ctx context.Context, id string, cabin flights.Cabin) (flights.Flight, error) {
	o, d, date, err := flights.ParseID(id)
	if err != nil {
		return flights.Flight{}, errors.New(fallback.Clean(err.Error(), 120))
	}
	find := func(cabin flights.Cabin) (flights.Flight, bool, error) {
		return flights.Lookup(ctx, t.provider, flights.Trip{Origin: o, Destination: d, Date: date, Passengers: 1, Cabin: cabin, MaxStops: flights.MaxStopsLimit}, id)
	}
	f, found, err := find(cabin)
	if err != nil {
		if ctx.Err() != nil {
			return flights.Flight{}, fmt.Errorf("search for the flight: %w", ctx.Err())
		}
		return flights.Flight{}, fmt.Errorf("no flights from %s to %s: unknown airports in the id", o, d)
	}
	if found {
		return f, nil
	}
	if cabin != flights.Economy {
		if f, found, _ := find(flights.Economy); found {
			return flights.Flight{}, fmt.Errorf("%s is not sold in %s (%s): pass a cabin its airlines sell, or search again in %s",
				flights.Quote(id), cabin.Words(), strings.Join(f.FlightNumbers(), "+"), cabin.Words())
		}
	}
	return flights.Flight{}, fmt.Errorf("%s is not a flight on %s to %s on %s", flights.Quote(id), o, d, date.Format(flights.DateLayout))
}

// legsText names a choice's flights for people: "BA117 Tue 15 Dec JFK → LHR
// 08:05, back BA112 Tue 22 Dec LHR → JFK 11:20".
func legsText(ch chosen) string {
	parts := make([]string, len(ch.legs))
	for i, f := range ch.legs {
		parts[i] = fmt.Sprintf("%s %s %s → %s %s", strings.Join(f.FlightNumbers(), "+"), f.Depart().Format("Mon 2 Jan"),
			f.Segments[0].From, f.Segments[len(f.Segments)-1].To, f.Depart().Format("15:04 MST"))
		if i > 0 {
			parts[i] = "back " + parts[i]
		}
	}
	return strings.Join(parts, ", ")
}
