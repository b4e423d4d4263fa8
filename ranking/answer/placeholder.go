package answer

import (
	"strings"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// A placeholder is the prompt's example copied instead of a value: an id
// such as "<flight id exactly as given>", a reason such as "<under 15
// words>". A placeholder reason is no reason; a placeholder id is dropped
// from its list, and a list of nothing else is set aside (a real answer
// next to it still counts); an answer that holds nothing else is refused
// with placeholderRefusal.

// isPlaceholder reports whether s is a placeholder rather than a value:
// "<flight id exactly as given>", "[id]", "...", "…".
func isPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if len(s) >= 2 && (s[0] == '<' && s[len(s)-1] == '>' || s[0] == '[' && s[len(s)-1] == ']') {
		return true
	}
	return strings.Trim(s, ".… ") == ""
}

// withoutPlaceholders is entries without those whose id is a placeholder
// (an id a candidate has is never one), remembering the first such id; ok
// is false when entries held nothing else.
func (p *parser) withoutPlaceholders(entries []entry) (kept []entry, ok bool) {
	kept = make([]entry, 0, len(entries))
	for _, e := range entries {
		if _, known := p.lookup(e.id); e.hasID && !known && isPlaceholder(e.id) {
			if p.placeholder == "" {
				p.placeholder = e.id
			}
			continue
		}
		kept = append(kept, e)
	}
	return kept, len(kept) > 0 || len(entries) == 0
}

// copiesExample reports whether an answer's text holds the prompt's
// example id, though no list of picks held it.
func copiesExample(body string) bool {
	return strings.Contains(asciiLower(body), "flight id exactly as given")
}

// placeholderRefusal is the error for an answer whose only picks were
// placeholders, or that copies the prompt's example and has no picks.
func (p *parser) placeholderRefusal() *Error {
	if p.placeholder != "" {
		return answerErr("answer copies the example from the prompt (%s) instead of naming flights", untrusted.Quote(p.placeholder))
	}
	return answerErr("answer copies the example from the prompt instead of naming flights")
}
