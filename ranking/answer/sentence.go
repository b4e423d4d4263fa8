package answer

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fromSentence reads an answer that is nothing but prose, when no other
// reading was found in it: "I'd go with X, then Y, and keep Z as a backup"
// names its picks in order as plainly as a list would. Every flight the
// prose names (every word that is a candidate's id or looks like a flight
// id) is a mention, and each mention is one of three things, decided by the
// words around it (see mentionOf):
//
//   - a pick: the words before it in its clause choose ("I'd go with",
//     "my pick is", "then", "followed by", "as a backup"), or, when nothing
//     but a joining word comes before it, its own clause does ("X is my top
//     choice"), or it continues a run of picks ("X, Y and Z");
//   - a rejection: the words before it in its clause turn it down ("over",
//     "not", "rather than", "avoid"), or a word of picking there or in its
//     own clause is qualified as a bad one ("X is a poor choice", "the
//     worst pick is X"): it is no pick, and says so;
//   - anything else: a mention in passing ("although Y has better times",
//     "I considered X", "if price matters, X"), and a word of picking
//     qualified in a way that may rank or may turn down ("X would be my
//     last choice", "the least … pick").
//
// The answer is read as a ranking of its picks, in the order named, only
// when it has at least one and no mention in passing: one mention whose
// role is unclear makes the whole answer unclear, and it is refused as
// before. A flight named again after it was picked is its reason being
// explained ("I'd go with X. X lands before noon."), not a second mention,
// and a sentence that picks most of the flights is an echo like any list.
// A pick's reason is what follows it in its clause, when that starts as a
// reason does ("because…", "for its…", "— cheapest nonstop").
//
// One pass over the words; at most maxEntries mentions are read.
func (p *parser) fromSentence(body string) (reading, bool) {
	type mention struct {
		id         string
		start, end int
	}
	var ms []mention
	for a, b := nextToken(body, 0); a >= 0 && len(ms) < maxEntries; a, b = nextToken(body, b) {
		if id, start, end, ok := p.idToken(body, a, b); ok {
			ms = append(ms, mention{id, start, end})
		}
	}
	if len(ms) == 0 {
		return reading{}, false
	}
	r := reading{kind: sentence}
	var turnedDown []string
	picked := make(map[string]bool)
	prev := passing
	for k, m := range ms {
		from, to := 0, len(body)
		if k > 0 {
			from = ms[k-1].end
		}
		if k+1 < len(ms) {
			to = ms[k+1].start
		}
		after := body[m.end:to]
		role := mentionOf(body[from:m.start], after, k > 0, len(r.entries) > 0, prev)
		key := looseKey(m.id)
		if i, ok := p.lookup(m.id); ok {
			key = p.ids[i]
		}
		switch {
		case picked[key] && role != rejected:
			continue // the pick explained
		case role == pick:
			picked[key] = true
			r.entries = append(r.entries, entry{id: m.id, hasID: true, reason: sentenceReason(after)})
		case role == passing:
			return reading{}, false
		default:
			turnedDown = append(turnedDown, m.id)
		}
		prev = role
	}
	if len(r.entries) == 0 {
		p.turnedDown = turnedDown
		return reading{}, false
	}
	// A sentence that names most of the flights has not chosen either.
	var kept []reading
	if p.keep(&kept, r); len(kept) == 0 {
		return reading{}, false
	}
	return kept[0], true
}

// role is what a mention of a flight in prose does.
type role int

const (
	passing role = iota
	pick
	rejected
)

