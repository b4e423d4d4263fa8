package answer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

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

const notJSON = `answer is not the JSON object asked for ({"picks":[{"id":...,"reason":...}]})`

// jsonString is s as a JSON string: an answer encoded once more.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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
		{name: "ids with a full stop and a note", text: `{"picks":[{"id":"` + id(4) + `.","reason":"a"},{"id":"` + id(2) + ` (BA 117)"}]}`, want: "K0004:a K0002:"},
		// Of a few candidates, a ranking may name half of them.
		{name: "seven of twelve ranked is a ranking", text: answer(id(11), id(0), id(7), id(3), id(9), id(5), id(1)),
			want: "K0011:r1 K0000:r2 K0007:r3 K0003:r4 K0009:r5 K0005:r6 K0001:r7"},
		{name: "six of twelve in the prompt's order is a ranking", text: answer(id(0), id(1), id(2), id(3), id(4), id(5)),
			want: "K0000:r1 K0001:r2 K0002:r3 K0003:r4 K0004:r5 K0005:r6"},
		// Tags the answer names, not blocks.
		{name: "a data tag named in a sentence", text: "From the <flights> block, my ranking: " + two, want: "K0003:r1 K0000:r2"},
		{name: "a data tag on a line of its own, no data after it", text: "<flights>\n" + two, want: "K0003:r1 K0000:r2"},
		{name: "a reasoning tag named in a sentence", text: "I kept my reasoning out of <thinking> tags.\n" + two, want: "K0003:r1 K0000:r2"},
		{name: "a reasoning tag named, then a block", text: "No <think> tags, as asked: <think>" + answer(id(9)) + "</think> " + two, want: "K0003:r1 K0000:r2"},
		{name: "ordinal labels in scrambled order", text: `{"third":{"id":"` + id(3) + `"},"first":{"id":"` + id(5) + `","why":"w"},"second":{"id":"` + id(1) + `"}}`, want: "K0005:w K0001: K0003:"},
		{name: "a numbered object", text: `{"3":"` + id(3) + `","1":"` + id(5) + `","2":"` + id(1) + `"}`, want: "K0005: K0001: K0003:"},
		{name: "a picks object with ordinal words", text: `{"picks":{"second":"` + id(1) + `","first":"` + id(5) + `"}}`, want: "K0005: K0001:"},
		{name: "first choice and runner-up", text: `{"runner_up":{"id":"` + id(1) + `"},"first_choice":{"id":"` + id(5) + `"}}`, want: "K0005: K0001:"},
		// Prose that names its picks and nothing else.
		{name: "a sentence of picks", text: "I'd go with " + id(2) + ", then " + id(1) + ", and keep " + id(4) + " as a backup.", want: "K0002: K0001: K0004:"},
		{name: "a sentence with reasons", text: "Take " + id(2) + " because it is nonstop, then " + id(5) + " — cheapest.", want: "K0002:because it is nonstop K0005:cheapest"},
		{name: "a run in a sentence", text: "My picks would be " + id(8) + ", " + id(1) + " and " + id(3) + ".", want: "K0008: K0001: K0003:"},
		{name: "one turned down", text: "I'd book " + id(8) + " rather than " + id(1) + ".", want: "K0008:"},
		{name: "a condition after the pick", text: "Go for " + id(8) + "; if it is full, " + id(1) + " is my second choice.", want: "K0008: K0001:"},
		{name: "a pick explained again", text: "I'd take " + id(8) + ". " + id(8) + " is nonstop and cheap.", want: "K0008:"},
		// A word of picking qualified as a bad one turns the flight down; a
		// good one still picks.
		{name: "a poor choice turned down", text: id(4) + " is a poor choice with its two stops. I'd go with " + id(1) + ".", want: "K0001:"},
		{name: "the worst pick turned down", text: id(4) + " is the worst pick of the lot. I'd go with " + id(1) + ".", want: "K0001:"},
		{name: "the worst pick named first", text: "The worst pick is " + id(4) + "; I'd go with " + id(1) + ".", want: "K0001:"},
		{name: "a bad choice after the pick", text: "I'd go with " + id(1) + "; " + id(4) + " is a really bad choice.", want: "K0001:"},
		{name: "my first choice", text: id(4) + " is my first choice, with " + id(1) + " as the runner-up.", want: "K0004: K0001:"},
		{name: "the best pick", text: id(4) + " is the best pick, then " + id(1) + ".", want: "K0004: K0001:"},
		{name: "the pick of the bunch", text: id(4) + " is the pick of the bunch.", want: "K0004:"},
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
		{name: "two ids in one value", text: answer(id(1) + " or " + id(2)), err: `answer named an unknown flight id: "` + id(1) + ` or JFK-LHR-261215-K…"`},
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
		{name: "seven of twelve in reverse order is an echo", text: answer(id(11), id(10), id(8), id(7), id(5), id(3), id(1)),
			err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "nine of twelve in any order is an echo", text: answer(id(11), id(0), id(7), id(3), id(9), id(5), id(1), id(2), id(4)),
			err: "answer lists 9 of the 12 flights instead of choosing up to three"},
		{name: "a piece of a broken object", text: `{"picks":[{"id":"` + id(1) + `"},{"id":"` + id(2), err: notJSON},
		{name: "reasoning only", text: "<think>" + two + "</think>\n", err: "answer holds only reasoning (<think>…) and no answer after it"},
		{name: "reasoning unclosed", text: "<Thinking>" + two, err: "answer's <thinking> reasoning never ends, so no answer follows it"},
		{name: "reasoning unclosed on its own line", text: "Let me see.\n<think>\n" + two, err: "answer's <think> reasoning never ends, so no answer follows it"},
		{name: "a reasoning tag named, nothing read", text: "No <think> here, " + id(1) + " is nice.", err: "answer's <think> reasoning never ends, so no answer follows it"},
		{name: "a data block unclosed at a line's start", text: "<flights>\nid|dep|arr|usd\n" + id(1) + "|08:00|20:05|466\n" + two, err: "answer repeats the <flights> table from the prompt instead of choosing flights"},
		{name: "in passing", text: id(1) + " is nice.", err: `answer mentions "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "stray objects use up the tries", text: strings.Repeat(`{"a" `, maxDecodeAttempts) + two, err: notJSON},
		{name: "best disagrees with the ranking", text: `{"best":"` + id(2) + `","ranking":["` + id(4) + `","` + id(2) + `"]}`,
			err: `answer gives two lists of picks that disagree (pick 1 is "` + id(4) + `" in one, "` + id(2) + `" in the other), so neither counts`},
		{name: "lists that part after agreeing", text: `{"top":["` + id(4) + `","` + id(2) + `"]} {"picks":["` + id(4) + `","` + id(7) + `","` + id(2) + `"]}`,
			err: `answer gives two lists of picks that disagree (pick 2 is "` + id(2) + `" in one, "` + id(7) + `" in the other), so neither counts`},
		{name: "encoded four times", text: jsonString(jsonString(jsonString(jsonString(two)))), err: notJSON},
		{name: "category labels are no ranking", text: `{"cheapest":{"id":"` + id(5) + `"},"best_value":{"id":"` + id(1) + `"},"fastest":{"id":"` + id(3) + `"}}`,
			err: `answer labels flights by category ("best_value", "cheapest", "fastest") without ranking them`},
		{name: "an ordinal label among categories", text: `{"first":{"id":"` + id(5) + `"},"fastest":{"id":"` + id(3) + `"}}`,
			err: `answer labels flights by category ("fastest", "first") without ranking them`},
		{name: "a label given twice a place", text: `{"1":{"id":"` + id(5) + `"},"first":{"id":"` + id(3) + `"}}`,
			err: `answer labels flights by category ("1", "first") without ranking them`},
		{name: "a sentence with one mention unclear", text: "I'd go with " + id(2) + ", but " + id(1) + " has better times.",
			err: `answer mentions "` + id(2) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "a sentence of conditions", text: "If you want speed, take " + id(2) + "; if you want price, take " + id(1) + ".",
			err: `answer mentions "` + id(2) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "a sentence that turns all down", text: "I would not take " + id(2) + ".", err: `answer turns down "` + id(2) + `" and picks no flight`},
		{name: "a sentence that calls its one flight a poor choice", text: id(2) + " is a poor choice.", err: `answer turns down "` + id(2) + `" and picks no flight`},
		{name: "my last choice may rank or turn down", text: id(4) + " would be my last choice. I'd go with " + id(1) + ".",
			err: `answer mentions "` + id(4) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
		{name: "a last choice closing a ranking is unclear too", text: "My first choice is " + id(4) + ", my second choice " + id(1) + " and my last choice " + id(2) + ".",
			err: `answer mentions "` + id(4) + `", "` + id(1) + `", "` + id(2) + `" only in passing, not as a list or JSON of picks`},
		{name: "the least pick may be cheapest or worst", text: "The least attractive pick is " + id(4) + "; I'd go with " + id(1) + ".",
			err: `answer mentions "` + id(4) + `", "` + id(1) + `" only in passing, not as a list or JSON of picks`},
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

// Of a few candidates, a ranking longer than the three asked for is read
// as a ranking; a list of nearly all of them, or of more than six in the
// prompt's order, is an echo. Of many, more than half in any order is.
func TestEchoOfAFewCandidates(t *testing.T) {
	cs := answerCandidates()
	items := func(ns ...int) string {
		var b strings.Builder
		for k, n := range ns {
			fmt.Fprintf(&b, "%d. %s - r%d\n", k+1, id(n), k+1)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name string
		ids  []string
		text string
		want string // picks as show writes them, or
		err  string // the whole Error reason
	}{
		{name: "four of six in the prompt's order", ids: cs[:6], text: items(0, 1, 2, 3), want: "K0000:r1 K0001:r2 K0002:r3 K0003:r4"},
		{name: "four of six ranked", ids: cs[:6], text: items(4, 1, 5, 0), want: "K0004:r1 K0001:r2 K0005:r3 K0000:r4"},
		{name: "five of six", ids: cs[:6], text: items(4, 1, 5, 0, 2), err: "answer lists 5 of the 6 flights instead of choosing up to three"},
		{name: "all four of four", ids: cs[:4], text: items(3, 1, 2, 0), err: "answer lists 4 of the 4 flights instead of choosing up to three"},
		{name: "three of four", ids: cs[:4], text: items(3, 1, 2), want: "K0003:r1 K0001:r2 K0002:r3"},
		{name: "seven of twelve ranked", ids: cs, text: items(11, 0, 7, 3, 9, 5, 1), want: "K0011:r1 K0000:r2 K0007:r3 K0003:r4 K0009:r5 K0005:r6 K0001:r7"},
		{name: "seven of twelve in the prompt's order", ids: cs, text: items(0, 1, 2, 4, 6, 8, 9), err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "seven of twelve sorted the other way", ids: cs, text: items(9, 8, 6, 4, 2, 1, 0), err: "answer lists 7 of the 12 flights instead of choosing up to three"},
		{name: "nine of twelve", ids: cs, text: items(11, 0, 7, 3, 9, 5, 1, 2, 4), err: "answer lists 9 of the 12 flights instead of choosing up to three"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			picks, err := Parse(tc.text, tc.ids)
			checkRead(t, picks, err, tc.want, tc.err)
			var in any
			if err := json.Unmarshal([]byte(answerOfItems(tc.text)), &in); err != nil {
				t.Fatal(err)
			}
			picks, err = ParseInputs([]any{in}, tc.ids)
			checkRead(t, picks, err, tc.want, tc.err)
		})
	}
}

// answerOfItems is the JSON object asked for, with the picks of a numbered
// list that items wrote: "1. <id> - r1" lines.
func answerOfItems(text string) string {
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		ids = append(ids, strings.Fields(line)[1])
	}
	return answer(ids...)
}
