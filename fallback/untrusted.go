package fallback

import (
	"strings"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// Clean makes untrusted text (a client's name, an error a client sent, a
// root's URI) safe to show in one line: only the runes a person sees
// (untrusted.Line: no control or format characters, no bidi overrides, no
// zero-width or other invisible runes), white space as spaces, trimmed, at
// most n bytes with "…" after it when it was cut, and always valid UTF-8.
func Clean(s string, n int) string {
	s = strings.TrimSpace(untrusted.Line(s))
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
