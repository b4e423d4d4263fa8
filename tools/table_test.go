package tools

import (
	"strings"
	"testing"
	"text/tabwriter"
)

// TestTableLaysOutAsTabwriter holds writeTable to the layout it replaced:
// text/tabwriter with padding 2 over the same cells joined by tabs, for
// rows with wide, empty and non-ASCII cells.
func TestTableLaysOutAsTabwriter(t *testing.T) {
	header := [tableColumns]string{"#", "flight", "date", "depart", "arrive", "duration", "stops", "price", "id"}
	for _, tc := range []struct {
		name string
		rows [][tableColumns]string
	}{
		{"header only", nil},
		{"one pick", [][tableColumns]string{{"1", "BA178", "Tue 15 Dec", "08:00", "20:05", "7h05m", "nonstop", "$612", "JFK-LHR-261215-K3M9P"}}},
		{"round trip, the return's fare and id empty", [][tableColumns]string{
			{"1", "AA100+BA7", "Tue 15 Dec", "18:30", "07:10+1", "12h40m", "1 stop (ORD)", "$1,204 ($2,408)", "JFK-LHR-261215-A1"},
			{"↩", "BA8", "Mon 21 Dec", "09:15", "12:30", "8h15m", "nonstop", "", ""},
			{"10", "NZ1", "Wed 16 Dec", "23:59", "05:00-1", "15h01m", "2 stops (AKL, SYD)", "$9", "x"},
		}},
		{"cells wider than the header", [][tableColumns]string{{"123456", "QF1+QF2+QF3", "Sun 31 Dec", "00:00", "23:59+2", "99h59m", "3 stops (a, b, c)", "$123456", ""}}},
		{"a column wider than one write of padding", [][tableColumns]string{
			{"1", "QF1+QF2+QF3+QF4+QF5+QF6+QF7+QF8+QF9+QF10+QF11", "Sun 31 Dec", "00:00", "23:59+2", "99h59m", "nonstop", "$1", "a"},
			{"2", "QF1", "Sun 31 Dec", "00:00", "23:59", "1h00m", "nonstop", "$1", "b"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want strings.Builder
			w := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
			rows := append([][tableColumns]string{header}, tc.rows...)
			for _, row := range rows {
				if _, err := w.Write([]byte(strings.Join(row[:], "\t") + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			writeTable(&got, rows)
			if got.String() != want.String() {
				t.Errorf("table:\n%q\ntabwriter:\n%q", got.String(), want.String())
			}
		})
	}
}
