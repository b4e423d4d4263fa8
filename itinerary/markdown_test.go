package itinerary

import (
	"fmt"
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
	return append(want, wantSegments(c, f)...)
}

// wantSegments lists what a reader must find of f's segments and
// connections, in a one-way itinerary or in a round trip's section.
func wantSegments(c *flights.Catalog, f flights.Flight) []string {
	var want []string
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
			mustContain(t, got, append(wantMarkdown(c, f), stops[name])...)
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
	mustContain(t, got, append(wantMarkdown(c, f),
		`# Pipe\|City \*star\* (AAA) → Kathmandu (CCC), Thursday 31 December 2026`,
		`Departs Back\\slash; Semi, Comma Second line, Pipe\|City \*star\* (AAA), Thu 31 Dec 2026 18:00 EST`,
		`Arrives Tribhuvan\_International, Kathmandu (CCC), Fri 1 Jan 2027 23:55 +0545`,
		"   *2h05m connection at BBB*",
		"- Stops: 1 (via BBB)",
		"- Cabin: premium economy",
		"- Fare: $1,234 per passenger, $2,468 in total",
	)...)
	noBrokenName(t, got)
}

// noBrokenName checks that the line break in oddCatalog's airport name did
// not start a new line of Markdown.
func noBrokenName(t *testing.T, got string) {
	t.Helper()
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

// TestMarkdownTrip renders real round trips and reads them as a traveller
// would: the title with both ends and dates, a section for each leg with
// its segments and connections, and one summary with the stay, each leg,
// the fares and the ids.
func TestMarkdownTrip(t *testing.T) {
	for _, tc := range roundTrips {
		t.Run(tc.name, func(t *testing.T) {
			c, legs := realRoundTrip(t, tc.passengers, tc.outStops, tc.retStops)
			out, ret := legs[0], legs[1]
			got := string(MarkdownTrip(c, legs, nil))

			const title = "# New York (JFK) ⇄ London (LHR), Tuesday 15 December 2026 – Tuesday 22 December 2026\n\n"
			if !strings.HasPrefix(got, title) {
				t.Errorf("does not start with %q:\n%s", title, got)
			}
			outAt := strings.Index(got, "\n## Outbound, Tuesday 15 December 2026\n\n")
			retAt := strings.Index(got, "\n## Return, Tuesday 22 December 2026\n\n")
			sumAt := strings.Index(got, "\n## Summary\n\n")
			if outAt < 0 || retAt < outAt || sumAt < retAt {
				t.Fatalf("want the Outbound, Return and Summary sections in that order (at %d, %d, %d):\n%s", outAt, retAt, sumAt, got)
			}
			for _, sec := range []struct {
				f    flights.Flight
				text string
			}{{out, got[outAt:retAt]}, {ret, got[retAt:sumAt]}} {
				for _, want := range wantSegments(c, sec.f) {
					if !strings.Contains(sec.text, want) {
						t.Errorf("the section of %s lacks %q:\n%s", sec.f.ID, want, sec.text)
					}
				}
				if n := strings.Count(sec.text, "connection at"); n != sec.f.Stops() {
					t.Errorf("the section of %s has %d connections for %d stops:\n%s", sec.f.ID, n, sec.f.Stops(), sec.text)
				}
			}

			summary := got[sumAt:]
			per, total := out.PriceUSD+ret.PriceUSD, out.TotalUSD+ret.TotalUSD
			if total != tc.passengers*per {
				t.Fatalf("fixture: the legs total %d for %d passengers at %d each", total, tc.passengers, per)
			}
			fares := []string{
				"- Fare: " + usd(per) + " per passenger",
				"  - Outbound: " + usd(out.PriceUSD) + " per passenger",
				"  - Return: " + usd(ret.PriceUSD) + " per passenger",
			}
			if tc.passengers > 1 {
				fares[0] += ", " + usd(total) + " in total"
				fares[1] += ", " + usd(out.TotalUSD) + " in total"
				fares[2] += ", " + usd(ret.TotalUSD) + " in total"
			}
			want := []string{
				"- Outbound: " + flights.FormatDuration(out.Duration()) + ", " + stopsPhrase(out) + "\n",
				"- Stay: " + stay(ret.Depart().Sub(out.Arrive())) + ", from " + localTime(out.Arrive()) + " to " + localTime(ret.Depart()) + "\n",
				"- Return: " + flights.FormatDuration(ret.Duration()) + ", " + stopsPhrase(ret) + "\n",
				"- Cabin: economy\n",
				strings.Join(fares, "\n") + "\n",
				"- Flight ids: `" + out.ID + "` (outbound), `" + ret.ID + "` (return)\n",
				"- Round trip id: `" + out.ID + "_" + ret.ID + "`\n",
			}
			if !strings.Contains(summary, strings.Join(want, "")) {
				t.Errorf("the summary is not\n%s\nbut\n%s", strings.Join(want, ""), summary)
			}
			if n, want := strings.Count(got, "in total"), map[bool]int{false: 0, true: 3}[tc.passengers > 1]; n != want {
				t.Errorf(`"in total" %d times for %d passengers, want %d:\n%s`, n, tc.passengers, want, got)
			}
			for _, oneWay := range []string{"- Total duration:", "- Stops:", "- Flight id:"} {
				if strings.Contains(got, oneWay) {
					t.Errorf("a round trip has the one-way summary line %q:\n%s", oneWay, got)
				}
			}
			if !strings.HasSuffix(got, "\n\n*Simulated itinerary from flightserver: not a real booking or schedule.*\n") {
				t.Errorf("does not end with the notice:\n%s", got)
			}
		})
	}
}

// stopsPhrase is how a round trip's summary must count a leg's stops.
func stopsPhrase(f flights.Flight) string {
	via := " (via " + strings.Join(f.Via(), ", ") + ")"
	switch f.Stops() {
	case 0:
		return "nonstop"
	case 1:
		return "1 stop" + via
	}
	return fmt.Sprintf("%d stops%s", f.Stops(), via)
}

// TestMarkdownTripOddNames checks escaping in a round trip's title and
// sections, a stay across a 45-minute zone, and totals for two passengers.
func TestMarkdownTripOddNames(t *testing.T) {
	c := oddCatalog(t)
	legs := oddRoundTrip(t, c)
	got := string(MarkdownTrip(c, legs, nil))
	mustContain(t, got,
		`# Pipe\|City \*star\* (AAA) ⇄ Kathmandu (CCC), Thursday 31 December 2026 – Tuesday 5 January 2027`+"\n",
		"## Outbound, Thursday 31 December 2026\n",
		"## Return, Tuesday 5 January 2027\n",
		`1. **ZZ3** Zëd Äir ✈ «Ünïcödé» Airways, "Quoted"; with a very long name 日本語テキスト, 21h15m`,
		`   - Departs Tribhuvan\_International, Kathmandu (CCC), Tue 5 Jan 2027 09:30 +0545`,
		`   - Arrives Back\\slash; Semi, Comma Second line, Pipe\|City \*star\* (AAA), Tue 5 Jan 2027 20:00 EST`,
		"- Stay: 3 days 10 h, from Fri 1 Jan 2027 23:55 +0545 to Tue 5 Jan 2027 09:30 +0545\n",
		"- Cabin: premium economy\n",
		"- Fare: $2,234 per passenger, $4,468 in total\n  - Outbound: $1,234 per passenger, $2,468 in total\n  - Return: $1,000 per passenger, $2,000 in total\n",
		"- Round trip id: `AAA-CCC-261231-ZZZZZ_CCC-AAA-270105-ZZZZY`\n",
	)
	noBrokenName(t, got)
}

func TestMarkdownTripGolden(t *testing.T) {
	c, legs := realRoundTrip(t, roundTrips[0].passengers, roundTrips[0].outStops, roundTrips[0].retStops)
	golden.Check(t, roundTrips[0].name+".md", MarkdownTrip(c, legs, nil))
}

// TestPlace names the ends of journeys, including round trips that use
// another airport of the city, or another city, on the way back.
func TestPlace(t *testing.T) {
	c := embedded(t)
	for _, tc := range []struct {
		cat  *flights.Catalog
		a, b string
		want string
	}{
		{c, "JFK", "JFK", "New York (JFK)"},
		{c, "LHR", "LGW", "London (LHR/LGW)"},
		{c, "JFK", "EWR", "New York (JFK)/Newark (EWR)"},
		{c, "LHR", "CDG", "London (LHR)/Paris (CDG)"},
		{nil, "LHR", "LGW", "LHR (LHR)/LGW (LGW)"},
		{oddCatalog(t), "AAA", "AAA", `Pipe\|City \*star\* (AAA)`},
	} {
		if got := place(tc.cat, tc.a, tc.b); got != tc.want {
			t.Errorf("place(%s, %s) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
