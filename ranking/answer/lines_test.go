package answer

import "testing"

// A label calls a flight the best of all when it is one of a few plain
// phrases; the best of a kind ("Best value") is a pick, not the best.
func TestCallsBest(t *testing.T) {
	for _, tc := range []struct {
		label string
		want  bool
	}{
		{"Best: ", true},
		{"**Best overall:** ", true},
		{"**Best**: ", true},
		{"Top pick: ", true},
		{"My  recommendation - ", true},
		{"FINAL ANSWER: ", true},
		{"__Winner__: ", true},
		{"Best value: ", false},
		{"Best nonstop: ", false},
		{"Runner-up: ", false},
		{"Budget pick: ", false},
		{"Cheapest: ", false},
		{"", false},
	} {
		if got := callsBest(tc.label); got != tc.want {
			t.Errorf("callsBest(%q) = %v, want %v", tc.label, got, tc.want)
		}
	}
}
