package ranking

import (
	"context"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// BenchmarkRank measures the deterministic ranker over one real search
// result (about 47 flights): filter, order, reasons for the best three.
func BenchmarkRank(b *testing.B) {
	c, err := flights.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	trip, err := flights.Validator{Catalog: c, Now: now}.Validate(flights.Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15"})
	if err != nil {
		b.Fatal(err)
	}
	fs, err := flights.NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := DefaultWeights.Rank(trip, fs, 3); len(r.Picks) != 3 {
			b.Fatal(r)
		}
	}
}
