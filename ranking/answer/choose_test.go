package answer

import "testing"

// The package doc's table of which reading wins, row by row: the stronger
// reading counts, a weaker one that names other picks refuses the answer,
// and readings of one row agree or the answer is refused.
func TestWhichReadingWins(t *testing.T) {
	a, b, c := id(1), id(2), id(3)
	for _, tc := range []struct {
		name, text string
		want       string // picks as show writes them, or
		err        string // the whole Error reason
	}{
		{name: "fences before the whole text", text: `{"picks":["` + b + `"]}` + "\n```json\n" + `{"picks":["` + a + `"]}` + "\n```", want: "K0001:"},
		{name: "1 keyed list before 2 bare list that agrees", text: `["` + a + `"] {"picks":["` + a + `","` + b + `"]}`, want: "K0001: K0002:"},
		{name: "1 keyed list and 2 bare list that disagree", text: `["` + b + `"] {"picks":["` + a + `"]}`,
			err: `answer names different flights in one list and in another (pick 1 is "` + a + `" in one, "` + b + `" in the other), so neither counts`},
		{name: "2 bare list before 3 bare entries that explain it", text: `{"id":"` + b + `","why":"y"} ["` + a + `","` + b + `"]`, want: "K0001: K0002:y"},
		{name: "2 bare list and 3 a bare entry of another flight", text: `{"id":"` + b + `"} ["` + a + `"]`,
			err: `answer names "` + b + `" beside its picks but not among them, so the picks are unclear`},
		{name: "1 keyed list and 3 bare entries in another order", text: `{"picks":["` + a + `","` + b + `"]}` + "\n" + `{"id":"` + b + `"}` + "\n" + `{"id":"` + a + `"}`,
			err: `answer names its picks in two orders ("` + a + `" after "` + b + `" in one list, before it in another), so neither counts`},
		{name: "3 bare entries taken together", text: `{"id":"` + a + `","why":"x"}` + "\n" + `{"id":"` + b + `"}`, want: "K0001:x K0002:"},
		{name: "JSON before 4 numbered list that restates it, with a reason", text: "1. " + a + " - cheap\n2. " + b + "\n\n" + `{"picks":["` + a + `","` + b + `"]}`, want: "K0001:cheap K0002:"},
		{name: "JSON and 4 numbered list that disagree", text: "1. " + b + " - cheap\n2. " + c + "\n\n" + `{"picks":["` + a + `"]}`,
			err: `answer names different flights in its JSON and in its list (pick 1 is "` + a + `" in one, "` + b + `" in the other), so neither counts`},
		{name: "4 numbered list before 5 loose items that explain it", text: "1. " + a + "\n2. " + b + "\n3. " + c + "\n\nWhy:\n- " + a + ": fast\n- " + c + ": cheap", want: "K0001:fast K0002: K0003:cheap"},
		{name: "4 numbered list and 5 a loose item of another flight", text: "- " + b + " - cheap\n\n1. " + a + " - fast",
			err: `answer names "` + b + `" beside its picks but not among them, so the picks are unclear`},
		{name: "JSON and 5 loose items that explain it", text: `{"picks":["` + a + `","` + b + `","` + c + `"]}` + "\n\nWhy:\n- " + a + ": fast\n- " + c + ": cheap", want: "K0001:fast K0002: K0003:cheap"},
		{name: "4 a table and a list that agree", text: "| id | why |\n|---|---|\n| " + a + " | fast |\n\n1. " + a + "\n2. " + b, want: "K0001:fast K0002:"},
		{name: "4 numbered list and 5 its first called the best", text: "1. " + a + "\n2. " + b + "\n\n**Best overall:** " + a, want: "K0001: K0002:"},
		{name: "4 numbered list and 5 another flight called the best", text: "1. " + b + "\n2. " + a + "\n\nBest: " + a,
			err: `answer calls "` + a + `" its best but ranks "` + b + `" first, so the picks are unclear`},
		{name: "4 numbered list and 5 the best of a kind", text: "1. " + a + "\n2. " + b + "\n\nBest value: " + b, want: "K0001: K0002:"},
		{name: "5 loose items, the one called the best first", text: "- " + b + " - y\n- " + c + " - z\nTop pick: " + a + " - x", want: "K0001:x K0002:y K0003:z"},
		{name: "5 loose items calling two flights the best", text: "Best: " + a + "\nMy pick: " + b,
			err: `answer calls both "` + a + `" and "` + b + `" its best, so the picks are unclear`},
		{name: "4 numbered list and 5 its second called the runner-up", text: "1. " + a + "\n2. " + b + "\n3. " + c + "\n\nRunner-up: " + b + "\nBest: " + a, want: "K0001: K0002: K0003:"},
		{name: "4 numbered list and 5 its third called the runner-up", text: "1. " + a + "\n2. " + b + "\n3. " + c + "\n\nRunner-up: " + c,
			err: `answer calls "` + c + `" its second but ranks "` + b + `" second, so the picks are unclear`},
		{name: "4 numbered list and 5 its second called the third", text: "1. " + a + "\n2. " + b + "\n3. " + c + "\n\nThird choice: " + b,
			err: `answer calls "` + b + `" its third but ranks "` + c + `" third, so the picks are unclear`},
		{name: "5 loose items, the runner-up second", text: "- " + c + " - z\nRunner-up: " + b + " - y\nBest: " + a + " - x", want: "K0001:x K0002:y K0003:z"},
		{name: "5 loose items, only a runner-up", text: "- " + a + " - x\n- " + c + " - z\nSecond choice: " + b + " - y", want: "K0001:x K0002:y K0003:z"},
		{name: "5 loose items calling two flights the runner-up", text: "Best: " + a + "\nRunner-up: " + b + "\nSecond choice: " + c,
			err: `answer calls both "` + b + `" and "` + c + `" its second, so the picks are unclear`},
		{name: "5 loose items calling one flight the best and the runner-up", text: "Best: " + a + "\nRunner-up: " + a,
			err: `answer calls "` + a + `" both its best and its second, so the picks are unclear`},
		{name: "5 loose items taken together", text: "- " + a + " - x\n- " + b + " - y", want: "K0001:x K0002:y"},
		{name: "5 loose items before 6 a sentence", text: "Best overall: " + a + "\n\nI'd go with " + b + ".", want: "K0001:"},
		{name: "6 a sentence when nothing else reads", text: "I'd go with " + a + ", then " + b + ".", want: "K0001: K0002:"},
		{name: "1 keyed lists that disagree", text: `{"top":["` + a + `"]} {"picks":["` + b + `"]}`,
			err: `answer gives two lists of picks that disagree (pick 1 is "` + a + `" in one, "` + b + `" in the other), so neither counts`},
		{name: "4 numbered lists that disagree", text: "1. " + a + "\n2. " + b + "\n\n1. " + b + "\n2. " + a,
			err: `answer gives two lists of picks that disagree (pick 1 is "` + a + `" in one, "` + b + `" in the other), so neither counts`},
		{name: "6 no sentence beside a brace", text: "I'd go with " + a + " {", err: notJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			picks, err := Parse(tc.text, answerCandidates())
			checkRead(t, picks, err, tc.want, tc.err)
		})
	}
}
