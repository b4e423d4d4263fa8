// Package itinerary renders one chosen journey, a one-way flight or a round
// trip's two legs, for the two places people keep travel plans: their
// calendar (ICS, RFC 5545) and a document they read or share (Markdown).
//
// It depends on the flights domain and the standard library only, not on MCP
// or ranking, so any front end can offer these files and the output can be
// pinned byte for byte by golden files. Both renderers are pure functions of
// their arguments: the same flight always renders to the same bytes, which is
// what makes a re-exported calendar file update events instead of
// duplicating them, and what makes the golden tests possible.
//
// Names come from the catalog. A code the catalog does not know (or a nil
// catalog) is shown as the bare code rather than failing: a slightly plainer
// itinerary is more useful to a traveller than no itinerary.
package itinerary

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// localLayout shows a time as the traveller reads it on the boarding pass:
// the airport's own clock, with the zone abbreviation so that a connection
// across zones is not misread. The weekday and year are there because long
// flights and red-eyes land on another day (or in another year).
const localLayout = "Mon 2 Jan 2006 15:04 MST"

// localTime formats t in its own location, which for a flights.Segment is the
// zone of the airport the time belongs to.
func localTime(t time.Time) string { return t.Format(localLayout) }

// airportName is the airport as a person would name it: "John F. Kennedy
// International Airport, New York". The city is always added, even when the
// name repeats it ("Manchester Airport, Manchester"), because many names do
// not say where they are ("Heathrow Airport") and one rule reads better than a
// clever one.
func airportName(c *flights.Catalog, code string) string {
	a := airport(c, code)
	switch {
	case a == nil:
		return code
	case a.City == "":
		return a.Name
	}
	return a.Name + ", " + a.City
}

// cityName is the airport's city, or its code when the catalog does not know it.
func cityName(c *flights.Catalog, code string) string {
	if a := airport(c, code); a != nil && a.City != "" {
		return a.City
	}
	return code
}

// airlineName is the carrier's name, or its designator when unknown.
func airlineName(c *flights.Catalog, code string) string {
	if c != nil {
		if al := c.Airline(code); al != nil && al.Name != "" {
			return al.Name
		}
	}
	return code
}

func airport(c *flights.Catalog, code string) *flights.Airport {
	if c == nil {
		return nil
	}
	return c.Airport(code)
}

// Booking is a simulated hold of the journey, from bookFlight: its
// reference, who travels and the seat they asked for. A nil *Booking is a
// journey saved without one.
type Booking struct {
	Reference string
	Passenger string
	// Seat is a seat preference as the tools name it: "window", "aisle",
	// "middle" or "no_preference".
	Seat string
}

// seat is the seat preference in words: "no preference", "window".
func (b *Booking) seat() string { return strings.ReplaceAll(b.Seat, "_", " ") }

// cabinName turns the API's identifier ("premium_economy") into words.
func cabinName(c flights.Cabin) string { return strings.ReplaceAll(string(c), "_", " ") }

// usd formats whole dollars with thousands separators: "$1,234".
func usd(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + "$" + b.String()
}

// connection is the time on the ground between segment i and the next, and
// where. ok is false for the last segment.
func connection(f flights.Flight, i int) (wait time.Duration, at string, ok bool) {
	if i+1 >= len(f.Segments) {
		return 0, "", false
	}
	return f.Segments[i+1].Depart.Sub(f.Segments[i].Arrive), f.Segments[i].To, true
}

// connectionText is the connection after segment i: "1h25m connection at MAN".
func connectionText(f flights.Flight, i int) (string, bool) {
	wait, at, ok := connection(f, i)
	if !ok {
		return "", false
	}
	return flights.FormatDuration(wait) + " connection at " + at, true
}

// simulatedNotice is said in every rendering, because these files leave the
// server and are read without the context that explains the flights are made
// up: nobody should turn up at an airport for one.
const simulatedNotice = "Simulated itinerary from flightserver: not a real booking or schedule."

// leg says which part of a journey a flight is, for the reader who sees one
// calendar event, or one section, out of context. It is empty for a one-way
// flight, which needs no such label.
type leg struct {
	name   string // "Outbound" or "Return"
	tripID string // the round trip's id (flights.RoundTrip.ID)
}

// legsOf labels the legs of a journey. A journey is one flight or a round
// trip's outbound and return, in that order: the only ones the server
// offers. Any other count is a caller's bug (the tools build legs from a
// flights.RoundTrip), so it panics with a message that says so rather than
// rendering a file that misnames the legs.
func legsOf(legs []flights.Flight) []leg {
	switch len(legs) {
	case 1:
		return []leg{{}}
	case 2:
		id := flights.RoundTrip{Out: legs[0], Return: legs[1]}.ID()
		return []leg{{"Outbound", id}, {"Return", id}}
	}
	panic(fmt.Sprintf("itinerary: a journey is one flight or a round trip's two legs, not %d flights", len(legs)))
}

// stay writes the time at the destination the way people count a trip:
// days and hours ("6 days 20 h"), rounded to the hour because minutes do not
// matter over days and the exact times are written beside it. Under a day
// it is written like a flight time ("5h30m"), since then they do.
func stay(d time.Duration) string {
	// Rounded to the minute first, as FormatDuration would, so that 23h59m40s
	// is "1 day" and not "24h00m".
	if d = d.Round(time.Minute); d < 24*time.Hour {
		return flights.FormatDuration(d)
	}
	h := int(d.Round(time.Hour).Hours())
	days, hours := h/24, h%24
	s := fmt.Sprintf("%d days", days)
	if days == 1 {
		s = "1 day"
	}
	if hours > 0 {
		s += fmt.Sprintf(" %d h", hours)
	}
	return s
}

// Rendered reports whether b is a file this package wrote, in either
// format: a calendar with its PRODID, or a Markdown itinerary ending in its
// notice. A tool asked to overwrite a file replaces only one of these, so a
// name that happens to be taken by the traveller's own file (a README.md, a
// calendar exported from elsewhere) is never replaced by an itinerary.
// Editing a saved itinerary's end makes it the traveller's own.
func Rendered(b []byte) bool {
	ics := bytes.HasPrefix(b, []byte("BEGIN:VCALENDAR\r\n")) && bytes.Contains(b, []byte("\r\nPRODID:"+ProdID+"\r\n"))
	md := bytes.HasSuffix(b, []byte("*"+simulatedNotice+"*\n"))
	return ics || md
}
