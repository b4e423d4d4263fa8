package answer

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Keys Parse knows, normalised by normKey ("Flight ID", "flight_id"
// and "flightId" are all "flightid"), each list in the order tried.
var (
	// listKeys hold the list of picks, or the one best pick.
	listKeys = []string{
		"picks", "pick", "toppicks", "ranking", "rankings", "ranked", "rankedflights",
		"recommendations", "recommendation", "recommended", "recommendedflights",
		"choices", "choice", "flights", "results", "result", "top", "top3", "topflights",
		"selected", "selection", "selections", "selectedflights", "options",
		"best", "bestpick", "bestflight", "bestoption", "bestchoice", "toppick", "topchoice",
		"winner", "final", "finalpicks", "finalranking", "finalanswer", "answer",
	}
	// altKeys hold the picks after the best one.
	altKeys = []string{
		"second", "secondbest", "secondchoice", "runnerup", "runnersup", "third", "thirdbest",
		"alternatives", "alternative", "alternates", "others", "other", "backups", "backup",
	}
	idKeys     = []string{"id", "flightid", "flight", "code", "flightcode"}
	reasonKeys = []string{"reason", "why", "explanation", "rationale", "justification", "reasoning", "reasons", "comment", "note", "notes"}
	rankKeys   = []string{"rank", "position", "pos", "place", "order", "ranking"}
)

// fromJSON finds the answer's JSON readings: those inside code fences if
// any, else those in the whole text; choose then decides.
func (p *parser) fromJSON(body string) (reading, bool, error) {
	return p.choose(p.jsonIn(body, 0))
}

// jsonIn collects the JSON readings of text, in its code fences if they
// hold any, else in the whole text; encoded is how many times text was
// itself a string inside an answer (see jsonReadings). Where the answer's
// body (encoded 0) held the values decoded is kept in p.jsonSpans.
func (p *parser) jsonIn(text string, encoded int) []reading {
	var rs []reading
	for _, f := range fenceSpans(text) {
		rs = append(rs, p.jsonReadings(text[f[0]:f[1]], encoded, f[0])...)
	}
	if len(rs) == 0 {
		rs = p.jsonReadings(text, encoded, 0)
	}
	return rs
}

// jsonReadings decodes JSON from each '{' or '[' of text in turn that could
// start an object or a list of strings or objects (a quote, a letter or a
// '{' follows it), while decode attempts are left, and collects the readings
// in each value decoded. A value decoded is skipped whole, so a list inside
// an object that is not an answer is not read on its own. Where a value
// does not decode, the next bracket is tried, which may be inside it; but
// inside it only keyed lists count: a bare entry or list there is a piece
// of something broken (a cut-off answer, a list of flights considered).
//
// A JSON string whose content starts like JSON or a code fence
// ("{\"picks\":…}": an answer encoded twice, as tool arguments and some
// APIs return it) is read for what it holds, at most maxEncodings deep, and
// each counts as a decode attempt.
//
// A bare entry or list that words of rejection lead to in its clause ("Do
// not choose {…}", "Rejected: […]") is turned down (see turnDown), not
// read; a keyed list is the answer asked for, whatever comes before it (a
// "No" there may be the end of a sentence the reading cut short). base is
// where text starts in the answer's body.
func (p *parser) jsonReadings(text string, encoded, base int) []reading {
	var rs []reading
	broken := 0 // text[:broken] is inside a value that did not decode
	last := 0   // where the last value decoded ends
	for i := 0; p.budget > 0; {
		j := strings.IndexAny(text[i:], "{[\"")
		if j < 0 {
			break
		}
		i += j
		if text[i] == '"' {
			if encoded >= maxEncodings || !encodedStart(text[i+1:]) {
				i++
				continue
			}
			p.budget--
			content, n, ok := decodeString(text[i:])
			if !ok {
				i++
				continue
			}
			for _, r := range p.jsonIn(content, encoded+1) {
				if r.kind == jsonKeyed || i >= broken {
					rs = append(rs, r)
				}
			}
			p.decoded(encoded, base+i, base+i+n)
			i += n
			last = i
			continue
		}
		if !couldStart(text[i:]) {
			i++
			continue
		}
		p.budget--
		v, n, ok := decodeAt(text[i:])
		if !ok {
			broken = max(broken, i+n)
			i++
			continue
		}
		var found []reading
		p.fromValue(v, &found, i < broken)
		lead, _ := lastPart(text[last:i], ".!?;\n")
		turned := rejecting(lastClause(lead))
		for _, r := range found {
			if turned && r.kind != jsonKeyed {
				p.turnDown(r)
			} else {
				rs = append(rs, r)
			}
		}
		p.decoded(encoded, base+i, base+i+n)
		i += n
		last = i
	}
	return rs
}

// lastClause is the clause of s that runs to its end.
func lastClause(s string) string {
	c, _ := lastPart(s, ",()—–")
	return c
}

// decoded notes where a value of the answer's body (encoded 0) decoded.
func (p *parser) decoded(encoded, from, to int) {
	if encoded == 0 && len(p.jsonSpans) < maxDecodeAttempts {
		p.jsonSpans = append(p.jsonSpans, [2]int{from, to})
	}
}

// fromValue collects the readings in a decoded value: an object's (see
// fromObject), or a bare list of ids or entries when one of them names a
// flight or looks like a flight id. With keyedOnly, only keyed lists count.
func (p *parser) fromValue(v any, out *[]reading, keyedOnly bool) {
	v = p.unwrapped(v, 0, 0)
	var found []reading
	switch v := v.(type) {
	case map[string]any:
		p.fromObject(v, 1, &found)
	case []any:
		es, _ := p.listValue(v, 1)
		if slices.ContainsFunc(es, func(e entry) bool { return e.hasID && (p.idLike(e.id) || isPlaceholder(e.id)) }) {
			p.keep(&found, reading{kind: jsonArray, entries: es})
		}
	}
	for _, r := range found {
		if r.kind == jsonKeyed || !keyedOnly {
			*out = append(*out, r)
		}
	}
}

// unwrapped is v with each string in it that holds a JSON object, list or
// string, and nothing else, replaced by what it holds
// ({"picks":"[{\"id\":…}]"}, an answer encoded twice), at most maxEncodings
// deep; each such string counts as a decode attempt. Objects and lists deeper than maxDepth are left as
// they are.
func (p *parser) unwrapped(v any, depth, encoded int) any {
	switch v := v.(type) {
	case string:
		t := strings.TrimSpace(v)
		if encoded >= maxEncodings || p.budget <= 0 || t == "" || t[0] != '{' && t[0] != '[' && t[0] != '"' {
			return v
		}
		p.budget--
		var inner any
		var n int
		var ok bool
		if t[0] == '"' {
			inner, n, ok = decodeString(t)
		} else {
			inner, n, ok = decodeAt(t)
		}
		if !ok || strings.TrimSpace(t[n:]) != "" {
			return v
		}
		return p.unwrapped(inner, depth, encoded+1)
	case map[string]any:
		if depth >= maxDepth {
			return v
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = p.unwrapped(x, depth+1, encoded)
		}
		return out
	case []any:
		if depth >= maxDepth {
			return v
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = p.unwrapped(x, depth+1, encoded)
		}
		return out
	}
	return v
}

// fromObject collects the readings in an object. Each key of listKeys whose
// value is a list, an id or an entry gives one; if only one does, the
// values of altKeys follow it. Failing those, the object is itself an entry
// if it has an id key and the id names a flight or looks like a flight id
// (altKeys again follow). Failing that, each value that is an object is
// looked into, as a wrapper.
func (p *parser) fromObject(m map[string]any, depth int, out *[]reading) {
	o := normObject(m)
	has := func(keys []string) bool {
		return slices.ContainsFunc(keys, func(k string) bool { _, ok := o[k]; return ok })
	}
	alone, isEntry := !has(altKeys), has(idKeys)
	var found []reading
	for _, k := range listKeys {
		if v, ok := o[k]; ok {
			if _, isID := v.(string); isID && isEntry {
				continue // {"id":...,"ranking":"2"} is an entry, not a list
			}
			if es, ok := p.listValue(v, depth); ok {
				if _, isList := v.([]any); alone && !isList && len(es) == 1 && es[0].reason == "" {
					es[0].reason = p.reasonOf(o) // {"best":"<id>","reason":"..."}
				}
				found = append(found, reading{kind: jsonKeyed, entries: es})
			}
		}
	}
	if len(found) == 0 {
		if e, ok := p.entryOf(o, depth); ok && e.hasID && (p.idLike(e.id) || isPlaceholder(e.id)) {
			found = append(found, reading{kind: jsonSingle, entries: []entry{e}})
		}
	}
	if len(found) == 1 {
		for _, k := range altKeys {
			if v, ok := o[k]; ok {
				if es, ok := p.listValue(v, depth); ok {
					found[0].entries = append(found[0].entries, es...)
					found[0].kind = jsonKeyed
				}
			}
		}
	}
	if len(found) > 0 {
		for _, r := range found {
			if len(r.entries) > maxEntries {
				r.entries = r.entries[:maxEntries]
			}
			p.keep(out, r)
		}
		return
	}
	if depth >= maxDepth {
		return
	}
	p.fromLabels(m, o, depth, out)
}

// fromLabels collects the readings in the values of an object that is
// neither a list of picks nor an entry, as a wrapper: each value that is an
// object is read as fromObject reads one, and an id under an ordinal label
// ({"1":"<id>"}) is an entry. The order of an object's keys is not the
// model's to give (a client that decoded the answer tool's input into a
// map has lost it), so entries found directly under several labels count
// only when every label is ordinal ("first", "second", "2", "option_3",
// "runner_up"), and are then taken in that order. Entries under labels
// such as "cheapest" and "fastest" are categories, not a ranking: they are
// set aside, and an answer with nothing else is refused for it. Other
// readings (a wrapped {"picks":…}) are taken in the order of the labels'
// names, which choose's agreement makes immaterial.
//
// A label that turns down ("avoid", "not_recommended", "worst": see
// rejecting) wraps nothing: what it holds is turned down (turnedLabel). A
// label Parse does not know still wraps: the corpus holds answers wrapped
// in {"response":{…}}, as APIs and agents write them, and reading an
// unknown label as a rejection would refuse them for no reason, while one
// that names categories is caught by the rule on categories above.
func (p *parser) fromLabels(m, o map[string]any, depth int, out *[]reading) {
	type labelled struct {
		label string
		n     int
		r     reading
	}
	var singles []labelled
	ordinal := true
	for _, k := range slices.Sorted(maps.Keys(o)) {
		var rs []reading
		if orig := originalKey(m, k); rejecting(keyWords(orig)) {
			p.turnedLabel(o[k], depth)
			continue
		}
		switch v := o[k].(type) {
		case map[string]any:
			p.fromObject(v, depth+1, &rs)
		case string:
			if _, isOrdinal := ordinalOf(k); isOrdinal && p.idLike(strings.TrimSpace(v)) {
				e, _ := p.entryOf(v, depth)
				p.keep(&rs, reading{kind: jsonSingle, entries: []entry{e}})
			}
		}
		for _, r := range rs {
			if r.kind != jsonSingle {
				*out = append(*out, r)
				continue
			}
			n, isOrdinal := ordinalOf(k)
			ordinal = ordinal && isOrdinal
			singles = append(singles, labelled{label: k, n: n, r: r})
		}
	}
	if len(singles) > 1 {
		ns := make(map[int]bool)
		for _, l := range singles {
			ordinal = ordinal && !ns[l.n]
			ns[l.n] = true
		}
		if !ordinal {
			p.categories = nil
			for _, l := range singles {
				p.categories = append(p.categories, originalKey(m, l.label))
			}
			return
		}
		slices.SortStableFunc(singles, func(a, b labelled) int { return cmp.Compare(a.n, b.n) })
	}
	for _, l := range singles {
		*out = append(*out, l.r)
	}
}

// turnedLabel turns down what a key of rejection holds ({"avoid":{…}},
// {"not_recommended":[…]}, {"rejected":{"picks":[…]}}): an object read as
// fromObject reads one, or a list, an id or an entry as listValue reads
// them.
func (p *parser) turnedLabel(v any, depth int) {
	var rs []reading
	switch v := v.(type) {
	case map[string]any:
		p.fromObject(v, depth+1, &rs)
	default:
		if es, ok := p.listValue(v, depth); ok && len(es) > 0 {
			rs = append(rs, reading{kind: jsonSingle, entries: es})
		}
	}
	for _, r := range rs {
		p.turnDown(r)
	}
}

// ordinalWords are the labels that give a place in a ranking, normalised
// (normKey), as whole labels or at their start ("secondchoice").
var ordinalWords = []struct {
	word string
	n    int
}{
	{"first", 1}, {"second", 2}, {"third", 3}, {"fourth", 4}, {"fifth", 5},
	{"sixth", 6}, {"seventh", 7}, {"eighth", 8}, {"ninth", 9}, {"tenth", 10},
	{"runnerup", 2}, {"primary", 1}, {"secondary", 2}, {"tertiary", 3},
}

// ordinalOf reads a place in a ranking from a normalised label: a word of
// ordinalWords at its start ("first", "thirdpick"), or one number of at
// most three digits, perhaps with words around it ("2", "#2", "2nd",
// "option3", "pick_1").
func ordinalOf(k string) (int, bool) {
	for _, w := range ordinalWords {
		if strings.HasPrefix(k, w.word) {
			return w.n, true
		}
	}
	i := strings.IndexFunc(k, func(r rune) bool { return '0' <= r && r <= '9' })
	if i < 0 {
		return 0, false
	}
	j := i
	for j < len(k) && '0' <= k[j] && k[j] <= '9' {
		j++
	}
	if j-i > 3 || strings.ContainsAny(k[j:], "0123456789") {
		return 0, false
	}
	n, err := strconv.Atoi(k[i:j])
	return n, err == nil
}

// originalKey is the key of m that normalises to k, as the answer wrote it
// (the first in order, as normObject keeps it).
func originalKey(m map[string]any, k string) string {
	for _, mk := range slices.Sorted(maps.Keys(m)) {
		if normKey(mk) == k {
			return mk
		}
	}
	return k
}

// listValue reads the value of a list key: a list of entries, one id, one
// entry, or an object numbered "1", "2" or "first", "second"... (taken in
// that order); a blank
// id is an empty list. (A lone id takes the reason of the object around it,
// if that has one and no alternatives: see fromObject.) ok is false for anything else (null, a number, an
// object that is none of these).
func (p *parser) listValue(v any, depth int) ([]entry, bool) {
	switch v := v.(type) {
	case []any:
		es := make([]entry, 0, min(len(v), maxEntries))
		for _, x := range v[:min(len(v), maxEntries)] {
			e, _ := p.entryOf(x, depth+1)
			es = append(es, e)
		}
		return es, true
	case string:
		if strings.TrimSpace(v) == "" {
			return nil, true
		}
		e, _ := p.entryOf(v, depth)
		return []entry{e}, true
	case map[string]any:
		o := normObject(v)
		if e, ok := p.entryOf(o, depth); ok {
			return []entry{e}, true
		}
		return p.numbered(o, depth)
	}
	return nil, false
}

// numbered reads an object whose keys all give a place ("1", "2", "#3",
// "first", "second": see ordinalOf) as a list in their order.
func (p *parser) numbered(o map[string]any, depth int) ([]entry, bool) {
	type item struct {
		n int
		e entry
	}
	var items []item
	for _, k := range slices.Sorted(maps.Keys(o)) {
		v := o[k]
		n, ok := ordinalOf(k)
		if !ok {
			return nil, false
		}
		e, _ := p.entryOf(v, depth+1)
		items = append(items, item{n, e})
	}
	if len(items) == 0 {
		return nil, false
	}
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(a.n, b.n) })
	es := make([]entry, len(items))
	for i, it := range items {
		es[i] = it.e
	}
	return es, true
}

