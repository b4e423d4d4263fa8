package answer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// Pick is one flight an LLM chose, with its reason as given (already
// cleaned).
type Pick struct {
	ID, Reason string
}

// Error says why an LLM answer cannot be used, in one line of words a
// person understands, safe to show as it is (ids in it are quoted and
// shortened): the attempts list of a tool's result shows Reason.
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
	// maxSmallSet is the most candidates that are a few, of which a ranking
	// longer than maxEchoFree may name half (see echoes).
	maxSmallSet = 2 * maxPicksRead
	// maxRankedInOrder is how many of a few candidates a list in the
	// prompt's order may name and still be a ranking.
	maxRankedInOrder = 2 * maxEchoFree
	// maxHeadWords is how many words may come before the flight id in a list
	// item ("1. Best value overall: JFK-…") for the id to be the item's.
	maxHeadWords = 5
	// maxContinuation is how many lines under a list item are added to its
	// reason.
	maxContinuation = 3
	// maxTokenBytes is the longest word that can be a flight id.
	maxTokenBytes = 256
)

// Parse reads an answer written as text against the candidates' ids, in
// the order the prompt showed them, and returns the picks it names, best
// first, with their reasons, or an *Error that says why it does not count.
// The package doc says what it reads, which reading wins and what it
// refuses.
func Parse(text string, ids []string) ([]Pick, error) {
	if len(text) > maxAnswerBytes {
		return nil, answerErr("answer too long (%d KB; at most %d KB is read)", (len(text)+1023)/1024, maxAnswerBytes>>10)
	}
	if strings.TrimSpace(text) == "" {
		return nil, answerErr("answer was empty")
	}
	picks, unclosed, err := parseText(text, ids, reasoningRules)
	if unclosed {
		// A reasoning tag that never closes may be one the answer names in
		// a sentence ("I kept my reasoning out of <thinking> tags"): when the
		// text read with such tags as words has an answer, that is it.
		if named, _, namedErr := parseText(text, ids, reasoningNamedRules); namedErr == nil {
			return named, nil
		}
	}
	return picks, err
}

// parseText is Parse with the given rules for reasoning blocks; unclosed
// reports that a reasoning block did not close.
func parseText(text string, ids []string, rules blockRules) (_ []Pick, unclosed bool, _ error) {
	body, reasoning, unclosed := cutBlocks(text, reasoningTags, rules)
	if strings.TrimSpace(body) == "" {
		if unclosed {
			return nil, true, answerErr("answer's %s reasoning never ends, so no answer follows it", reasoning)
		}
		return nil, false, answerErr("answer holds only reasoning (%s…) and no answer after it", reasoning)
	}
	p := &parser{ids: ids, idx: newIDIndex(ids), budget: maxDecodeAttempts}
	if unclosed {
		p.unclosed = reasoning
	}
	body, block, _ := cutBlocks(body, dataTags, dataRules)
	p.flightsBlock = block != ""
	r, found, err := p.fromJSON(body)
	switch {
	case found && err == nil:
		r, err = p.listsAgree(r, outside(body, p.jsonSpans))
	case err == nil:
		r, found, err = p.fromLists(body)
	}
	if found && err == nil {
		err = p.checkTurned(r)
	}
	if !found && err == nil && p.onlyProse(body) {
		r, found = p.fromSentence(body)
	}
	switch {
	case err != nil:
		return nil, unclosed, err
	case !found:
		return nil, unclosed, p.nothing(body)
	}
	picks, err := p.resolve(r)
	return picks, unclosed, err
}

// ParseInputs reads a structured answer: the inputs of a model's
// calls to the answer tool, as decoded JSON, in the order it
// made them, against the options' ids in the order the prompt showed them.
// The input asked for is the object of the text answer, {"picks":[{"id":…,
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
	if found && err == nil {
		err = p.checkTurned(r)
	}
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, p.nothing("")
	}
	return p.resolve(r)
}

// parser reads one answer against one set of candidates. Besides the
// readings it finds, it remembers what it set aside, so that an answer that
// does not count gets the reason that fits it best (see nothing).
type parser struct {
	ids    []string // the candidates' ids, in the order the prompt gave them
	idx    idIndex
	budget int // decode attempts left

	structured   bool      // the answer is the answer tool's input, not text
	echoed       int       // the most candidates a list set aside as an echo named
	flightsBlock bool      // the answer held a <flights> block, cut out
	placeholder  string    // a placeholder id from the prompt, if one was set aside
	turnedDown   []string  // the flights prose turned down, when it picked none, or that lead words turned down
	turned       []reading // what lead words turned down (see turnDown)
	jsonSpans    [][2]int  // where in the answer's body JSON values were decoded
	unclosed     string    // the tag of a reasoning block that never ended
	categories   []string  // the labels of entries set aside as categories, not a ranking
}

// onlyProse reports whether body is prose and nothing else was set aside
// in it: no JSON at all, no echo, no placeholder, no repeated data block.
func (p *parser) onlyProse(body string) bool {
	return !strings.Contains(body, "{") && p.echoed == 0 && p.placeholder == "" && !p.flightsBlock
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

// nothing is the error for an answer in which no list of picks was found:
// the most specific reason that fits.
func (p *parser) nothing(body string) *Error {
	switch {
	case p.unclosed != "":
		return answerErr("answer's %s reasoning never ends, so no answer follows it", p.unclosed)
	case p.echoed > 0 || p.flightsBlock:
		return p.echoRefusal()
	case p.placeholder != "" || copiesExample(body):
		return p.placeholderRefusal()
	case len(p.categories) > 0:
		return answerErr("answer labels flights by category (%s) without ranking them", listIDs(p.categories))
	}
	if len(p.turned) > 0 {
		return answerErr("answer turns down %s and picks no flight", listIDs(p.turnedDown))
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
