package itinerary

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flightserver/flightserver/flights"
)

// ProdID names the program that wrote a calendar (RFC 5545 §3.7.3), so a
// calendar application can tell files from this server apart from others.
const ProdID = "-//flightserver//itinerary//EN"

// utcLayout is an RFC 5545 DATE-TIME in UTC ("FORM #2": a trailing Z).
const utcLayout = "20060102T150405Z"

// maxLineOctets is the longest content line RFC 5545 §3.1 allows, in octets
// (bytes), not characters, and not counting the CRLF.
const maxLineOctets = 75

// ICS renders a flight as an iCalendar (RFC 5545) file: one VEVENT per
// segment, because each takeoff is its own block of time in a calendar and the
// hours on the ground between them are free.
//
// Times are written in UTC (DTSTART:20261215T114000Z) rather than as local
// times with a TZID. A UTC time names one instant with no further context, so
// the file is valid on its own and every calendar shows the flight at the
// right moment in whatever zone its user is in. The alternative, TZID=
// Europe/London, is only valid with a matching VTIMEZONE component spelling
// out that zone's offsets and daylight-saving rules; Go's time package does
// not expose those transitions, and a hand-built VTIMEZONE that is slightly
// wrong moves a flight silently, which is worse than any display nicety.
// The local times a traveller needs, with their zone abbreviations, are in
// each event's DESCRIPTION instead.
//
// stamp becomes every event's DTSTAMP (when the file was made, converted to
// UTC). It is a parameter, not time.Now, so that output is reproducible.
//
// Each UID is derived from the flight id, the segment's position and its
// flight number ("JFK-LHR-261215-K3M9P-1-BA117@flightserver"): exporting the
// same flight twice gives the same UIDs, so a calendar updates the events it
// already has instead of adding duplicates. A booked journey's UIDs also
// carry a digest of the booking reference (see uid): each passenger's hold
// is its own set of events, so a family's bookings on one flight, imported
// into one shared calendar, keep every passenger's reference and seat
// instead of each replacing the last.
//
// f must have at least one segment, as every flight a provider returns does.
//
// It is ICSTrip with one leg, so a one-way flight and each leg of a round
// trip are rendered by the same code and keep the same events.
func ICS(c *flights.Catalog, f flights.Flight, stamp time.Time) []byte {
	return ICSTrip(c, []flights.Flight{f}, stamp, nil)
}

// ICSTrip renders a journey as one iCalendar file: one VEVENT per segment of
// every leg, in order, so a round trip is imported into a calendar in one
// step. legs is one flight, or a round trip's outbound and return in that
// order (flights.RoundTrip); any other count panics, as a caller's bug. Every
// leg must have at least one segment.
//
// Each event is the one ICS would write for its leg alone: its UID is still
// derived from the leg's own flight id and the segment's position in it, not
// from the round trip. So a traveller who saved the outbound first and the
// whole round trip later gets the outbound's events updated and the return's
// added, not a second copy of the outbound; and events from two trips that
// share a leg are one set of events.
//
// Only the DESCRIPTION differs for a round trip: it starts with which leg the
// segment belongs to ("Leg: Outbound", "Leg: Return") and ends with the
// round trip's id, because an event is read on its own, in a day view, where
// nothing else says whether this flight is the way there or the way home.
//
// A booking, when not nil, is written into every event's DESCRIPTION (its
// reference, the passenger and the seat), since that is what a traveller
// looks for at the airport, in whichever event they open.
func ICSTrip(c *flights.Catalog, legs []flights.Flight, stamp time.Time, booking *Booking) []byte {
	labels := legsOf(legs)
	var w icsWriter
	w.line("BEGIN", "VCALENDAR")
	w.line("VERSION", "2.0")
	w.text("PRODID", ProdID)
	w.line("CALSCALE", "GREGORIAN")
	// PUBLISH: the file announces events; it is not an invitation (REQUEST)
	// that a calendar would answer on the organiser's behalf.
	w.line("METHOD", "PUBLISH")
	for l, f := range legs {
		for i, s := range f.Segments {
			w.line("BEGIN", "VEVENT")
			w.text("UID", uid(f, i, booking))
			w.line("DTSTAMP", stamp.UTC().Format(utcLayout))
			w.line("DTSTART", s.Depart.UTC().Format(utcLayout))
			w.line("DTEND", s.Arrive.UTC().Format(utcLayout))
			w.text("SUMMARY", s.FlightNumber+" "+s.From+"→"+s.To)
			w.text("LOCATION", airportName(c, s.From))
			w.text("DESCRIPTION", description(c, f, i, labels[l], booking))
			// OPAQUE: the traveller is busy for the whole flight, so free/busy
			// lookups and meeting planners see it.
			w.line("TRANSP", "OPAQUE")
			w.line("END", "VEVENT")
		}
	}
	w.line("END", "VCALENDAR")
	return w.buf.Bytes()
}

