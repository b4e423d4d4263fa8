package answer

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/golden"
)

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

// answerCandidates are the ids of twelve flights, real-looking,
// id(0)..id(11), in no particular order of merit.
func answerCandidates() []string {
	var ids []string
	for i := range 12 {
		ids = append(ids, id(i))
	}
	return ids
}

func id(i int) string { return fmt.Sprintf("JFK-LHR-261215-K%04d", i) }

// answer is the JSON object asked for, naming ids with reasons "r1", "r2"...
func answer(ids ...string) string {
	var picks []string
	for i, x := range ids {
		j, _ := json.Marshal(x)
		picks = append(picks, fmt.Sprintf(`{"id":%s,"reason":"r%d"}`, j, i+1))
	}
	return `{"picks":[` + strings.Join(picks, ",") + `]}`
}

// show writes picks as "id:reason id:reason", ids shortened to their last
// five characters.
func show(picks []Pick) string {
	var out []string
	for _, p := range picks {
		out = append(out, p.ID[len(p.ID)-5:]+":"+p.Reason)
	}
	return strings.Join(out, " ")
}

func TestParseAnswer(t *testing.T) {
	two := answer(id(3), id(0))
	for _, tc := range []struct {
		name, text string
		want       string // picks as show writes them, or
		err        string // the whole Error reason
	}{
		// Good answers, however wrapped.
		{name: "plain", text: two, want: "K0003:r1 K0000:r2"},
		{name: "fenced json", text: "```json\n" + two + "\n```", want: "K0003:r1 K0000:r2"},
		{name: "fenced bare", text: "```\n" + two + "\n```\n", want: "K0003:r1 K0000:r2"},
		{name: "fence on one line", text: "```json " + two + "```", want: "K0003:r1 K0000:r2"},
		{name: "unclosed fence", text: "```json\n" + two, want: "K0003:r1 K0000:r2"},
		{name: "prose around", text: "Here is my ranking:\n\n" + two + "\n\nLet me know if you want more options.", want: "K0003:r1 K0000:r2"},
		{name: "prose and fence", text: "Sure! I weighed {price, time}.\n```json\n" + two + "\n```\nEnjoy {your trip}.", want: "K0003:r1 K0000:r2"},
		{name: "fence preferred to prose", text: answer(id(5)) + "\n```json\n" + two + "\n```", want: "K0003:r1 K0000:r2"},
		{name: "braces in prose first", text: "Weights: {price: high} and {stops: {low}}. " + two, want: "K0003:r1 K0000:r2"},
		{name: "braces in reasons", text: `{"picks":[{"id":"` + id(1) + `","reason":"best {value} } for money"}]}`, want: "K0001:best {value} } for money"},
		{name: "object without picks first", text: `{"thinking":"compare {a} with {b}","picks_considered":4} ` + two, want: "K0003:r1 K0000:r2"},
		{name: "extra fields", text: `{"picks":[{"id":"` + id(2) + `","reason":"fast","score":9.5,"tags":["a"]}],"summary":"ok","version":2}`, want: "K0002:fast"},
		{name: "nested extras", text: `{"picks":[{"id":"` + id(2) + `","reason":"fast","why":{"a":[{"b":[1,{"c":"]}"}]}]}}],"meta":{"x":{"y":{}}}}`, want: "K0002:fast"},
		{name: "nested in an object", text: `{"answer":` + two + `}`, want: "K0003:r1 K0000:r2"},
		{name: "wrapped too deep", text: strings.Repeat(`{"a":`, 40) + two + strings.Repeat("}", 40), want: "K0003:r1 K0000:r2"},
		{name: "keys in other case", text: `{"Picks":[{"ID":"` + id(2) + `","Reason":"fast"}]}`, want: "K0002:fast"},
		{name: "id case changed", text: answer(strings.ToLower(id(4))), want: "K0004:r1"},
		{name: "id with spaces", text: answer("  " + id(4) + "\t"), want: "K0004:r1"},
		{name: "bare string ids", text: `{"picks":["` + id(6) + `","` + id(7) + `"]}`, want: "K0006: K0007:"},
		{name: "no reason", text: `{"picks":[{"id":"` + id(6) + `"}]}`, want: "K0006:"},
		{name: "reason not a string", text: `{"picks":[{"id":"` + id(6) + `","reason":{"text":"x"}}]}`, want: "K0006:"},
		{name: "reason cleaned", text: `{"picks":[{"id":"` + id(6) + `","reason":"  Cheap\n\tand\u200b fast\u0000\u202e  "}]}`, want: "K0006:Cheap and fast"},
		// Six flights in all: naming most of them would be an echo.
		{name: "ten read, the rest ignored", text: answer(id(5), id(4), id(3), id(2), id(5), id(4), id(3), id(2), id(1), id(0), "NOT-AN-ID", id(0)),
			want: "K0005:r1 K0004:r2 K0003:r3 K0002:r4 K0001:r9 K0000:r10"},
		// Once refused, now read: other key names, other shapes, repeats.
		{name: "other list key", text: `{"choices":["` + id(1) + `"]}`, want: "K0001:"},
		{name: "one id for a list", text: `{"picks":"` + id(1) + `"}`, want: "K0001:"},
		{name: "a bare list", text: `["` + id(1) + `"]`, want: "K0001:"},
		{name: "other id key", text: `{"picks":[{"flight":"` + id(1) + `"}]}`, want: "K0001:"},
		{name: "twice: the first kept", text: answer(id(1), id(2), id(1)), want: "K0001:r1 K0002:r2"},
		{name: "twice in other case", text: answer(id(1), strings.ToLower(id(1))), want: "K0001:r1"},
		{name: "stray braces cost no tries", text: strings.Repeat("{ ", maxDecodeAttempts) + two, want: "K0003:r1 K0000:r2"},

		// The boundaries Parse's doc states.
		{name: "ranks order the entries", text: `{"picks":[{"id":"` + id(1) + `","rank":2},{"id":"` + id(2) + `","rank":"#1"}]}`, want: "K0002: K0001:"},
		{name: "equal ranks keep their order", text: `{"picks":[{"id":"` + id(1) + `","rank":1},{"id":"` + id(2) + `","rank":1}]}`, want: "K0001: K0002:"},
		{name: "ranks on some only: the answer's order", text: `{"picks":[{"id":"` + id(1) + `","rank":2},{"id":"` + id(2) + `"}]}`, want: "K0001: K0002:"},
		{name: "an entry's fields are not lists", text: `{"id":"` + id(1) + `","ranking":"2","choice":"yes"}`, want: "K0001:"},
		{name: "numbered object", text: `{"picks":{"2":"` + id(1) + `","1":{"id":"` + id(2) + `","why":"w"}}}`, want: "K0002:w K0001:"},
		{name: "a real id in brackets is no placeholder", text: `{"picks":["[` + id(1) + `]","<` + id(2) + `>"]}`, want: "K0001: K0002:"},
		{name: "placeholders among picks dropped", text: `{"picks":[{"id":"` + id(1) + `","reason":"<under 15 words>"},{"id":"..."}]}`, want: "K0001:"},
		{name: "six of twelve in order is no echo", text: answer(id(0), id(1), id(2), id(3), id(4), id(5)), want: "K0000:r1 K0001:r2 K0002:r3 K0003:r4 K0004:r5 K0005:r6"},
		{name: "six of twelve out of order is no echo", text: answer(id(11), id(0), id(7), id(3), id(9), id(5)), want: "K0011:r1 K0000:r2 K0007:r3 K0003:r4 K0009:r5 K0005:r6"},
		{name: "answer before unclosed reasoning", text: two + "\n<think>wait, maybe " + answer(id(9)), want: "K0003:r1 K0000:r2"},
		{name: "orphan closing tag", text: "compare " + answer(id(9)) + "</THINK>" + two, want: "K0003:r1 K0000:r2"},
		{name: "block comment and Python words", text: `{'picks': [/* best */ {'id': '` + id(1) + `', 'ok': True, 'reason': None,},]}`, want: "K0001:"},
		{name: "control characters in a string", text: "{\"picks\":[{\"id\":\"" + id(1) + "\",\"reason\":\"two\nlines\"}]}", want: "K0001:two lines"},
		{name: "inline items need an id after the number", text: "I like 1. " + id(1) + " 2. its price 3. " + id(2), want: "K0001:2. its price 3. JFK-LHR-261215-K0002"},
		{name: "exactly at the size limit", text: answer(id(1)) + strings.Repeat(" ", maxAnswerBytes-len(answer(id(1)))), want: "K0001:r1"},

		// One reading, though written twice: a best that is the ranking's
		// first, or a short list that starts a longer one. The longer
		// counts, and keeps the reasons the shorter gave.
		{name: "best agrees with the ranking", text: `{"best":{"id":"` + id(4) + `","reason":"b"},"ranking":["` + id(4) + `","` + id(2) + `"]}`, want: "K0004:b K0002:"},
		{name: "top two agree with the top three", text: `{"top":["` + id(4) + `","` + id(2) + `"]} {"picks":["` + id(4) + `","` + id(2) + `","` + id(7) + `"]}`, want: "K0004: K0002: K0007:"},
		{name: "a best after its list", text: "1. " + id(3) + " - r1\n2. " + id(5) + " - r2\n\nMy pick: 1. " + id(3), want: "K0003:r1 K0005:r2"},
		{name: "an empty list and a best", text: `{"picks":[],"best":"` + id(6) + `"}`, want: "K0006:"},
		// Prose that names its picks and nothing else.
		{name: "a sentence of picks", text: "I'd go with " + id(2) + ", then " + id(1) + ", and keep " + id(4) + " as a backup.", want: "K0002: K0001: K0004:"},
		{name: "a sentence with reasons", text: "Take " + id(2) + " because it is nonstop, then " + id(5) + " — cheapest.", want: "K0002:because it is nonstop K0005:cheapest"},
		{name: "a run in a sentence", text: "My picks would be " + id(8) + ", " + id(1) + " and " + id(3) + ".", want: "K0008: K0001: K0003:"},
		{name: "one turned down", text: "I'd book " + id(8) + " rather than " + id(1) + ".", want: "K0008:"},
		{name: "a condition after the pick", text: "Go for " + id(8) + "; if it is full, " + id(1) + " is my second choice.", want: "K0008: K0001:"},
		{name: "a pick explained again", text: "I'd take " + id(8) + ". " + id(8) + " is nonstop and cheap.", want: "K0008:"},
		// JSON that was encoded once more, and typographic quotes.
		{name: "encoded once more", text: jsonString(two), want: "K0003:r1 K0000:r2"},
		{name: "encoded three times", text: jsonString(jsonString(jsonString(two))), want: "K0003:r1 K0000:r2"},
		{name: "picks encoded", text: `{"picks":` + jsonString(`["`+id(2)+`"]`) + `}`, want: "K0002:"},
		{name: "typographic quotes", text: `{“picks”:[{“id”:“` + id(1) + `”,“reason”:“it’s "cheap"”}]}`, want: `K0001:it’s "cheap"`},
		{name: "typographic single quotes with apostrophes", text: `{‘picks’:[‘` + id(1) + `’],‘why’:‘it’s’}`, want: "K0001:"},
		{name: "an id in typographic quotes", text: `{"picks":["“` + id(1) + `”"]}`, want: "K0001:"},

		// Answers that cannot be used.
		{name: "empty", text: "", err: "answer was empty"},
		{name: "blank", text: " \n\t ", err: "answer was empty"},
		{name: "prose only", text: "I would take the morning nonstop.", err: notJSON},
		{name: "garbage", text: "\x00\xff{{{]]]}}}\"", err: notJSON},
		{name: "truncated", text: `{"picks":[{"id":"` + id(1) + `","reas`, err: notJSON},
		{name: "no list key", text: `{"considered":["` + id(1) + `"]}`, err: notJSON},
		{name: "picks a number", text: `{"picks":3}`, err: notJSON},
		{name: "picks null", text: `{"picks":null}`, err: notJSON},
		{name: "a list of words", text: `["price", "time"]`, err: notJSON},
		{name: "nested too deep", text: `{"picks":[{"id":"` + id(1) + `","x":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}]}`, err: notJSON},
		{name: "picks empty", text: `{"picks":[]}`, err: "answer named no flights"},
		{name: "one unknown", text: answer(id(1), "JFK-LHR-261215-XXXXX"), err: `answer named an unknown flight id: "JFK-LHR-261215-XXXXX"`},
		{name: "unknown ids", text: answer("X9", id(1), "Q1"), err: `answer named unknown flight ids: "X9", "Q1"`},
		{name: "many unknown ids", text: answer("a", "b", "c", "d", "e", "f", "g"), err: `answer named unknown flight ids: "a", "b", "c", "d", "e" and 2 more`},
		{name: "hostile unknown id", text: answer("X\n</flights>\x1b[31m" + strings.Repeat("y", 100)), err: `answer named an unknown flight id: "X\n</flights>\x1b[31myyyyyyyyyyyyyyyyyyyyyyy…"`},
		{name: "unknown reported before twice", text: answer(id(1), id(1), "Z"), err: `answer named an unknown flight id: "Z"`},
		{name: "id a number", text: `{"picks":[{"id":123,"reason":"x"}]}`, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "id null", text: `{"picks":[{"id":"` + id(1) + `"},{"id":null}]}`, err: `answer pick 2 has no flight id (a string in "id")`},
		{name: "id missing", text: `{"picks":[{"airline":"BA","reason":"x"}]}`, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "id blank", text: `{"picks":[{"id":"   "}]}`, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "pick a number", text: `{"picks":[7]}`, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "pick a list", text: `{"picks":[["` + id(1) + `"]]}`, err: `answer pick 1 has no flight id (a string in "id")`},
		{name: "too long", text: answer(id(1)) + strings.Repeat(" ", maxAnswerBytes), err: "answer too long (65 KB; at most 64 KB is read)"},
		{name: "seven of twelve in order is an echo", text: answer(id(0), id(1), id(2), id(3), id(4), id(5), id(6)),
			err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "seven of twelve in any order is an echo", text: answer(id(11), id(0), id(7), id(3), id(9), id(5), id(1)),
			err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "a piece of a broken object", text: `{"picks":[{"id":"` + id(1) + `"},{"id":"` + id(2), err: notJSON},
		{name: "reasoning only", text: "<think>" + two + "</think>\n", err: "answer holds only reasoning (<think>…) and no answer after it"},
		{name: "reasoning unclosed", text: "<Thinking>" + two, err: "answer's <thinking> reasoning never ends, so no answer follows it"},
		{name: "in passing", text: id(1) + " is nice.", err: `answer mentions "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "stray objects use up the tries", text: strings.Repeat(`{"a" `, maxDecodeAttempts) + two, err: notJSON},
		{name: "best disagrees with the ranking", text: `{"best":"` + id(2) + `","ranking":["` + id(4) + `","` + id(2) + `"]}`,
			err: `answer gives two lists of picks that disagree (pick 1 is "` + id(4) + `" in one, "` + id(2) + `" in the other), so neither counts`},
		{name: "lists that part after agreeing", text: `{"top":["` + id(4) + `","` + id(2) + `"]} {"picks":["` + id(4) + `","` + id(7) + `","` + id(2) + `"]}`,
			err: `answer gives two lists of picks that disagree (pick 2 is "` + id(2) + `" in one, "` + id(7) + `" in the other), so neither counts`},
		{name: "encoded four times", text: jsonString(jsonString(jsonString(jsonString(two)))), err: notJSON},
		{name: "a sentence with one mention unclear", text: "I'd go with " + id(2) + ", but " + id(1) + " has better times.",
			err: `answer mentions "` + id(2) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "a sentence of conditions", text: "If you want speed, take " + id(2) + "; if you want price, take " + id(1) + ".",
			err: `answer mentions "` + id(2) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "a sentence that turns all down", text: "I would not take " + id(2) + ".", err: `answer turns down "` + id(2) + `" and picks no flight`},
		{name: "a sentence with a made-up id", text: "I'd go with " + id(2) + " and JFK-LHR-261215-ZZZZZ.", err: `answer named an unknown flight id: "JFK-LHR-261215-ZZZZZ"`},
		{name: "a sentence that picks most", text: "I'd take " + id(0) + ", " + id(2) + ", " + id(4) + ", " + id(6) + ", " + id(8) + ", " + id(10) + " and " + id(11) + ".",
			err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "a sentence beside a broken object", text: "I'd go with " + id(2) + ` {"picks":[`, err: notJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			picks, err := Parse(tc.text, answerCandidates())
			if tc.err != "" {
				var ae *Error
				if !errors.As(err, &ae) || ae.Reason != tc.err || err.Error() != tc.err {
					t.Errorf("got %q, %v\nwant Error %q", show(picks), err, tc.err)
				}
				if picks != nil {
					t.Errorf("an error came with picks %q", show(picks))
				}
				return
			}
			if err != nil || show(picks) != tc.want {
				t.Errorf("got %q, %v\nwant %q", show(picks), err, tc.want)
			}
		})
	}
}

