package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// argField decodes one named argument and says, when it cannot, what type
// was expected.
type argField struct {
	want string
	set  func(json.RawMessage) error
}

func stringArg(dst *string) argField {
	return argField{"a string", func(r json.RawMessage) error { return json.Unmarshal(r, dst) }}
}

func intArg(dst **int) argField {
	return argField{"a whole number", func(r json.RawMessage) error {
		var f *float64
		if err := json.Unmarshal(r, &f); err != nil {
			return err
		}
		if f == nil {
			return nil
		}
		if *f != math.Trunc(*f) || math.Abs(*f) > 1e9 {
			return fmt.Errorf("%g is not a whole number", *f)
		}
		n := int(*f)
		*dst = &n
		return nil
	}}
}

func boolArg(dst *bool) argField {
	return argField{"true or false", func(r json.RawMessage) error {
		var b *bool
		if err := json.Unmarshal(r, &b); err != nil {
			return err
		}
		if b != nil {
			*dst = *b
		}
		return nil
	}}
}

// stringsArg reads a list of strings; a single string counts as a list of
// one, since that is what a model means by "airlines": "BA".
func stringsArg(dst *[]string) argField {
	return argField{"a list of strings", func(r json.RawMessage) error {
		var one string
		if json.Unmarshal(r, &one) == nil {
			*dst = []string{one}
			return nil
		}
		return json.Unmarshal(r, dst)
	}}
}

func numberArg(dst **float64) argField {
	return argField{"a number", func(r json.RawMessage) error { return json.Unmarshal(r, dst) }}
}

// decodeArgs reads a tool's arguments leniently and completely: every
// argument with the wrong JSON type and every unknown name becomes a
// Problem, so a caller learns everything wrong in one round instead of
// one decode error at a time. JSON null counts as absent.
func decodeArgs(raw any, fields map[string]argField) flights.Problems {
	return decodeFields(raw, fields, true)
}

// decodeForm reads the content of an accepted elicitation form like
// arguments, except that unknown keys are ignored: a client may add its own,
// and they are simply not ours.
func decodeForm(raw any, fields map[string]argField) flights.Problems {
	return decodeFields(raw, fields, false)
}

func decodeFields(raw any, fields map[string]argField, strict bool) flights.Problems {
	if raw == nil {
		return nil
	}
	m, err := rawValues(raw)
	if err != nil {
		return flights.Problems{{Field: "arguments", Problem: err.Error(), Accepted: "a JSON object of named arguments"}}
	}
	var ps flights.Problems
	listed := false // the accepted names are in an earlier problem
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f, ok := fields[k]
		switch {
		case !ok && strict:
			// The accepted names once; later unknown names point back.
			accepted := "only the arguments named above"
			if !listed {
				accepted, listed = "only "+strings.Join(slices.Sorted(maps.Keys(fields)), ", "), true
			}
			ps = append(ps, flights.Problem{Field: flights.Quote(k), Problem: "is not an argument of this tool", Accepted: accepted})
		case !ok:
		default:
			if err := f.set(m[k]); err != nil {
				ps = append(ps, flights.Problem{Field: k, Problem: fmt.Sprintf("%s is not %s", fallback.Clean(string(m[k]), maxEchoed), f.want), Accepted: f.want})
			}
		}
	}
	return ps
}

// rawValues is each named value of a JSON object, as JSON. mcp-go hands
// over arguments and form content decoded (a map[string]any); encoding each
// value on its own costs a fraction of re-encoding the whole object and
// decoding it again, which is what anything else (a struct, from a test)
// still gets.
func rawValues(raw any) (map[string]json.RawMessage, error) {
	if obj, ok := raw.(map[string]any); ok {
		m := make(map[string]json.RawMessage, len(obj))
		for k, v := range obj {
			b, err := json.Marshal(v)
			if err != nil {
				return nil, errors.New("could not be read")
			}
			m[k] = b
		}
		return m, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, errors.New("could not be read")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errors.New("is not a JSON object")
	}
	return m, nil
}

// maxEchoed is how much of a wrongly typed argument an error quotes, so a
// huge or hostile argument cannot flood the result.
const maxEchoed = 40

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
