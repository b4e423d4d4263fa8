package answer

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// reasonText is the reason in what follows an id in a list: markdown
// emphasis and leading separators dropped, and a leading "Reason:" label.
func reasonText(s string) string {
	s = strings.TrimLeft(emphasis.Replace(s), " \t*_\"'”’)]:|,;.-–—→>")
	if k := strings.IndexByte(s, ':'); k > 0 && k < 16 && slices.Contains(reasonKeys, normKey(s[:k])) {
		s = s[k+1:]
	}
	return strings.TrimSpace(s)
}

var emphasis = strings.NewReplacer("**", "", "__", "", "`", "")

// joinReason adds more to a reason, after "; " unless the reason ends in
// punctuation already, as long as it could still show.
func joinReason(reason, more string) string {
	switch {
	case more == "" || len(reason) > 4*MaxReasonRunes:
		return reason
	case reason == "":
		return more
	case strings.ContainsAny(reason[len(reason)-1:], ".!?:;,"):
		return reason + " " + more
	}
	return reason + "; " + more
}

// MaxReasonRunes is the longest reason a pick carries, ellipsis included:
// CleanReason cuts a reason to it.
const MaxReasonRunes = 160

// CleanReason makes a model's reason fit one line for people: only what
// untrusted.Line keeps (runes a person sees; control and format characters,
// variation selectors and other invisible runes dropped), white space runs
// (newlines included) made one space, trimmed, and cut to MaxReasonRunes
// with an ellipsis. Invalid UTF-8 becomes U+FFFD.
func CleanReason(s string) string {
	s = strings.Join(strings.Fields(untrusted.Line(s)), " ")
	if utf8.RuneCountInString(s) <= MaxReasonRunes {
		return s
	}
	r := []rune(s)[:MaxReasonRunes-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}