// uid is the UID of segment i of f: its flight id, position and flight
// number, and when booked "-bk" and the first 12 hex digits of the
// SHA-256 of the booking reference (the reference itself, which spells
// out the flight ids again, would make a UID of over a hundred
// characters).
func uid(f flights.Flight, i int, booking *Booking) string {
	id := fmt.Sprintf("%s-%d-%s", f.ID, i+1, f.Segments[i].FlightNumber)
	if booking != nil {
		sum := sha256.Sum256([]byte(booking.Reference))
		id += "-bk" + hex.EncodeToString(sum[:6])
	}
	return id + "@flightserver"
}

// description is the plain text of segment i's event: everything a traveller
// would otherwise look up, with local times, since the event's own times are
// in UTC and shown in the reader's zone. For a leg of a round trip it also
// says which leg, and the round trip's id.
func description(c *flights.Catalog, f flights.Flight, i int, l leg, booking *Booking) string {
	s := f.Segments[i]
	var lines []string
	if l.name != "" {
		lines = append(lines, "Leg: "+l.name)
	}
	lines = append(lines,
		fmt.Sprintf("%s %s (%s)", airlineName(c, s.Airline), s.FlightNumber, cabinName(f.Cabin)),
		fmt.Sprintf("Depart: %s (%s), %s", airportName(c, s.From), s.From, localTime(s.Depart)),
		fmt.Sprintf("Arrive: %s (%s), %s", airportName(c, s.To), s.To, localTime(s.Arrive)),
		"Flight time: "+flights.FormatDuration(s.Arrive.Sub(s.Depart)),
	)
	if conn, ok := connectionText(f, i); ok {
		lines = append(lines, "Then: "+conn)
	}
	if booking != nil {
		lines = append(lines, "Booking reference: "+booking.Reference+" (simulated hold)",
			"Passenger: "+booking.Passenger, "Seat preference: "+booking.seat())
	}
	lines = append(lines, fmt.Sprintf("Flight id: %s (segment %d of %d)", f.ID, i+1, len(f.Segments)))
	if l.tripID != "" {
		lines = append(lines, "Round trip id: "+l.tripID)
	}
	lines = append(lines, simulatedNotice)
	return strings.Join(lines, "\n")
}

// icsWriter writes content lines: CRLF-terminated and folded to at most
// maxLineOctets, as RFC 5545 §3.1 requires.
type icsWriter struct{ buf bytes.Buffer }

// text writes a property whose value type is TEXT, escaping the value.
func (w *icsWriter) text(name, value string) { w.line(name, escapeText(value)) }

// line writes "NAME:value" as one folded content line. value must already be
// in its wire form: escaped if it is TEXT.
func (w *icsWriter) line(name, value string) { fold(&w.buf, name+":"+value) }

// fold writes one content line, breaking it into physical lines of at most
// maxLineOctets octets each: every continuation starts with a single space,
// which counts towards its 75 and which a reader removes when unfolding
// (RFC 5545 §3.1). A break never falls inside a UTF-8 multi-byte character:
// the standard allows it, since unfolding rejoins the bytes, but many readers
// decode each physical line on its own and would show mojibake.
//
// For the same reason a break never falls inside an escape sequence such as
// "\," or "\n". The standard allows that too, since unfolding comes before
// unescaping, but a reader that unescapes line by line would read a lone
// backslash. A backslash ends an escape exactly when an odd number of them
// ends the text before the break, since "\\" is an escaped backslash.
func fold(buf *bytes.Buffer, line string) {
	// Invalid UTF-8 is replaced first, so that every break below can land on
	// a character boundary and the file is valid UTF-8 (its only charset).
	line = strings.ToValidUTF8(line, "\uFFFD")
	limit := maxLineOctets
	for len(line) > limit {
		cut := limit
		for !utf8.RuneStart(line[cut]) { // back up to the start of the character
			cut--
		}
		if trailingBackslashes(line[:cut])%2 == 1 { // keep "\x" together
			cut--
		}
		buf.WriteString(line[:cut])
		buf.WriteString("\r\n ")
		line = line[cut:]
		limit = maxLineOctets - 1 // the leading space is part of the line
	}
	buf.WriteString(line)
	buf.WriteString("\r\n")
}

// trailingBackslashes counts the backslashes that end s.
func trailingBackslashes(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n
}

// escapeText turns a string into an RFC 5545 TEXT value (§3.3.11): backslash,
// semicolon and comma are backslash-escaped, since they separate values and
// parameters; a line break of any kind (LF, CRLF, CR) becomes the two
// characters \n, since a raw one would end the content line. Other control
// characters are not allowed in TEXT and are dropped; tab is allowed and kept.
// Colons and quotes need no escape in a value.
func escapeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\\', ';', ',':
			b.WriteByte('\\')
			b.WriteByte(ch)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++ // CRLF is one line break
			}
			b.WriteString(`\n`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteByte(ch)
		default:
			if ch < 0x20 || ch == 0x7f {
				continue
			}
			b.WriteByte(ch) // bytes of multi-byte characters pass through
		}
	}
	return b.String()
}