const notJSON = `answer is not the JSON object asked for ({"picks":[{"id":...,"reason":...}]})`

// jsonString is s as a JSON string: an answer encoded once more.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestParseAnswerIDsAreTheCandidates(t *testing.T) {
	cs := answerCandidates()
	picks, err := Parse(answer(strings.ToLower(id(3)), " "+id(5)), cs)
	if err != nil {
		t.Fatal(err)
	}
	if picks[0].ID != id(3) || picks[1].ID != id(5) {
		t.Errorf("picks carry ids %q, %q; want the candidates' own", picks[0].ID, picks[1].ID)
	}
	// When ids differ only in case, only the exact one matches.
	cs[1] = strings.ToLower(cs[0])
	if _, err := Parse(answer(strings.ToUpper(id(0)[:5])+strings.ToLower(id(0)[5:])), cs); err == nil {
		t.Error("an id matching two candidates loosely was accepted")
	}
	if picks, err := Parse(answer(cs[1], cs[0]), cs); err != nil || picks[0].ID != cs[1] || picks[1].ID != cs[0] {
		t.Errorf("exact ids gave %+v, %v", picks, err)
	}
}

func TestParseAnswerLongReason(t *testing.T) {
	long := strings.Repeat("très ", 100)
	picks, err := Parse(`{"picks":[{"id":"`+id(1)+`","reason":"`+long+`"}]}`, answerCandidates())
	if err != nil {
		t.Fatal(err)
	}
	r := picks[0].Reason
	if n := utf8.RuneCountInString(r); n > MaxReasonRunes || n < MaxReasonRunes-5 || !strings.HasSuffix(r, "…") || !strings.HasPrefix(r, "très très") {
		t.Errorf("reason of %d runes: %q", n, r)
	}
	if strings.Contains(r, " …") {
		t.Errorf("reason %q keeps a space before the ellipsis", r)
	}
}

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
		{name: "two calls that agree", inputs: []any{obj(answer(id(5))), obj(answer(id(5), id(1)))}, want: "K0005:r1 K0001:r2"},
		{name: "an id's case changed", inputs: []any{obj(answer(strings.ToLower(id(4))))}, want: "K0004:r1"},
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

// checkRead checks one reading: the picks as show writes them are want,
// or, when wantErr is set, the reading is an *Error with that whole reason
// and no picks.
func checkRead(t *testing.T, picks []Pick, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		var ae *Error
		if !errors.As(err, &ae) || ae.Reason != wantErr || picks != nil {
			t.Errorf("got %q, %v\nwant Error %q", show(picks), err, wantErr)
		}
		return
	}
	if err != nil || show(picks) != want {
		t.Errorf("got %q, %v\nwant %q", show(picks), err, want)
	}
}

const structuredNotTheObject = `answer tool's input is not the object asked for ({"picks":[{"id":...,"reason":...}]})`

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
