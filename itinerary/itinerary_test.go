package itinerary

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// now is the clock for the search: the date the trip is booked on, which the
// provider's advance-purchase pricing depends on.
func now() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// stamp is the fixed DTSTAMP of the golden files. It is given in New York
// time on purpose: the file must carry it as the same instant in UTC.
var stamp = time.Date(2026, 11, 30, 7, 0, 0, 0, mustLoad("America/New_York"))

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func embedded(t testing.TB) *flights.Catalog {
	t.Helper()
	c, err := flights.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// realFlights searches the embedded provider for JFK to LHR and picks the
// first nonstop, one-stop and two-stop flights, so the tests render exactly
// what the server hands to users. They are keyed by the golden file base name.
func realFlights(t testing.TB) (*flights.Catalog, map[string]flights.Flight) {
	t.Helper()
	c := embedded(t)
	trip := validate(t, c, flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15"})
	fs := search(t, c, trip)
	out := map[string]flights.Flight{}
	for stops, name := range []string{"nonstop", "1-stop", "2-stop"} {
		out[name] = withStops(t, fs, stops)
	}
	return c, out
}

// realRoundTrip searches the embedded provider the way the tools search a
// round trip, JFK to LHR on 15 December 2026 and back on the 22nd for the
// given party, and pairs the first outbound and the first return with the
// given numbers of stops, as flights.NewRoundTrip validates a pair: the legs
// the tools would hand the renderers.
func realRoundTrip(t testing.TB, passengers, outStops, retStops int) (*flights.Catalog, []flights.Flight) {
	t.Helper()
	c := embedded(t)
	trip := validate(t, c, flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-22", Passengers: &passengers})
	r, err := flights.NewRoundTrip(
		withStops(t, search(t, c, trip.On(trip.Date)), outStops),
		withStops(t, search(t, c, trip.Return(trip.ReturnDate)), retStops))
	if err != nil {
		t.Fatal(err)
	}
	return c, []flights.Flight{r.Out, r.Return}
}

func validate(t testing.TB, c *flights.Catalog, req flights.Request) flights.Trip {
	t.Helper()
	trip, err := flights.Validator{Catalog: c, Now: now}.Validate(req)
	if err != nil {
		t.Fatal(err)
	}
	return trip
}

// search is the embedded provider's answer for a one-day, one-way trip.
func search(t testing.TB, c *flights.Catalog, trip flights.Trip) []flights.Flight {
	t.Helper()
	fs, err := flights.NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// withStops is the first of fs with that many connections.
func withStops(t testing.TB, fs []flights.Flight, stops int) flights.Flight {
	t.Helper()
	for _, f := range fs {
		if f.Stops() == stops {
			return f
		}
	}
	t.Fatalf("no flight with %d stops among %d results", stops, len(fs))
	return flights.Flight{}
}

// oddCatalog has names full of characters that are syntax in iCalendar
// (backslash, semicolon, comma, line break) and Markdown ("*", "|", "_"), and
// a long multi-byte airline name so that folding must avoid splitting
// characters. CSV quoting lets a field hold a line break.
func oddCatalog(t testing.TB) *flights.Catalog {
	t.Helper()
	airports := []byte(`iata,name,city,country,lat,lon,tz
AAA,"Back\slash; Semi, Comma
Second line",Pipe|City *star*,US,40.6,-73.8,America/New_York
BBB,Plain Field,Plainville,GB,51.5,-0.4,Europe/London
CCC,Tribhuvan_International,Kathmandu,NP,27.7,85.4,Asia/Kathmandu
`)
	airlines := []byte(`iata,name,alliance,hubs
ZZ,"Zëd Äir ✈ «Ünïcödé» Airways, ""Quoted""; with a very long name 日本語テキスト",none,AAA BBB
`)
	c, err := flights.NewCatalog(airports, airlines)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// oddFlight is a hand-built two-segment flight over oddCatalog, ending in a
// zone with a 45-minute offset, with a total for two passengers.
func oddFlight(t testing.TB, c *flights.Catalog) flights.Flight {
	t.Helper()
	at := func(code string, y int, m time.Month, d, hh, mm int) time.Time {
		return time.Date(y, m, d, hh, mm, 0, 0, c.Airport(code).Location())
	}
	return flights.Flight{
		ID: "AAA-CCC-261231-ZZZZZ",
		Segments: []flights.Segment{
			{FlightNumber: "ZZ1", Airline: "ZZ", From: "AAA", To: "BBB",
				Depart: at("AAA", 2026, 12, 31, 18, 0), Arrive: at("BBB", 2027, 1, 1, 6, 5)},
			{FlightNumber: "ZZ2", Airline: "ZZ", From: "BBB", To: "CCC",
				Depart: at("BBB", 2027, 1, 1, 8, 10), Arrive: at("CCC", 2027, 1, 1, 23, 55)},
		},
		Cabin:    flights.PremiumEconomy,
		PriceUSD: 1234,
		TotalUSD: 2468,
	}
}

func TestUSD(t *testing.T) {
	for n, want := range map[int]string{0: "$0", 7: "$7", 999: "$999", 1000: "$1,000", 12345: "$12,345", 1234567: "$1,234,567", -1500: "-$1,500"} {
		if got := usd(n); got != want {
			t.Errorf("usd(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNilCatalogShowsCodes(t *testing.T) {
	_, fs := realFlights(t)
	f := fs["1-stop"]
	if got := string(Markdown(nil, f)); !contains(got, "("+f.Segments[0].From+")") {
		t.Errorf("Markdown without a catalog lacks the codes:\n%s", got)
	}
	cal := parseICS(t, ICS(nil, f, stamp))
	if got := prop(t, cal.Events()[0], "LOCATION"); got != f.Segments[0].From {
		t.Errorf("LOCATION without a catalog = %q, want the code %q", got, f.Segments[0].From)
	}
}

// oddRoundTrip is oddFlight and a hand-built one-segment return from the
// zone with the 45-minute offset, paired by flights.NewRoundTrip, priced for
// the same two passengers.
func oddRoundTrip(t testing.TB, c *flights.Catalog) []flights.Flight {
	t.Helper()
	kathmandu, home := c.Airport("CCC").Location(), c.Airport("AAA").Location()
	ret := flights.Flight{
		ID: "CCC-AAA-270105-ZZZZY",
		Segments: []flights.Segment{{FlightNumber: "ZZ3", Airline: "ZZ", From: "CCC", To: "AAA",
			Depart: time.Date(2027, 1, 5, 9, 30, 0, 0, kathmandu), Arrive: time.Date(2027, 1, 5, 20, 0, 0, 0, home)}},
		Cabin:    flights.PremiumEconomy,
		PriceUSD: 1000,
		TotalUSD: 2000,
	}
	r, err := flights.NewRoundTrip(oddFlight(t, c), ret)
	if err != nil {
		t.Fatal(err)
	}
	return []flights.Flight{r.Out, r.Return}
}

func TestStay(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{3 * time.Hour, "3h00m"}, // the shortest turnaround NewRoundTrip allows
		{23*time.Hour + 40*time.Minute, "23h40m"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1 day"}, // not "24h00m"
		{24 * time.Hour, "1 day"},
		{24*time.Hour + 29*time.Minute, "1 day"},
		{36*time.Hour + 30*time.Minute, "1 day 13 h"},
		{2 * 24 * time.Hour, "2 days"},
		{6*24*time.Hour + 20*time.Hour + 10*time.Minute, "6 days 20 h"},
		{6*24*time.Hour + 23*time.Hour + 40*time.Minute, "7 days"},
	} {
		if got := stay(tc.d); got != tc.want {
			t.Errorf("stay(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestLegCount checks that both renderers refuse a journey that is neither
// one flight nor a round trip, saying how many flights they were given,
// instead of writing a file that names the legs wrongly.
func TestLegCount(t *testing.T) {
	c, fs := realFlights(t)
	three := []flights.Flight{fs["nonstop"], fs["1-stop"], fs["2-stop"]}
	for _, tc := range []struct {
		name   string
		legs   []flights.Flight
		render func([]flights.Flight)
	}{
		{"ICSTrip no legs", nil, func(l []flights.Flight) { ICSTrip(c, l, stamp, nil) }},
		{"ICSTrip three legs", three, func(l []flights.Flight) { ICSTrip(c, l, stamp, nil) }},
		{"MarkdownTrip no legs", nil, func(l []flights.Flight) { MarkdownTrip(c, l, nil) }},
		{"MarkdownTrip three legs", three, func(l []flights.Flight) { MarkdownTrip(c, l, nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if want := fmt.Sprintf("not %d flights", len(tc.legs)); !strings.Contains(msg, want) {
					t.Errorf("panic %q, want one that says %q", msg, want)
				}
			}()
			tc.render(tc.legs)
		})
	}
}

// roundTrips are the real round trips the trip tests render, by
// realRoundTrip's arguments: the golden one (nonstop out, a connection
// home), connections on both legs, and a party of three, whose totals are
// not its fares.
var roundTrips = []struct {
	name                           string
	passengers, outStops, retStops int
}{
	{"roundtrip", 1, 0, 1},
	{"connections both ways", 1, 1, 2},
	{"party of three", 3, 0, 0},
}

// mustContain reports each of wants that text (a rendering, or the wire form
// of one) lacks.
func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

// Rendered knows every file this package writes, and nothing else.
func TestRendered(t *testing.T) {
	c, fs := realFlights(t)
	odd := oddCatalog(t)
	booking := &Booking{Reference: "BK-X", Passenger: "Ada Lovelace", Seat: "window"}
	ours := [][]byte{ICSTrip(odd, oddRoundTrip(t, odd), stamp, booking), MarkdownTrip(odd, oddRoundTrip(t, odd), booking)}
	for _, f := range fs {
		ours = append(ours, ICS(c, f, stamp), Markdown(c, f))
	}
	for _, b := range ours {
		if !Rendered(b) {
			t.Errorf("not recognised as ours:\n%s", b)
		}
	}
	for _, b := range []string{"", "# Notes\n", "BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nEND:VCALENDAR\r\n",
		"*" + simulatedNotice + "*\n\nmy notes\n", "BEGIN:VCALENDAR\nPRODID:" + ProdID + "\nEND:VCALENDAR\n"} {
		if Rendered([]byte(b)) {
			t.Errorf("recognised as ours: %q", b)
		}
	}
}