// Words that decide a mention's role, in lower case. A word counts as a
// whole (split at anything but letters and digits: "runner-up" is "runner"
// and "up"); "n't" counts as a rejection wherever it appears.
var (
	pickWords = words(`pick picks picked choose chose chosen choice choices take book go recommend recommended
		recommendation recommendations suggest suggested suggestion prefer preferred preference opt best top
		favourite favorite winner bet select selected selection then next followed backup fallback
		alternative alternatively runner second third`)
	// They are also the words that turn down what a line or a JSON key
	// leads to (see rejecting).
	rejectWords = words(`not no never nor neither avoid avoided skip skipped over instead rather than except
		excluding exclude excluded without reject rejected rejects rejecting dismiss dismissed dont`)
	// passingWords make every mention in their sentence, up to it, one in
	// passing: contrasts, conditions and considerations.
	passingWords = words(`although though but however whereas while unless if whether either considered
		considering consider compared comparing versus vs depends depending looked`)
	// afterPickWords, in the clause after a mention, say it is a pick ("X
	// is my top choice"): the nouns and adjectives of picking, not its
	// verbs, which would be about what comes next ("X, or take Y").
	afterPickWords = words(`pick picks choice best top favourite favorite winner bet backup fallback alternative
		runner second third next recommendation recommended preferred selection`)
	// afterRejectWords, in the clause after a mention, turn it down ("X is
	// not my pick").
	afterRejectWords = words(`not no never nor neither avoid skip`)
	// badWords, among the maxQualifierWords words before a word of picking,
	// make it a bad pick, which is none: "a poor choice", "the worst pick".
	badWords = words(`poor poorer poorest bad worse worst weak weaker weakest terrible awful wrong`)
	// unclearWords, there, make it one that may rank or may turn down: "my
	// last choice" closes a ranking or dismisses a flight, "the least …
	// pick" is "least expensive" or "least attractive".
	unclearWords = words(`last least`)
	// joinWords join a mention to the one before it, or say nothing of it
	// ("and flight X"); conjunctions end a clause that joins one.
	joinWords    = words(`and or plus also with as well the a an flight flights option one number id`)
	conjunctions = words(`and or plus`)
	// reasonWords start a pick's reason.
	reasonWords = words(`because since for given thanks which`)
)

// rejecting reports whether the words that lead to a flight turn it down:
// a list item's words before its id ("- Avoid: <id>", "Not recommended:
// <id>"), a JSON key ("not_recommended", "worst"), the clause before a JSON
// value ("Do not choose {…}"). It holds a word of rejectWords or badWords,
// or a "n't"; a key written as one word ("notrecommended") counts when it
// is a word of rejectWords and a key of listKeys run together. These lead
// words are read without the rest of a sentence around them, so they
// refuse what they lead to rather than re-rank around it (see turnDown).
func rejecting(lead string) bool {
	if hasWord(lead, rejectWords) || hasWord(lead, badWords) || negated(lead) {
		return true
	}
	k := normKey(lead)
	for w := range rejectWords {
		if rest, ok := strings.CutPrefix(k, w); ok && slices.Contains(listKeys, rest) {
			return true
		}
	}
	return false
}

