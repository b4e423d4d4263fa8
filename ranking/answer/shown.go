package answer

import (
	"strings"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// What a prompt shows a model, as far as the reader depends on it: the
// prompt puts its candidates between the lines DataOpen and DataClose, each
// value cleaned by CleanField, ids cut to MaxIDRunes. The reader matches an
// id as the prompt showed it (see Parse) and refuses an answer that repeats
// the block, so a prompt the reader reads answers to writes its data with
// these.
const (
	DataOpen  = "<flights>"
	DataClose = "</flights>"
	// MaxIDRunes caps an id a prompt shows, in runes. Real ids are 20 runes;
	// the cap only bounds what a broken or hostile provider could put in
	// the prompt.
	MaxIDRunes = 64
)

// CleanField makes a value from flight data safe for one column of one data
// line: it keeps only what untrusted.Line keeps (runes a person sees, marks
// on the letter they follow) other than spaces, the separators ("|", "+",
// ",", ":") and '<' and '>', and at most max of them. Newlines, control and
// format characters (zero-width, bidi overrides), variation selectors and
// other invisible runes are dropped, so the value can neither end its line
// nor close the data block, nor carry text no person sees. Invalid UTF-8
// becomes U+FFFD.
func CleanField(s string, max int) string {
	ok := func(r rune) bool {
		return r != ' ' && !strings.ContainsRune("|+,:<>", r)
	}
	if len(s) <= max && isASCIIAll(s, func(r rune) bool { return r > ' ' && r < 0x7f && ok(r) }) {
		return s // the usual case: nothing to do
	}
	var b strings.Builder
	n := 0
	for _, r := range untrusted.Line(s) {
		if n == max {
			break
		}
		if ok(r) {
			b.WriteRune(r)
			n++
		}
	}
	return b.String()
}

// isASCIIAll reports whether s is all ASCII and every byte passes ok.
func isASCIIAll(s string, ok func(rune) bool) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf || !ok(rune(s[i])) {
			return false
		}
	}
	return true
}
