package answer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/golden"
)

// The corpus: answers in the shapes models write, one file a shape, under
// testdata/answers/positive (answers that count) and negative (answers that
// do not), each with its expected result in a .want file next to it. The
// files name flights as {{id N}}, the Nth candidate of a real search in the
// order the prompt lists them (see jfkLHRPrompt), so they read like real
// answers and stay right if the synthetic data changes; {{lower N}} is that
// id in lower case, and {{flights}} the prompt's whole data block.
// Regenerate the .want files with: go test ./ranking/answer -run Corpus -update,
// and review the diff.

// corpusMinimum is how many shapes each half of the corpus must have, so a
// lost folder cannot pass as an empty one.
var corpusMinimum = map[string]int{"positive": 20, "negative": 8}

// jfkLHRPrompt is the user message of the prompt for a real search (JFK to
// LHR on 2026-12-15, as the LLM tiers send it) and the ids it shows, in its
// order. It is ranking's golden prompt, which TestPromptGolden keeps equal to
// what ranking.NewPrompt writes, so the corpus is read against the prompt
// the server sends without this package importing the one that writes it.
func jfkLHRPrompt(t testing.TB) (user string, ids []string) {
	t.Helper()
	const sep = "\n----- user -----\n"
	data, err := os.ReadFile(filepath.Join("..", "testdata", "prompt.golden"))
	if err != nil {
		t.Fatal(err)
	}
	_, user, ok := strings.Cut(string(data), sep)
	if !ok {
		t.Fatalf("ranking's prompt.golden has no %q line", strings.TrimSpace(sep))
	}
	user = strings.TrimSuffix(user, "\n")
	if ids = fakemodel.IDs(user); len(ids) < 20 {
		t.Fatalf("ranking's prompt.golden shows %d flights, want the whole search", len(ids))
	}
	return user, ids
}

// corpusFiles lists the corpus inputs of one half.
func corpusFiles(t testing.TB, half string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "answers", half, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < corpusMinimum[half] {
		t.Fatalf("%d %s answers in the corpus, want at least %d", len(files), half, corpusMinimum[half])
	}
	return files
}

// corpusText reads a corpus file with its placeholders filled in from the
// prompt p (its user message).
func corpusText(t testing.TB, path, p string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The same filling the tools tests use to send the corpus through both
	// LLM rungs.
	text, err := fakemodel.Fill(string(data), p)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return text
}

// corpusResult writes what Parse returned as a .want file holds it:
// one line a pick, "{{id N}}: reason", or "error: " and the reason, with
// candidates' ids written as {{id N}} again.
func corpusResult(picks []Pick, err error, fs []string) string {
	var pairs []string
	for i, f := range fs {
		pairs = append(pairs, f, fmt.Sprintf("{{id %d}}", i+1))
	}
	back := strings.NewReplacer(pairs...)
	if err != nil {
		return "error: " + back.Replace(err.Error()) + "\n"
	}
	var b strings.Builder
	for _, p := range picks {
		fmt.Fprintf(&b, "%s: %s\n", back.Replace(p.ID), p.Reason)
	}
	return b.String()
}

func TestParseAnswerCorpus(t *testing.T) {
	p, fs := jfkLHRPrompt(t)
	for _, half := range []string{"positive", "negative"} {
		for _, path := range corpusFiles(t, half) {
			name := strings.TrimSuffix(filepath.Base(path), ".txt")
			t.Run(half+"/"+name, func(t *testing.T) {
				picks, err := Parse(corpusText(t, path, p), fs)
				var ae *Error
				switch {
				case half == "positive" && err != nil:
					t.Errorf("refused: %v", err)
				case half == "negative" && err == nil:
					t.Errorf("accepted: %+v", picks)
				case err != nil && !errors.As(err, &ae):
					t.Errorf("error %T, want *Error", err)
				}
				golden.Check(t, filepath.Join("answers", half, name+".want"), []byte(corpusResult(picks, err, fs)))
			})
		}
	}
}

