package answer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// Pick is one flight an LLM chose, with its reason as given (already
// cleaned).
type Pick struct {
	ID, Reason string
}

// Error says why an LLM answer cannot be used, in words a person
// understands; the tools package shows Reason in the attempts list.
type Error struct {
	Reason string
}

// Error returns the Reason.
func (e *Error) Error() string { return e.Reason }

func answerErr(format string, args ...any) *Error {
	return &Error{Reason: fmt.Sprintf(format, args...)}
}

// Bounds on what Parse reads: the answer is hostile input.
const (
	// maxAnswerBytes is the longest answer examined. The answer asked for is
	// well under 1 KB.
	maxAnswerBytes = 64 << 10
	// maxPicksRead is how many entries of the answer's list are read and
	// checked; later ones are ignored unread.
	maxPicksRead = 10
	// maxDecodeAttempts bounds the places Parse tries to decode JSON
	// from, so text full of '{' costs at most this many passes over at most
	// maxAnswerBytes each (a few milliseconds in all).
	maxDecodeAttempts = 50
	// maxFences bounds the code fences looked into.
	maxFences = 5
	// MaxReasonRunes is the longest reason kept, ellipsis included.
	MaxReasonRunes = 160
	// maxUnknownListed is how many unknown ids an Error names.
	maxUnknownListed = 5
	// maxEntries bounds the entries kept from any one list, so that a list
	// of thousands costs no more than a list of a thousand. Only the first
	// maxPicksRead are ever checked; the rest serve to spot an echo.
	maxEntries = 1024
	// maxDepth is the deepest nesting of objects and arrays decoded. The
	// answer asked for is three deep.
	maxDepth = 16
	// maxEncodings is how many times an answer may be a JSON string inside
	// a JSON string and still be read: an answer encoded twice is common,
	// three times is rare, more is no answer.
	maxEncodings = 3
	// maxEchoFree is how many flights an answer may list before it can count
	// as an echo of the candidates: three were asked for.
	maxEchoFree = 3
	// maxHeadWords is how many words may come before the flight id in a list
	// item ("1. Best value overall: JFK-…") for the id to be the item's.
	maxHeadWords = 5
	// maxContinuation is how many lines under a list item are added to its
	// reason.
	maxContinuation = 3
	// maxTokenBytes is the longest word that can be a flight id.
	maxTokenBytes = 256
)

