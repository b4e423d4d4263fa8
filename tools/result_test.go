package tools

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// TestLegDetail is the line under the table that names each segment's
// airline and each connection, with what is unusual about a connection.
func TestLegDetail(t *testing.T) {
	seg := func(n, name, from, to string) SegmentOut {
		return SegmentOut{FlightNumber: n, AirlineName: name, From: from, To: to}
	}
	ba := seg("BA178", "British Airways", "JFK", "LHR")
	aa := seg("AA100", "American Airlines", "JFK", "ORD")
	ua := seg("UA9", "United Airlines", "MDW", "LHR")
	for _, tc := range []struct {
		name     string
		segs     []SegmentOut
		layovers []LayoverOut
		want     string
	}{
		{"nonstop", []SegmentOut{ba}, nil, "BA178 British Airways JFK→LHR"},
		{"one connection", []SegmentOut{aa, ua}, []LayoverOut{{Airport: "ORD", Minutes: 125}},
			"AA100 American Airlines JFK→ORD, 2h05m at ORD, UA9 United Airlines MDW→LHR"},
		{"overnight", []SegmentOut{aa, ua}, []LayoverOut{{Airport: "ORD", Minutes: 400, Overnight: true}},
			"AA100 American Airlines JFK→ORD, 6h40m at ORD (overnight), UA9 United Airlines MDW→LHR"},
		{"change of airport", []SegmentOut{aa, ua}, []LayoverOut{{Airport: "ORD", Minutes: 180, ChangeOfAirport: true, DepartFrom: "MDW"}},
			"AA100 American Airlines JFK→ORD, 3h00m at ORD (change of airport to MDW), UA9 United Airlines MDW→LHR"},
		{"both", []SegmentOut{aa, ua}, []LayoverOut{{Airport: "ORD", Minutes: 600, Overnight: true, ChangeOfAirport: true, DepartFrom: "MDW"}},
			"AA100 American Airlines JFK→ORD, 10h00m at ORD (overnight, change of airport to MDW), UA9 United Airlines MDW→LHR"},
		{"two connections", []SegmentOut{aa, seg("AA50", "American Airlines", "ORD", "DFW"), seg("QF8", "Qantas", "DFW", "SYD")},
			[]LayoverOut{{Airport: "ORD", Minutes: 60}, {Airport: "DFW", Minutes: 95, Overnight: true}},
			"AA100 American Airlines JFK→ORD, 1h00m at ORD, AA50 American Airlines ORD→DFW, 1h35m at DFW (overnight), QF8 Qantas DFW→SYD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			writeLegDetail(&b, tc.segs, tc.layovers)
			if b.String() != tc.want {
				t.Errorf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}

// legRow writes a flight's cells of the table, its arrival marked with the
// days it lands after (or, across the date line westward, before) it left,
// and legOut the times of each segment in RFC 3339 with the leg's own
// taken from its first segment and its last.
func TestLegRowAndTimes(t *testing.T) {
	ny, tokyo, hnl := time.FixedZone("EST", -5*3600), time.FixedZone("JST", 9*3600), time.FixedZone("HST", -10*3600)
	at := func(loc *time.Location, day, hour, minute int) time.Time {
		return time.Date(2026, 12, day, hour, minute, 0, 0, loc)
	}
	seg := func(n, from, to string, dep, arr time.Time) flights.Segment {
		return flights.Segment{FlightNumber: n, Airline: n[:2], From: from, To: to, Depart: dep, Arrive: arr}
	}
	for _, tc := range []struct {
		name  string
		f     flights.Flight
		fare  string
		row   [tableColumns]string
		times []string // each segment's depart and arrive
	}{
		{"nonstop, same day", flights.Flight{Segments: []flights.Segment{seg("AA1", "JFK", "LAX", at(ny, 15, 8, 5), at(ny, 15, 14, 20))}},
			"$300", [tableColumns]string{"1", "AA1", "Tue 15 Dec", "08:05", "14:20", "6h15m", "nonstop", "$300", "ID"},
			[]string{"2026-12-15T08:05:00-05:00", "2026-12-15T14:20:00-05:00"}},
		{"two stops, next day", flights.Flight{Segments: []flights.Segment{
			seg("AA2", "JFK", "ORD", at(ny, 15, 21, 0), at(ny, 15, 23, 0)),
			seg("AA3", "ORD", "DFW", at(ny, 16, 1, 0), at(ny, 16, 3, 30)),
			seg("QF4", "DFW", "SYD", at(ny, 16, 5, 0), at(ny, 17, 9, 0))}},
			"$900 ($1800)", [tableColumns]string{"1", "AA2+AA3+QF4", "Tue 15 Dec", "21:00", "09:00+2", "36h00m", "2 stops (ORD, DFW)", "$900 ($1800)", "ID"},
			[]string{"2026-12-15T21:00:00-05:00", "2026-12-15T23:00:00-05:00", "2026-12-16T01:00:00-05:00", "2026-12-16T03:30:00-05:00", "2026-12-16T05:00:00-05:00", "2026-12-17T09:00:00-05:00"}},
		{"across the date line, a day earlier", flights.Flight{Segments: []flights.Segment{seg("JL5", "HND", "HNL", at(tokyo, 16, 0, 30), at(hnl, 15, 12, 0))}},
			"", [tableColumns]string{"1", "JL5", "Wed 16 Dec", "00:30", "12:00-1", "6h30m", "nonstop", "", "ID"},
			[]string{"2026-12-16T00:30:00+09:00", "2026-12-15T12:00:00-10:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fare []byte
			if tc.fare != "" {
				fare = []byte(tc.fare)
			}
			if got := legRow("1", tc.f, fare, "ID"); got != tc.row {
				t.Errorf("legRow:\ngot  %q\nwant %q", got, tc.row)
			}
			catalog, err := flights.Embedded()
			if err != nil {
				t.Fatal(err)
			}
			leg := legOut(names{catalog}, tc.f)
			var got []string
			for _, s := range leg.Segments {
				got = append(got, s.Depart, s.Arrive)
			}
			if !slices.Equal(got, tc.times) {
				t.Errorf("segments' times:\ngot  %q\nwant %q", got, tc.times)
			}
			if leg.Depart != tc.times[0] || leg.Arrive != tc.times[len(tc.times)-1] {
				t.Errorf("leg's times %q and %q, want its first segment's departure and its last one's arrival", leg.Depart, leg.Arrive)
			}
		})
	}
}