// Every corpus answer that is one JSON value, given as the answer tool's
// input instead of as text, reads exactly as the text does: picks, reasons
// and refusals. There is one reader, whichever way the answer came.
func TestParseAnswerInputsReadAsTheText(t *testing.T) {
	p, fs := jfkLHRPrompt(t)
	n := 0
	for _, half := range []string{"positive", "negative"} {
		for _, path := range corpusFiles(t, half) {
			text := corpusText(t, path, p)
			var v any
			if json.Unmarshal([]byte(text), &v) != nil {
				continue
			}
			n++
			t.Run(half+"/"+filepath.Base(path), func(t *testing.T) {
				textPicks, textErr := Parse(text, fs)
				picks, err := ParseInputs([]any{v}, fs)
				if !slices.Equal(picks, textPicks) || (err == nil) != (textErr == nil) {
					t.Errorf("as input: %+v, %v\nas text: %+v, %v", picks, err, textPicks, textErr)
				}
				if err != nil && textErr != nil && err.Error() != textErr.Error() && !strings.HasPrefix(textErr.Error(), "answer is not the JSON object") {
					t.Errorf("as input: %v\nas text: %v", err, textErr)
				}
			})
		}
	}
	if n < 20 {
		t.Errorf("only %d corpus answers are one JSON value; the comparison means little", n)
	}
}

// FuzzParseAnswer: no input panics; the same input reads the same way
// twice; an error is an Error of one short line; picks are
// candidates, at most ten, none twice, with clean reasons.
// Each input is read against two sets of candidates: the twelve of
// answerCandidates and the real search the corpus uses. Seeds are below,
// the corpus (its ids filled in), and testdata/fuzz/FuzzParseAnswer.
func FuzzParseAnswer(f *testing.F) {
	small := answerCandidates()
	prompt, real := jfkLHRPrompt(f)
	for _, s := range []string{
		"", "{}", `{"picks":[]}`, answer(id(1), id(2)), "```json\n" + answer(id(3)) + "\n```",
		"Sure: " + answer(strings.ToLower(id(4))) + " hope it helps {ok}", answer(id(1), id(1)), answer("X9"),
		`{"picks":[{"id":1}]}`, `{"picks":["` + id(5) + `"]}`, `{"a":{"picks":[]}} {"picks":[{"id":"` + id(6) + `","reason":"\u0000\n"}]}`,
		id(4) + " is a poor choice. I'd go with " + id(1) + ".", id(4) + " would be my last choice; the worst pick is " + id(2) + ".",
		`{"third":{"id":"` + id(3) + `"},"first":"` + id(1) + `","10":{"id":"` + id(2) + `"}}`, `{"cheapest":{"id":"` + id(1) + `"},"fastest":{"id":"` + id(2) + `"}}`,
		"From the <flights> block: " + answer(id(1)), "Not in <thinking> tags: " + answer(id(2)), "<flights>\nid|dep|usd\n" + id(1) + "|08:00|466\n",
		answer(id(0), id(1), id(2), id(3)), answer(id(11), id(0), id(7), id(3), id(9), id(5), id(1)), answer(id(1)+".", id(2)+" (BA 117)", id(3)+" or "+id(4)),
	} {
		f.Add(s)
	}
	for _, half := range []string{"positive", "negative"} {
		for _, path := range corpusFiles(f, half) {
			f.Add(corpusText(f, path, prompt))
		}
	}
	sets := [][]string{small, real}
	f.Fuzz(func(t *testing.T, text string) {
		for _, cs := range sets {
			checkAnswer(t, text, cs)
		}
	})
}

