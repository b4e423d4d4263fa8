// Package untrusted shows untrusted text (a caller's argument, an id a
// model made up) in a one-line message, so that a huge or hostile value
// cannot flood or break the message that echoes it. It is the one quoting
// that the packages refusing input share: flights' problems and the answer
// reader's refusals.
package untrusted

import (
	"strconv"
	"strings"
)

// MaxBytes is how much of a value Quote keeps, before its ellipsis.
const MaxBytes = 40

// Quote is s as a Go string literal ("…", escapes for control characters
// and invalid UTF-8), cut to its first MaxBytes bytes, never inside a UTF-8
// sequence, with "…" after it when it was cut.
func Quote(s string) string {
	if len(s) > MaxBytes {
		s = strings.ToValidUTF8(s[:MaxBytes], "") + "…"
	}
	return strconv.Quote(s)
}
