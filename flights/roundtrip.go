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
// round trip, not as two one-ways: when both fares are sold by one airline,
// each leg costs its half-round-trip fare (Fare.HalfRoundTripUSD); by two
// airlines of one alliance, half way between that and its one-way fare;
// otherwise (different airlines, a low-cost airline, a flight built by
// hand) its one-way fare. The legs it returns carry those shares.
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
	together := out.Fare.Carrier != "" && (out.Fare.Carrier == ret.Fare.Carrier || (out.Fare.Alliance != "" && out.Fare.Alliance == ret.Fare.Alliance))
	if together && out.Fare.HalfRoundTripUSD > 0 && ret.Fare.HalfRoundTripUSD > 0 && out.Fare.OneWayUSD > 0 && ret.Fare.OneWayUSD > 0 {
		sameCarrier := out.Fare.Carrier == ret.Fare.Carrier
		r.Out, r.Return = out.priceAs(roundTripShare(out.Fare, sameCarrier)), ret.priceAs(roundTripShare(ret.Fare, sameCarrier))
	}
	return r, nil
}

// roundTripShare is a leg's share of a round-trip fare: its half-round-trip
// fare on the same airline, half way to its one-way fare on a partner.
func roundTripShare(f Fare, sameCarrier bool) int {
	if sameCarrier {
		return f.HalfRoundTripUSD
	}
	return (f.OneWayUSD + f.HalfRoundTripUSD + 1) / 2
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
