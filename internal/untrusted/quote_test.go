package untrusted

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "JFK-LHR-261215-K3M9P", `"JFK-LHR-261215-K3M9P"`},
		{"control characters escaped", "a\nb\x1b[31m", `"a\nb\x1b[31m"`},
		{"exactly the limit", strings.Repeat("x", MaxBytes), `"` + strings.Repeat("x", MaxBytes) + `"`},
		{"cut after the limit", strings.Repeat("x", MaxBytes+1), `"` + strings.Repeat("x", MaxBytes) + `…"`},
		{"never inside a rune", strings.Repeat("x", MaxBytes-1) + "é", `"` + strings.Repeat("x", MaxBytes-1) + `…"`},
		{"invalid UTF-8 escaped", "\xff", `"\xff"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}
