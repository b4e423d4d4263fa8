package itinerary

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flightserver/flightserver/flights"
)

// Markdown renders a flight as a readable itinerary for people: a title with
// the route and date, each segment with its local times, the connections
// between them, and a summary of duration, stops, fare and id.
//
// It is a list rather than a table because an itinerary is read top to
// bottom, like a journey, and because list items wrap: airport names are long
// and a table of them is unreadable in the plain text that many clients show
// unrendered. Times are local to each airport with the zone abbreviation,
// the way boarding passes and departure boards show them.
//
// Text from the catalog is escaped so that a name with Markdown syntax in it
// ("*", "_", "[", "|") shows as written instead of changing the layout.
//
// f must have at least one segment, as every flight a provider returns does.
//
// It is MarkdownTrip with one leg.
func Markdown(c *flights.Catalog, f flights.Flight) []byte {
	return MarkdownTrip(c, []flights.Flight{f}, nil)
}

// MarkdownTrip renders a journey as one itinerary. legs is one flight, or a
// round trip's outbound and return in that order (flights.RoundTrip); any
// other count panics, as a caller's bug. Every leg must have at least one
// segment.
//
// One leg renders exactly as Markdown always has. A round trip is one
// document rather than two, because it is one plan: a title with both ends
// and both dates, a section for each leg with its segments and connections
// as a one-way itinerary lists them, and then a single summary. The summary
// says what only the pair can: the stay between landing and flying home,
// the fare of each leg and of both, and the round trip's id beside the legs'
// ids, so the reader can ask for the whole trip or either leg again.
//
// A booking, when not nil, comes first under the title, as a list of its
// reference, passenger and seat: it is what the reader looks for first.
func MarkdownTrip(c *flights.Catalog, legs []flights.Flight, booking *Booking) []byte {
	labels := legsOf(legs)
	var b bytes.Buffer
	if len(legs) == 1 {
		oneWay(&b, c, legs[0], booking)
	} else {
		roundTrip(&b, c, flights.RoundTrip{Out: legs[0], Return: legs[1]}, labels, booking)
	}
	fmt.Fprintf(&b, "*%s*\n", simulatedNotice)
	return b.Bytes()
}

// titleDate is the day in a title or heading, written out in full because a
// reader checks it against a booking, not against other lines of the file.
const titleDate = "Monday 2 January 2006"

// oneWay writes the itinerary of a single flight, all but the notice.
func oneWay(b *bytes.Buffer, c *flights.Catalog, f flights.Flight, booking *Booking) {
	first, last := f.Segments[0], f.Segments[len(f.Segments)-1]
	fmt.Fprintf(b, "# %s → %s, %s\n\n",
		place(c, first.From, first.From), place(c, last.To, last.To), f.Depart().Format(titleDate))
	bookingList(b, booking)
	segments(b, c, f)
	fmt.Fprintf(b, "- Total duration: %s, from %s to %s\n",
		flights.FormatDuration(f.Duration()), localTime(f.Depart()), localTime(f.Arrive()))
	fmt.Fprintf(b, "- Stops: %s\n", stops(f))
	fmt.Fprintf(b, "- Cabin: %s\n", md(cabinName(f.Cabin)))
	fmt.Fprintf(b, "- Fare: %s\n", fare(f.PriceUSD, f.TotalUSD))
	fmt.Fprintf(b, "- Flight id: %s\n\n", code(f.ID))
}

// roundTrip writes the itinerary of a round trip, all but the notice.
// Headings split the legs, so the summary gets one too: without it, it
// would read as part of the return.
func roundTrip(b *bytes.Buffer, c *flights.Catalog, r flights.RoundTrip, labels []leg, booking *Booking) {
	out, ret := r.Out, r.Return
	// The ends are named from both legs, since a round trip may fly home
	// from another airport of the city it went to (out to LHR, back from
	// LGW).
	fmt.Fprintf(b, "# %s ⇄ %s, %s – %s\n\n",
		place(c, out.Segments[0].From, ret.Segments[len(ret.Segments)-1].To),
		place(c, out.Segments[len(out.Segments)-1].To, ret.Segments[0].From),
		out.Depart().Format(titleDate), ret.Depart().Format(titleDate))
	bookingList(b, booking)
	for l, f := range []flights.Flight{out, ret} {
		fmt.Fprintf(b, "## %s, %s\n\n", labels[l].name, f.Depart().Format(titleDate))
		segments(b, c, f)
	}

	b.WriteString("## Summary\n\n")
	fmt.Fprintf(b, "- %s: %s, %s\n", labels[0].name, flights.FormatDuration(out.Duration()), legStops(out))
	fmt.Fprintf(b, "- Stay: %s, from %s to %s\n", stay(r.Stay()), localTime(out.Arrive()), localTime(ret.Depart()))
	fmt.Fprintf(b, "- %s: %s, %s\n", labels[1].name, flights.FormatDuration(ret.Duration()), legStops(ret))
	fmt.Fprintf(b, "- Cabin: %s\n", md(cabinName(out.Cabin))) // NewRoundTrip pairs only legs of one cabin
	fmt.Fprintf(b, "- Fare: %s\n", fare(r.PriceUSD(), r.TotalUSD()))
	fmt.Fprintf(b, "  - %s: %s\n", labels[0].name, fare(out.PriceUSD, out.TotalUSD))
	fmt.Fprintf(b, "  - %s: %s\n", labels[1].name, fare(ret.PriceUSD, ret.TotalUSD))
	fmt.Fprintf(b, "- Flight ids: %s (%s), %s (%s)\n",
		code(out.ID), strings.ToLower(labels[0].name), code(ret.ID), strings.ToLower(labels[1].name))
	fmt.Fprintf(b, "- Round trip id: %s\n\n", code(labels[0].tripID))
}

