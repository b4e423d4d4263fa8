package fallback

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// A tool's arguments, and the content of an accepted form, are read by the
// same struct whose json tags derive the tool's schema (DefineTool), so the
// names a client is shown are the names that are read. Reading is lenient
// where the meaning is plain and refuses, with a Problem naming the field,
// where it is not:
//
//	Go field   JSON accepted                        refused ("… is not <want>")
//	string     a string                             any other type: "a string"
//	bool       true, false                          any other type: "true or false"
//	*int       a whole number within ±1e9 (3, 3.0)  3.5, 1e12, "3": "a whole number"
//	*float64   a number                             "12": "a number"
//	[]string   a list of strings, or one string     [1], {}: "a list of strings"
//	                (a list of one)
//
// JSON null counts as absent: it leaves a field as it is, and so does a
// refused value. Names match exactly, as the schema spells them: a
// differently cased name is not the same argument. Every field with the wrong
// type and, for arguments, every unknown name becomes a Problem, in the
// order of the names, so a caller learns everything wrong in one round.
// What a refusal quotes of the value is bounded (maxEchoed).
//
// A struct field of any other type is a mistake of the tool's author:
// DefineTool refuses the struct, and decoding into it panics.

// DecodeArguments reads a tool's arguments (mcp-go's decoded map, or
// anything that encodes as a JSON object) into dst, whose type must be a
// struct of the kinds above. except names fields of dst this tool does not
// take: they are unknown here, like any other name dst does not have.
func DecodeArguments[T any](raw any, dst *T, except ...string) []Problem {
	return decodeInto(raw, dst, true, except)
}

// DecodeForm reads the content of an accepted elicitation form like
// arguments, except that unknown keys are ignored: a client may add its own,
// and they are simply not ours.
func DecodeForm[T any](raw any, dst *T) []Problem {
	return decodeInto(raw, dst, false, nil)
}

// maxEchoed is how much of a wrongly typed value a Problem quotes, so a huge
// or hostile argument cannot flood the result.
const maxEchoed = 40

func decodeInto[T any](raw any, dst *T, strict bool, except []string) []Problem {
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		panic(err) // the tool's own struct; DefineTool refuses it first
	}
	if raw == nil {
		return nil
	}
	v := reflect.ValueOf(dst).Elem()
	if obj, ok := raw.(map[string]any); ok && allPlain(obj) {
		return decodeValues(p, obj, v, strict, except, readDecoded)
	}
	m, err := rawValues(raw)
	if err != nil {
		return []Problem{{Field: "arguments", Problem: err.Error(), Accepted: "a JSON object of named arguments"}}
	}
	return decodeValues(p, m, v, strict, except, readJSON)
}

// decodeValues reads the named values of one object into dst, in the order
// of the names. read sets one field from one value (or leaves it, for
// null) and, when it refuses the value, says what to quote of it: its JSON
// text.
func decodeValues[V any](p *argPlan, m map[string]V, dst reflect.Value, strict bool, except []string,
	read func(k argKind, field reflect.Value, v V) (quote string, ok bool)) []Problem {
	var ps []Problem
	listed := false   // the accepted names are in an earlier problem
	var few [8]string // a usual call's names, sorted without an allocation
	keys := few[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f, ok := p.fields[k]
		if ok && slices.Contains(except, k) {
			ok = false
		}
		switch {
		case !ok && strict:
			// The accepted names once; later unknown names point back.
			accepted := "only the arguments named above"
			if !listed {
				names := slices.DeleteFunc(slices.Clone(p.names), func(n string) bool { return slices.Contains(except, n) })
				accepted, listed = "only "+strings.Join(names, ", "), true
			}
			ps = append(ps, Problem{Field: untrusted.Quote(k), Problem: "is not an argument of this tool", Accepted: accepted})
		case !ok:
		default:
			if quote, ok := read(f.kind, dst.FieldByIndex(f.index), m[k]); !ok {
				ps = append(ps, Problem{Field: k, Problem: fmt.Sprintf("%s is not %s", Clean(quote, maxEchoed), f.kind.want), Accepted: f.kind.want})
			}
		}
	}
	return ps
}

