package answer

import (
	"strings"
	"testing"
)

func TestCleanField(t *testing.T) {
	if got := CleanField("JFK-LHR-261215-K3M9P", MaxIDRunes); got != "JFK-LHR-261215-K3M9P" {
		t.Errorf("a real id became %q", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"BA", "BA"},
		{" B A ", "BA"},
		{"a|b+c,d:e<f>g", "abcdefg"},
		{"Zürich\u200b", "Zürich"},
		{"\xff\xfeok", "\ufffd\ufffdok"},
		{strings.Repeat("x", 100), strings.Repeat("x", 12)},
		{strings.Repeat("é", 100), strings.Repeat("é", 12)},
	} {
		if got := CleanField(tc.in, 12); got != tc.want {
			t.Errorf("CleanField(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// No invisible rune gets into a field: what a prompt shows a model is
// what a person reading the prompt sees.
func TestCleanFieldDropsInvisibleRunes(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"variation selectors", "BA\ufe00\ufe0f\U000e0100\U000e01ef", "BA"},
		{"tag block", "BA\U000e0041\U000e0042", "BA"},
		{"Hangul fillers", "B\u3164A\u115f\u1160\uffa0", "BA"},
		{"braille blank, grapheme joiner", "B\u2800A\u034f", "BA"},
		{"bidi and C1 controls", "\u202eBA\u202c\u0085\u009b", "BA"},
		{"combining mark on its letter kept", "Cafe\u0301", "Cafe\u0301"},
		{"combining mark after a separator dropped", "a|\u0301b", "ab"},
		{"Devanagari kept", "दिल्ली", "दिल्ली"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CleanField(tc.in, 12); got != tc.want {
				t.Errorf("CleanField(%+q) = %+q, want %+q", tc.in, got, tc.want)
			}
		})
	}
}
