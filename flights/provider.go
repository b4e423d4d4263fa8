package flights

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Provider finds the flights for a trip. The embedded Synthetic provider is
// the one this server ships; a real API (Duffel, Amadeus) would implement the
// same interface.
//
// Implementations must be deterministic for a given trip and day, so that an
// id found in one call (or on one replica) can be resolved again in another.
type Provider interface {
	Search(ctx context.Context, trip Trip) ([]Flight, error)
}

// Flight is one bookable itinerary: one or more segments, priced for the
// trip's cabin and passengers.
type Flight struct {
	// ID is short, stable for the same itinerary on the same date, and names
	// the route and date so it can be resolved without other context:
	// "JFK-LHR-261215-K3M9P".
	ID       string
	Segments []Segment
	Cabin    Cabin
	// PriceUSD is the fare per passenger; TotalUSD covers every passenger.
	// In a RoundTrip they are this leg's share of the round-trip fare.
	PriceUSD int
	TotalUSD int
	// Fare says how the fare was built, so that two flights can be priced
	// together as a round trip (NewRoundTrip); the zero Fare (a flight
	// built by hand) prices a round trip as two one-ways.
	Fare Fare
}

// Segment is one takeoff and landing. Times carry the local zone of the
// airport they belong to, so they format as a traveller reads them.
type Segment struct {
	FlightNumber string // e.g. "BA117"
	Airline      string // IATA designator
	From, To     string
	Depart       time.Time // local at From
	Arrive       time.Time // local at To
	// Cabin is the cabin flown on this segment: the flight's, or on a
	// short connecting leg of an airline that does not sell it there, the
	// best cabin below it that the leg has (a mixed-cabin itinerary).
	// Empty on a segment built by hand, which means the flight's.
	Cabin Cabin
}

// Stops is the number of connections.
func (f Flight) Stops() int { return len(f.Segments) - 1 }

// Depart is the local departure time of the first segment.
func (f Flight) Depart() time.Time { return f.Segments[0].Depart }

// Arrive is the local arrival time of the last segment.
func (f Flight) Arrive() time.Time { return f.Segments[len(f.Segments)-1].Arrive }

// Duration is the door-to-door time, connections included.
func (f Flight) Duration() time.Duration { return f.Arrive().Sub(f.Depart()) }

// Airlines lists the carriers in segment order, without repeats.
func (f Flight) Airlines() []string {
	var out []string
	for _, s := range f.Segments {
		if len(out) == 0 || out[len(out)-1] != s.Airline {
			out = append(out, s.Airline)
		}
	}
	return out
}

// Via lists the connecting airports.
func (f Flight) Via() []string {
	out := make([]string, 0, len(f.Segments)-1)
	for _, s := range f.Segments[:len(f.Segments)-1] {
		out = append(out, s.To)
	}
	return out
}

// FlightNumbers lists the segments' flight numbers.
func (f Flight) FlightNumbers() []string {
	out := make([]string, len(f.Segments))
	for i, s := range f.Segments {
		out[i] = s.FlightNumber
	}
	return out
}

// FormatDuration writes a duration as travellers read it: "7h05m".
func FormatDuration(d time.Duration) string {
	m := int(d.Round(time.Minute).Minutes())
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

// ParseID reads the route and date an id names. It checks only the shape;
// whether such a flight exists is the provider's to say.
func ParseID(id string) (origin, destination string, date time.Time, err error) {
	parts := strings.Split(id, "-")
	if len(parts) != 4 || !isCode(parts[0], 3) || !isCode(parts[1], 3) || len(parts[3]) != idHashLen {
		return "", "", time.Time{}, fmt.Errorf("%q is not a flight id (expected the form JFK-LHR-261215-K3M9P)", id)
	}
	date, err = time.Parse(idDateLayout, parts[2])
	if err != nil {
		return "", "", time.Time{}, fmt.Errorf("%q is not a flight id: %q is not a YYMMDD date", id, parts[2])
	}
	return parts[0], parts[1], date, nil
}
