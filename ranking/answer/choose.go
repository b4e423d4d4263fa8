package answer

import (
	"cmp"
	"slices"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// A reading is one list of picks found in the answer, before it is checked
// against the candidates.
type reading struct {
	kind    readingKind
	entries []entry
}

// readingKind is the shape a reading came from. When an answer holds several
// readings, the strongest kind decides (see choose).
type readingKind int

const (
	jsonKeyed  readingKind = iota // a list under a key such as "picks"; best plus alternatives
	jsonArray                     // a bare JSON array of ids or of entries
	jsonSingle                    // a bare JSON object that names one flight
	listRanked                    // a numbered list, or a markdown table
	listLoose                     // bullets, "Best: <id>" lines, lines that start with an id
	sentence                      // prose that names its picks (see fromSentence)
	verdicts                      // entries their own verdict turned down (see withoutTurned); set aside, never read
)

// entry is one pick as written: hasID is false when the entry gives no id
// as a string.
type entry struct {
	id, reason string
	hasID      bool
	turned     bool // a field beside the id turns the flight down (see verdictOf)
	place      int  // the place its label gives it: 1 "Best: <id>", 2 "Runner-up: <id>" (see placeOf); 0 none
	rank       float64
	hasRank    bool
}

// keep adds r to out unless it should be set aside: entries whose own
// verdict turns their flight down are set aside (see withoutTurned), and so
// are placeholders; a reading of nothing else is set aside, and so is an
// echo of the candidates. Entries that all carry a rank are put
// in its order (stable, so equal ranks keep the answer's order).
func (p *parser) keep(out *[]reading, r reading) {
	kept, ok := p.withoutTurned(r.entries)
	if !ok {
		return
	}
	kept, ok = p.withoutPlaceholders(kept)
	if !ok {
		return
	}
	if len(kept) > 0 && !slices.ContainsFunc(kept, func(e entry) bool { return !e.hasRank }) {
		slices.SortStableFunc(kept, func(a, b entry) int { return cmp.Compare(a.rank, b.rank) })
	}
	if p.echoes(kept) {
		return
	}
	r.entries = kept
	*out = append(*out, r)
}

// choose picks the reading that counts among those found at one level: the
// strongest kind present decides. Readings of the strongest kind must agree:
// each names the same flights in the same order as the longest, as far as it
// goes (a single "best" that is the ranking's first agrees with the ranking,
// and so do a top three and a full ranking that starts with them); the
// longest is then the reading. Bare objects and loose list items are taken
// together in the answer's order instead: one object a line is a list too.
// Readings of weaker kinds count for nothing, but must agree with the one
// that counts (see agrees), or the answer is refused: a bare ["<id>"] beside
// {"picks":[…]} that names another flight is another answer.
func (p *parser) choose(rs []reading) (reading, bool, error) {
	if len(rs) == 0 {
		return reading{}, false, nil
	}
	best := slices.MinFunc(rs, func(a, b reading) int { return cmp.Compare(a.kind, b.kind) }).kind
	var same, weaker []reading
	for _, r := range rs {
		if r.kind == best {
			same = append(same, r)
		} else {
			weaker = append(weaker, r)
		}
	}
	chosen, err := p.chooseAmong(best, same)
	if err != nil {
		return reading{}, false, err
	}
	want := p.signature(chosen)
	for _, r := range together(weaker) {
		if err := p.agrees(want, r, "in one list", "in another"); err != nil {
			return reading{}, false, err
		}
	}
	return p.withReasons(chosen, rs), true, nil
}

// chooseAmong is the reading that readings of one kind, same, give together
// (see choose).
func (p *parser) chooseAmong(kind readingKind, same []reading) (reading, error) {
	if loose(kind) {
		all := reading{kind: kind}
		for _, r := range same {
			all.entries = append(all.entries, r.entries...)
		}
		return p.byPlace(all)
	}
	chosen, first := same[0], p.signature(same[0])
	for _, r := range same[1:] {
		other := p.signature(r)
		k := 0
		for k < min(len(first), len(other)) && first[k] == other[k] {
			k++
		}
		switch {
		case k == len(other): // r agrees, and says no more
		case k == len(first): // r agrees, and goes on
			chosen, first = r, other
		default:
			return reading{}, answerErr("answer gives two lists of picks that disagree (pick %d is %s in one, %s in the other), so neither counts",
				k+1, sigAt(first, k), sigAt(other, k))
		}
	}
	return chosen, nil
}

// byPlace is r, loose items taken together, with those its labels give a
// place put in it: "- <id>: cheapest\n- <id>: fastest\nBest overall: <id>"
// picks the last first, and "Runner-up: <id>" is second wherever it
// stands. Two flights given one place, or one flight two places, are two
// answers, and refused.
func (p *parser) byPlace(r reading) (reading, error) {
	var placed []entry // by place, from 1
	for _, e := range r.entries {
		if e.place == 0 {
			continue
		}
		for len(placed) < e.place {
			placed = append(placed, entry{})
		}
		if o := placed[e.place-1]; o.place != 0 && p.canonical(o.id) != p.canonical(e.id) {
			return reading{}, answerErr("answer calls both %s and %s its %s, so the picks are unclear",
				untrusted.Quote(o.id), untrusted.Quote(e.id), placeName(e.place))
		}
		placed[e.place-1] = e
	}
	if len(placed) == 0 {
		return r, nil
	}
	for i, e := range placed {
		for _, o := range placed[i+1:] {
			if e.place != 0 && o.place != 0 && p.canonical(e.id) == p.canonical(o.id) {
				return reading{}, answerErr("answer calls %s both its %s and its %s, so the picks are unclear",
					untrusted.Quote(e.id), placeName(e.place), placeName(o.place))
			}
		}
	}
	// The placed entries where their labels say, the others in the
	// answer's order around them; a place past the end goes last.
	var rest []entry
	for _, e := range r.entries {
		if e.place == 0 {
			rest = append(rest, e)
		}
	}
	out := make([]entry, 0, len(r.entries))
	for _, e := range placed {
		for e.place > len(out)+1 && len(rest) > 0 {
			out, rest = append(out, rest[0]), rest[1:]
		}
		if e.place != 0 {
			out = append(out, e)
		}
	}
	r.entries = append(out, rest...)
	return r, nil
}

// canonical is the candidate's id that id names, or id itself when it
// names none.
func (p *parser) canonical(id string) string {
	if i, ok := p.lookup(id); ok {
		return p.ids[i]
	}
	return id
}

// loose reports whether readings of a kind are remarks taken together in
// the answer's order, not rankings of their own: bare JSON objects and
// loose list items.
func loose(kind readingKind) bool { return kind == jsonSingle || kind == listLoose }

// together is rs with the readings of each loose kind joined into one, in
// the answer's order, and the others as they are.
func together(rs []reading) []reading {
	var out []reading
	at := make(map[readingKind]int)
	for _, r := range rs {
		if !loose(r.kind) {
			out = append(out, r)
			continue
		}
		if k, ok := at[r.kind]; ok {
			out[k].entries = append(slices.Clip(out[k].entries), r.entries...)
			continue
		}
		at[r.kind] = len(out)
		out = append(out, r)
	}
	return out
}

// agrees refuses other, a reading found beside the one that counts, whose
// signature is want, when it names other picks. A ranking (a JSON list, a
// numbered list, a table) must name the same flights in the same order as
// far as the shorter goes: it restates the picks, or gives the top ones.
// Loose remarks (bare objects, bullets, labelled lines) must name only
// picks, in the picks' order: "Why: - <id>: nonstop - <id>: cheapest" under
// a ranking explains some of its picks; and one its label gives a place
// ("Best: <id>", "Runner-up: <id>"; see placeOf) must be the ranking's
// pick at that place. in and inOther name the two places for
// the error.
func (p *parser) agrees(want []string, other reading, in, inOther string) error {
	got := p.signature(other)
	if !loose(other.kind) {
		k := 0
		for k < min(len(want), len(got)) && want[k] == got[k] {
			k++
		}
		if k < min(len(want), len(got)) {
			return answerErr("answer names different flights %s and %s (pick %d is %s in one, %s in the other), so neither counts",
				in, inOther, k+1, sigAt(want, k), sigAt(got, k))
		}
		return nil
	}
	other, err := p.byPlace(other) // "Runner-up: B" before "Best: A" is in order
	if err != nil {
		return err
	}
	got = p.signature(other)
	for _, e := range other.entries {
		if e.place > 0 && e.place <= len(want) && p.canonical(e.id) != want[e.place-1] {
			return answerErr("answer calls %s its %s but ranks %s %s, so the picks are unclear",
				untrusted.Quote(e.id), placeName(e.place), sigAt(want, e.place-1), ordinals[e.place-1])
		}
	}
	at := 0
	for _, id := range got {
		if id == "" {
			continue
		}
		k := slices.Index(want[at:], id)
		switch {
		case k >= 0:
			at += k + 1
		case slices.Contains(want, id):
			return answerErr("answer names its picks in two orders (%s after %s %s, before it %s), so neither counts",
				untrusted.Quote(id), sigAt(want, at-1), in, inOther)
		default:
			return answerErr("answer names %s beside its picks but not among them, so the picks are unclear", untrusted.Quote(id))
		}
	}
	return nil
}

// withReasons is r with the reasons its entries lack taken from the other
// readings that agree with it: {"best":{"id":…,"reason":…},"ranking":[…]}
// is one reading, the ranking, and its first pick keeps the best's reason.
func (p *parser) withReasons(r reading, agreeing []reading) reading {
	if !slices.ContainsFunc(r.entries, func(e entry) bool { return e.reason == "" }) {
		return r
	}
	reasons := make(map[int]string)
	for _, o := range agreeing {
		for _, e := range o.entries[:min(len(o.entries), maxPicksRead)] {
			if i, ok := p.lookup(e.id); ok && e.hasID && e.reason != "" && reasons[i] == "" {
				reasons[i] = e.reason
			}
		}
	}
	entries := slices.Clone(r.entries)
	for k, e := range entries[:min(len(entries), maxPicksRead)] {
		if i, ok := p.lookup(e.id); ok && e.hasID && e.reason == "" {
			entries[k].reason = reasons[i]
		}
	}
	r.entries = entries
	return r
}

// sigAt names the kth entry of a signature for an error.
func sigAt(sig []string, k int) string {
	switch {
	case k >= len(sig):
		return "missing"
	case sig[k] == "":
		return "without an id"
	}
	return untrusted.Quote(sig[k])
}

// signature is what two readings must share to agree: the flights their
// first maxPicksRead entries name, in order, repeats dropped; an unknown id
// as written; "" for an entry with no id.
func (p *parser) signature(r reading) []string {
	var sig []string
	seen := make(map[int]bool)
	for _, e := range r.entries[:min(len(r.entries), maxPicksRead)] {
		i, ok := p.lookup(e.id)
		switch {
		case !e.hasID:
			sig = append(sig, "")
		case !ok:
			sig = append(sig, e.id)
		case !seen[i]:
			seen[i] = true
			sig = append(sig, p.ids[i])
		}
	}
	return sig
}

// turnDown sets aside r, what words of rejection led to (a list item led
// by "Avoid:", entries under a JSON key such as "not_recommended", a JSON
// value after "Do not choose"): its flights are no picks. The answer is
// then read without it, and checkTurned decides whether what is left
// counts.
func (p *parser) turnDown(r reading) {
	if len(p.turned) >= maxEntries {
		return
	}
	r.entries = r.entries[:min(len(r.entries), maxPicksRead)]
	p.turned = append(p.turned, r)
	for _, e := range r.entries {
		if e.hasID && len(p.turnedDown) < maxEntries {
			p.turnedDown = append(p.turnedDown, e.id)
		}
	}
}

// checkTurned refuses the reading that counts, r, when what was turned down
// makes it unclear: when r names a flight that was turned down (the answer
// both picks and rejects it), or when something was turned down in a
// reading at least as strong as r ("- Avoid: <id>" beside "- Best: <id>",
// {"avoid":{…},"first":{…}}, "Rejected: [<id>]" above a numbered list).
// Words of rejection read on a line's lead may also qualify a pick ("Best
// without a layover: <id>"), so dropping that line and keeping the rest
// would re-rank the answer on a guess; refusing it never guesses. A weaker
// remark beside a stronger reading that does not name the flight is
// consistent with it and does not refuse it ({"picks":[…]} and then "-
// Avoid: <id>, it has two stops").
func (p *parser) checkTurned(r reading) error {
	if len(p.turned) == 0 {
		return nil
	}
	picked := make(map[string]bool)
	for _, id := range p.signature(r) {
		picked[id] = true
	}
	for _, t := range p.turned {
		for _, id := range p.signature(t) {
			if id != "" && picked[id] {
				return answerErr("answer both picks and turns down %s, so it does not count", untrusted.Quote(id))
			}
		}
	}
	for _, t := range p.turned {
		if t.kind <= r.kind {
			return answerErr("answer turns down %s beside its picks, so the picks are unclear", listIDs(p.turnedDown))
		}
	}
	return nil
}

// listsAgree refuses a JSON reading, r, when the lists in the text outside
// the JSON (numbered lists, tables, loose items) name other picks (see
// agrees): a list that names different flights is another answer, and
// which the model meant is not for the reader to guess. Lists that agree
// give r the reasons it lacks.
func (p *parser) listsAgree(r reading, text string) (reading, error) {
	ranked, loose := p.lineReadings(text)
	want := p.signature(r)
	agreeing := []reading{r}
	for _, l := range append(ranked, loose) {
		var kept []reading
		if p.keep(&kept, l); len(kept) == 0 {
			continue
		}
		if err := p.agrees(want, kept[0], "in its JSON", "in its list"); err != nil {
			return reading{}, err
		}
		agreeing = append(agreeing, kept[0])
	}
	return p.withReasons(r, agreeing), nil
}

// outside is text with the spans blanked out, its line breaks kept.
func outside(text string, spans [][2]int) string {
	if len(spans) == 0 {
		return text
	}
	b := []byte(text)
	for _, sp := range spans {
		for i := max(0, sp[0]); i < min(len(b), sp[1]); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}
