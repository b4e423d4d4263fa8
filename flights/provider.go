package flights

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Provider finds the flights for a trip. The embedded Synthetic provider is
// the one this server ships: sample data it makes up, with no network and no
// key. A live API (Duffel, Amadeus) would implement the same interface, and
// say in About that its flights are real.
//
// Implementations must be deterministic for a given trip and day, so that an
// id found in one call (or on one replica) can be resolved again in another.
// Search gets one day, one way (Trip.On, Trip.Return); a provider that cuts
// its answer to a page applies trip.Admits first, so a filter never empties
// a page that a wider search would have filled.
type Provider interface {
	Search(ctx context.Context, trip Trip) ([]Flight, error)
	// About names the provider and says whether its flights are synthetic:
	// every result shows it, so sample data is never taken for real flights.
	About() ProviderInfo
}

// Finder is a Provider that finds a flight again by its id. A provider
// whose filtered searches fill their page (see Provider) shows flights
// that no unfiltered search of that day shows, so finding one again by
// searching, as Lookup does for other providers, would miss it.
type Finder interface {
	// Find is the flight with id among all that a search of trip (one day,
	// one way) could show, whatever its filters, priced for trip; false if
	// there is none.
	Find(ctx context.Context, trip Trip, id string) (Flight, bool, error)
}

// Lookup finds the flight with id for trip, the one-day, one-way search of
// the route and date the id names: by Find, if p is a Finder, else among
// what p's Search of trip returns. False if there is no such flight.
func Lookup(ctx context.Context, p Provider, trip Trip, id string) (Flight, bool, error) {
	if f, ok := p.(Finder); ok {
		return f.Find(ctx, trip, id)
	}
	found, err := p.Search(ctx, trip)
	if err != nil {
		return Flight{}, false, err
	}
	for _, f := range found {
		if f.ID == id {
			return f, true, nil
		}
	}
	return Flight{}, false, nil
}

// ProviderInfo is what a result says about where its flights come from.
type ProviderInfo struct {
	Name string
	// Synthetic is true for flights a program made up: not real flights,
	// fares or seats, and nothing can be bought.
	Synthetic bool
}

// SyntheticInfo is the embedded provider's About.
var SyntheticInfo = ProviderInfo{Name: "flightserver synthetic sample data", Synthetic: true}

// About implements Provider: the embedded provider's flights are synthetic.
func (s *Synthetic) About() ProviderInfo { return SyntheticInfo }

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

// Layover is the time between two segments of a flight, on the ground.
type Layover struct {
	// Airport is where the traveller lands; DepartFrom, on a change of
	// airport, is the other airport of the city the next segment leaves
	// from (landing at LHR, leaving from LGW), else the same.
	Airport, DepartFrom string
	Duration            time.Duration
	// Overnight is true when at least an hour of the layover falls
	// between midnight and 05:00 local time: a night at the airport, or in
	// a hotel near it.
	Overnight bool
	// ChangeOfAirport is true when the next segment leaves from another
	// airport than the one landed at.
	ChangeOfAirport bool
}

// OvernightHours are the local hours, from midnight, that make a layover
// overnight when at least MinOvernight of it falls in them.
const (
	OvernightHours = 5
	MinOvernight   = time.Hour
)

// Layovers are the flight's connections, in order: none for a nonstop.
func (f Flight) Layovers() []Layover {
	if len(f.Segments) < 2 {
		return nil
	}
	out := make([]Layover, 0, len(f.Segments)-1)
	for i := 1; i < len(f.Segments); i++ {
		in, next := f.Segments[i-1], f.Segments[i]
		out = append(out, Layover{Airport: in.To, DepartFrom: next.From, Duration: next.Depart.Sub(in.Arrive),
			Overnight: nightIn(in.Arrive, next.Depart) >= MinOvernight, ChangeOfAirport: in.To != next.From})
	}
	return out
}

// nightIn is how much of [from, to] falls between midnight and
// OvernightHours, local to from.
func nightIn(from, to time.Time) time.Duration {
	var total time.Duration
	loc := from.Location()
	last := civilDate(to.In(loc))
	for day := civilDate(from); !day.After(last); day = day.AddDate(0, 0, 1) {
		start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
		end := start.Add(OvernightHours * time.Hour)
		if s, e := maxTime(start, from), minTime(end, to); e.After(s) {
			total += e.Sub(s)
		}
	}
	return total
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
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
	var buf [durationSize]byte
	return string(AppendDuration(buf[:0], d))
}

// AppendDuration appends d to b as FormatDuration writes it, for text
// built in one buffer.
func AppendDuration(b []byte, d time.Duration) []byte {
	m := int(d.Round(time.Minute).Minutes())
	if m < 0 {
		return fmt.Appendf(b, "%dh%02dm", m/60, m%60)
	}
	b = strconv.AppendInt(b, int64(m/60), 10)
	return append(b, 'h', byte('0'+m%60/10), byte('0'+m%60%10), 'm')
}

// durationSize is room for any duration FormatDuration writes.
const durationSize = 24

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
