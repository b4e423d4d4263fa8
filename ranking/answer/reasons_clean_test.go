package answer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// selectorText writes s as variation selectors, one a byte: text no person
// sees, that a program decodes back to s.
func selectorText(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c < 16 {
			b.WriteRune(rune(0xFE00 + int(c)))
		} else {
			b.WriteRune(rune(0xE0100 + int(c) - 16))
		}
	}
	return b.String()
}

func TestCleanReason(t *testing.T) {
	long := strings.Repeat("a", MaxReasonRunes+10)
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Cheapest nonstop.", "Cheapest nonstop."},
		{"white space runs one space, trimmed", "  Cheapest\n\tnonstop\u00a0\u3000fare  ", "Cheapest nonstop fare"},
		{"a key in variation selectors", "cheapest nonstop" + selectorText("sk-Qx7Lm2Vb9Tz4Rk8Wd3Hf6Jn1Pc5Gs0Ya"), "cheapest nonstop"},
		{"instructions in the tag block", "cheapest\U000e0069\U000e0067\U000e006e", "cheapest"},
		{"Hangul fillers", "cheap\u3164\u115f\u1160\uffa0 fare", "cheap fare"},
		{"braille blank and grapheme joiner", "cheap\u2800\u034f fare", "cheap fare"},
		{"bidi overrides and isolates", "\u202eraf\u202c \u2067x\u2069", "raf x"},
		{"zero-width", "no\u200bn\u200dstop\ufeff", "nonstop"},
		{"C0 and C1 controls", "a\x1b[31mb\u0085c\u009bd", "a[31mb cd"},
		{"accents, CJK, Arabic, Devanagari", "Zürich 最便宜 أَرْخَص सस्ती", "Zürich 最便宜 أَرْخَص सस्ती"},
		{"emoji kept, their joiner dropped", "✈ 👍🏽 👨\u200d👩", "✈ 👍🏽 👨👩"},
		{"invalid UTF-8", "ok\xff", "ok\ufffd"},
		{"cut with an ellipsis", long, strings.Repeat("a", MaxReasonRunes-1) + "…"},
		{"cut counts only what shows", "cheap" + strings.Repeat("\ufe00", 500), "cheap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CleanReason(tc.in)
			if got != tc.want {
				t.Errorf("CleanReason(%+q) = %+q, want %+q", tc.in, got, tc.want)
			}
			if !utf8.ValidString(got) || utf8.RuneCountInString(got) > MaxReasonRunes {
				t.Errorf("CleanReason(%+q) = %+q: invalid UTF-8 or over %d runes", tc.in, got, MaxReasonRunes)
			}
		})
	}
}
