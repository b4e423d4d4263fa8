package fallback_test

import (
	"encoding/json"
	"errors"
	"fmt"
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
		{name: "a value that cannot be encoded, inside a list beside good ones: nothing is read", start: decoded{Name: "x"},
			raw: map[string]any{"name": "Ada", "tags": []any{"a", math.NaN()}}, want: decoded{Name: "x"},
			ps: []fallback.Problem{{Field: "arguments", Problem: "could not be read", Accepted: "a JSON object of named arguments"}}},
		{name: "a string that is not UTF-8 is read as its JSON encoding", raw: map[string]any{"name": "a\xffb", "tags": []any{"\xc3"}, "mode": "\xed\xa0\x80"},
			want: decoded{Name: "a\uFFFDb", Tags: []string{"\uFFFD"}, Mode: "\uFFFD\uFFFD\uFFFD"}},
		{name: "a json.Number is read as the number it writes", raw: map[string]any{"count": json.Number("3.0"), "price": json.Number("1.50"), "tags": []any{json.Number("1")}},
			want: decoded{Count: ptrTo(3), Price: ptrTo(1.5)},
			ps:   []fallback.Problem{{Field: "tags", Problem: "[1] is not a list of strings", Accepted: "a list of strings"}}},
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

// viaJSON is a decoded object that is not mcp-go's map[string]any, so
// DecodeArguments reads it through its JSON encoding, value by value as
// encoding/json encodes them: what the map is read as must not differ.
type viaJSON map[string]any

// FuzzDecodeArguments holds the reading of mcp-go's decoded map to the
// reading of its JSON encoding, for arguments and for a form's content, from
// a struct with a value in every field (a refused or null value must leave
// it): the same fields, to the bit, and the same problems, word for word.
func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `{"name":"Ada","count":3.0,"on":true,"price":12.5,"tags":["BA","KL"],"mode":"fast","Plain":"p"}`,
		`{"count":4.0}`, `{"count":-2}`, `{"tags":"BA"}`, `{"tags":[]}`, `{"on":false}`,
		`{"name":null,"on":null,"count":null,"price":null,"tags":null,"mode":null}`,
		`{"name":1,"count":1.5,"price":"2","tags":[1],"on":"no"}`, `{"count":3.5}`, `{"count":1e12}`,
		`{"count":"3","price":"12"}`, `{"on":"true"}`, `{"name":7,"mode":false}`, `{"tags":{"a":"b"}}`,
		`{"name":"Ada","count":"x"}`, `{"zz":1,"aa":2,"name":"Ada"}`, `{"Name":"Ada","plain":"p"}`,
		`{"Hidden":"h","secret":"s"}`, `{"a\"\nb":1}`, `{"name":"a","name":"b"}`,
		// Numbers at the edges: the bounds of a whole number, -0, the
		// smallest and largest floats, more digits than a float64 holds.
		`{"count":1e9,"price":-0}`, `{"count":-1e9,"price":5e-324}`, `{"count":1000000001}`, `{"count":-0.0}`,
		`{"count":999999999.99999999999,"price":1.7976931348623157e308}`, `{"count":1e400}`, `{"price":123456789012345678901234567890}`,
		`{"count":2.5e0,"price":1E2}`, `{"count":[3],"price":[1.5]}`,
		// Strings: escapes, HTML characters encoding/json escapes, unicode,
		// line separators, a refused one long enough to be cut.
		`{"name":"\u0041\ud83d\ude00","mode":"<a&b>","tags":["\u2028","\n\t\"\\"]}`, `{"name":"\ud800","tags":"\udfff"}`,
		`{"count":"` + strings.Repeat("ü", 30) + `"}`, `{"on":"<script>\u2029</script>"}`,
		// Lists and objects inside: nulls, mixtures, depth.
		`{"tags":["a",null]}`, `{"tags":[null]}`, `{"tags":["a",1,true]}`, `{"tags":[["a"]]}`, `{"tags":[{"a":1}]}`,
		`{"a":1,"b":"2","c":[3],"d":null,"e":true,"f":"","g":[],"h":"h","name":"Ada","tags":["x"],"on":true,"zz":-0}`,
		`{"name":{"a":{"b":[1,{"c":null}]}},"x":{}}`, `{"on":[],"price":{},"mode":[]}`, `{"zz":{"deep":[[[[]]]]},"name":"Ada"}`,
	} {
		f.Add([]byte(s))
	}
	start := func() decoded {
		return decoded{Name: "n", Count: ptrTo(7), On: true, Price: ptrTo(-1.0), Tags: []string{"t"}, Mode: "m", Plain: "p"}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			return
		}
		for _, tc := range []struct {
			name   string
			decode func(raw any, dst *decoded) []fallback.Problem
			start  decoded
		}{
			{"DecodeArguments", func(raw any, dst *decoded) []fallback.Problem { return fallback.DecodeArguments(raw, dst) }, start()},
			{"DecodeArguments except mode", func(raw any, dst *decoded) []fallback.Problem { return fallback.DecodeArguments(raw, dst, "mode") }, start()},
			{"DecodeForm", fallback.DecodeForm[decoded], decoded{}},
		} {
			got, want := tc.start, tc.start
			gotPs, wantPs := tc.decode(m, &got), tc.decode(viaJSON(m), &want)
			if !reflect.DeepEqual(gotPs, wantPs) {
				t.Errorf("%s(%s): problems\n got %#v\nwant %#v (as JSON)", tc.name, data, gotPs, wantPs)
			}
			// DeepEqual compares floats with ==, to which -0 is 0.
			sameBits := (got.Price == nil) == (want.Price == nil) && (got.Price == nil || math.Float64bits(*got.Price) == math.Float64bits(*want.Price))
			if !reflect.DeepEqual(got, want) || !sameBits {
				t.Errorf("%s(%s): decoded\n got %s\nwant %s (as JSON)", tc.name, data, describe(got), describe(want))
			}
		}
	})
}

