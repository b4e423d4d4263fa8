package problem_test

import (
	"testing"

	"github.com/flightserver/flightserver/problem"
)

// A list of problems reads as one error, each problem in its own words and
// in order, so a caller that only logs the error still says everything.
func TestProblemsReadAsOneError(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   problem.Problems
		want string
	}{
		{"none", nil, ""},
		{"one", problem.Problems{{Field: "date", Problem: "is missing", Accepted: "YYYY-MM-DD"}}, "date: is missing (accepted: YYYY-MM-DD)"},
		{"two", problem.Problems{{Field: "a", Problem: "x", Accepted: "y"}, {Field: "b", Problem: "z", Accepted: "w"}}, "a: x (accepted: y); b: z (accepted: w)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error = tc.ps
			if got := err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}
