package flights

import (
	"context"
	"runtime"
	"testing"
)

// benchFilters are filters a traveller sets, one per trip in turn: an
// airline, an evening departure, nonstops in a window, a price cap.
var benchFilters = []func(*Trip){
	func(t *Trip) {
		airlines := []string{"DL", "UA", "AA", "BA", "LH", "SQ", "QF", "EK"}
		t.Airlines = []string{airlines[t.Date.YearDay()%len(airlines)]}
	},
	func(t *Trip) { after := Clock(20 * 60); t.DepartAfter = &after },
	func(t *Trip) {
		after, before := Clock(18*60), Clock(23*60)
		t.MaxStops, t.DepartAfter, t.DepartBefore = 0, &after, &before
	},
	func(t *Trip) { t.MaxPriceUSD = 450 },
}

// BenchmarkSearch measures the provider: cold builds a route's schedule
// (the cache never hits: the benchmark cycles through more routes than the
// cache holds), warm prices a cached one, as repeated searches do. The
// filtered ones search the same trips with one of benchFilters each; metro
// searches NYC to LON (15 airport pairs, merged), its schedules cached.
func BenchmarkSearch(b *testing.B) {
	c := mustCatalog(b)
	pairs := [][2]string{{"JFK", "LHR"}, {"SFO", "NRT"}, {"FRA", "SIN"}, {"GRU", "MAD"}, {"SYD", "LAX"}, {"DXB", "JNB"}, {"ORD", "DEN"}, {"DEL", "CDG"}}
	var trips, filtered []Trip
	for d := range 90 {
		for i, p := range pairs {
			trip := tripFor(b, c, p[0], p[1], now().AddDate(0, 0, d+1).Format(DateLayout))
			trips = append(trips, trip)
			benchFilters[(d+i)%len(benchFilters)](&trip)
			filtered = append(filtered, trip)
		}
	}
	if len(trips) <= scheduleCacheSize {
		b.Fatalf("%d trips do not defeat a cache of %d", len(trips), scheduleCacheSize)
	}
	metro := tripFor(b, c, "NYC", "LON", now().AddDate(0, 0, 20).Format(DateLayout))
	metroFiltered := metro
	benchFilters[1](&metroFiltered)
	cycle := func(trips []Trip) func(b *testing.B) {
		return func(b *testing.B) {
			p := NewSynthetic(c, now, 0)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := p.Search(context.Background(), trips[i%len(trips)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		}
	}
	repeat := func(trip Trip) func(b *testing.B) {
		return func(b *testing.B) {
			p := NewSynthetic(c, now, 0)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Search(context.Background(), trip); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("cold", cycle(trips))
	b.Run("warm", repeat(trips[0]))
	b.Run("filtered/cold", cycle(filtered))
	b.Run("filtered/warm", repeat(filtered[1]))
	b.Run("metro/warm", repeat(metro))
	b.Run("metro/filtered/warm", repeat(metroFiltered))
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

// BenchmarkScheduleMemory measures what the schedule caches hold: b.N
// busy pair-days (the pairs of BenchmarkSearch, on successive dates), each
// built as the schedule cache keeps it (its page and its reserve's
// candidates) and then with its reserve written as the reserve cache keeps
// it, the live heap read after a collection before and after each. It
// reports bytes per entry of each, and the itineraries they hold.
func BenchmarkScheduleMemory(b *testing.B) {
	c := mustCatalog(b)
	p := NewSynthetic(c, now, 0)
	pairs := [][2]string{{"JFK", "LHR"}, {"SFO", "NRT"}, {"FRA", "SIN"}, {"GRU", "MAD"}, {"SYD", "LAX"}, {"DXB", "JNB"}, {"ORD", "DEN"}, {"DEL", "CDG"}}
	day := now().AddDate(0, 0, 30)
	p.schedule(c.Airport("JFK"), c.Airport("LHR"), day, p.maxResults) // the network and the season's timetable, built once
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	b.ResetTimer()
	start := live()
	schedules := make([]*pairSchedule, b.N)
	for i := range b.N {
		pair := pairs[i%len(pairs)]
		schedules[i] = p.schedule(c.Airport(pair[0]), c.Airport(pair[1]), day.AddDate(0, 0, i/len(pairs)), p.maxResults)
	}
	built := live()
	reserves := make([][]itinerary, b.N)
	for i, ps := range schedules {
		reserves[i] = p.extra(ps)
	}
	written := live()
	b.StopTimer()
	var pages, kept int
	for i := range b.N {
		pages += len(schedules[i].page)
		kept += len(reserves[i])
	}
	runtime.KeepAlive(schedules)
	runtime.KeepAlive(reserves)
	b.ReportMetric(float64(built-start)/float64(b.N), "schedule-B/entry")
	b.ReportMetric(float64(written-built)/float64(b.N), "reserve-B/entry")
	b.ReportMetric(float64(pages)/float64(b.N), "page-its/entry")
	b.ReportMetric(float64(kept)/float64(b.N), "reserve-its/entry")
}
