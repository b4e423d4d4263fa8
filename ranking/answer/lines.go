package answer

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fromLists reads the answer line by line for lists of picks (see
// lineReader). Numbered lists and tables are the strong kind and must agree
// with one another; loose items count only when neither names a flight,
// and must otherwise agree with them (see agrees).
func (p *parser) fromLists(body string) (reading, bool, error) {
	ranked, loose := p.lineReadings(body)
	var rs []reading
	for _, r := range ranked {
		if len(r.entries) > 0 {
			p.keep(&rs, r)
		}
	}
	if len(loose.entries) > 0 {
		p.keep(&rs, loose) // counts only when no ranked list does (see choose)
	}
	return p.choose(rs)
}

// lineReadings reads body line by line (see lineReader): its numbered lists
// and tables, and its loose items. Loose items led by words of rejection
// are turned down (see turnDown), not read.
func (p *parser) lineReadings(body string) (ranked []reading, loose reading) {
	lr := &lineReader{p: p, list: -1, table: -1, itemAt: -1}
	for line := range strings.SplitSeq(body, "\n") {
		lr.line(line)
	}
	lr.loose.kind = listLoose
	return lr.ranked, lr.loose
}

// lineReader finds the lists of picks in an answer, one line at a time:
//
//   - a numbered list: items "1. <id>", "1) <id>", "#1 <id>", "(1) <id>",
//     "Rank 1: <id>", "**1. <id>**", also inside a markdown heading, and
//     also run together on one line ("… the picks are: 1. <id> 2. <id>");
//     items numbered on from the last (n+1) continue a list, any other
//     number starts a new one;
//   - a markdown table: each row's id is in the id column (headed "id",
//     "flight"...) or, failing that, the first cell that holds one; its
//     reason is in the column headed "reason", "why"...;
//   - loose items: bullets ("- <id>"), labelled lines ("Best overall: <id>",
//     with a label that says it is a pick), lines that start with an id and
//     go on with a dash, colon or the like, and runs of ids in those
//     ("Top picks: <id>, <id> and <id>"); a loose item whose words before
//     its id turn it down ("- Avoid: <id>", "Not recommended: <id>": see
//     rejecting) is no pick, and is set aside (see turnDown).
//
// An item's id is the first word of it that names a candidate or looks
// like a flight id, if no more than maxHeadWords words come before it; an
// item with no id names no flight (a numbered one takes the first id in the
// lines under it). The rest of the line after the id is the reason, and the
// lines under the item (indented, or up to a blank line) are added to it,
// maxContinuation at most.
type lineReader struct {
	p      *parser
	ranked []reading // numbered lists and tables, in the answer's order
	loose  reading   // loose items, in the answer's order
	total  int       // entries kept, at most maxEntries

	list    int // the numbered list being read: an index in ranked, or -1
	lastNum int // the last number it had

	// The item whose reason the lines under it extend.
	open        bool   // the lines that follow belong to it, until a blank line
	itemIndent  int    // its indentation; lines indented more are under it
	itemList    int    // its list: an index in ranked, or -1 for loose
	itemAt      int    // its entry there, or -1 if it has no id (yet)
	pendingText string // a numbered item's text while it has no id
	cont        int    // lines under it taken

	inTable          bool
	table            int // the table being read: an index in ranked, or -1
	rows             int
	idCol, reasonCol int
}

func (lr *lineReader) line(raw string) {
	raw = strings.TrimRight(raw, "\r")
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "```") || isTag(t) {
		lr.open, lr.inTable = false, false
		return
	}
	if isTableRow(t) {
		lr.open = false
		lr.row(t)
		return
	}
	lr.inTable = false
	indent := indentOf(raw)
	s := stripHeading(t)
	for strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__") {
		s = s[2:]
	}
	kind, num, rest := parseMarker(s)
	under := lr.open && indent > lr.itemIndent
	switch {
	case kind == numberedMark && !under:
		cuts := lr.inlineCuts(rest, num+1)
		end := len(rest)
		if len(cuts) > 0 {
			end = cuts[0].at
		}
		lr.numberedItem(num, rest[:end], indent)
		lr.numberedCuts(rest, cuts, indent)
	case kind == bulletMark && !under && lr.hasHead(rest, maxHeadWords):
		lr.looseItem(rest, indent)
	case kind == noMark && !under && lr.looseHead(s):
		lr.looseItem(s, indent)
	case lr.open:
		lr.continuation(rest)
	default:
		lr.numberedCuts(s, lr.inlineCuts(s, 1), indent)
	}
}

