package itinerary

import (
	"strings"
	"testing"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/golden"
)

// wantMarkdown lists what a reader must find in the itinerary of f.
func wantMarkdown(c *flights.Catalog, f flights.Flight) []string {
	first, last := f.Segments[0], f.Segments[len(f.Segments)-1]
	want := []string{
		"# " + md(cityName(c, first.From)) + " (" + first.From + ") → " + md(cityName(c, last.To)) + " (" + last.To + "), " +
			first.Depart.Format("Monday 2 January 2006") + "\n",
		"- Total duration: " + flights.FormatDuration(f.Duration()),
		"- Cabin: " + md(cabinName(f.Cabin)),
		"- Fare: " + usd(f.PriceUSD) + " per passenger",
		"- Flight id: `" + f.ID + "`",
		"*Simulated itinerary from flightserver",
	}
	for i, s := range f.Segments {
		want = append(want,
			"**"+s.FlightNumber+"** "+md(airlineName(c, s.Airline))+", "+flights.FormatDuration(s.Arrive.Sub(s.Depart)),
			"Departs "+md(airportName(c, s.From))+" ("+s.From+"), "+localTime(s.Depart),
			"Arrives "+md(airportName(c, s.To))+" ("+s.To+"), "+localTime(s.Arrive),
		)
		if i+1 < len(f.Segments) {
			wait := f.Segments[i+1].Depart.Sub(s.Arrive)
			want = append(want, "   *"+flights.FormatDuration(wait)+" connection at "+s.To+"*")
		}
	}
	return want
}

func TestMarkdown(t *testing.T) {
	c, fs := realFlights(t)
	stops := map[string]string{"nonstop": "- Stops: nonstop\n", "1-stop": "- Stops: 1 (via ", "2-stop": "- Stops: 2 (via "}
	for name, f := range fs {
		t.Run(name, func(t *testing.T) {
			got := string(Markdown(c, f))
			for _, want := range append(wantMarkdown(c, f), stops[name]) {
				if !strings.Contains(got, want) {
					t.Errorf("lacks %q:\n%s", want, got)
				}
			}
			if n := strings.Count(got, "connection at"); n != f.Stops() {
				t.Errorf("%d connections for %d stops:\n%s", n, f.Stops(), got)
			}
			if strings.Contains(got, "in total") {
				t.Errorf("one passenger, yet a total is shown:\n%s", got)
			}
		})
	}
}

// TestMarkdownOddNames checks that Markdown syntax and line breaks in names
// are escaped, and the layout for a multi-passenger fare across a new year.
func TestMarkdownOddNames(t *testing.T) {
	c := oddCatalog(t)
	f := oddFlight(t, c)
	got := string(Markdown(c, f))
	for _, want := range append(wantMarkdown(c, f),
		`# Pipe\|City \*star\* (AAA) → Kathmandu (CCC), Thursday 31 December 2026`,
		`Departs Back\\slash; Semi, Comma Second line, Pipe\|City \*star\* (AAA), Thu 31 Dec 2026 18:00 EST`,
		`Arrives Tribhuvan\_International, Kathmandu (CCC), Fri 1 Jan 2027 23:55 +0545`,
		"   *2h05m connection at BBB*",
		"- Stops: 1 (via BBB)",
		"- Cabin: premium economy",
		"- Fare: $1,234 per passenger, $2,468 in total",
	) {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	for i, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "Second line") {
			t.Errorf("line %d: a line break in a name started a new line: %q", i+1, line)
		}
	}
}

func TestMarkdownGolden(t *testing.T) {
	c, fs := realFlights(t)
	for name, f := range fs {
		t.Run(name, func(t *testing.T) { golden.Check(t, name+".md", Markdown(c, f)) })
	}
}

func TestMarkdownEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Heathrow Airport, London", "Heathrow Airport, London"},
		{"*bold* _it_ `code` [link](x) <b> a|b ~s~ AT&T", "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\<b\\> a\\|b \\~s\\~ AT\\&T"},
		{`back\slash`, `back\\slash`},
		{"two\nlines\r\nthree", "two lines three"},
	} {
		if got := md(tc.in); got != tc.want {
			t.Errorf("md(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := code("JFK-LHR-261215-K3M9P"); got != "`JFK-LHR-261215-K3M9P`" {
		t.Errorf("code = %q", got)
	}
	if got := code("a`b"); got != "a\\`b" {
		t.Errorf("code with a backtick = %q", got)
	}
}