// bookingList writes the booking as a list, or nothing for none.
func bookingList(b *bytes.Buffer, booking *Booking) {
	if booking == nil {
		return
	}
	fmt.Fprintf(b, "- Booking reference: %s (simulated hold)\n", code(booking.Reference))
	fmt.Fprintf(b, "- Passenger: %s\n", md(booking.Passenger))
	fmt.Fprintf(b, "- Seat preference: %s\n\n", md(booking.seat()))
}

// segments writes a flight's segments as a numbered list, with the
// connection after each but the last.
func segments(b *bytes.Buffer, c *flights.Catalog, f flights.Flight) {
	for i, s := range f.Segments {
		// Items are numbered "1." to "n." explicitly: the number is the
		// segment, which the ICS events and descriptions also count by.
		fmt.Fprintf(b, "%d. **%s** %s, %s\n", i+1, md(s.FlightNumber), md(airlineName(c, s.Airline)),
			flights.FormatDuration(s.Arrive.Sub(s.Depart)))
		fmt.Fprintf(b, "   - Departs %s (%s), %s\n", md(airportName(c, s.From)), md(s.From), localTime(s.Depart))
		fmt.Fprintf(b, "   - Arrives %s (%s), %s\n", md(airportName(c, s.To)), md(s.To), localTime(s.Arrive))
		if conn, ok := connectionText(f, i); ok {
			// Indented under the item, so it belongs to the segment it
			// follows and does not break the numbered list.
			fmt.Fprintf(b, "\n   *%s*\n", md(conn))
		}
		b.WriteString("\n")
	}
}

// place names one end of a journey by city and airport: "London (LHR)".
// a and b are the airports a round trip uses there (the outbound's and the
// return's), the same one for a one-way flight; when they differ both are
// shown, as "London (LHR/LGW)", or as "London (LHR)/Paris (CDG)" when they
// are not even in one city.
func place(c *flights.Catalog, a, b string) string {
	ca, cb := md(cityName(c, a)), md(cityName(c, b))
	switch {
	case a == b:
		return fmt.Sprintf("%s (%s)", ca, md(a))
	case ca == cb:
		return fmt.Sprintf("%s (%s/%s)", ca, md(a), md(b))
	}
	return fmt.Sprintf("%s (%s)/%s (%s)", ca, md(a), cb, md(b))
}

// stops is "nonstop", or the number of connections and where they are, as
// the value of a "Stops:" line: "1 (via BOS)".
func stops(f flights.Flight) string {
	if n := f.Stops(); n > 0 {
		return fmt.Sprintf("%d (via %s)", n, via(f))
	}
	return "nonstop"
}

// legStops is stops in a sentence, where no label says what the number
// counts: "1 stop (via BOS)", "2 stops (via BOS, MAN)".
func legStops(f flights.Flight) string {
	switch n := f.Stops(); n {
	case 0:
		return "nonstop"
	case 1:
		return "1 stop (via " + via(f) + ")"
	default:
		return fmt.Sprintf("%d stops (via %s)", n, via(f))
	}
}

// via lists the connecting airports: "BOS, MAN".
func via(f flights.Flight) string { return md(strings.Join(f.Via(), ", ")) }

// fare is the price per passenger, and the total when it differs: a total
// equal to the fare would only make a solo traveller wonder who else is
// coming.
func fare(perPassenger, total int) string {
	s := usd(perPassenger) + " per passenger"
	if total != perPassenger {
		s += ", " + usd(total) + " in total"
	}
	return s
}

// mdEscaper backslash-escapes the ASCII punctuation that changes Markdown
// inline layout (emphasis, code, links, HTML, table cells, strikethrough,
// entities). CommonMark lets any ASCII punctuation be escaped, and renders
// the escaped character as itself. Characters that only matter at the start
// of a line ("#", "-", "1.") are safe because every value here follows other
// text on its line. Line breaks become spaces, so a value cannot start a new
// block.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `&`, `\&`,
	"\r\n", " ", "\n", " ", "\r", " ",
)

// md escapes text for use inside a line of Markdown.
func md(s string) string { return mdEscaper.Replace(s) }

// code shows s as inline code, so an id copies exactly; a value that cannot
// be a code span (it has a backtick or a line break) is escaped text instead.
func code(s string) string {
	if s == "" || strings.ContainsAny(s, "`\r\n") {
		return md(s)
	}
	return "`" + s + "`"
}