// isTag reports whether a line is nothing but a markup tag, such as
// <answer> or </answer>: it ends an item like a blank line.
func isTag(t string) bool {
	return len(t) > 2 && t[0] == '<' && t[len(t)-1] == '>' && !strings.ContainsAny(t[1:len(t)-1], "<> ")
}

// add appends e to a list (an index in ranked, or -1 for loose) and
// returns its index there, or -1 once maxEntries are kept.
func (lr *lineReader) add(list int, e entry) int {
	if lr.total >= maxEntries {
		return -1
	}
	lr.total++
	es := lr.entries(list)
	*es = append(*es, e)
	return len(*es) - 1
}

func (lr *lineReader) entries(list int) *[]entry {
	if list < 0 {
		return &lr.loose.entries
	}
	return &lr.ranked[list].entries
}

// startItem makes the item just read the one that lines under it extend.
func (lr *lineReader) startItem(list, at, indent int, pending string) {
	lr.open, lr.itemIndent, lr.itemList, lr.itemAt, lr.pendingText, lr.cont = true, indent, list, at, pending, 0
}

func (lr *lineReader) numberedItem(num int, text string, indent int) {
	if lr.list < 0 || num != lr.lastNum+1 {
		lr.ranked = append(lr.ranked, reading{kind: listRanked})
		lr.list = len(lr.ranked) - 1
	}
	lr.lastNum = num
	if id, start, end, ok := lr.head(text, maxHeadWords); ok {
		if rejecting(text[:start]) { // "3. Avoid <id>", "4. Not recommended: <id>"
			lr.p.turnDown(reading{kind: listRanked, entries: []entry{{id: id, hasID: true}}})
			lr.open = false
			return
		}
		lr.startItem(lr.list, lr.add(lr.list, entry{id: id, hasID: true, reason: reasonText(text[end:])}), indent, "")
		return
	}
	lr.startItem(lr.list, -1, indent, text)
}

// numberedCuts reads the items that inlineCuts found in s.
func (lr *lineReader) numberedCuts(s string, cuts []cut, indent int) {
	for k, c := range cuts {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		lr.numberedItem(c.num, s[c.text:end], indent)
	}
}

// cut is a numbered item inside a line: its number, where its marker
// starts, where its text starts.
type cut struct{ num, at, text int }

// inlineCuts finds the items numbered want, want+1, … inside s, in that
// order: a marker ("2.", "2)", "#2") at the start of a word, followed at
// once by a flight id, so that a number in a reason ("2) nonstop") does
// not cut.
func (lr *lineReader) inlineCuts(s string, want int) []cut {
	var cuts []cut
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '#' && (c < '0' || c > '9') || i > 0 && s[i-1] != ' ' && s[i-1] != '\t' {
			continue
		}
		num, n := numberMarker(s[i:], false)
		if n == 0 || num != want || !lr.hasHead(s[i+n:], 0) {
			continue
		}
		cuts = append(cuts, cut{num, i, i + n})
		want++
	}
	return cuts
}

// looseItem reads a loose item: its id, and any more ids that run on after
// it ("<id>, <id> and <id>", "<id> > <id>"), which then have no reasons.
func (lr *lineReader) looseItem(s string, indent int) {
	id, start, end, _ := lr.head(s, maxHeadWords)
	turned := rejecting(s[:start]) // "- Avoid: <id>", "Not recommended: <id>"
	first := end
	ids := []string{id}
	for len(ids) < maxEntries {
		a, b := nextToken(s, end)
		if a < 0 || strings.Trim(s[end:a], " \t,;>/→*`\"'&+|") != "" {
			break
		}
		if w := s[a:b]; w == "and" || w == "then" {
			end = b
			continue
		}
		next, _, b, ok := lr.p.idToken(s, a, b)
		if !ok {
			break
		}
		ids, end = append(ids, next), b
	}
	if turned {
		t := reading{kind: listLoose}
		for _, id := range ids {
			t.entries = append(t.entries, entry{id: id, hasID: true})
		}
		lr.p.turnDown(t)
		lr.open = false
		return
	}
	if len(ids) == 1 {
		lr.startItem(-1, lr.add(-1, entry{id: id, hasID: true, place: placeOf(s[:start]), reason: reasonText(s[first:])}), indent, "")
		return
	}
	for _, id := range ids {
		lr.add(-1, entry{id: id, hasID: true})
	}
	lr.open = false
}

