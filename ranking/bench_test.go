package ranking

import "testing"

// BenchmarkRank measures the deterministic ranker over one real search
// result (about 47 flights): filter, order, reasons for the best three.
func BenchmarkRank(b *testing.B) {
	trip, fs := search(b, "JFK", "LHR", "2026-12-15")
	b.ReportAllocs()
	for b.Loop() {
		if r := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(trip, fs)), 3, Standouts{}); len(r.Picks) != 3 {
			b.Fatal(r)
		}
	}
}
