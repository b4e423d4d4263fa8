package tools

import (
	"slices"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// decodeArgs reads a tool's arguments into dst with the engine's lenient
// decoder (fallback.DecodeArguments: the names are dst's json tags, the
// ones its schema shows), in the domain's words. except names fields of
// dst the tool does not take.
func decodeArgs[T any](raw any, dst *T, except ...string) flights.Problems {
	return domainProblems(fallback.DecodeArguments(raw, dst, except...))
}

// decodeForm reads an accepted form's content into dst
// (fallback.DecodeForm: like arguments, unknown keys ignored).
func decodeForm[T any](raw any, dst *T) flights.Problems {
	return domainProblems(fallback.DecodeForm(raw, dst))
}

// domainProblems is the engine's problems in the domain's words, the
// inverse of problems (engine.go).
func domainProblems(ps []fallback.Problem) flights.Problems {
	if ps == nil {
		return nil
	}
	out := make(flights.Problems, len(ps))
	for i, p := range ps {
		out[i] = flights.Problem(p)
	}
	return out
}

// mergeProblems appends domain problems to decoding problems, dropping a
// domain complaint about a field that already failed to decode (a mistyped
// origin would otherwise also be reported "missing").
func mergeProblems(decoding, domain flights.Problems) flights.Problems {
	out := slices.Clone(decoding)
	for _, p := range domain {
		if !slices.ContainsFunc(decoding, func(d flights.Problem) bool { return d.Field == p.Field }) {
			out = append(out, p)
		}
	}
	return out
}
