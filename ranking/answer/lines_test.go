package answer

import "testing"

// A label gives a flight a place when it is one of a few plain phrases:
// the best of all, the second, the third; the best of a kind ("Best
// value") is a pick without one.
func TestPlaceOf(t *testing.T) {
	for _, tc := range []struct {
		label string
		want  int
	}{
		{"Best: ", 1},
		{"**Best overall:** ", 1},
		{"**Best**: ", 1},
		{"Top pick: ", 1},
		{"Top-pick: ", 1},
		{"My  recommendation - ", 1},
		{"FINAL ANSWER: ", 1},
		{"__Winner__: ", 1},
		{"Runner-up: ", 2},
		{"**Runner up:** ", 2},
		{"Second choice: ", 2},
		{"2nd best: ", 2},
		{"Third choice: ", 3},
		{"3rd: ", 3},
		{"Best value: ", 0},
		{"Best nonstop: ", 0},
		{"Second cheapest: ", 0},
		{"Budget pick: ", 0},
		{"Alternative: ", 0},
		{"Cheapest: ", 0},
		{"", 0},
	} {
		if got := placeOf(tc.label); got != tc.want {
			t.Errorf("placeOf(%q) = %d, want %d", tc.label, got, tc.want)
		}
	}
}
