package llm

import (
	"slices"
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
// cases a key still leaks it); a shorter key counts only whole. Every
// string the endpoint supplies passes through this before it is kept: an
// answer, a model name, an error code. An empty key never matches, and
// nor does a placeholder (placeholderKeys).
//
// Any substring of key of length L >= minKeyFragment contains one of
// exactly minKeyFragment characters, so checking those windows suffices.
func containsKeyFragment(s, key string) bool {
	if key == "" || s == "" || slices.Contains(placeholderKeys, strings.ToLower(strings.TrimSpace(key))) {
		return false
	}
	s, key = strings.ToLower(s), strings.ToLower(key)
	if len(key) <= minKeyFragment {
		return strings.Contains(s, key)
	}
	for i := 0; i+minKeyFragment <= len(key); i++ {
		if strings.Contains(s, key[i:i+minKeyFragment]) {
			return true
		}
	}
	return false
}

// placeholderKeys are what people give a local server that checks no key
// when some client of theirs insists on one (this server does not: a base
// URL alone configures it). They are not secrets, and they are words an
// answer may well contain: guarding "none" would refuse every answer that
// says "none of these", and fall back for nothing. Any other key, however
// short, is guarded.
var placeholderKeys = []string{"none", "empty", "ollama", "lm-studio", "nokey", "no-key", "local"}

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
