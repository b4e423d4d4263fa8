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

// BenchmarkFirstSearch measures what the first search of a process (or the
// first of a new season) pays once: building the network model from the
// catalogue, then planning a season's timetable. A fresh catalogue each
// time, so nothing is cached.
func BenchmarkFirstSearch(b *testing.B) {
	src := embeddedSources()
	date := now().AddDate(0, 0, 30)
	b.Run("network", func(b *testing.B) {
		for b.Loop() {
			c, err := newCatalog(src, false)
			if err != nil {
				b.Fatal(err)
			}
			c.network()
		}
	})
	b.Run("season", func(b *testing.B) {
		c, err := newCatalog(src, false)
		if err != nil {
			b.Fatal(err)
		}
		n := c.network()
		b.ResetTimer()
		for b.Loop() {
			planSeason(n, seasonOf(date))
		}
	})
}
