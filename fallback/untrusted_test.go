package fallback

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// What a client sends (its model's name, its errors, its roots' URIs) is
// shown back as a person would read it: nothing hidden in it survives.
func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"plain", "claude-sonnet-4", 40, "claude-sonnet-4"},
		{"controls as spaces are gone, white space a space, trimmed", " a\tb\nc\x1b[31m ", 40, "a b c[31m"},
		{"C1 controls", "a\u0080b\u009bc\u009f", 40, "abc"},
		{"bidi overrides and isolates", "file:///\u202etxt.exe\u202c\u2066\u2069", 40, "file:///txt.exe"},
		{"zero-width", "gp\u200bt\u200c-\u200d4\ufeff\u200e\u200f", 40, "gpt-4"},
		{"variation selectors", "gpt-4\ufe00\U000e0100\U000e01ef", 40, "gpt-4"},
		{"tag block", "gpt-4\U000e0069\U000e0067", 40, "gpt-4"},
		{"Hangul fillers, braille blank, grapheme joiner", "gpt\u3164\u115f\u1160\uffa0\u2800\u034f-4", 40, "gpt-4"},
		{"accents, CJK, Arabic, Devanagari", "Zürich 東京 القاهرة दिल्ली", 80, "Zürich 東京 القاهرة दिल्ली"},
		{"invalid UTF-8 uncut", "ok\xff\xfe", 40, "ok\ufffd\ufffd"},
		{"cut at n bytes with an ellipsis", strings.Repeat("x", 50), 10, strings.Repeat("x", 10) + "…"},
		{"cut never inside a rune", "xxxxxxxxxé", 10, "xxxxxxxxx…"},
		{"invisible runes do not count towards n", "gpt-4" + strings.Repeat("\ufe0f", 100), 10, "gpt-4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Clean(tc.in, tc.n)
			if got != tc.want {
				t.Errorf("Clean(%+q, %d) = %+q, want %+q", tc.in, tc.n, got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("Clean(%+q, %d) = %+q: not valid UTF-8", tc.in, tc.n, got)
			}
		})
	}
}
