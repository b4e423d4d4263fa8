package llm

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The model name an endpoint reports is shown in results: it keeps only
// what a person sees, as one word.
func TestCleanModel(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "gpt-4o-mini-2024-07-18", "gpt-4o-mini-2024-07-18"},
		{"spaces and white space dropped", " gpt 4o\tmini\n", "gpt4omini"},
		{"C0 and C1 controls", "gpt\x1b[0m\u0085\u009b-4", "gpt[0m-4"},
		{"bidi and zero-width", "\u202egpt\u200b-4\u2066\ufeff", "gpt-4"},
		{"variation selectors", "gpt-4" + "\ufe00\ufe0f\U000e0100\U000e01ef", "gpt-4"},
		{"tag block", "gpt-4\U000e0041\U000e007f", "gpt-4"},
		{"Hangul fillers, braille blank, grapheme joiner", "gpt\u3164\u115f\u1160\uffa0\u2800\u034f-4", "gpt-4"},
		{"private use and noncharacters", "gpt\ue000\ufdd0\uffff-4", "gpt-4"},
		{"letters of other scripts with their marks", "通义千问-हिंदी-é", "通义千问-हिंदी-é"},
		{"invalid UTF-8", "gpt\xff", "gpt\ufffd"},
		{"nothing visible", "\u3164\ufe0f\u200b", ""},
		{"at most maxModelRunes", strings.Repeat("m", maxModelRunes+5), strings.Repeat("m", maxModelRunes)},
		{"invisible runes do not count", strings.Repeat("\ufe0f", maxModelRunes) + "gpt", "gpt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cleanModel(tc.in)
			if got != tc.want {
				t.Errorf("cleanModel(%+q) = %+q, want %+q", tc.in, got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("cleanModel(%+q) = %+q: not valid UTF-8", tc.in, got)
			}
		})
	}
}