// continuation adds a line under the item to its reason, or, for a
// numbered item without an id, gives it one.
func (lr *lineReader) continuation(text string) {
	if lr.cont >= maxContinuation {
		return
	}
	lr.cont++
	if lr.itemAt < 0 {
		if id, _, end, ok := lr.head(text, maxHeadWords); ok && lr.itemList >= 0 && lr.pendingText != "" {
			reason := joinReason(reasonText(lr.pendingText), reasonText(text[end:]))
			lr.itemAt, lr.pendingText = lr.add(lr.itemList, entry{id: id, hasID: true, reason: reason}), ""
		}
		return
	}
	e := &(*lr.entries(lr.itemList))[lr.itemAt]
	e.reason = joinReason(e.reason, reasonText(text))
}

// The kinds of line parseMarker tells apart.
const (
	noMark = iota
	bulletMark
	numberedMark
)

// parseMarker reads the list marker that starts s, if any, and returns the
// rest of the line.
func parseMarker(s string) (kind, num int, rest string) {
	if r, w := utf8.DecodeRuneInString(s); strings.ContainsRune("-*+•◦‣▪–", r) && w < len(s) && (s[w] == ' ' || s[w] == '\t') {
		return bulletMark, 0, strings.TrimSpace(s[w:])
	}
	if num, n := numberMarker(s, false); n > 0 {
		return numberedMark, num, strings.TrimSpace(s[n:])
	}
	if strings.HasPrefix(s, "(") {
		if num, n := numberMarker(s[1:], false); n > 0 && s[n] == ')' {
			return numberedMark, num, strings.TrimSpace(s[n+1:])
		}
	}
	low := asciiLower(s[:min(len(s), 8)])
	for _, w := range numberWords {
		if strings.HasPrefix(low, w) {
			after := strings.TrimLeft(s[len(w):], " ")
			if num, n := numberMarker(after, true); n > 0 {
				return numberedMark, num, strings.TrimLeft(strings.TrimSpace(after[n:]), "-–—: ")
			}
		}
	}
	return noMark, 0, s
}

// numberWords start numbered items: "Rank 1:", "Option #2 -".
var numberWords = []string{"rank", "pick", "option", "choice", "no.", "number"}

// numberMarker reads a number marker at the start of s: "12.", "12)",
// "12:", "#12" or "#12." (with bare, also "12"), then perhaps "**", then a
// space or the end; n is its length, or 0.
func numberMarker(s string, bare bool) (num, n int) {
	i := 0
	hash := strings.HasPrefix(s, "#")
	if hash {
		i = 1
	}
	j := i
	for j < len(s) && j-i < 3 && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	if j == i || j < len(s) && '0' <= s[j] && s[j] <= '9' {
		return 0, 0
	}
	num, _ = strconv.Atoi(s[i:j])
	switch {
	case j < len(s) && (s[j] == '.' || s[j] == ')' || s[j] == ':'):
		j++
	case !hash && !bare:
		return 0, 0
	}
	for strings.HasPrefix(s[j:], "**") || strings.HasPrefix(s[j:], "__") {
		j += 2
	}
	if j < len(s) && s[j] != ' ' && s[j] != '\t' {
		return 0, 0
	}
	return num, j
}

// stripHeading removes a markdown heading's "# ", "## "...
func stripHeading(t string) string {
	n := 0
	for n < len(t) && n < 6 && t[n] == '#' {
		n++
	}
	if n > 0 && n < len(t) && t[n] == ' ' {
		return strings.TrimSpace(t[n:])
	}
	return t
}

