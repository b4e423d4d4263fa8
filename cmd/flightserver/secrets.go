package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A secret copied from a template instead of generated is worse than none:
// the server starts, the log says a token is required, and anyone who has
// read the template (a README, a manifest's comment) knows it.
// placeholderReason says why value looks like such a placeholder, in a
// fixed vocabulary that never quotes the value, or "" when it does not.
//
// The rules are chosen so that a generated secret cannot trip them: a hex
// string (openssl rand -hex 32) has none of these words' letters, and in a
// random base64 string the short words would have to stand alone between
// non-letters, which is a chance of about one in a billion.
func placeholderReason(value string) string {
	v := strings.ToLower(strings.TrimSpace(value))
	if v == "" {
		return ""
	}
	for _, word := range placeholderWords {
		if strings.Contains(v, word) {
			return fmt.Sprintf("it contains %q", word)
		}
	}
	if m := placeholderWord.FindStringSubmatch(v); m != nil {
		return fmt.Sprintf("it contains the word %q", m[2])
	}
	if strings.Contains(v, "...") || strings.Contains(v, "…") {
		// "sk-...": a template's way of leaving the value out. No
		// generated key has dots (hex, base64 and provider keys alike).
		return "it has an ellipsis (...) where the value was left out"
	}
	// A provider's key prefix with nothing real after it: "sk-", "sk-xxxx".
	for _, prefix := range keyPrefixes {
		if rest, ok := strings.CutPrefix(v, prefix); ok && strings.Trim(rest, "x-_* ") == "" {
			return "it is a provider's key prefix with no key after it"
		}
	}
	switch {
	case strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"):
		return "it is a <...> placeholder"
	case strings.HasPrefix(v, "${") || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "{{"):
		return "it is a variable or template that was never expanded"
	case strings.Trim(v, "x-_ ") == "" || strings.HasPrefix(v, "xxx"):
		return "it is a row of x's"
	case strings.Count(v, v[:1]) == len(v) && strings.Contains(fillers, v[:1]):
		return "it is one character repeated"
	}
	return ""
}

// placeholderWords appear in templates and never in a generated secret.
var placeholderWords = []string{
	"replace", "changeme", "change-me", "change_me", "change me", "placeholder",
	"example", "openssl rand", "your-", "your_", "your ", "insert-", "insert ",
	"secret-here", "token-here", "key-here",
}

// keyPrefixes start providers' API keys; longest first.
var keyPrefixes = []string{"sk-proj-", "sk-ant-", "sk-"}

// fillers are the characters a row of which stands in for a secret
// ("0000…", "ffff…", "****…"). (A row of any other one character is no
// secret either, but deploy's tests use one as a throwaway key.)
const fillers = "01afxz*#.-_?"

// placeholderWord matches short template words only when they stand alone,
// so that a random base64 secret containing "todo" mid-string still passes.
var placeholderWord = regexp.MustCompile(`(^|[^a-z])(todo|fixme|tbd|redacted|dummy|sample)([^a-z]|$)`)

// checkSecret refuses a placeholder given for a secret flag, naming where it
// came from (the flag or its variable) and never what it was.
func checkSecret(source, value string) error {
	if why := placeholderReason(value); why != "" {
		return fmt.Errorf("%s looks like a placeholder, not a secret (%s): generate a real one, e.g. `openssl rand -hex 32` (for --llm-api-key, the provider's key; a local endpoint that needs none takes no key: set --llm-base-url alone)", source, why)
	}
	return nil
}
