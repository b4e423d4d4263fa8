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
