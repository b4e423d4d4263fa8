// Package untrusted shows untrusted text (a caller's argument, an id a
// model made up, a client's model name, a model's reason) in one line, so
// that a huge or hostile value cannot flood or break the message that
// echoes it, nor carry what no person sees. It is what the packages
// refusing or showing such text share: Quote, the quoting of flights'
// problems and the answer reader's refusals; and Visible, Mark and Line,
// the one rule for which runes a person can see (visible.go), which the
// answer reader's reasons and fields, the fallback's client text, the LLM
// client's model name and the passenger's name all keep to. It imports
// nothing of the project.
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
