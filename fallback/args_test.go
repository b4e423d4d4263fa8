package fallback_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/flightserver/flightserver/fallback"
)

type mode string

// decoded has a field of every kind the decoder reads, and the fields it
// must pass over.
type decoded struct {
	Name   string   `json:"name,omitempty"`
	Count  *int     `json:"count,omitempty"`
	On     bool     `json:"on,omitempty"`
	Price  *float64 `json:"price,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Mode   mode     `json:"mode,omitempty"`
	Plain  string   // no tag: read by its Go name
	Hidden string   `json:"-"`
	secret string   //lint:ignore U1000 unexported: must never be read
}

func ptrTo[T any](v T) *T { return &v }

const accepted = "only Plain, count, mode, name, on, price, tags"

func TestDecodeArguments(t *testing.T) {
	for _, tc := range []struct {
		name   string
		start  decoded // what dst holds before
		raw    any
		except []string
		want   decoded
		ps     []fallback.Problem
	}{
		{name: "nil is no arguments", raw: nil},
		{name: "empty object", raw: map[string]any{}},
		{name: "every kind", raw: map[string]any{"name": "Ada", "count": 3.0, "on": true, "price": 12.5, "tags": []any{"BA", "KL"}, "mode": "fast", "Plain": "p"},
			want: decoded{Name: "Ada", Count: ptrTo(3), On: true, Price: ptrTo(12.5), Tags: []string{"BA", "KL"}, Mode: "fast", Plain: "p"}},
		{name: "a whole number written with a fraction", raw: map[string]any{"count": 4.0}, want: decoded{Count: ptrTo(4)}},
		{name: "a negative whole number", raw: map[string]any{"count": -2}, want: decoded{Count: ptrTo(-2)}},
		{name: "one string is a list of one", raw: map[string]any{"tags": "BA"}, want: decoded{Tags: []string{"BA"}}},
		{name: "an empty list", raw: map[string]any{"tags": []any{}}, want: decoded{Tags: []string{}}},
		{name: "false is read", start: decoded{On: true}, raw: map[string]any{"on": false}, want: decoded{}},
		{name: "null leaves a string, bool and whole number as they are",
			start: decoded{Name: "x", On: true, Count: ptrTo(1)}, raw: map[string]any{"name": nil, "on": nil, "count": nil},
			want: decoded{Name: "x", On: true, Count: ptrTo(1)}},
		{name: "null leaves a number, a list and a named string as they are", start: decoded{Price: ptrTo(1.0), Tags: []string{"a"}, Mode: "m"},
			raw: map[string]any{"price": nil, "tags": nil, "mode": nil}, want: decoded{Price: ptrTo(1.0), Tags: []string{"a"}, Mode: "m"}},
		{name: "null in raw JSON, spaced", raw: json.RawMessage(`{"tags": null , "name" :null}`)},
		{name: "a refused value leaves the field as it was", start: decoded{Name: "x", Count: ptrTo(1), Price: ptrTo(2.0), Tags: []string{"t"}, On: true},
			raw:  map[string]any{"name": 1, "count": 1.5, "price": "2", "tags": []any{1}, "on": "no"},
			want: decoded{Name: "x", Count: ptrTo(1), Price: ptrTo(2.0), Tags: []string{"t"}, On: true},
			ps: []fallback.Problem{{Field: "count", Problem: "1.5 is not a whole number", Accepted: "a whole number"}, {Field: "name", Problem: "1 is not a string", Accepted: "a string"},
				{Field: "on", Problem: `"no" is not true or false`, Accepted: "true or false"}, {Field: "price", Problem: `"2" is not a number`, Accepted: "a number"},
				{Field: "tags", Problem: "[1] is not a list of strings", Accepted: "a list of strings"}}},
		{name: "a fraction is not a whole number", raw: map[string]any{"count": 3.5},
			ps: []fallback.Problem{{Field: "count", Problem: "3.5 is not a whole number", Accepted: "a whole number"}}},
		{name: "a huge number is not a whole number", raw: map[string]any{"count": 1e12},
			ps: []fallback.Problem{{Field: "count", Problem: "1000000000000 is not a whole number", Accepted: "a whole number"}}},
		{name: "a number in a string is not a number", raw: map[string]any{"count": "3", "price": "12"},
			ps: []fallback.Problem{{Field: "count", Problem: `"3" is not a whole number`, Accepted: "a whole number"}, {Field: "price", Problem: `"12" is not a number`, Accepted: "a number"}}},
		{name: "a string is not true or false", raw: map[string]any{"on": "true"},
			ps: []fallback.Problem{{Field: "on", Problem: `"true" is not true or false`, Accepted: "true or false"}}},
		{name: "a number is not a string", raw: map[string]any{"name": 7, "mode": false},
			ps: []fallback.Problem{{Field: "mode", Problem: "false is not a string", Accepted: "a string"}, {Field: "name", Problem: "7 is not a string", Accepted: "a string"}}},
		{name: "a list of numbers is not a list of strings", raw: map[string]any{"tags": []any{1}},
			ps: []fallback.Problem{{Field: "tags", Problem: "[1] is not a list of strings", Accepted: "a list of strings"}}},
		{name: "an object is not a list of strings", raw: map[string]any{"tags": map[string]any{"a": "b"}},
			ps: []fallback.Problem{{Field: "tags", Problem: `{"a":"b"} is not a list of strings`, Accepted: "a list of strings"}}},
		{name: "good fields are read beside bad ones", raw: map[string]any{"name": "Ada", "count": "x"}, want: decoded{Name: "Ada"},
			ps: []fallback.Problem{{Field: "count", Problem: `"x" is not a whole number`, Accepted: "a whole number"}}},
		{name: "what a refusal quotes is bounded and on one line", raw: map[string]any{"count": strings.Repeat("a", 100) + "\n"},
			ps: []fallback.Problem{{Field: "count", Problem: `"` + strings.Repeat("a", 39) + "… is not a whole number", Accepted: "a whole number"}}},
		{name: "unknown names: the accepted ones listed once", raw: map[string]any{"zz": 1, "aa": 2, "name": "Ada"}, want: decoded{Name: "Ada"},
			ps: []fallback.Problem{{Field: `"aa"`, Problem: "is not an argument of this tool", Accepted: accepted},
				{Field: `"zz"`, Problem: "is not an argument of this tool", Accepted: "only the arguments named above"}}},
		{name: "names match exactly: another case is another name", raw: map[string]any{"Name": "Ada", "plain": "p"},
			ps: []fallback.Problem{{Field: `"Name"`, Problem: "is not an argument of this tool", Accepted: accepted},
				{Field: `"plain"`, Problem: "is not an argument of this tool", Accepted: "only the arguments named above"}}},
		{name: "a field tagged - and an unexported one are not arguments", raw: map[string]any{"Hidden": "h", "secret": "s"},
			ps: []fallback.Problem{{Field: `"Hidden"`, Problem: "is not an argument of this tool", Accepted: accepted},
				{Field: `"secret"`, Problem: "is not an argument of this tool", Accepted: "only the arguments named above"}}},
		{name: "an unknown name is quoted safely", raw: map[string]any{"a\"\nb": 1},
			ps: []fallback.Problem{{Field: `"a\"\nb"`, Problem: "is not an argument of this tool", Accepted: accepted}}},
		{name: "except: a field this tool does not take is unknown, and not listed", raw: map[string]any{"mode": "fast", "name": "Ada"}, except: []string{"mode"},
			want: decoded{Name: "Ada"},
			ps:   []fallback.Problem{{Field: `"mode"`, Problem: "is not an argument of this tool", Accepted: "only Plain, count, name, on, price, tags"}}},
		{name: "not a map: read through JSON", raw: struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		}{"Ada", 2}, want: decoded{Name: "Ada", Count: ptrTo(2)}},
		{name: "raw JSON with a name twice: the last wins, as in encoding/json", raw: json.RawMessage(`{"name":"a","name":"b"}`), want: decoded{Name: "b"}},
		{name: "not an object", raw: []any{1, 2},
			ps: []fallback.Problem{{Field: "arguments", Problem: "is not a JSON object", Accepted: "a JSON object of named arguments"}}},
		{name: "a string is not an object", raw: "name=Ada",
			ps: []fallback.Problem{{Field: "arguments", Problem: "is not a JSON object", Accepted: "a JSON object of named arguments"}}},
		{name: "a value that cannot be encoded", raw: map[string]any{"price": math.Inf(1)},
			ps: []fallback.Problem{{Field: "arguments", Problem: "could not be read", Accepted: "a JSON object of named arguments"}}},
		{name: "a whole object that cannot be encoded", raw: func() {},
			ps: []fallback.Problem{{Field: "arguments", Problem: "could not be read", Accepted: "a JSON object of named arguments"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.start
			ps := fallback.DecodeArguments(tc.raw, &got, tc.except...)
			if !reflect.DeepEqual(ps, tc.ps) {
				t.Errorf("problems\n got %#v\nwant %#v", ps, tc.ps)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("decoded\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// TestDecodeForm: a form's content is read like arguments, but names that
// are not the struct's are the client's own, not a mistake.
func TestDecodeForm(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  any
		want decoded
		ps   []fallback.Problem
	}{
		{name: "unknown keys are ignored", raw: map[string]any{"name": "Ada", "x-client": true, "Name": "Bob"}, want: decoded{Name: "Ada"}},
		{name: "wrong types are still problems", raw: map[string]any{"on": "yes", "count": 2},
			want: decoded{Count: ptrTo(2)},
			ps:   []fallback.Problem{{Field: "on", Problem: `"yes" is not true or false`, Accepted: "true or false"}}},
		{name: "not an object", raw: 3,
			ps: []fallback.Problem{{Field: "arguments", Problem: "is not a JSON object", Accepted: "a JSON object of named arguments"}}},
		{name: "nothing", raw: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got decoded
			ps := fallback.DecodeForm(tc.raw, &got)
			if !reflect.DeepEqual(ps, tc.ps) {
				t.Errorf("problems\n got %#v\nwant %#v", ps, tc.ps)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("decoded\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

type (
	nestedArgs struct {
		Trip struct{ From string } `json:"trip"`
	}
	plainIntArgs struct {
		N int `json:"n"`
	}
	intsArgs struct {
		N []int `json:"n"`
	}
	embeddedArgs struct {
		greetArgs
	}
	// Named twice: once by its Go name, once by a tag (go vet catches two
	// equal tags, not this).
	twiceArgs struct {
		A string
		B string `json:"A,omitempty"`
	}
)

// TestDecodeRefusesStructs: a struct with a field the decoder cannot read
// is refused when the tool is defined, naming the field, and decoding into
// one panics rather than silently dropping the field.
func TestDecodeRefusesStructs(t *testing.T) {
	d := fallback.Definition{Name: "t", Title: "T", Description: "T."}
	for _, tc := range []struct {
		name   string
		define func() error
		decode func()
		want   string
	}{
		{"a nested struct", func() error { _, err := fallback.DefineTool[nestedArgs, greetResult](d); return err },
			func() { fallback.DecodeArguments(map[string]any{}, &nestedArgs{}) }, "field Trip has type"},
		{"a plain int", func() error { _, err := fallback.DefineTool[plainIntArgs, greetResult](d); return err },
			func() { fallback.DecodeArguments(map[string]any{}, &plainIntArgs{}) }, "field N has type int"},
		{"a list of numbers", func() error { _, err := fallback.DefineTool[intsArgs, greetResult](d); return err },
			func() { fallback.DecodeForm(map[string]any{}, &intsArgs{}) }, "field N has type []int"},
		{"an embedded struct", func() error { _, err := fallback.DefineTool[embeddedArgs, greetResult](d); return err },
			func() { fallback.DecodeArguments(map[string]any{}, &embeddedArgs{}) }, "embedded field greetArgs"},
		{"two fields of one name", func() error { _, err := fallback.DefineTool[twiceArgs, greetResult](d); return err },
			func() { fallback.DecodeArguments(map[string]any{}, &twiceArgs{}) }, `two fields are named "A"`},
		{"not a struct", func() error { _, err := fallback.DefineTool[string, greetResult](d); return err },
			func() { var s string; fallback.DecodeArguments(map[string]any{}, &s) }, "not a struct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.define(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "tool t") {
				t.Errorf("DefineTool: %v, want an error naming the tool and %q", err, tc.want)
			}
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(error).Error(), tc.want) {
					t.Errorf("decoding: recovered %v, want a panic saying %q", r, tc.want)
				}
			}()
			tc.decode()
		})
	}
}

// BenchmarkDecodeArguments is the per-call cost of reading a typical
// argument set, against the baseline of encoding/json's strict reading of
// the same map (encode it, decode it into the struct), in the same run.
// The plan is built once per type, before the loop.
func BenchmarkDecodeArguments(b *testing.B) {
	raw := map[string]any{"name": "Ada", "count": 3.0, "on": true, "price": 12.5, "tags": []any{"BA", "KL"}, "mode": "fast"}
	b.Run("baseline=encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var d decoded
			j, err := json.Marshal(raw)
			if err == nil {
				err = json.Unmarshal(j, &struct {
					*decoded
					Count *float64 `json:"count"` // 3.0 would not decode into an int
				}{decoded: &d})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeArguments", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var d decoded
			if ps := fallback.DecodeArguments(raw, &d); ps != nil {
				b.Fatal(ps)
			}
		}
	})
}

// concurrent is decoded by no other test, so its plan is built here, by
// goroutines racing to build it (run with -race).
type concurrent struct {
	N *int `json:"n"`
}

func TestDecodeConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			var c concurrent
			if ps := fallback.DecodeArguments(map[string]any{"n": i}, &c); ps != nil || c.N == nil || *c.N != i {
				t.Errorf("goroutine %d: %v, %v", i, ps, c.N)
			}
		})
	}
	wg.Wait()
}
