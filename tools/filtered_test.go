package tools

import (
	"context"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// A flight that only a filtered search shows can be booked. The provider
// fills a filtered page from flights its unfiltered page leaves out (no
// flight of SFO-NRT's page lands between 06:00 and 09:00), and bookFlight
// finds one again by its id (flights.Lookup), at the fare findBestFlight
// quoted, in both eras.
func TestBookAFlightOnlyAFilterShows(t *testing.T) {
	date := time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC)
	page, err := flights.NewSynthetic(mustCatalog(t), today, 0).Search(context.Background(),
		flights.Trip{Origin: "SFO", Destination: "NRT", Date: date, Passengers: 1, Cabin: flights.Economy, MaxStops: flights.MaxStopsLimit})
	if err != nil {
		t.Fatal(err)
	}
	onPage := map[string]bool{}
	for _, f := range page {
		onPage[f.ID] = true
	}
	find := map[string]any{"origin": "SFO", "destination": "NRT", "date": "2027-01-20", "arriveAfter": "06:00", "arriveBefore": "09:00", "strategy": "deterministic"}
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			c := connect(t, newServer(t), "inprocess", era.Version)
			var r FindResult
			decode(t, callTool(t, c, FindBestFlightName, find), &r)
			if len(r.Flights) == 0 {
				t.Fatalf("no flights: %s", r.Summary)
			}
			f := r.Flights[0]
			if onPage[f.ID] {
				t.Fatalf("%s is on the unfiltered page: the test needs one only the filter shows", f.ID)
			}
			res := callTool(t, c, BookFlightName, map[string]any{"flightId": f.ID, "confirm": true, "passengerName": "Grace Hopper"})
			var b BookResult
			decodeWith(t, bookOutputSchema, res, &b)
			if b.FlightID != f.ID || b.PriceUSD != f.PriceUSD {
				t.Errorf("booked %s at $%d, want %s at $%d", b.FlightID, b.PriceUSD, f.ID, f.PriceUSD)
			}
		})
	}
}
