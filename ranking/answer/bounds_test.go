package answer

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hostileAnswers are answers of about maxAnswerBytes shaped to make
// Parse work hard; none of them counts.
func hostileAnswers() map[string]string {
	n := maxAnswerBytes
	fake := "JFK-LHR-261215-XXXXX"
	return map[string]string{
		"all open braces":     strings.Repeat("{", n),
		"braces and spaces":   strings.Repeat("{ ", n/2),
		"unclosed strings":    strings.Repeat(`{"a":"`, n/6),
		"deep nesting":        `{"picks":` + strings.Repeat("[", n-20),
		"deep objects":        strings.Repeat(`{"a":`, n/5),
		"many fences":         strings.Repeat("```{", n/4),
		"objects, no picks":   strings.Repeat(`{"a":1}`, n/7),
		"huge picks list":     `{"picks":[` + strings.Repeat(`"x",`, n/4-4) + `"x"]}`,
		"unknown ids, long":   `{"picks":[` + strings.Repeat(`"`+strings.Repeat("z", 1000)+`",`, 60) + `"z"]}`,
		"invalid utf-8 in id": `{"picks":["` + strings.Repeat("\xff", 1000) + `"]}`,
		"balanced, not json":  strings.Repeat("{", 15) + strings.Repeat("x", n-40) + strings.Repeat("}", 15),
		"opens, one close":    strings.Repeat("{ ", 50) + strings.Repeat("x", n-200) + "}",
		"single quotes":       strings.Repeat(`{'a':'`, n/6),
		"unclosed comments":   strings.Repeat(`{"a"/*`, n/6),
		"bare words":          strings.Repeat(`{a b c d `, n/9),
		"numbered, unknown":   strings.Repeat("1. "+fake+" — cheap\n", n/34),
		"run of unknown ids":  "Top picks: " + strings.Repeat(fake+", ", n/22),
		"inline markers":      "I think " + strings.Repeat("1. 2. 3. ", n/10),
		"table, no ids":       strings.Repeat("| a | b | c |\n", n/14),
		"one long row":        "|" + strings.Repeat(" a |", n/4-1),
		"one long item":       "1. " + strings.Repeat("word ", n/5-1),
		"nested bullets":      strings.Repeat("  - x\n", n/6),
		"reasoning tags":      strings.Repeat("<think></think>", n/15),
		"reasoning unclosed":  "<think>" + strings.Repeat("<thinking>", n/10-1),
		"flights tags":        strings.Repeat("<flights>x</flights>", n/20),
		"named flights tags":  strings.Repeat("a <flights> ", n/12),
		"flights tags a line": strings.Repeat("<flights>\n\n\n", n/12),
		"named reasoning":     strings.Repeat("a <thinking> ", n/13),
		"long word":           strings.Repeat("a-1", n/3),
		"ids in prose":        strings.Repeat(fake+" ", n/21),
		"escaped quotes":      strings.Repeat(`"\"`, n/3),
		"strings of json":     strings.Repeat(`"{`, n/2),
		"unclosed encodings":  strings.Repeat(`"{\"`, n/4),
		"encoded unknown ids": strings.Repeat(jsonString(`{"picks":["`+fake+`"]}`), n/40),
		"curly quotes":        strings.Repeat(`{“a`, n/5),
		"curly unclosed":      `{“picks”:[“` + strings.Repeat("x", n-20),
		"mentions in prose":   strings.Repeat("I'd go with "+fake+", then ", n/40),
		"picks in prose":      strings.Repeat("take "+id(1)+" although "+id(2)+" ", n/60),
	}
}

// Hostile answers cost bounded time: at most maxDecodeAttempts decodes of at
// most maxAnswerBytes each, and one pass over the lines, whatever the shape.
// BenchmarkParseAnswer measures them.
func TestParseAnswerHostileShapesAreCheap(t *testing.T) {
	for name, text := range hostileAnswers() {
		if len(text) > maxAnswerBytes {
			t.Fatalf("%s: %d bytes, more than is read", name, len(text))
		}
		start := time.Now()
		picks, err := Parse(text, answerCandidates())
		if err == nil {
			t.Errorf("%s: accepted, %+v", name, picks)
			continue
		}
		if len(err.Error()) > 400 || strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("%s: error of %d bytes, or with a newline: %q", name, len(err.Error()), err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}

// BenchmarkParseAnswer measures Parse on the answer asked for, on two
// corpus shapes, and on each hostile answer of about 64 KB.
func BenchmarkParseAnswer(b *testing.B) {
	p, fs := jfkLHRPrompt(b)
	cases := map[string]string{"asked for": answer(fs[2], fs[0], fs[1])}
	for _, name := range []string{"positive/numbered-list", "positive/think-then-json"} {
		cases["corpus "+name] = corpusText(b, filepath.Join("testdata", "answers", name+".txt"), p)
	}
	maps.Copy(cases, hostileAnswers())
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(cases[name])))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(cases[name], fs)
			}
		})
	}
}

// BenchmarkParseAnswerInputs measures the structured reader beside the
// text reader on the same answers: the object asked for, given as the
// tool's input and as text, and the worst inputs of its size bound.
func BenchmarkParseAnswerInputs(b *testing.B) {
	_, ids := jfkLHRPrompt(b)
	asked := answer(ids[2], ids[0], ids[1])
	decoded := func(text string) any {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			b.Fatal(err)
		}
		return v
	}
	n := maxAnswerBytes
	cases := map[string][]any{
		"asked for":          {decoded(asked)},
		"asked for, encoded": {asked},
		"huge picks list":    {decoded(`{"picks":[` + strings.Repeat(`"x",`, n/4-4) + `"x"]}`)},
		"all the candidates": {decoded(answer(ids...))},
		"strings of json":    {decoded(`{"picks":[` + strings.Repeat(`"[1]",`, n/6-4) + `"x"]}`)},
		"deep objects":       {decoded(strings.Repeat(`{"a":`, 500) + asked + strings.Repeat(`}`, 500))},
		"ten calls":          slices.Repeat([]any{decoded(asked)}, maxPicksRead),
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = ParseInputs(cases[name], ids)
			}
		})
	}
	b.Run("asked for, as text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Parse(asked, ids)
		}
	})
}
