package llm

import (
	"strings"
	"unicode"
)

// minKeyFragment is the shortest piece of the API key that counts as a
// leak. Eight characters of a random key are about 48 bits of it: enough to
// help someone guessing the rest, and far too many to turn up by chance in
// an answer, a model name or an error code. (A key's fixed prefix, such as
// "sk-proj-", counts too: an endpoint has no business saying it.)
const minKeyFragment = 8

// containsKeyFragment reports whether s holds any piece of key at least
// minKeyFragment characters long, ignoring case (an endpoint that upper-
// cases a key still leaks it). Every string the endpoint supplies passes
// through this before it is kept: an answer, a model name, an error code.
//
// A key shorter than minKeyFragment is not a secret and never matches: no
// provider issues one, and it is what local servers that check no key are
// given to satisfy clients that insist on one ("none", "EMPTY", "ollama").
// Guarding it would refuse every answer that says "none of these", and
// fall back for nothing. An empty key never matches either.
//
// Any substring of key of length L >= minKeyFragment contains one of
// exactly minKeyFragment characters, so checking those windows suffices.
func containsKeyFragment(s, key string) bool {
	if key == "" || s == "" {
		return false
	}
	s, key = strings.ToLower(s), strings.ToLower(key)
	if len(key) < minKeyFragment {
		return false
	}
	for i := 0; i+minKeyFragment <= len(key); i++ {
		if strings.Contains(s, key[i:i+minKeyFragment]) {
			return true
		}
	}
	return false
}

// cleanModel is the model name the endpoint reports, cleaned to one short
// printable word (at most maxModelRunes runes, no spaces or control
// characters); "" if nothing is left.
func cleanModel(m string) string {
	var b strings.Builder
	k := 0
	for _, r := range m {
		if k == maxModelRunes {
			break
		}
		if unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
			k++
		}
	}
	return b.String()
}