// describe shows what d's pointers point to, and a number's sign.
func describe(d decoded) string {
	count, price := "nil", "nil"
	if d.Count != nil {
		count = fmt.Sprint(*d.Count)
	}
	if d.Price != nil {
		price = fmt.Sprintf("%g (bits %#x)", *d.Price, math.Float64bits(*d.Price))
	}
	return fmt.Sprintf("{Name:%q Count:%s On:%t Price:%s Tags:%#v Mode:%q Plain:%q}", d.Name, count, d.On, price, d.Tags, d.Mode, d.Plain)
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

// code is a named string that reads itself (encoding.TextUnmarshaler):
// a string field of such a type is read by its method, as encoding/json
// reads it.
type code string

func (c *code) UnmarshalText(b []byte) error {
	if len(b) != 2 {
		return errors.New("not two letters")
	}
	*c = code(strings.ToUpper(string(b)))
	return nil
}

func TestDecodeReadsByATypesOwnMethod(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  any
		want code
		ps   []fallback.Problem
	}{
		{name: "read by its method", raw: map[string]any{"code": "ba"}, want: "BA"},
		{name: "refused by its method", raw: map[string]any{"code": "b<a"},
			ps: []fallback.Problem{{Field: "code", Problem: `"b\u003ca" is not a string`, Accepted: "a string"}}},
		{name: "not a string", raw: map[string]any{"code": 12.0},
			ps: []fallback.Problem{{Field: "code", Problem: "12 is not a string", Accepted: "a string"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got struct {
				Code code `json:"code"`
			}
			if ps := fallback.DecodeArguments(tc.raw, &got); !reflect.DeepEqual(ps, tc.ps) {
				t.Errorf("problems\n got %#v\nwant %#v", ps, tc.ps)
			}
			if got.Code != tc.want {
				t.Errorf("read %q, want %q", got.Code, tc.want)
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
