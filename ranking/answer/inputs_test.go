package answer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A structured answer, the inputs of the model's calls to the answer tool,
// is read and checked as a JSON answer in text is: the same reasons for
// the same faults.
func TestParseAnswerInputs(t *testing.T) {
	obj := func(text string) any {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	most := make([]string, 7)
	for i := range most {
		most[i] = id(11 - i)
	}
	for _, tc := range []struct {
		name   string
		inputs []any
		want   string // picks as show writes them, or
		err    string // the whole Error reason
	}{
		{name: "the object asked for", inputs: []any{obj(answer(id(3), id(0)))}, want: "K0003:r1 K0000:r2"},
		{name: "encoded once more", inputs: []any{answer(id(3), id(0))}, want: "K0003:r1 K0000:r2"},
		{name: "picks encoded", inputs: []any{map[string]any{"picks": `[{"id":"` + id(2) + `","reason":"x"}]`}}, want: "K0002:x"},
		{name: "other keys", inputs: []any{obj(`{"ranking":[{"flight_id":"` + id(5) + `","why":"w"}]}`)}, want: "K0005:w"},
		{name: "one entry", inputs: []any{obj(`{"id":"` + id(5) + `","reason":"w"}`)}, want: "K0005:w"},
		{name: "one call per pick", inputs: []any{obj(`{"id":"` + id(5) + `"}`), obj(`{"id":"` + id(1) + `"}`)}, want: "K0005: K0001:"},
		{name: "ordinal labels in their order, not the names'", inputs: []any{obj(`{"third":{"id":"` + id(3) + `"},"first":{"id":"` + id(5) + `","why":"w"},"second":"` + id(1) + `"}`)}, want: "K0005:w K0001: K0003:"},
		{name: "numbered labels", inputs: []any{obj(`{"10":"` + id(3) + `","2":"` + id(1) + `","1":"` + id(5) + `"}`)}, want: "K0005: K0001: K0003:"},
		{name: "category labels are no ranking", inputs: []any{obj(`{"cheapest":{"id":"` + id(5) + `"},"best_value":{"id":"` + id(1) + `"},"fastest":{"id":"` + id(3) + `"}}`)},
			err: `answer labels flights by category ("best_value", "cheapest", "fastest") without ranking them`},
		{name: "one category label is one pick", inputs: []any{obj(`{"cheapest":{"id":"` + id(5) + `"},"note":"x"}`)}, want: "K0005:"},
		{name: "two calls that agree", inputs: []any{obj(answer(id(5))), obj(answer(id(5), id(1)))}, want: "K0005:r1 K0001:r2"},
		{name: "an id's case changed", inputs: []any{obj(answer(strings.ToLower(id(4))))}, want: "K0004:r1"},
		{name: "an entry marked not recommended is dropped", inputs: []any{obj(`{"picks":[{"id":"` + id(5) + `","reason":"w"},{"id":"` + id(1) + `","recommended":false}]}`)}, want: "K0005:w"},
		{name: "an entry whose verdict is avoid is dropped", inputs: []any{obj(`{"picks":[{"id":"` + id(5) + `"},{"id":"` + id(1) + `","verdict":"Avoid"},{"id":"` + id(3) + `","reason":"skip this one"}]}`)}, want: "K0005:"},
		{name: "every entry turned down", inputs: []any{obj(`{"picks":[{"id":"` + id(1) + `","recommended":"no"}]}`)},
			err: `answer turns down "` + id(1) + `" and picks no flight`},
		{name: "placeholders dropped", inputs: []any{obj(`{"picks":[{"id":"` + id(1) + `","reason":"<under 15 words>"},{"id":"..."}]}`)}, want: "K0001:"},

		{name: "two calls that disagree", inputs: []any{obj(answer(id(5))), obj(answer(id(1)))},
			err: `answer gives two lists of picks that disagree (pick 1 is "` + id(5) + `" in one, "` + id(1) + `" in the other), so neither counts`},
		{name: "empty list", inputs: []any{obj(`{"picks":[]}`)}, err: "answer named no flights"},
		{name: "unknown ids", inputs: []any{obj(answer("X9", id(1), "Q1"))}, err: `answer named unknown flight ids: "X9", "Q1"`},
		{name: "placeholders only", inputs: []any{obj(`{"picks":[{"id":"<flight id exactly as given>","reason":"<under 15 words>"}]}`)},
			err: `answer copies the example from the prompt ("<flight id exactly as given>") instead of naming flights`},
		{name: "most of the candidates", inputs: []any{obj(answer(most...))}, err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "too long", inputs: []any{obj(`{"picks":["` + id(1) + `"],"pad":"` + strings.Repeat("x", maxAnswerBytes) + `"}`)},
			err: "answer too long (65 KB; at most 64 KB is read)"},
		{name: "an entry without an id", inputs: []any{obj(`{"picks":[{"reason":"x"}]}`)}, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "an id not a string", inputs: []any{obj(`{"picks":[{"id":4}]}`)}, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "no picks key", inputs: []any{obj(`{"considered":["` + id(1) + `"]}`)}, err: structuredNotTheObject},
		{name: "prose for input", inputs: []any{"I'd go with " + id(1)}, err: structuredNotTheObject},
		{name: "null", inputs: []any{nil}, err: structuredNotTheObject},
		{name: "no calls", inputs: []any{}, err: structuredNotTheObject},
		{name: "not JSON at all", inputs: []any{func() {}}, err: "answer tool's input could not be read"},
		{name: "too many calls", inputs: slices.Repeat([]any{obj(answer(id(1)))}, 11), err: "answer tool was called 11 times; one call is the answer, and at most 10 are read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			picks, err := ParseInputs(tc.inputs, answerCandidates())
			checkRead(t, picks, err, tc.want, tc.err)
		})
	}
}

const structuredNotTheObject = `answer tool's input is not the object asked for ({"picks":[{"id":...,"reason":...}]})`