// Parse reads a model's answer to the ranking prompt (see NewPrompt)
// and returns the flights it picked, best first, with their reasons. The
// prompt asks for one JSON object, {"picks":[{"id":...,"reason":...}]};
// models often write something else, and an answer whose meaning is clear
// counts however it is written. An answer that does not count gets an
// *Error whose Reason says why in one short line, and the next tier
// runs. Everything below is tested on a corpus of real answer shapes
// (testdata/answers).
//
// Before reading, a model's reasoning is cut out and never read:
// <think>…</think>, <thinking>…</thinking>, <reasoning>…</reasoning>, in
// any case, and everything before a closing tag that has no opening one
// (some APIs drop the opening tag, which was in the prompt template). An
// opening tag that never closes runs to the end of the answer: what it
// holds is a draft, not an answer (the model was cut off mid-thought), so
// only the text before it is read. A <flights>…</flights> block, the
// prompt's data repeated, is cut out too.
//
// JSON is looked for first: in the ``` code fences, or, if they hold none,
// in the whole text. Each '{' or '[' that could start a value (a quote, a
// letter or, after '[', a '{' follows) is decoded in turn, at most 50 in
// all, nested at most 16 deep, leniently: strings in single quotes or in
// typographic ones (“…”, ‘…’, „…“), unquoted keys, trailing commas,
// comments, Python's True/False/None. A JSON string whose content is JSON
// (the whole answer encoded once more, "{\"picks\":…}", or a value such as
// {"picks":"[…]"}) is read for what it holds, up to three encodings deep;
// each such string counts as a decode. A value decoded is not looked into
// again. In it:
//   - a key that holds the picks: "picks", "ranking", "rankings",
//     "recommendations", "choices", "flights", "results", "top",
//     "selected", "best", "answer" and the like (listKeys; case and any
//     '_', '-' or space ignored), holding a list of entries, one id, or one
//     entry; after it come "alternatives", "others", "runner_up" and the
//     like (altKeys), so {"best":…,"alternatives":[…]} reads in order;
//   - failing that, the object itself, if it is an entry that names a
//     flight ({"id":…,"reason":…});
//   - failing that, each object inside it, as a wrapper
//     ({"answer":{"picks":…}});
//   - a bare list of ids or entries, if one of them names a flight.
//
// An entry is an id, or an object with the id (a string, or an object that
// holds one) under "id", "flight_id", "flightId", "flight" or "code", a
// reason under "reason", "why", "explanation", "rationale",
// "justification"..., and perhaps a rank under "rank" or "position": when
// every entry has one, the entries are put in rank order.
//
// Lists in the text are read only when no JSON reading is found: numbered lists
// ("1. <id> — reason", "1)", "#1", "(1)", "**1. <id>**", "### 1. <id>",
// "Rank 1:", and also run together in a sentence: "the picks are: 1. <id>
// 2. <id>"), markdown tables (the id from the column headed "id" or
// "flight", else the first cell that holds one; the reason from the column
// headed "reason", "why"...), and, when neither names a flight, loose items
// together as one list: bullets, labelled lines ("Best overall: <id>"),
// lines that start with an id, and runs of ids ("Top picks: <id>, <id> and
// <id>"). An item's id is the first word in it that names a candidate or
// looks like a flight id (8 or more characters, with letters, digits and a
// '-' or '_'), with at most five words before it. The rest of the line
// after the id, and the lines under the item, are its reason. A numbered
// item with no id takes the first id in the lines under it.
//
// Prose with no JSON and no list at all is read last, as a sentence that
// names its picks in order ("I'd go with <id>, then <id>, and keep <id> as
// a backup"), but only when every flight it names is plainly a pick or
// plainly turned down ("<id> over <id>"): see fromSentence.
//
// Which reading counts: JSON beats lists, and ids mentioned in passing
// count for nothing ("I considered X, but the picks are: 1. A 2. B" picks A
// and B; a JSON picks object beats ids in the prose around it). Among the
// JSON found, a keyed list beats a bare list beats bare entries (several
// bare entries, say one a line, are taken together as a list). Readings of
// the strongest kind must agree, and so must numbered lists and tables:
// each must name the same flights in the same order as the longest, as far
// as it goes, and the longest counts ({"best":<id>,"ranking":[<id>,…]}
// whose best is the ranking's first is one reading, the ranking); two that
// disagree make the answer ambiguous, and it does not count.
//
// The answer does not count when:
//   - it is empty, longer than 64 KB, only reasoning, or reasoning that
//     never ends;
//   - nothing in it reads as picks: prose that names flights in passing
//     (if it has no '{' at all, the error names them), or JSON that does
//     not decode (inside a value that does not decode only a keyed list
//     counts, not a piece of it such as a lone entry: a cut-off answer is
//     refused, not half read);
//   - the only readings are placeholders from the prompt ("<flight id
//     exactly as given>", "...": set aside, and a real answer next to them
//     counts), or an echo of the candidates (a list of more than three and
//     more than half of them, in any order, is set aside: listing is not
//     choosing, whether the model copied the prompt's order or sorted the
//     data by a column of its own);
//   - two readings disagree (above);
//   - the list is empty, one of its first 10 entries has no id, or one of
//     those ids is no candidate's: then the whole answer is refused, not
//     just that pick, since a model that makes up one id may have garbled
//     the others (the error names up to five such ids).
//
// Only the first 10 entries are read; later ones are ignored unread. A
// flight named again is dropped, keeping the place of its first mention.
// Callers that want n picks use the first n (FromAnswer does).
//
// Matching ids: an id matches a candidate's exactly after trimming spaces
// (and quotes, typographic ones too, backticks, asterisks or brackets
// around it); failing that,
// it matches case-insensitively, and as the prompt showed it (cleaned like
// the prompt's data), provided exactly one candidate matches that way. The
// pick then carries the candidate's real id. Models do change case now and
// then; real ids never differ only in case, and if two did, neither would
// match loosely.
//
// Reasons are cleaned: control and format characters removed, runs of
// white space (newlines included) made one space, trimmed, and cut to 160
// runes; markdown emphasis and leading dashes or colons are dropped from
// reasons in lists, and a placeholder reason is none. A pick's Reason may
// be empty; FromAnswer then uses the flight's facts.
//
// Parse does not panic on any input, and its work grows linearly
// with the answer: at most 50 decodes and one pass over the lines, a few
// milliseconds for 64 KB of the worst text (BenchmarkParseAnswer).
func Parse(text string, ids []string) ([]Pick, error) {
	if len(text) > maxAnswerBytes {
		return nil, answerErr("answer too long (%d KB; at most %d KB is read)", (len(text)+1023)/1024, maxAnswerBytes>>10)
	}
	if strings.TrimSpace(text) == "" {
		return nil, answerErr("answer was empty")
	}
	body, reasoning, unclosed := cutBlocks(text, reasoningTags, true)
	if strings.TrimSpace(body) == "" {
		if unclosed {
			return nil, answerErr("answer's %s reasoning never ends, so no answer follows it", reasoning)
		}
		return nil, answerErr("answer holds only reasoning (%s…) and no answer after it", reasoning)
	}
	p := &parser{ids: ids, idx: newIDIndex(ids), budget: maxDecodeAttempts}
	if unclosed {
		p.unclosed = reasoning
	}
	body, block, _ := cutBlocks(body, dataTags, false)
	p.flightsBlock = block != ""
	r, found, err := p.fromJSON(body)
	if !found && err == nil {
		r, found, err = p.fromLists(body)
	}
	if !found && err == nil && p.onlyProse(body) {
		r, found = p.fromSentence(body)
	}
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, p.nothing(body)
	}
	return p.resolve(r)
}