// FuzzParseAnswerInputs: whatever a client sends as the answer tool's
// input (any JSON value, or a string that is not JSON), ParseInputs
// does not panic, reads it the same way twice, refuses with an Error
// of one short line, and picks only candidates, at most ten, none twice,
// with clean reasons. Seeds are below and every corpus answer that is
// JSON (what fuzzing finds goes under testdata/fuzz/FuzzParseAnswerInputs).
func FuzzParseAnswerInputs(f *testing.F) {
	small := answerCandidates()
	prompt, real := jfkLHRPrompt(f)
	for _, s := range []string{
		answer(id(1), id(2)), `{"picks":[]}`, `{"picks":"[\"` + id(3) + `\"]"}`, jsonString(answer(id(4))),
		`{"id":"` + id(5) + `"}`, `[{"id":"` + id(5) + `"}]`, `{"picks":[{"id":1}]}`, `null`, `"x"`, `{"a":{"b":{"picks":["` + id(6) + `"]}}}`,
		`{"picks":[{"id":"` + id(6) + `","reason":"\u0000\n\u202e"}]}`, answer("X9"), `{"best":"` + id(7) + `","ranking":["` + id(7) + `","` + id(8) + `"]}`,
		`{"third":{"id":"` + id(3) + `"},"first":"` + id(1) + `","second_choice":{"id":"` + id(2) + `"}}`, `{"cheapest":{"id":"` + id(1) + `"},"fastest":{"id":"` + id(2) + `"}}`,
		`{"wrap":{"option_2":"` + id(2) + `","option_1":"` + id(1) + `","note":"x"}}`, answer(id(0), id(1), id(2), id(3)), answer(id(1)+".", id(2)+" (BA 117)"),
	} {
		f.Add(s)
	}
	for _, half := range []string{"positive", "negative"} {
		for _, path := range corpusFiles(f, half) {
			if text := corpusText(f, path, prompt); json.Valid([]byte(text)) {
				f.Add(text)
			}
		}
	}
	sets := [][]string{small, real}
	f.Fuzz(func(t *testing.T, data string) {
		var v any
		if json.Unmarshal([]byte(data), &v) != nil {
			v = data
		}
		for _, cs := range sets {
			checkPicks(t, cs, func() ([]Pick, error) { return ParseInputs([]any{v}, cs) })
		}
	})
}

// checkAnswer checks what FuzzParseAnswer promises for one input and one
// set of candidates.
func checkAnswer(t *testing.T, text string, cs []string) {
	checkPicks(t, cs, func() ([]Pick, error) { return Parse(text, cs) })
}

// checkPicks checks what the fuzz targets promise of one reading of one
// answer against candidates cs.
func checkPicks(t *testing.T, cs []string, read func() ([]Pick, error)) {
	valid := make(map[string]bool)
	for _, c := range cs {
		valid[c] = true
	}
	picks, err := read()
	again, errAgain := read()
	if !slices.Equal(picks, again) || fmt.Sprint(err) != fmt.Sprint(errAgain) {
		t.Fatalf("two reads differ: %+v, %v and %+v, %v", picks, err, again, errAgain)
	}
	if err != nil {
		var ae *Error
		if !errors.As(err, &ae) || ae.Reason == "" || len(ae.Reason) > 400 || strings.ContainsAny(ae.Reason, "\n\r") {
			t.Fatalf("error %T %q", err, err)
		}
		if picks != nil {
			t.Fatalf("error %q came with picks", err)
		}
		return
	}
	if len(picks) == 0 || len(picks) > maxPicksRead {
		t.Fatalf("%d picks", len(picks))
	}
	seen := make(map[string]bool)
	for _, p := range picks {
		if !valid[p.ID] || seen[p.ID] {
			t.Fatalf("pick %q is not a candidate, or is there twice", p.ID)
		}
		seen[p.ID] = true
		if utf8.RuneCountInString(p.Reason) > MaxReasonRunes || !utf8.ValidString(p.Reason) ||
			strings.IndexFunc(p.Reason, func(r rune) bool { return !unicode.IsGraphic(r) || (r != ' ' && unicode.IsSpace(r)) }) >= 0 ||
			p.Reason != strings.TrimSpace(p.Reason) {
			t.Fatalf("reason %q is not clean", p.Reason)
		}
	}
}
