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
func Markdown(c *flights.Catalog, f flights.Flight) []byte {
	var b bytes.Buffer
	first, last := f.Segments[0], f.Segments[len(f.Segments)-1]
	fmt.Fprintf(&b, "# %s (%s) → %s (%s), %s\n\n",
		md(cityName(c, first.From)), md(first.From), md(cityName(c, last.To)), md(last.To),
		f.Depart().Format("Monday 2 January 2006"))

	for i, s := range f.Segments {
		// Items are numbered "1." to "n." explicitly: the number is the
		// segment, which the ICS events and descriptions also count by.
		fmt.Fprintf(&b, "%d. **%s** %s, %s\n", i+1, md(s.FlightNumber), md(airlineName(c, s.Airline)),
			flights.FormatDuration(s.Arrive.Sub(s.Depart)))
		fmt.Fprintf(&b, "   - Departs %s (%s), %s\n", md(airportName(c, s.From)), md(s.From), localTime(s.Depart))
		fmt.Fprintf(&b, "   - Arrives %s (%s), %s\n", md(airportName(c, s.To)), md(s.To), localTime(s.Arrive))
		if conn, ok := connectionText(f, i); ok {
			// Indented under the item, so it belongs to the segment it
			// follows and does not break the numbered list.
			fmt.Fprintf(&b, "\n   *%s*\n", md(conn))
		}
		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "- Total duration: %s, from %s to %s\n",
		flights.FormatDuration(f.Duration()), localTime(f.Depart()), localTime(f.Arrive()))
	stops := "nonstop"
	if n := f.Stops(); n > 0 {
		stops = fmt.Sprintf("%d (via %s)", n, md(strings.Join(f.Via(), ", ")))
	}
	fmt.Fprintf(&b, "- Stops: %s\n", stops)
	fmt.Fprintf(&b, "- Cabin: %s\n", md(cabinName(f.Cabin)))
	fare := usd(f.PriceUSD) + " per passenger"
	if f.TotalUSD != f.PriceUSD {
		fare += ", " + usd(f.TotalUSD) + " in total"
	}
	fmt.Fprintf(&b, "- Fare: %s\n", fare)
	fmt.Fprintf(&b, "- Flight id: %s\n\n", code(f.ID))
	fmt.Fprintf(&b, "*%s*\n", simulatedNotice)
	return b.Bytes()
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
