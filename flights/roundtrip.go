package flights

import (
	"fmt"
	"strings"
	"time"
)

// RoundTrip is an outbound flight and a return flight, booked together.
// Both legs are ordinary flights with their own ids, so each can be looked
// up, shown and saved like any other. In a RoundTrip from NewRoundTrip,
// each leg's PriceUSD and TotalUSD are its share of the round-trip fare
// (see NewRoundTrip); one built by hand prices its legs as they are.
type RoundTrip struct {
	Out, Return Flight
}

// roundTripSep joins the legs' ids. Flight ids never contain it.
const roundTripSep = "_"

// MinTurnaround is the least time from the outbound's landing to the
// return's departure: enough to leave the airport and come back through
// check-in and security, even on a day trip.
const MinTurnaround = 3 * time.Hour

// ID names the round trip by its legs: "JFK-LHR-261215-K3M9P_LHR-JFK-261222-M2N4Q".
func (r RoundTrip) ID() string { return r.Out.ID + roundTripSep + r.Return.ID }

// PriceUSD is the round-trip fare per passenger, both legs.
func (r RoundTrip) PriceUSD() int { return r.Out.PriceUSD + r.Return.PriceUSD }

// TotalUSD is the round-trip fare for every passenger, both legs: PriceUSD
// times the passengers, since NewRoundTrip pairs only legs priced for the
// same party.
func (r RoundTrip) TotalUSD() int { return r.Out.TotalUSD + r.Return.TotalUSD }

// Duration is the time spent flying and connecting, both legs.
func (r RoundTrip) Duration() time.Duration { return r.Out.Duration() + r.Return.Duration() }

// Stay is the time at the destination: from the outbound's landing to the
// return's departure.
func (r RoundTrip) Stay() time.Duration { return r.Return.Depart().Sub(r.Out.Arrive()) }

// NewRoundTrip pairs out and ret if they can be flown together: the return
// leaves at least MinTurnaround after the outbound lands, and both are
// priced for the same cabin and number of passengers. It prices them as a
// round trip, not as two one-ways (see Pairing): the legs it returns carry
// their shares of the round-trip fare.
func NewRoundTrip(out, ret Flight) (RoundTrip, error) {
	r := RoundTrip{Out: out, Return: ret}
	if len(out.Segments) == 0 || len(ret.Segments) == 0 {
		return RoundTrip{}, fmt.Errorf("round trip %s: a leg has no segments", r.ID())
	}
	if stay := r.Stay(); stay < MinTurnaround {
		return RoundTrip{}, fmt.Errorf("round trip %s: the return leaves %s after the outbound lands, under the %s minimum",
			r.ID(), FormatDuration(stay), FormatDuration(MinTurnaround))
	}
	if out.Cabin != ret.Cabin || out.TotalUSD*ret.PriceUSD != ret.TotalUSD*out.PriceUSD {
		return RoundTrip{}, fmt.Errorf("round trip %s: the legs are priced for different cabins or parties", r.ID())
	}
	if p := PairingOf(out.Fare, ret.Fare); p != Separately {
		r.Out, r.Return = out.priceAs(out.RoundTripShareUSD(p)), ret.priceAs(ret.RoundTripShareUSD(p))
	}
	return r, nil
}

// Pairing is how two flights' fares combine when they are booked as one
// round trip. NewRoundTrip prices every pair by it, and a caller that
// ranks many pairs without building each (ranking's pairing) prices them by
// it too, so a pair costs the same however it was found.
type Pairing uint8

// The pairings, from the dearest.
const (
	// Separately: two one-way fares (two airlines of no common alliance, a
	// low-cost airline, a flight built by hand: any leg without a
	// half-round-trip fare).
	Separately Pairing = iota
	// Partners: two airlines of one alliance; each leg costs half way
	// between its one-way and its half-round-trip fare.
	Partners
	// OneCarrier: one airline sells both fares; each leg costs its
	// half-round-trip fare (Fare.HalfRoundTripUSD).
	OneCarrier
)

// Pairings is how many pairings there are: a Pairing indexes an array of
// this length.
const Pairings = 3

// PairingOf is how flights with fares out and ret are priced together.
func PairingOf(out, ret Fare) Pairing {
	if out.Carrier == "" || out.HalfRoundTripUSD <= 0 || ret.HalfRoundTripUSD <= 0 || out.OneWayUSD <= 0 || ret.OneWayUSD <= 0 {
		return Separately
	}
	switch {
	case out.Carrier == ret.Carrier:
		return OneCarrier
	case out.Alliance != "" && out.Alliance == ret.Alliance:
		return Partners
	}
	return Separately
}

// RoundTripShareUSD is f's fare per passenger as one leg of a round trip
// priced as p: its half-round-trip fare with OneCarrier, half way to its
// one-way fare with Partners, and its own price Separately (and for a
// flight without the fares p needs).
func (f Flight) RoundTripShareUSD(p Pairing) int {
	if f.Fare.HalfRoundTripUSD <= 0 || f.Fare.OneWayUSD <= 0 {
		return f.PriceUSD
	}
	switch p {
	case OneCarrier:
		return f.Fare.HalfRoundTripUSD
	case Partners:
		return (f.Fare.OneWayUSD + f.Fare.HalfRoundTripUSD + 1) / 2
	}
	return f.PriceUSD
}

// priceAs is the flight at a fare per passenger of price, for its party.
func (f Flight) priceAs(price int) Flight {
	if f.PriceUSD > 0 {
		f.TotalUSD = price * (f.TotalUSD / f.PriceUSD)
	}
	f.PriceUSD = price
	return f
}

// ParseRoundTripID splits a round trip's id into its legs' ids, checking
// the shape of each (see ParseID), that the return is not dated before the
// outbound, and that it neither leaves from where the outbound left nor
// lands where it landed (the airports of a metro may differ: out to LHR,
// back from LGW). Whether such flights exist is the provider's to say.
func ParseRoundTripID(id string) (out, ret string, err error) {
	out, ret, ok := strings.Cut(id, roundTripSep)
	if !ok || strings.Contains(ret, roundTripSep) {
		return "", "", fmt.Errorf("%s is not a round trip id (expected two flight ids joined by %q, e.g. JFK-LHR-261215-K3M9P_LHR-JFK-261222-M2N4Q)", Quote(id), roundTripSep)
	}
	oFrom, oTo, oDate, err := ParseID(out)
	if err != nil {
		return "", "", fmt.Errorf("round trip outbound: %w", err)
	}
	rFrom, rTo, rDate, err := ParseID(ret)
	if err != nil {
		return "", "", fmt.Errorf("round trip return: %w", err)
	}
	if rDate.Before(oDate) {
		return "", "", fmt.Errorf("%s is not a round trip id: the return (%s) is dated before the outbound (%s)", Quote(id), rDate.Format(DateLayout), oDate.Format(DateLayout))
	}
	if oFrom == rFrom || oTo == rTo {
		return "", "", fmt.Errorf("%s is not a round trip id: the return (%s-%s) repeats an end of the outbound (%s-%s)", Quote(id), rFrom, rTo, oFrom, oTo)
	}
	return out, ret, nil
}

// IsRoundTripID reports whether id has the shape of a round trip's id, so a
// caller can tell which parser to use before it parses.
func IsRoundTripID(id string) bool { return strings.Contains(id, roundTripSep) }