// readJSON reads one value's JSON text; null counts as absent.
func readJSON(k argKind, field reflect.Value, r json.RawMessage) (string, bool) {
	if string(bytes.TrimSpace(r)) == "null" {
		return "", true
	}
	if k.set(field, r) != nil {
		return string(r), false
	}
	return "", true
}

// readDecoded reads one value of mcp-go's decoded map (allPlain holds for
// it): the kind's shortcut where it takes the value, and everything else,
// refusals included, as the value's JSON encoding, so that both readings
// answer alike by construction wherever the shortcut stands aside.
func readDecoded(k argKind, field reflect.Value, v any) (string, bool) {
	if v == nil { // null: absent
		return "", true
	}
	if k.read != nil && k.read(field, v) {
		return "", true
	}
	b, _ := json.Marshal(v) // allPlain passes only values that encode
	return readJSON(k, field, b)
}

// allPlain reports whether every value of obj is one that JSON decodes to
// and that surely encodes again: null, true or false, a finite number, a
// string, or a list of those. For an object with anything else (a nested
// object, a Go value of another type, NaN) decodeInto takes the JSON path
// for all of it, so that a value that cannot be encoded refuses the whole
// object before any field is set, as it always has.
func allPlain(obj map[string]any) bool {
	for _, v := range obj {
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if !plainScalar(e) {
					return false
				}
			}
		} else if !plainScalar(v) {
			return false
		}
	}
	return true
}

func plainScalar(v any) bool {
	switch v := v.(type) {
	case nil, bool, string:
		return true
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return false
}

// rawValues is each named value of a JSON object, as JSON. A decoded map
// that allPlain does not pass (one with a nested object, say) has each value
// encoded on its own; anything else (a struct, from a test) is encoded whole
// and decoded again, which costs more.
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

// argPlan is how one struct type is read: its fields by JSON name, and
// the names in order for a refusal to list.
type argPlan struct {
	fields map[string]argField
	names  []string
}

type argField struct {
	index []int
	kind  argKind
}

// argKind reads one JSON value into a field of its type, and says, when it
// cannot, what was expected. read is set's shortcut for a value as JSON
// decodes to (string, bool, float64, []any): when it takes the value, it
// sets the field to exactly what set would from the value's JSON encoding
// and reports true; otherwise it changes nothing and reports false, and the
// value goes to set. A kind without read has every value go to set.
type argKind struct {
	want string
	set  func(field reflect.Value, raw json.RawMessage) error
	read func(field reflect.Value, v any) bool
}

// plans caches each struct type's plan (or why it has none): reflection
// once per type, not per call.
var plans sync.Map // reflect.Type -> planned

type planned struct {
	plan *argPlan
	err  error
}

func planFor(t reflect.Type) (*argPlan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(planned).plan, p.(planned).err
	}
	p, err := newPlan(t)
	got, _ := plans.LoadOrStore(t, planned{p, err}) // the first of two racing builders wins
	return got.(planned).plan, got.(planned).err
}

func newPlan(t reflect.Type) (*argPlan, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments of type %s: not a struct", t)
	}
	p := &argPlan{fields: map[string]argField{}}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if sf.Anonymous {
			return nil, fmt.Errorf("arguments of type %s: embedded field %s is not read", t, sf.Name)
		}
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		k, ok := kindOf(sf.Type)
		if !ok {
			return nil, fmt.Errorf("arguments of type %s: field %s has type %s, which arguments are not read as", t, sf.Name, sf.Type)
		}
		if _, dup := p.fields[name]; dup {
			return nil, fmt.Errorf("arguments of type %s: two fields are named %q", t, name)
		}
		p.fields[name] = argField{index: sf.Index, kind: k}
		p.names = append(p.names, name)
	}
	slices.Sort(p.names)
	return p, nil
}

var (
	intPtr      = reflect.TypeFor[*int]()
	float64Ptr  = reflect.TypeFor[*float64]()
	stringSlice = reflect.TypeFor[[]string]()
)

func kindOf(t reflect.Type) (argKind, bool) {
	switch {
	case t.Kind() == reflect.String && readsItself(t):
		k := stringKind
		k.read = nil // its own method reads it, from JSON
		return k, true
	case t.Kind() == reflect.String:
		return stringKind, true
	case t.Kind() == reflect.Bool:
		return boolKind, true
	case t == intPtr:
		return wholeKind, true
	case t == float64Ptr:
		return numberKind, true
	case t == stringSlice:
		return stringsKind, true
	}
	return argKind{}, false
}