// keyWords is a JSON key as words: "notRecommended", "not_recommended" and
// "not-recommended" are all "not recommended".
func keyWords(k string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range k {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

func words(list string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

// mentionOf decides a mention's role from gap, the text since the previous
// mention (or the start), and after, the text up to the next one. later
// says a mention came before, prev is its role, and picked says a pick was
// made before it.
func mentionOf(gap, after string, later, picked bool, prev role) role {
	// The mention's own sentence, up to it. Before the first pick, a
	// sentence that weighs or conditions makes its mentions ones in passing
	// ("I considered X", "if price matters most, X"); after it, a condition
	// only introduces the alternatives ("if it sells out, Y is the next
	// best").
	sentence, ends := lastPart(gap, ".!?;\n")
	if !picked && hasWord(sentence, passingWords) {
		return passing
	}
	// The words before it in its clause.
	lead, _ := lastPart(sentence, ",()—–")
	if hasWord(lead, rejectWords) || negated(lead) {
		return rejected
	}
	if r, ok := pickingIn(lead, pickWords); ok {
		return r
	}
	// A clause that ends in "and" joins the mention to the one before it
	// ("Y for its times and Z").
	if w, at := lastWord(lead); conjunctions[w] {
		lead = lead[at:]
	}
	// Its own clause may say what it is ("X is my top choice", "with Y as
	// the runner-up", "and keep Z as a backup"), or, when nothing but
	// joining words come before it, it goes on from the mention before in
	// the same sentence ("X, Y and Z").
	// (A condition in that clause is about the pick, not a turn against it:
	// "Z if you don't mind a stop".)
	clause, _ := firstPart(after, ".!?;\n,(")
	clause = untilWord(clause, passingWords)
	turnedDown := hasWord(clause, afterRejectWords) || negated(clause)
	onlyJoins := !slices.ContainsFunc(splitWords(lead), func(w string) bool { return !joinWords[w] })
	if turnedDown {
		return passing
	}
	if r, ok := pickingIn(clause, afterPickWords); ok {
		return r
	}
	if onlyJoins && later && !ends {
		return prev
	}
	return passing
}

// maxQualifierWords is how many words before a word of picking can qualify
// it ("my last choice", "a really poor choice").
const maxQualifierWords = 2

// pickingIn reports whether s has a word of picking (one of set), and what
// it makes of the mention: a pick, unless one of the maxQualifierWords
// words before such a word makes it a bad pick (rejected: "a poor choice",
// "the worst pick of the lot") or one whose sense is unclear (passing: "my
// last choice"). An unclear qualifier anywhere in s outweighs a bad one,
// and a bad one a plain pick.
func pickingIn(s string, set map[string]bool) (role, bool) {
	ws := splitWords(s)
	found, bad, unclear := false, false, false
	for i, w := range ws {
		if !set[w] {
			continue
		}
		found = true
		for _, q := range ws[max(0, i-maxQualifierWords):i] {
			bad = bad || badWords[q]
			unclear = unclear || unclearWords[q]
		}
	}
	switch {
	case !found:
		return passing, false
	case unclear:
		return passing, true
	case bad:
		return rejected, true
	}
	return pick, true
}

// sentenceReason is a pick's reason in prose: the rest of its clause, when
// it starts as a reason does ("because it is the cheapest nonstop", "for
// its daytime departure", "— cheapest nonstop"), without a joining word at
// its end.
func sentenceReason(after string) string {
	clause, _ := firstPart(after, ".!?;\n,")
	t := strings.TrimSpace(clause)
	ws := splitWords(t)
	if len(ws) == 0 {
		return ""
	}
	if r := []rune(t)[0]; !strings.ContainsRune("—–-:(", r) && !reasonWords[ws[0]] {
		return ""
	}
	for {
		w, at := lastWord(t)
		if w == "" || !joinWords[w] && !pickWords[w] || at == 0 {
			break
		}
		t = strings.TrimSpace(t[:at])
	}
	return reasonText(strings.TrimRight(t, " —–-:,;"))
}

// lastPart is what follows the last of seps in s (all of s if none), and
// whether there was one.
func lastPart(s, seps string) (string, bool) {
	if i := strings.LastIndexAny(s, seps); i >= 0 {
		_, w := utf8.DecodeRuneInString(s[i:])
		return s[i+w:], true
	}
	return s, false
}

// lastWord is the last word of s, in lower case, and where it starts.
func lastWord(s string) (string, int) {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	end := len(s)
	for end > 0 {
		r, w := utf8.DecodeLastRuneInString(s[:end])
		if isWord(r) {
			break
		}
		end -= w
	}
	start := end
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(s[:start])
		if !isWord(r) {
			break
		}
		start -= w
	}
	return strings.ToLower(s[start:end]), start
}

// firstPart is what comes before the first of seps in s (all of s if
// none), and whether there was one.
func firstPart(s, seps string) (string, bool) {
	if i := strings.IndexAny(s, seps); i >= 0 {
		return s[:i], true
	}
	return s, false
}

// splitWords is s in lower case, split at anything but letters and digits.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// untilWord is s up to its first word in set (all of s if none).
func untilWord(s string, set map[string]bool) string {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isWord(r) {
			i += w
			continue
		}
		end := strings.IndexFunc(s[i:], func(r rune) bool { return !isWord(r) })
		if end < 0 {
			end = len(s) - i
		}
		if set[strings.ToLower(s[i:i+end])] {
			return s[:i]
		}
		i += end
	}
	return s
}

func hasWord(s string, set map[string]bool) bool {
	return slices.ContainsFunc(splitWords(s), func(w string) bool { return set[w] })
}

// negated reports whether s holds a "n't" (or "n’t").
func negated(s string) bool {
	low := strings.ToLower(s)
	return strings.Contains(low, "n't") || strings.Contains(low, "n’t")
}
