package itinerary

import (
	"context"
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
	trip, err := flights.Validator{Catalog: c, Now: now}.Validate(flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15"})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := flights.NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"nonstop", "1-stop", "2-stop"}
	out := map[string]flights.Flight{}
	for _, f := range fs {
		if name := names[f.Stops()]; len(out[name].Segments) == 0 {
			out[name] = f
		}
	}
	for _, name := range names {
		if len(out[name].Segments) == 0 {
			t.Fatalf("JFK-LHR 2026-12-15 has no %s flight among %d results", name, len(fs))
		}
	}
	return c, out
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
		return time.Date(y, m, d, hh, mm, 0, 0, c.Airport(code).Location)
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