// readsItself reports whether encoding/json reads a string type by the
// type's own method rather than as a string.
func readsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

// Each kind decodes into a value of its own and sets the field only when
// that succeeds, so a refused value leaves the field as it was. JSON null
// never reaches them (decodeValues' readers take it as absent).
//
// The shortcuts take only what reads plainly: a string only if it is valid
// UTF-8 (its encoding would replace the rest with U+FFFD), a number as the
// float64 it is (encoding/json writes a float64 in the fewest digits that
// read back as the same float64, -0 included).
var (
	stringKind = argKind{"a string", func(f reflect.Value, r json.RawMessage) error {
		s := reflect.New(f.Type()) // the field's own type: a named string decodes too
		if err := json.Unmarshal(r, s.Interface()); err != nil {
			return err
		}
		f.Set(s.Elem())
		return nil
	}, func(f reflect.Value, v any) bool {
		s, ok := v.(string)
		if ok = ok && utf8.ValidString(s); ok {
			f.SetString(s) // a named string too: kindOf gives this shortcut only to one without methods
		}
		return ok
	}}
	wholeKind = argKind{"a whole number", func(f reflect.Value, r json.RawMessage) error {
		var n float64
		if err := json.Unmarshal(r, &n); err != nil {
			return err
		}
		i, ok := whole(n)
		if !ok {
			return fmt.Errorf("%g is not a whole number", n)
		}
		f.Set(reflect.ValueOf(&i))
		return nil
	}, func(f reflect.Value, v any) bool {
		n, ok := v.(float64)
		if !ok {
			return false
		}
		i, ok := whole(n)
		if ok {
			f.Set(reflect.ValueOf(&i))
		}
		return ok
	}}
	boolKind = argKind{"true or false", func(f reflect.Value, r json.RawMessage) error {
		var b bool
		if err := json.Unmarshal(r, &b); err != nil {
			return err
		}
		f.SetBool(b)
		return nil
	}, func(f reflect.Value, v any) bool {
		b, ok := v.(bool)
		if ok {
			f.SetBool(b)
		}
		return ok
	}}
	numberKind = argKind{"a number", func(f reflect.Value, r json.RawMessage) error {
		var n float64
		if err := json.Unmarshal(r, &n); err != nil {
			return err
		}
		f.Set(reflect.ValueOf(&n))
		return nil
	}, func(f reflect.Value, v any) bool {
		n, ok := v.(float64)
		if ok = ok && !math.IsNaN(n) && !math.IsInf(n, 0); ok {
			f.Set(reflect.ValueOf(&n))
		}
		return ok
	}}
	// A single string counts as a list of one, since that is what a model
	// means by "airlines": "BA".
	stringsKind = argKind{"a list of strings", func(f reflect.Value, r json.RawMessage) error {
		var one string
		if json.Unmarshal(r, &one) == nil {
			f.Set(reflect.ValueOf([]string{one}))
			return nil
		}
		var list []string
		if err := json.Unmarshal(r, &list); err != nil {
			return err
		}
		f.Set(reflect.ValueOf(list))
		return nil
	}, func(f reflect.Value, v any) bool {
		if one, ok := v.(string); ok && utf8.ValidString(one) {
			f.Set(reflect.ValueOf([]string{one}))
			return true
		}
		vs, ok := v.([]any)
		if !ok {
			return false
		}
		list := make([]string, len(vs)) // [] is an empty list, not none
		for i, e := range vs {
			if list[i], ok = e.(string); !ok || !utf8.ValidString(list[i]) {
				return false
			}
		}
		*f.Addr().Interface().(*[]string) = list // the field is a []string (kindOf); Set would box the slice
		return true
	}}
)

// whole is n as a whole number within ±1e9, if it is one: 3.0 is 3; 3.5,
// 1e12, NaN are not.
func whole(n float64) (int, bool) {
	if n != math.Trunc(n) || math.Abs(n) > 1e9 {
		return 0, false
	}
	return int(n), true
}