// entryOf reads one pick: a string is an id with no reason; an object gives
// its id from the first of idKeys present (a string, or an object holding
// one: {"flight":{"id":...}}), its reason from reasonKeys (a string, or a
// list of strings), its rank from rankKeys (a number, or a string such as
// "#1"). ok is false for an object with none of idKeys, and for other
// values; hasID is false unless the id is a non-blank string.
func (p *parser) entryOf(v any, depth int) (e entry, ok bool) {
	var o map[string]any
	switch v := v.(type) {
	case string:
		id := strings.TrimSpace(v)
		return entry{id: id, hasID: id != ""}, true
	case map[string]any:
		o = normObject(v)
	default:
		return entry{}, false
	}
	for _, k := range idKeys {
		id, present := o[k]
		if !present {
			continue
		}
		ok = true
		switch id := id.(type) {
		case string:
			e.id = strings.TrimSpace(id)
			e.hasID = e.id != ""
		case map[string]any:
			if depth < maxDepth {
				e, _ = p.entryOf(id, depth+1)
			}
		}
		break
	}
	if !ok {
		return entry{}, false
	}
	if r := p.reasonOf(o); r != "" {
		e.reason = r
	}
	e.turned = e.turned || verdictOf(o)
	for _, k := range rankKeys {
		if r, isRank := rankOf(o[k]); isRank {
			e.rank, e.hasRank = r, true
			break
		}
	}
	return e, true
}

