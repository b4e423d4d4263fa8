package answer

import (
	"slices"
	"strings"
)

// An entry's verdict is what it says of its own flight: the whole first
// clause of its reason ("<id>: not recommended", "3. <id> — avoid",
// "| <id> | Don't book this one |") or a field beside its id
// ({"id":…,"recommended":false}, {"id":…,"verdict":"avoid"}). An entry whose
// verdict turns its flight down is no pick: keep drops it from its reading
// and sets it aside (see turnDown), so the answer counts with its other
// picks, and is refused when it names that flight as a pick elsewhere or
// picks nothing else. Unlike the words that lead to an id ("Best without a
// layover: <id>"), a verdict qualifies nothing, so dropping its entry is no
// guess; to stay so, a verdict is one of a few plain phrases, and a reason
// that merely starts with a negative ("no layovers", "not the cheapest,
// but…", "avoids the red-eye", "don't mind the early start") is none.

// maxVerdictBytes is how much of a reason is read for its verdict.
const maxVerdictBytes = 160

var (
	// verdictWords turn a flight down as a clause's first word when the
	// rest of the clause only points at the flight ("avoid", "skip this
	// one", "worst of all").
	verdictWords = words(`avoid skip reject rejected exclude excluded dismiss dismissed worst`)
	// pointingWords may follow a verdict word or a bad noun in its clause.
	pointingWords = words(`this that it one flight option choice pick the a an of all entirely altogether
		completely overall here`)
	// notVerdicts follow "not" at the start of a clause to turn a flight
	// down, whatever comes after ("not recommended unless…", "not worth
	// the fare").
	notVerdicts = words(`recommended advised advisable suggested worth`)
	// badNouns, after "not a good" or "a poor", are the flight as a pick:
	// "not a good choice", "a poor option". (Not "value": "poor value, but
	// the only nonstop" ranks it.)
	badNouns = words(`choice pick option idea fit`)
	// negatedVerbs, after "don't", "do not" or "never", are picking it:
	// "don't book this one", "never take it".
	negatedVerbs = words(`book choose pick take fly recommend select buy`)
	// verdictFalseKeys hold whether the entry is a pick; false (or "no")
	// turns it down. Keys are normalised (normKey).
	verdictFalseKeys = []string{"recommended", "recommend", "pick", "picked", "chosen", "selected", "book", "ok", "good"}
	// verdictTextKeys hold a verdict in words: {"verdict":"avoid"}.
	verdictTextKeys = []string{"verdict", "recommendation", "decision", "status", "action"}
)

// verdictOf reports whether an object entry's fields turn its flight
// down: one of verdictFalseKeys false or "no", or one of verdictTextKeys
// holding a verdict (see turnsDown). o's keys are normalised.
func verdictOf(o map[string]any) bool {
	for _, k := range verdictFalseKeys {
		switch v := o[k].(type) {
		case bool:
			if !v {
				return true
			}
		case string:
			if s := strings.ToLower(strings.TrimSpace(v)); s == "no" || s == "false" {
				return true
			}
		}
	}
	for _, k := range verdictTextKeys {
		if s, ok := o[k].(string); ok && turnsDown(s) {
			return true
		}
	}
	return false
}

// turnsDown reports whether a reason's first clause is a verdict against
// its flight (see the top of this file).
func turnsDown(reason string) bool {
	if len(reason) > maxVerdictBytes {
		reason = reason[:maxVerdictBytes]
	}
	clause, _ := firstPart(strings.TrimLeft(reason, " \t*_\"'“‘(["), ".,;:!?()[]—–|\n")
	if i := strings.Index(clause, " - "); i >= 0 {
		clause = clause[:i]
	}
	ws := splitWords(strings.ReplaceAll(strings.ReplaceAll(clause, "n't", " not"), "n’t", " not"))
	if len(ws) == 0 {
		return false
	}
	pointing := func(rest []string) bool {
		return !slices.ContainsFunc(rest, func(w string) bool { return !pointingWords[w] })
	}
	switch w := ws[0]; {
	case verdictWords[w]:
		return pointing(ws[1:])
	case w == "a" || w == "the":
		// "a poor choice", "the worst option"
		return len(ws) >= 3 && (badWords[ws[1]] && badNouns[ws[2]] || verdictWords[ws[1]]) && pointing(ws[3:]) ||
			len(ws) == 2 && verdictWords[ws[1]]
	case badWords[w]:
		return len(ws) >= 2 && badNouns[ws[1]] && pointing(ws[2:])
	case w == "dont" || w == "never" || w == "do" || w == "would":
		// "don't book", "do not choose", "never take it", "wouldn't book it"
		rest := ws[1:]
		if len(rest) > 0 && rest[0] == "not" {
			rest = rest[1:]
		} else if w == "do" || w == "would" {
			return false
		}
		return len(rest) > 0 && negatedVerbs[rest[0]]
	case w == "not":
		if len(ws) >= 2 && notVerdicts[ws[1]] {
			return true
		}
		// "not a good choice for families", "not a pick": as with
		// notVerdicts, what follows only says for whom.
		rest := ws[1:]
		if len(rest) > 0 && (rest[0] == "a" || rest[0] == "an" || rest[0] == "my") {
			rest = rest[1:]
		}
		if len(rest) > 0 && (rest[0] == "good" || rest[0] == "great") {
			rest = rest[1:]
		}
		return len(rest) > 0 && badNouns[rest[0]]
	}
	return false
}

// withoutTurned splits off the entries whose verdict turns their flight
// down (e.turned, or a reason that turnsDown) and sets them aside as turned
// down (see turnDown); ok is false when every entry was so set aside.
func (p *parser) withoutTurned(entries []entry) (kept []entry, ok bool) {
	var turned reading
	turned.kind = verdicts
	for _, e := range entries {
		if e.hasID && (e.turned || turnsDown(e.reason)) {
			turned.entries = append(turned.entries, e)
			continue
		}
		kept = append(kept, e)
	}
	if len(turned.entries) == 0 {
		return entries, true
	}
	p.turnDown(turned)
	return kept, len(kept) > 0
}
