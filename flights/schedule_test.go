package flights

import (
	"testing"
	"time"
)

// IATA seasons turn on the last Sundays of March and October.
func TestSeasons(t *testing.T) {
	for _, tc := range []struct {
		date, season string
	}{
		{"2026-10-24", "S26"}, {"2026-10-25", "W26"}, {"2027-01-20", "W26"},
		{"2027-03-27", "W26"}, {"2027-03-28", "S27"}, {"2027-07-14", "S27"},
		{"2027-10-30", "S27"}, {"2027-10-31", "W27"}, {"2028-03-25", "W27"}, {"2028-03-26", "S28"},
	} {
		d, _ := time.Parse(DateLayout, tc.date)
		if got := seasonOf(d).String(); got != tc.season {
			t.Errorf("%s: season %s, want %s", tc.date, got, tc.season)
		}
	}
}

// Prepare plans the date's season ahead of the first search, and the
// catalog keeps only the last few seasons' timetables.
func TestPrepareAndTheSeasonCache(t *testing.T) {
	c, err := newCatalog(embeddedSources(), false)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC)
	c.Prepare(day)
	e := c.seasons.entries[seasonOf(day)]
	if e == nil || e.tt == nil || e.tt.routes() != len(c.network().routes) {
		t.Fatalf("after Prepare, the season's timetable is %+v", e)
	}
	if c.timetable(seasonOf(day)) != e.tt {
		t.Error("the timetable was planned again")
	}
	for k := range seasonCacheSize + 2 {
		c.Prepare(day.AddDate(0, 6*k, 0))
	}
	if n := len(c.seasons.entries); n != seasonCacheSize || len(c.seasons.order) != seasonCacheSize {
		t.Errorf("%d seasons kept (%d in order), want %d", n, len(c.seasons.order), seasonCacheSize)
	}
}
