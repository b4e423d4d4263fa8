package ranking

import (
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// An option's facts are its flight's, or for a round trip both legs'
// together.
func TestOptionFacts(t *testing.T) {
	out, back := flight("OUT", "08:00", 7, 0, 500), flight("BACK", "09:00", 9, 1, 400)
	back.Segments[len(back.Segments)-1].To = "CCC" // lands home at another airport
	out.TotalUSD, back.TotalUSD = 1000, 800        // two passengers
	for _, tc := range []struct {
		name            string
		o               Option
		id              string
		price, total    int
		dur             time.Duration
		stops           int
		nonstop         bool
		describe        string
		airportChanges  int
		score, legScore float64
	}{
		{"one way", Option{Flight: out}, "OUT", 500, 1000, 7 * time.Hour, 0, true, "$500 ($1000 for 2), nonstop, 7h00m", 0, 640, 640},
		{"round trip", Option{Flight: out, Return: &back}, flights.RoundTrip{Out: out, Return: back}.ID(), 900, 1800, 16 * time.Hour, 1, false,
			"$900 ($1800 for 2) round trip: out $500 ($1000 for 2), nonstop, 7h00m; back $400 ($800 for 2), 1 stop (HBA), 9h00m", 2, 640 + 655, 640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			if o.ID() != tc.id || o.PriceUSD() != tc.price || o.TotalUSD() != tc.total || o.Duration() != tc.dur || o.Stops() != tc.stops || o.Nonstop() != tc.nonstop {
				t.Errorf("id %s price %d total %d duration %v stops %d nonstop %v", o.ID(), o.PriceUSD(), o.TotalUSD(), o.Duration(), o.Stops(), o.Nonstop())
			}
			if got := Describe(o); got != tc.describe {
				t.Errorf("Describe = %q\nwant       %q", got, tc.describe)
			}
			if got := AirportChanges(o); len(got) != tc.airportChanges {
				t.Errorf("AirportChanges = %q, want %d", got, tc.airportChanges)
			}
			if got := DefaultWeights.ScoreOption(o); got != tc.score || DefaultWeights.Score(o.Flight) != tc.legScore {
				t.Errorf("ScoreOption = %v, want %v", got, tc.score)
			}
		})
	}
}

// Paired and OneWay keep their input's order, and an option of Paired is
// the pair it came from.
func TestPairedAndOneWay(t *testing.T) {
	a, b, c := flight("A", "08:00", 7, 0, 500), flight("B", "09:00", 8, 0, 400), flight("C", "10:00", 9, 0, 300)
	os := Paired([]flights.RoundTrip{{Out: a, Return: b}, {Out: c, Return: a}})
	if len(os) != 2 || os[0].roundTrip().ID() != (flights.RoundTrip{Out: a, Return: b}).ID() || os[1].Flight.ID != "C" || os[1].Return.ID != "A" {
		t.Errorf("Paired gave %+v", os)
	}
	ow := OneWay([]flights.Flight{c, a})
	if len(ow) != 2 || ow[0].ID() != "C" || ow[1].ID() != "A" || ow[0].Return != nil {
		t.Errorf("OneWay gave %+v", ow)
	}
}
