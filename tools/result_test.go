package tools

import (
	"strings"
	"testing"
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