// indentOf measures a line's indentation, a tab as four spaces.
func indentOf(raw string) int {
	n := 0
	for _, c := range []byte(raw) {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// head finds an item's id: the first word of s that is id-like (see
// idLike), if at most maxWords words come before it. It returns the id
// and where it is in s.
func (lr *lineReader) head(s string, maxWords int) (id string, start, end int, ok bool) {
	words := 0
	for a, b := nextToken(s, 0); a >= 0; a, b = nextToken(s, b) {
		if id, start, end, ok = lr.p.idToken(s, a, b); ok {
			return id, start, end, true
		}
		if words++; words > maxWords {
			break
		}
	}
	return "", 0, 0, false
}

func (lr *lineReader) hasHead(s string, maxWords int) bool {
	_, _, _, ok := lr.head(s, maxWords)
	return ok
}

// looseHead reports whether a line with no list marker is a loose item: it
// starts with an id followed by the end of the line or a separator ("<id>
// — cheapest"), or with a label that says it is a pick ("Best overall:
// <id>").
func (lr *lineReader) looseHead(s string) bool {
	_, start, end, ok := lr.head(s, maxHeadWords)
	if !ok {
		return false
	}
	prefix := strings.Trim(s[:start], " \t*_`\"'")
	if prefix == "" {
		after := strings.TrimLeft(s[end:], " \t*_`\"'")
		r, _ := utf8.DecodeRuneInString(after)
		return after == "" || strings.ContainsRune("-–—:|,(.;[/→>", r)
	}
	if !strings.HasSuffix(strings.TrimRight(prefix, " *_"), ":") || strings.ContainsFunc(prefix, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -'’()#&/,.:*_", r)
	}) {
		return false // not a label: "{\"picks\":[\"" is no label
	}
	low := strings.ToLower(prefix)
	return slices.ContainsFunc(pickLabels, func(w string) bool { return strings.Contains(low, w) })
}

// placeOf is the place label, the words before a loose item's id, gives
// it among the picks: 1 for the best of all ("Best:", "**Top pick:**", "My
// recommendation:"), 2 for "Runner-up:" or "Second choice:", 3 for "Third
// choice:"; 0 for any other label, "Best value:" and "Best nonstop:"
// among them, which are the best of a kind.
func placeOf(label string) int {
	l := strings.ToLower(strings.Trim(label, " \t*_`\"'#:-–—"))
	l = strings.Join(strings.Fields(strings.NewReplacer("*", " ", "_", " ", "-", " ").Replace(l)), " ")
	for i, labels := range placeLabels {
		if slices.Contains(labels, l) {
			return i + 1
		}
	}
	return 0
}

// placeLabels are the labels that give a flight a place: the best of all,
// the second, the third. Within a label a hyphen is a space.
var placeLabels = [...][]string{{
	"best", "best overall", "overall best", "best pick", "best choice", "best option", "best flight",
	"top pick", "top choice", "top recommendation", "my pick", "my top pick", "my choice", "pick",
	"winner", "first choice", "1st choice", "number one", "recommended", "recommendation",
	"my recommendation", "final answer", "final pick", "final choice", "answer", "overall",
}, {
	"runner up", "runnerup", "second", "2nd", "second choice", "2nd choice", "second pick", "2nd pick",
	"second best", "2nd best", "second option", "2nd option", "number two", "my second choice",
}, {
	"third", "3rd", "third choice", "3rd choice", "third pick", "3rd pick", "third best", "3rd best",
	"third option", "3rd option", "number three", "my third choice",
}}

// placeName is how an error names a place placeOf gives: "its best",
// "its second".
func placeName(place int) string {
	if place == 1 {
		return "best"
	}
	return ordinals[place-1]
}

// ordinals name the places placeOf gives, in a ranking: "ranks <id> second".
var ordinals = [len(placeLabels)]string{"first", "second", "third"}

// pickLabels are the words that make "Label: <id>" a pick.
var pickLabels = []string{
	"best", "top", "pick", "choice", "choose", "chosen", "recommend", "option", "winner", "runner",
	"alternative", "first", "second", "third", "1st", "2nd", "3rd", "backup", "overall", "rank",
	"final", "answer", "flight", "select",
}
