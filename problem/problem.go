// Package problem is the one way this module says what is wrong with an
// input: the field, what is wrong with it and what is accepted. The
// domain's validation (flights) and the engine's argument decoder
// (fallback) both speak it, so a tool hands either's problems to the
// other, and to a client's error details, as they are.
package problem

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with an input, or one detail still needed,
// worded for the person (or model) who has to fix it.
type Problem struct {
	Field    string `json:"field"`
	Problem  string `json:"problem"`
	Accepted string `json:"accepted"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s (accepted: %s)", p.Field, p.Problem, p.Accepted)
}

// Problems is every problem found in an input. It is an error so that
// validation can return it as one, and a list so that callers can show
// each.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "; ")
}
