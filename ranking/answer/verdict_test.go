package answer

import "testing"

// A verdict is one of a few plain phrases as a reason's whole first clause;
// a reason that only starts with a negative is a reason.
func TestTurnsDown(t *testing.T) {
	for _, tc := range []struct {
		reason string
		want   bool
	}{
		{"avoid", true},
		{"Avoid, lands too late", true},
		{"avoid this one: lands late", true},
		{"**Skip** – the connection is tight", true},
		{"Not recommended", true},
		{"not recommended unless you like red-eyes", true},
		{"Not worth the fare", true},
		{"not a good choice for families", true},
		{"Not a pick", true},
		{"not my pick", true},
		{"Don't book this one", true},
		{"don’t choose it", true},
		{"Do not take this flight", true},
		{"Never fly this", true},
		{"wouldn't book it", true},
		{"a poor choice", true},
		{"The worst option", true},
		{"worst of all", true},
		{"Rejected - too many stops", true},
		{"excluded", true},

		{"", false},
		{"No layovers, lands in the evening", false},
		{"no stops", false},
		{"Not the cheapest, but the fastest", false},
		{"not my first choice but solid", false},
		{"Avoids the red-eye", false},
		{"avoid the red-eye by taking this one", false},
		{"Don't mind the early start, it is the fastest", false},
		{"do check the baggage rules", false},
		{"worst layover of the three but cheapest", false},
		{"poor value but the only nonstop", false},
		{"Best overall", false},
		{"never late in December", false},
		{"Nonstop; avoid the others", false},
	} {
		if got := turnsDown(tc.reason); got != tc.want {
			t.Errorf("turnsDown(%q) = %v, want %v", tc.reason, got, tc.want)
		}
	}
}
