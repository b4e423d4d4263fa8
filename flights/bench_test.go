package flights

import (
	"context"
	"testing"
)

// BenchmarkSearch measures the provider: cold builds a route's schedule
// (the cache never hits: the benchmark cycles through more routes than the
// cache holds), warm prices a cached one, as repeated searches do.
func BenchmarkSearch(b *testing.B) {
	c := mustCatalog(b)
	pairs := [][2]string{{"JFK", "LHR"}, {"SFO", "NRT"}, {"FRA", "SIN"}, {"GRU", "MAD"}, {"SYD", "LAX"}, {"DXB", "JNB"}, {"ORD", "DEN"}, {"DEL", "CDG"}}
	var trips []Trip
	for d := range 90 {
		for _, p := range pairs {
			trips = append(trips, tripFor(b, c, p[0], p[1], now().AddDate(0, 0, d+1).Format(DateLayout)))
		}
	}
	if len(trips) <= scheduleCacheSize {
		b.Fatalf("%d trips do not defeat a cache of %d", len(trips), scheduleCacheSize)
	}
	b.Run("cold", func(b *testing.B) {
		p := NewSynthetic(c, now, 0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := p.Search(context.Background(), trips[i%len(trips)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("warm", func(b *testing.B) {
		p := NewSynthetic(c, now, 0)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Search(context.Background(), trips[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
