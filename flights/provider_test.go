package flights

import (
	"math"
	"testing"
	"time"
)

func TestLayovers(t *testing.T) {
	lon, _ := time.LoadLocation("Europe/London")
	at := func(s string) time.Time { v, _ := time.ParseInLocation("2006-01-02 15:04", s, lon); return v }
	seg := func(from, to, dep, arr string) Segment {
		return Segment{From: from, To: to, Depart: at(dep), Arrive: at(arr)}
	}
	for _, tc := range []struct {
		name      string
		segs      []Segment
		minutes   []int
		overnight []bool
		change    []bool
	}{
		{"nonstop", []Segment{seg("JFK", "LHR", "2026-12-15 08:00", "2026-12-15 20:00")}, nil, nil, nil},
		{"a daytime connection", []Segment{seg("EDI", "LHR", "2026-12-15 08:00", "2026-12-15 09:30"), seg("LHR", "JFK", "2026-12-15 11:05", "2026-12-15 19:00")},
			[]int{95}, []bool{false}, []bool{false}},
		{"past midnight, but not a night", []Segment{seg("EDI", "LHR", "2026-12-15 22:00", "2026-12-15 23:30"), seg("LHR", "JFK", "2026-12-16 00:40", "2026-12-16 09:00")},
			[]int{70}, []bool{false}, []bool{false}},
		{"a night at the airport", []Segment{seg("EDI", "LHR", "2026-12-15 21:00", "2026-12-15 22:30"), seg("LHR", "JFK", "2026-12-16 07:00", "2026-12-16 15:00")},
			[]int{510}, []bool{true}, []bool{false}},
		{"the early hours", []Segment{seg("DXB", "LHR", "2026-12-16 00:30", "2026-12-16 01:00"), seg("LHR", "JFK", "2026-12-16 06:00", "2026-12-16 15:00")},
			[]int{300}, []bool{true}, []bool{false}},
		{"across town", []Segment{seg("EDI", "LHR", "2026-12-15 08:00", "2026-12-15 09:30"), seg("LGW", "JFK", "2026-12-15 13:00", "2026-12-15 19:00"), seg("JFK", "BOS", "2026-12-15 21:00", "2026-12-15 22:00")},
			[]int{210, 120}, []bool{false, false}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := Flight{Segments: tc.segs}.Layovers()
			if len(ls) != len(tc.minutes) {
				t.Fatalf("%d layovers, want %d", len(ls), len(tc.minutes))
			}
			for i, l := range ls {
				if int(l.Duration.Minutes()) != tc.minutes[i] || l.Overnight != tc.overnight[i] || l.ChangeOfAirport != tc.change[i] ||
					l.Airport != tc.segs[i].To || l.DepartFrom != tc.segs[i+1].From {
					t.Errorf("layover %d = %+v", i, l)
				}
			}
		})
	}
}

// FormatDuration writes hours and two-digit minutes, rounded to the
// minute, the way every text and reason shows a duration.
func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0h00m"}, {29 * time.Second, "0h00m"}, {30 * time.Second, "0h01m"}, {5 * time.Minute, "0h05m"},
		{320 * time.Minute, "5h20m"}, {10*time.Hour + 59*time.Minute + 40*time.Second, "11h00m"},
		{123 * time.Hour, "123h00m"}, {-65 * time.Minute, "-1h-5m"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
		if got := string(AppendDuration([]byte("took "), tc.d)); got != "took "+tc.want {
			t.Errorf("AppendDuration(%q, %v) = %q, want %q", "took ", tc.d, got, "took "+tc.want)
		}
	}
	if got := FormatDuration(math.MaxInt64); got != "2562047h47m" {
		t.Errorf("FormatDuration(the longest duration) = %q", got)
	}
}
