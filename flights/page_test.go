package flights

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/internal/golden"
)

// unfilteredTrips is a spread of the searches a traveller makes without a
// filter: busy and thin pairs, a remote pair, metro codes at either end or
// both, on dates that include both of Europe's and America's clock changes.
func unfilteredTrips(t testing.TB, c *Catalog) []Trip {
	t.Helper()
	dates := []string{"2026-12-15", "2027-03-14", "2027-03-28", "2027-07-04", "2027-10-31", "2027-11-07"}
	named := [][2]string{
		{"JFK", "LHR"}, {"LHR", "JFK"}, {"SFO", "NRT"}, {"FRA", "SIN"}, {"ORD", "DEN"}, {"SYD", "LAX"},
		{"BOS", "JFK"}, {"AMS", "BRU"}, {"CGH", "MIA"}, {"ACC", "DSS"}, {"DXB", "BKK"}, {"GRU", "MAD"},
		{"NYC", "LON"}, {"LON", "NYC"}, {"NYC", "PAR"}, {"TYO", "SEL"}, {"CHI", "WAS"}, {"LON", "JFK"},
	}
	codes := c.AirportCodes()
	for i := 0; i < len(codes); i += 4 {
		o, d := codes[i], codes[(i*7+3)%len(codes)]
		if o != d && DistanceKm(c.Airport(o), c.Airport(d)) >= minLegKm {
			named = append(named, [2]string{o, d})
		}
	}
	var trips []Trip
	for i, p := range named {
		trip := tripFor(t, c, p[0], p[1], dates[i%len(dates)])
		trip.Passengers = 2
		trips = append(trips, trip)
	}
	return trips
}

// fingerprint is one search's answer in a line: how many flights, the
// first and last id, and a hash of every flight in order (id, fares,
// cabins, every segment's number, airports and times).
func fingerprint(trip Trip, fs []Flight) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %d %d %+v", f.ID, f.Cabin, f.PriceUSD, f.TotalUSD, f.Fare)
		for _, s := range f.Segments {
			fmt.Fprintf(&b, " | %s %s %s %s %s %s %s", s.FlightNumber, s.Airline, s.Cabin, s.From, s.Depart.Format("2006-01-02T15:04Z07:00"), s.To, s.Arrive.Format("2006-01-02T15:04Z07:00"))
		}
		b.WriteString("\n")
	}
	first, last := "-", "-"
	if len(fs) > 0 {
		first, last = fs[0].ID, fs[len(fs)-1].ID
	}
	sum := sha256.Sum256([]byte(b.String()))
	return fmt.Sprintf("%s-%s %s: %d flights, %s .. %s, %x\n", trip.Origin, trip.Destination, trip.Date.Format(DateLayout),
		len(fs), first, last, sum[:8])
}

// An unfiltered search returns what it returned before filters were
// applied ahead of the page's cut: the same flights, ids, fares and order,
// over a spread of pairs and dates. The golden was written by the provider
// as it was before the reserve (each pair's page capped at maxResults and
// nothing else kept); it must not move unless the schedule itself changes.
// Regenerate with: go test ./flights -run UnfilteredPages -update
func TestUnfilteredPagesAreUnchanged(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	var b strings.Builder
	trips := unfilteredTrips(t, c)
	for _, trip := range trips {
		fs, err := p.Search(context.Background(), trip)
		if err != nil {
			t.Fatalf("%s-%s: %v", trip.Origin, trip.Destination, err)
		}
		b.WriteString(fingerprint(trip, fs))
	}
	if len(trips) < 50 {
		t.Fatalf("%d trips: too few to pin the pages", len(trips))
	}
	golden.Check(t, "unfiltered-pages.golden", []byte(b.String()))
}