// reasonOf is the reason an object gives under the first of reasonKeys
// that holds one, or "".
func (p *parser) reasonOf(o map[string]any) string {
	for _, k := range reasonKeys {
		if s, isText := textOf(o[k]); isText && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// normObject is m with its keys normalised (normKey); where two keys
// normalise alike, the one that sorts first wins, so the result does not
// depend on map order.
func normObject(m map[string]any) map[string]any {
	o := make(map[string]any, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if nk := normKey(k); nk != "" {
			if _, dup := o[nk]; !dup {
				o[nk] = m[k]
			}
		}
	}
	return o
}

// normKey is a key in lower case with everything but ASCII letters and
// digits left out.
func normKey(k string) string {
	b := make([]byte, 0, len(k))
	for i := range len(k) {
		switch c := k[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b = append(b, c)
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return string(b)
}

// textOf reads a reason: a string, or a list of strings joined with "; ".
func textOf(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []any:
		var parts []string
		for _, x := range v[:min(len(v), maxPicksRead)] {
			if s, ok := x.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; "), len(parts) > 0
	}
	return "", false
}

// rankOf reads a rank: a number, or a string holding one ("2", "#2").
func rankOf(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimLeft(strings.TrimSpace(v), "#"), 64)
		return f, err == nil && !isNaNOrInf(f)
	}
	return 0, false
}

func isNaNOrInf(f float64) bool { return f != f || f > 1e308 || f < -1e308 }
