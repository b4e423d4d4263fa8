package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// lookup finds the candidate an id names (see idIndex), also when the model
// wrapped the id in quotes (ASCII or typographic), backticks, asterisks or
// brackets. Failing that, an id given with more words than the id (a JSON
// value such as "<id>." or "<id> (BA 117)") names the candidate its one
// flight id names: the value must hold exactly one word that is id-like
// (see idToken), and that word must name a candidate.
func (p *parser) lookup(id string) (int, bool) {
	if i, ok := p.idx.lookup(id); ok {
		return i, true
	}
	if bare := strings.Trim(id, "`*\"' []<>“”‘’„"); bare != id && bare != "" {
		if i, ok := p.idx.lookup(bare); ok {
			return i, true
		}
	}
	return p.lookupWord(id)
}

// lookupWord finds the candidate named by the only id-like word in s.
func (p *parser) lookupWord(s string) (int, bool) {
	found := ""
	for a, b := nextToken(s, 0); a >= 0; a, b = nextToken(s, b) {
		w, _, _, ok := p.idToken(s, a, b)
		switch {
		case !ok:
			continue
		case found != "":
			return 0, false // two flights named: neither is the id
		}
		found = w
	}
	if found == "" || found == s {
		return 0, false
	}
	return p.candidate(found)
}

// nextToken finds the next word in s at or after i: a run of letters,
// digits and "-_.", which is what flight ids are made of. It returns -1, -1
// when there is none.
func nextToken(s string, i int) (start, end int) {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if isIDRune(r) {
			break
		}
		i += w
	}
	if i >= len(s) {
		return -1, -1
	}
	j := i
	for j < len(s) {
		r, w := utf8.DecodeRuneInString(s[j:])
		if !isIDRune(r) {
			break
		}
		j += w
	}
	return i, j
}

func isIDRune(r rune) bool {
	return r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// idToken reports whether the word s[a:b] is id-like (see idLike), as it
// is or once stray dots, dashes and underscores are trimmed from its ends
// ("<id>." at the end of a sentence), and returns the id and where it is.
func (p *parser) idToken(s string, a, b int) (string, int, int, bool) {
	raw := s[a:b]
	if _, ok := p.candidate(raw); ok {
		return raw, a, b, true
	}
	w := strings.TrimLeft(raw, "-_.")
	a += len(raw) - len(w)
	w = strings.TrimRight(w, "-_.")
	if _, ok := p.candidate(w); (ok || idShaped(w)) && w != "" {
		return w, a, a + len(w), true
	}
	return "", 0, 0, false
}

// idLike reports whether a word is a flight id: a candidate's (see
// idIndex), or one that looks like one, so that a made-up id in a list is
// caught as unknown rather than taken for a word: at least 8 characters,
// two letters, two digits and a '-' or '_'.
func (p *parser) idLike(w string) bool {
	_, ok := p.candidate(w)
	return ok || idShaped(w)
}

func idShaped(w string) bool {
	if len(w) < 8 || len(w) > maxTokenBytes {
		return false
	}
	letters, digits, seps := 0, 0, 0
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case r == '-' || r == '_':
			seps++
		}
	}
	return letters >= 2 && digits >= 2 && seps > 0
}

// candidate finds the candidate a word names.
func (p *parser) candidate(w string) (int, bool) {
	if len(w) > maxTokenBytes {
		return 0, false
	}
	return p.idx.lookup(w)
}

// idIndex finds candidates by the ids a model gives.
type idIndex struct {
	exact map[string]int
	// loose maps looseKey(id) to a candidate, or to -1 when several
	// candidates share the key.
	loose map[string]int
}

func newIDIndex(ids []string) idIndex {
	x := idIndex{exact: make(map[string]int, len(ids)), loose: make(map[string]int, len(ids))}
	for i, id := range ids {
		if _, dup := x.exact[id]; !dup {
			x.exact[id] = i
		}
		k := looseKey(id)
		if _, dup := x.loose[k]; dup {
			x.loose[k] = -1
		} else {
			x.loose[k] = i
		}
	}
	return x
}

func (x idIndex) lookup(id string) (int, bool) {
	if i, ok := x.exact[id]; ok {
		return i, true
	}
	i, ok := x.loose[looseKey(id)]
	return i, ok && i >= 0
}

// looseKey is an id as the prompt shows it, in lower case.
func looseKey(id string) string {
	return strings.ToLower(CleanField(strings.TrimSpace(id), MaxIDRunes))
}

// unknownIDs is the error for ids that name no candidate: at most
// maxUnknownListed of them, each quoted and shortened by flights.Quote.
func unknownIDs(ids []string) *Error {
	if len(ids) == 1 {
		return answerErr("answer named an unknown flight id: %s", untrusted.Quote(ids[0]))
	}
	return answerErr("answer named unknown flight ids: %s", listIDs(ids))
}