// ParseInputs reads a structured answer: the inputs of a model's
// calls to the answer tool (AnswerTool), as decoded JSON, in the order it
// made them, against the options' ids in the order the prompt showed them.
// The input asked for is AnswerSchema's object, {"picks":[{"id":…,
// "reason":…}]}; it is read as a JSON value in a text answer is (see
// Parse: other keys, one entry, a wrapper), and a string that holds
// the object encoded once more counts as the object (tool arguments often
// arrive so). The inputs of several calls are read like several values in
// one text: keyed lists must agree, single entries are taken in turn.
//
// It is checked exactly as a text answer is, with the same reasons: an
// empty list, an entry without an id, an id that is no candidate's,
// placeholders, a list of most of the candidates (listing is not
// choosing), more than 10 calls, or inputs of more than 64 KB in all (as
// JSON) refuse the whole answer with an *Error. It does not panic on
// any input, and its work is bounded like Parse's.
func ParseInputs(inputs []any, ids []string) ([]Pick, error) {
	if len(inputs) > maxPicksRead {
		return nil, answerErr("answer tool was called %d times; one call is the answer, and at most %d are read", len(inputs), maxPicksRead)
	}
	size := 0
	for _, in := range inputs {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, answerErr("answer tool's input could not be read")
		}
		if size += len(b); size > maxAnswerBytes {
			return nil, answerErr("answer too long (%d KB; at most %d KB is read)", (size+1023)/1024, maxAnswerBytes>>10)
		}
	}
	p := &parser{ids: ids, idx: newIDIndex(ids), budget: maxDecodeAttempts, structured: true}
	var rs []reading
	for _, in := range inputs {
		p.fromValue(in, &rs, false)
	}
	r, found, err := p.choose(rs)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, p.nothing("")
	}
	return p.resolve(r)
}

// onlyProse reports whether body is prose and nothing else was set aside
// in it: no JSON at all, no echo, no placeholder, no repeated data block.
func (p *parser) onlyProse(body string) bool {
	return !strings.Contains(body, "{") && p.echoed == 0 && p.placeholder == "" && !p.flightsBlock
}

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
)

// entry is one pick as written: hasID is false when the entry gives no id
// as a string.
type entry struct {
	id, reason string
	hasID      bool
	rank       float64
	hasRank    bool
}

// parser reads one answer against one set of candidates. Besides the
// readings it finds, it remembers what it set aside, so that an answer that
// does not count gets the reason that fits it best (see nothing).
type parser struct {
	ids    []string // the candidates' ids, in the order the prompt gave them
	idx    idIndex
	budget int // decode attempts left

	structured   bool     // the answer is the answer tool's input, not text
	echoed       int      // the most candidates a list set aside as an echo named
	flightsBlock bool     // the answer held a <flights> block, cut out
	placeholder  string   // a placeholder id from the prompt, if one was set aside
	turnedDown   []string // the flights prose turned down, when it picked none
	unclosed     string   // the tag of a reasoning block that never ended
}

