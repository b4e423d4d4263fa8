package fallback

import (
	"strings"
)

// clean makes untrusted text (a client's name, an error a client sent, a
// root's URI) safe to show in one line: no control characters, at most n
// bytes, never a broken UTF-8 sequence.
func Clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