// resolve checks a reading against the candidates: the first maxPicksRead
// entries are read; each must carry an id; an id no candidate has refuses
// the whole answer; a flight named again is dropped.
func (p *parser) resolve(r reading) ([]Pick, error) {
	if len(r.entries) == 0 {
		return nil, answerErr("answer named no flights")
	}
	seen := make(map[int]bool)
	var (
		picks   []Pick
		unknown []string
	)
	for k, e := range r.entries[:min(len(r.entries), maxPicksRead)] {
		if !e.hasID {
			return nil, answerErr(`answer pick %d has no flight id (a string in "id")`, k+1)
		}
		i, ok := p.lookup(e.id)
		switch {
		case !ok:
			unknown = append(unknown, e.id)
		case !seen[i]:
			seen[i] = true
			reason := CleanReason(e.reason)
			if isPlaceholder(reason) {
				reason = ""
			}
			picks = append(picks, Pick{ID: p.ids[i], Reason: reason})
		}
	}
	if len(unknown) > 0 {
		return nil, unknownIDs(unknown)
	}
	return picks, nil
}

// lookup finds the candidate an id names (see idIndex), also when the model
// wrapped the id in quotes (ASCII or typographic), backticks, asterisks or
// brackets.
func (p *parser) lookup(id string) (int, bool) {
	if i, ok := p.idx.lookup(id); ok {
		return i, true
	}
	if bare := strings.Trim(id, "`*\"' []<>“”‘’„"); bare != id && bare != "" {
		return p.idx.lookup(bare)
	}
	return 0, false
}

// keep adds r to out unless it should be set aside: entries that are
// placeholders are dropped, and a reading of nothing else is set aside; an
// echo of the candidates is set aside. Entries that all carry a rank are put
// in its order (stable, so equal ranks keep the answer's order).
func (p *parser) keep(out *[]reading, r reading) {
	kept := make([]entry, 0, len(r.entries))
	for _, e := range r.entries {
		if _, known := p.lookup(e.id); e.hasID && !known && isPlaceholder(e.id) {
			if p.placeholder == "" {
				p.placeholder = e.id
			}
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 && len(r.entries) > 0 {
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

// echoes reports whether entries list the candidates back rather than
// choose among them: more than maxEchoFree of them and more than half, in
// any order. A model that names most of the flights has not chosen, whether
// it copied the prompt's order or sorted the data by some column of its
// own; the first ten of such a list are no more its picks than the last.
func (p *parser) echoes(entries []entry) bool {
	seen := make(map[int]bool)
	for _, e := range entries {
		if !e.hasID {
			continue
		}
		if i, ok := p.lookup(e.id); ok {
			seen[i] = true
		}
	}
	if n := len(seen); n > maxEchoFree && 2*n > len(p.ids) {
		p.echoed = max(p.echoed, n)
		return true
	}
	return false
}

// choose picks the reading that counts among those found at one level: the
// strongest kind present decides. Readings of the strongest kind must agree:
// each names the same flights in the same order as the longest, as far as it
// goes (a single "best" that is the ranking's first agrees with the ranking,
// and so do a top three and a full ranking that starts with them); the
// longest is then the reading. Bare objects and loose list items are taken
// together in the answer's order instead: one object a line is a list too.
func (p *parser) choose(rs []reading) (reading, bool, error) {
	if len(rs) == 0 {
		return reading{}, false, nil
	}
	best := slices.MinFunc(rs, func(a, b reading) int { return cmp.Compare(a.kind, b.kind) }).kind
	var same []reading
	for _, r := range rs {
		if r.kind == best {
			same = append(same, r)
		}
	}
	if best == jsonSingle || best == listLoose {
		all := reading{kind: best}
		for _, r := range same {
			all.entries = append(all.entries, r.entries...)
		}
		return all, true, nil
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
			return reading{}, false, answerErr("answer gives two lists of picks that disagree (pick %d is %s in one, %s in the other), so neither counts",
				k+1, sigAt(first, k), sigAt(other, k))
		}
	}
	return p.withReasons(chosen, same), true, nil
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

// nothing is the error for an answer in which no list of picks was found:
// the most specific reason that fits.
func (p *parser) nothing(body string) *Error {
	switch {
	case p.unclosed != "":
		return answerErr("answer's %s reasoning never ends, so no answer follows it", p.unclosed)
	case p.echoed > 0:
		return answerErr("answer lists %d of the %d flights instead of choosing up to three", p.echoed, len(p.ids))
	case p.flightsBlock:
		return answerErr("answer repeats the %s table from the prompt instead of choosing flights", DataOpen)
	case p.placeholder != "":
		return answerErr("answer copies the example from the prompt (%s) instead of naming flights", untrusted.Quote(p.placeholder))
	case strings.Contains(asciiLower(body), "flight id exactly as given"):
		return answerErr("answer copies the example from the prompt instead of naming flights")
	}
	if p.structured {
		return answerErr(`answer tool's input is not the object asked for ({"picks":[{"id":...,"reason":...}]})`)
	}
	if len(p.turnedDown) > 0 {
		return answerErr("answer turns down %s and picks no flight", listIDs(p.turnedDown))
	}
	if !strings.Contains(body, "{") {
		if named := p.mentioned(body); len(named) > 0 {
			return answerErr("answer mentions %s only in passing, not as a list or JSON of picks", listIDs(named))
		}
	}
	return answerErr(`answer is not the JSON object asked for ({"picks":[{"id":...,"reason":...}]})`)
}

// mentioned lists the candidates text names anywhere, in the order it first
// names them.
func (p *parser) mentioned(text string) []string {
	var ids []string
	seen := make(map[int]bool)
	for a, b := nextToken(text, 0); a >= 0; a, b = nextToken(text, b) {
		w, _, _, _ := p.idToken(text, a, b)
		if i, ok := p.candidate(w); ok && !seen[i] {
			seen[i] = true
			ids = append(ids, p.ids[i])
		}
	}
	return ids
}

// listIDs quotes up to maxUnknownListed ids for an error, saying how many
// more there were.
func listIDs(ids []string) string {
	listed := make([]string, 0, maxUnknownListed)
	for _, id := range ids[:min(len(ids), maxUnknownListed)] {
		listed = append(listed, untrusted.Quote(id))
	}
	s := strings.Join(listed, ", ")
	if more := len(ids) - len(listed); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

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

// Blocks cut out of the answer before it is read: a model's reasoning, and
// the prompt's own data block if the model repeats it.
var (
	reasoningTags = []string{"think", "thinking", "reasoning"}
	dataTags      = []string{strings.Trim(DataOpen, "<>")}
)

// cutBlocks removes from text every block that opens with <tag> and closes
// with </tag>, for the tags given, matched case-insensitively, not nested.
// A block that does not close runs to the end of the text (unclosed is then
// true). With orphanClose, a closing tag met before any opening one ends a
// block that began with the text: some APIs send a reasoning model's answer
// without the opening tag, which was part of the prompt template. found is
// the first tag seen, as "<tag>", or "". One pass over the text.
func cutBlocks(text string, tags []string, orphanClose bool) (body, found string, unclosed bool) {
	low := asciiLower(text)
	var b strings.Builder
	last := 0 // text[last:] is not yet copied
	for i := 0; i < len(low); {
		j := strings.IndexByte(low[i:], '<')
		if j < 0 {
			break
		}
		i += j
		tag, closing, n := tagAt(low[i:], tags)
		switch {
		case n == 0:
			i++
			continue
		case closing:
			if orphanClose && found == "" {
				last = i + n // what came before was a block
				b.Reset()
				found = "<" + tag + ">"
			}
			i += n
			continue
		}
		b.WriteString(text[last:i])
		if found == "" {
			found = "<" + tag + ">"
		}
		end := strings.Index(low[i+n:], "</"+tag+">")
		if end < 0 {
			return b.String(), found, true
		}
		i += n + end + len(tag) + 3
		last = i
	}
	b.WriteString(text[last:])
	return b.String(), found, false
}

// tagAt reports whether s starts with <tag> or </tag> for one of tags (s
// in lower case), and its length.
func tagAt(s string, tags []string) (tag string, closing bool, n int) {
	for _, t := range tags {
		switch {
		case strings.HasPrefix(s, "<"+t+">"):
			return t, false, len(t) + 2
		case strings.HasPrefix(s, "</"+t+">"):
			return t, true, len(t) + 3
		}
	}
	return "", false, 0
}

// asciiLower is s with ASCII letters in lower case; unlike
// strings.ToLower it keeps every byte where it was.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

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
// itself a string inside an answer (see jsonReadings).
func (p *parser) jsonIn(text string, encoded int) []reading {
	var rs []reading
	for _, f := range fences(text) {
		rs = append(rs, p.jsonReadings(f, encoded)...)
	}
	if len(rs) == 0 {
		rs = p.jsonReadings(text, encoded)
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
func (p *parser) jsonReadings(text string, encoded int) []reading {
	var rs []reading
	broken := 0 // text[:broken] is inside a value that did not decode
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
			i += n
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
		p.fromValue(v, &rs, i < broken)
		i += n
	}
	return rs
}

// encodedStart reports whether s, what follows a string's opening quote,
// starts like JSON or a code fence: '{', '[' or '`', after white space
// (escaped or not) and escaped quotes (a string encoded once more).
func encodedStart(s string) bool {
	for range 2 * maxEncodings {
		t := strings.TrimLeft(s, " \t\r\n")
		if u := strings.TrimLeft(t, "\\"); len(u) < len(t) && u != "" && strings.IndexByte("nrt\"", u[0]) >= 0 {
			s = u[1:]
			continue
		}
		return t != "" && strings.IndexByte("{[`", t[0]) >= 0
	}
	return false
}

// decodeString decodes the JSON string that starts s and returns its
// content and its length in s.
func decodeString(s string) (content string, n int, ok bool) {
	strict, n, ok := appendString(nil, s, 0)
	if !ok || json.Unmarshal(strict, &content) != nil {
		return "", 0, false
	}
	return content, n, true
}

// couldStart reports whether s, which starts with '{' or '[', could start a
// value worth decoding: after white space comes a quote (ASCII or
// typographic), a letter or '_' (an unquoted key), or, after '[', a '{'.
func couldStart(s string) bool {
	t := strings.TrimLeft(s[1:], " \t\r\n")
	if t == "" {
		return false
	}
	c := t[0]
	return quoteAt(t) != noQuote || c == '_' || ('a' <= c|0x20 && c|0x20 <= 'z') || (s[0] == '[' && c == '{')
}

// decodeAt decodes the relaxed JSON value that starts s (see relaxJSON) and
// returns its length in s. When it fails, n is how much of s the value
// spans: its length if its brackets close, else all of s.
func decodeAt(s string) (v any, n int, ok bool) {
	strict, n, ok := relaxJSON(s)
	if !ok {
		return nil, len(s), false
	}
	if json.Unmarshal(strict, &v) != nil {
		return nil, n, false
	}
	return v, n, true
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
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if sub, ok := o[k].(map[string]any); ok {
			p.fromObject(sub, depth+1, out)
		}
	}
}

// listValue reads the value of a list key: a list of entries, one id, one
// entry, or an object numbered "1", "2"... (taken in that order); a blank
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

// numbered reads an object whose keys are all numbers ("1", "2", "#3") as a
// list in their order.
func (p *parser) numbered(o map[string]any, depth int) ([]entry, bool) {
	type item struct {
		n int
		e entry
	}
	var items []item
	for _, k := range slices.Sorted(maps.Keys(o)) {
		v := o[k]
		n, err := strconv.Atoi(k)
		if err != nil || len(k) > 3 {
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

// relaxJSON reads the bracketed value that starts s (s[0] is '{' or '[')
// and returns it as strict JSON, with its length in s. Besides JSON it
// accepts what models write out of habit: strings in single quotes,
// unquoted keys, trailing commas, comments (// and /* */ and #), Python's
// True, False and None, and control characters inside strings. It gives up
// when the value does not close, nests deeper than maxDepth, or a string or
// comment does not end; whether the result is JSON is for json.Unmarshal to
// say. One pass; strict JSON comes out unchanged.
func relaxJSON(s string) (out []byte, n int, ok bool) {
	out = make([]byte, 0, min(len(s), 4<<10))
	depth := 0
	comma := -1 // where in out a ',' with only space or comments after it is
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c >= utf8.RuneSelf && quoteAt(s[i:]) != noQuote:
			var end int
			if out, end, ok = appendString(out, s, i); !ok {
				return nil, 0, false
			}
			i, comma = end, -1
		case c == '#' || c == '/' && strings.HasPrefix(s[i:], "//"):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return nil, 0, false
			}
			i += end
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, 0, false
			}
			i += end + 4
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return nil, 0, false
			}
			out, i, comma = append(out, c), i+1, -1
		case c == '}' || c == ']':
			if comma >= 0 {
				out = append(out[:comma], out[comma+1:]...)
			}
			out, i, comma = append(out, c), i+1, -1
			if depth--; depth == 0 {
				return out, i, true
			}
		case c == ',':
			comma = len(out)
			out, i = append(out, c), i+1
		case c == '_' || c == '$' || 'a' <= c|0x20 && c|0x20 <= 'z':
			j := i + 1
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			word := s[i:j]
			rest := strings.TrimLeft(s[j:], " \t\r\n")
			switch {
			case strings.HasPrefix(rest, ":"):
				out = append(append(append(out, '"'), word...), '"')
			case word == "True":
				out = append(out, "true"...)
			case word == "False":
				out = append(out, "false"...)
			case word == "None":
				out = append(out, "null"...)
			default:
				out = append(out, word...)
			}
			i, comma = j, -1
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				comma = -1
			}
			out, i = append(out, c), i+1
		}
	}
	return nil, 0, false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// appendString appends the string that starts s[i] to out as a JSON
// string, and returns where it ends in s. The string may be in double or
// single quotes, ASCII or typographic (“…”, ‘…’, „…“: what a word processor
// or a chat interface makes of a model's quotes); a typographic string ends
// at any typographic quote of its kind, and in single ones a ’ before a
// letter is an apostrophe ("it’s"). Inside single quotes an escaped quote is
// a quote; a double quote inside any but ASCII double quotes is escaped, and
// control characters are escaped in all.
func appendString(out []byte, s string, i int) ([]byte, int, bool) {
	open := quoteAt(s[i:])
	out = append(out, '"')
	j := i + open.width()
	for j < len(s) {
		c := s[j]
		if c >= utf8.RuneSelf {
			if q := quoteAt(s[j:]); q != noQuote && q.closes(open, s[j+q.width():]) {
				return append(out, '"'), j + q.width(), true
			}
			out, j = append(out, c), j+1
			continue
		}
		switch {
		case open == asciiDouble && c == '"' || open == asciiSingle && c == '\'':
			return append(out, '"'), j + 1, true
		case c == '\\' && j+1 < len(s):
			j++
			if s[j] == '\'' {
				out = append(out, '\'')
			} else {
				out = append(out, '\\', s[j])
			}
		case c == '"':
			out = append(out, '\\', '"')
		case c < 0x20:
			out = fmt.Appendf(out, `\u%04x`, c)
		default:
			out = append(out, c)
		}
		j++
	}
	return nil, 0, false
}

// quote is the kind of quotation mark that starts a string.
type quote int

const (
	noQuote quote = iota
	asciiDouble
	asciiSingle
	curlyDouble // “ ” „ ‟ ″ (three bytes each)
	curlySingle // ‘ ’ ‚ ‛ (three bytes each)
)

// quoteAt is the quotation mark that starts s, if any.
func quoteAt(s string) quote {
	switch {
	case s == "":
		return noQuote
	case s[0] == '"':
		return asciiDouble
	case s[0] == '\'':
		return asciiSingle
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '“', '”', '„', '‟', '″':
		return curlyDouble
	case '‘', '’', '‚', '‛':
		return curlySingle
	}
	return noQuote
}

func (q quote) width() int {
	if q == curlyDouble || q == curlySingle {
		return 3
	}
	return 1
}

// closes reports whether q, followed by rest, ends a string opened by open.
func (q quote) closes(open quote, rest string) bool {
	if q != open {
		return false
	}
	if q == curlySingle {
		r, _ := utf8.DecodeRuneInString(rest)
		return !unicode.IsLetter(r)
	}
	return true
}

// fences returns the contents of the text's ``` code fences, at most
// maxFences of them, info strings ("json") included: they hold no '{'. An
// unclosed fence runs to the end of the text.
func fences(text string) []string {
	var out []string
	for len(out) < maxFences {
		start := strings.Index(text, "```")
		if start < 0 {
			break
		}
		text = text[start+3:]
		end := strings.Index(text, "```")
		if end < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:end])
		text = text[end+3:]
	}
	return out
}

// fromLists reads the answer line by line for lists of picks (see
// lineReader). Numbered lists and tables are the strong kind and must agree
// with one another; loose items count only when neither names a flight.
func (p *parser) fromLists(body string) (reading, bool, error) {
	lr := &lineReader{p: p, list: -1, table: -1, itemAt: -1}
	for line := range strings.SplitSeq(body, "\n") {
		lr.line(line)
	}
	var rs []reading
	for _, r := range lr.ranked {
		if len(r.entries) > 0 {
			p.keep(&rs, r)
		}
	}
	if len(rs) == 0 && len(lr.loose.entries) > 0 {
		p.keep(&rs, lr.loose)
	}
	return p.choose(rs)
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
//     ("Top picks: <id>, <id> and <id>").
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
	if id, _, end, ok := lr.head(text, maxHeadWords); ok {
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
	id, _, end, _ := lr.head(s, maxHeadWords)
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
	if len(ids) == 1 {
		lr.startItem(-1, lr.add(-1, entry{id: id, hasID: true, reason: reasonText(s[first:])}), indent, "")
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

// row reads a line of a markdown table. Its first row, if it names no
// flight, is the header; rule rows (|---|:--:|) are skipped.
func (lr *lineReader) row(t string) {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	if isRule(cells) {
		return
	}
	if !lr.inTable {
		lr.inTable, lr.table, lr.rows, lr.idCol, lr.reasonCol = true, -1, 0, -1, -1
	}
	lr.rows++
	col, id := -1, ""
	if c := lr.idCol; c >= 0 && c < len(cells) {
		if x, _, _, ok := lr.head(cells[c], maxHeadWords); ok {
			col, id = c, x
		}
	}
	for c := 0; col < 0 && c < len(cells); c++ {
		if x, _, _, ok := lr.head(cells[c], maxHeadWords); ok {
			col, id = c, x
		}
	}
	if col < 0 {
		if lr.rows == 1 {
			lr.idCol, lr.reasonCol = headerColumns(cells)
		}
		return
	}
	if lr.table < 0 {
		lr.ranked = append(lr.ranked, reading{kind: listRanked})
		lr.table = len(lr.ranked) - 1
	}
	reason := ""
	if r := lr.reasonCol; r >= 0 && r < len(cells) && r != col {
		reason = reasonText(cells[r])
	}
	lr.add(lr.table, entry{id: id, hasID: true, reason: reason})
}

// headerColumns finds a table's id and reason columns by their headings, or
// -1.
func headerColumns(cells []string) (idCol, reasonCol int) {
	idCol, reasonCol = -1, -1
	for c, cell := range cells {
		k := normKey(cell)
		if idCol < 0 && (slices.Contains(idKeys, k) || k == "option") {
			idCol = c
		}
		if reasonCol < 0 && slices.ContainsFunc(reasonHeadings, func(h string) bool { return strings.Contains(k, h) }) {
			reasonCol = c
		}
	}
	return idCol, reasonCol
}

var reasonHeadings = []string{"reason", "why", "rationale", "explanation", "justification", "note", "comment", "summary", "highlight"}

// isTableRow reports whether a line (trimmed) is a row of a markdown table:
// it starts with '|' or has two of them.
func isTableRow(t string) bool { return strings.HasPrefix(t, "|") || strings.Count(t, "|") >= 2 }

// isRule reports whether a table row is a rule: ---, :--, --: cells only.
func isRule(cells []string) bool {
	for _, c := range cells {
		if !strings.Contains(c, "-") || strings.Trim(c, "-:") != "" {
			return false
		}
	}
	return true
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

// pickLabels are the words that make "Label: <id>" a pick.
var pickLabels = []string{
	"best", "top", "pick", "choice", "choose", "chosen", "recommend", "option", "winner", "runner",
	"alternative", "first", "second", "third", "1st", "2nd", "3rd", "backup", "overall", "rank",
	"final", "answer", "flight", "select",
}

// reasonText is the reason in what follows an id in a list: markdown
// emphasis and leading separators dropped, and a leading "Reason:" label.
func reasonText(s string) string {
	s = strings.TrimLeft(emphasis.Replace(s), " \t*_\"'”’)]:|,;.-–—→>")
	if k := strings.IndexByte(s, ':'); k > 0 && k < 16 && slices.Contains(reasonKeys, normKey(s[:k])) {
		s = s[k+1:]
	}
	return strings.TrimSpace(s)
}

var emphasis = strings.NewReplacer("**", "", "__", "", "`", "")

// joinReason adds more to a reason, after "; " unless the reason ends in
// punctuation already, as long as it could still show.
func joinReason(reason, more string) string {
	switch {
	case more == "" || len(reason) > 4*MaxReasonRunes:
		return reason
	case reason == "":
		return more
	case strings.ContainsAny(reason[len(reason)-1:], ".!?:;,"):
		return reason + " " + more
	}
	return reason + "; " + more
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

// cleanReason makes a model's reason fit one line for people: control and
// format characters dropped, white space runs (newlines included) made one
// space, trimmed, and cut to MaxReasonRunes with an ellipsis. Invalid UTF-8
// becomes U+FFFD.
func CleanReason(s string) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsGraphic(r) {
			return r
		}
		return -1
	}, s)), " ")
	if utf8.RuneCountInString(s) <= MaxReasonRunes {
		return s
	}
	r := []rune(s)[:MaxReasonRunes-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}
