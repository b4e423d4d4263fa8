package ranking

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flightserver/flightserver/flights"
)

// LLMPick is one flight an LLM chose, with its reason as given (already
// cleaned).
type LLMPick struct {
	ID, Reason string
}

// AnswerError says why an LLM answer cannot be used, in words a person
// understands; the tools package shows Reason in the attempts list.
type AnswerError struct {
	Reason string
}

// Error returns the Reason.
func (e *AnswerError) Error() string { return e.Reason }

func answerErr(format string, args ...any) *AnswerError {
	return &AnswerError{Reason: fmt.Sprintf(format, args...)}
}

// Bounds on what ParseAnswer reads: the answer is hostile input.
const (
	// maxAnswerBytes is the longest answer examined. The answer asked for is
	// well under 1 KB.
	maxAnswerBytes = 64 << 10
	// maxPicksRead is how many entries of "picks" are read and checked;
	// later ones are ignored unread.
	maxPicksRead = 10
	// maxDecodeAttempts bounds the places ParseAnswer tries to decode a JSON
	// object from, so text full of '{' costs at most this many passes over
	// at most maxAnswerBytes each (a few milliseconds in all).
	maxDecodeAttempts = 50
	// maxFences bounds the code fences looked into.
	maxFences = 5
	// maxReasonRunes is the longest reason kept, ellipsis included.
	maxReasonRunes = 160
	// maxUnknownListed is how many unknown ids an AnswerError names.
	maxUnknownListed = 5
)

// ParseAnswer reads a model's answer: the JSON object asked for, also when
// wrapped in a ``` or ```json code fence or surrounded by prose. It counts
// only if it names at least one candidate id, only candidate ids, and no id
// twice. Otherwise the error is an *AnswerError.
//
// Finding the object: the content of each code fence is tried first, then
// the whole text; in each, a JSON object is decoded from each '{' in turn
// (at most 50 tries in all) until one has a "picks" array, so an object
// wrapped in another ({"answer":{"picks":...}}) is found too. An object
// holding values nested more than 16 deep is not read. Key names match
// case-insensitively ("Picks", "ID"), as encoding/json does.
//
// Reading the picks: only the first 10 entries of "picks" are read; later
// ones are ignored unread, and so are any fields other than "id" and
// "reason". Each of the 10 must be an object whose "id" is a non-empty
// string (a bare string is taken as an id with no reason); a reason that is
// missing or not a string is left empty. Callers that want n picks use the
// first n (FromAnswer does): extra picks are checked, then dropped.
//
// Matching ids: an id matches a candidate's exactly after trimming spaces;
// failing that, it matches case-insensitively, and as the prompt showed it
// (cleaned like the prompt's data), provided exactly one candidate matches
// that way. The pick then carries the candidate's real id. Models do change
// case now and then; real ids never differ only in case, and if two did,
// neither would match loosely.
//
// Reasons are cleaned: control and format characters removed, runs of
// white space (newlines included) made one space, trimmed, and cut to 160
// runes. A pick's Reason may be empty; FromAnswer then uses the flight's
// facts.
//
// ParseAnswer does not panic on any input, and examines at most the first
// 64 KB: a longer answer is an error.
func ParseAnswer(text string, candidates []flights.Flight) ([]LLMPick, error) {
	if len(text) > maxAnswerBytes {
		return nil, answerErr("answer too long (%d KB; at most %d KB is read)", (len(text)+1023)/1024, maxAnswerBytes>>10)
	}
	if strings.TrimSpace(text) == "" {
		return nil, answerErr("answer was empty")
	}
	raw, ok := findPicks(text)
	if !ok {
		return nil, answerErr(`answer is not the JSON object asked for ({"picks":[{"id":...,"reason":...}]})`)
	}
	entries, err := readEntries(raw)
	if err != nil { // cannot happen: findPicks decoded it
		return nil, answerErr(`answer is not the JSON object asked for ("picks" is not a list)`)
	}
	if len(entries) == 0 {
		return nil, answerErr("answer named no flights")
	}
	idx := newIDIndex(candidates)
	seen := make(map[int]bool)
	var (
		picks   []LLMPick
		unknown []string
		twice   string
	)
	for k, entry := range entries {
		id, reason, ok := readPick(entry)
		if !ok {
			return nil, answerErr(`answer pick %d has no flight id (a string in "id")`, k+1)
		}
		i, ok := idx.lookup(id)
		switch {
		case !ok:
			unknown = append(unknown, id)
		case seen[i]:
			if twice == "" {
				twice = candidates[i].ID
			}
		default:
			seen[i] = true
			picks = append(picks, LLMPick{ID: candidates[i].ID, Reason: cleanReason(reason)})
		}
	}
	if len(unknown) > 0 {
		return nil, unknownIDs(unknown)
	}
	if twice != "" {
		return nil, answerErr("answer named flight %s twice", flights.Quote(twice))
	}
	return picks, nil
}

// FromAnswer turns validated picks into a Ranking of n flights for tier: the
// model's picks first, in its order, with its reasons; if it picked fewer
// than n, the rest are completed from the deterministic order (w.Order over
// candidates, skipping picked ones) and their reason says so, e.g. "added
// from the deterministic order (the model picked only 1): $412, nonstop,
// 7h05m". Ranked=true, Method=tier, Considered=len(candidates). It does not
// set Attempts or Model.
//
// Picks beyond the first n are dropped. Picks not from ParseAnswer are
// handled safely: reasons are cleaned again, an empty reason becomes the
// flight's facts (Describe), and a pick naming no candidate, or one already
// picked, is skipped. The candidates slice is not changed.
func (w Weights) FromAnswer(tier Tier, candidates []flights.Flight, picks []LLMPick, n int) Ranking {
	r := Ranking{Method: tier, Ranked: true, Considered: len(candidates)}
	if n <= 0 {
		return r
	}
	byID := make(map[string]int, len(candidates))
	for i, f := range candidates {
		if _, dup := byID[f.ID]; !dup {
			byID[f.ID] = i
		}
	}
	picked := make(map[string]bool, n)
	for _, p := range picks {
		if len(r.Picks) == n {
			break
		}
		i, ok := byID[p.ID]
		if !ok || picked[p.ID] {
			continue
		}
		picked[p.ID] = true
		f := candidates[i]
		reason := cleanReason(p.Reason)
		if reason == "" {
			reason = Describe(f)
		}
		r.Picks = append(r.Picks, Pick{Flight: f, Reason: reason})
	}
	if len(r.Picks) == n || len(r.Picks) == len(candidates) {
		return r
	}
	byModel := "the model picked none"
	if k := len(r.Picks); k > 0 {
		byModel = fmt.Sprintf("the model picked only %d", k)
	}
	rest := slices.Clone(candidates)
	w.Order(rest)
	for _, f := range rest {
		if len(r.Picks) == n {
			break
		}
		if picked[f.ID] {
			continue
		}
		picked[f.ID] = true
		r.Picks = append(r.Picks, Pick{Flight: f, Reason: fmt.Sprintf("added from the deterministic order (%s): %s", byModel, Describe(f))})
	}
	return r
}

// findPicks finds the answer's JSON object and returns its "picks" array,
// raw. See ParseAnswer for where it looks.
//
// Each try first finds where the object would end by matching brackets
// outside strings (a fast byte loop that gives up past maxDepth), and only
// then decodes that much. So a try costs one cheap pass over the rest of the
// text at most, and text nested thousands deep cannot make each of the 50
// tries expensive.
func findPicks(text string) (json.RawMessage, bool) {
	budget := maxDecodeAttempts
	for _, region := range append(fences(text), text) {
		for i := 0; budget > 0; {
			j := strings.IndexByte(region[i:], '{')
			if j < 0 {
				break
			}
			i += j
			budget--
			end := objectEnd(region[i:])
			if end < 0 {
				i++ // no object closes here: try the next '{'
				continue
			}
			var obj struct {
				Picks json.RawMessage `json:"picks"`
			}
			if json.Unmarshal([]byte(region[i:i+end]), &obj) == nil {
				if p := bytes.TrimSpace(obj.Picks); len(p) > 0 && p[0] == '[' {
					return p, true
				}
			}
			i++ // not JSON, or no picks: try the next '{', which may be inside
		}
	}
	return nil, false
}

// maxDepth is the deepest nesting of objects and arrays findPicks decodes.
// The answer asked for is three deep.
const maxDepth = 16

// objectEnd returns the length of the bracketed value that starts s (s[0]
// is '{'), matching brackets outside JSON strings, or -1 if it does not close
// or nests deeper than maxDepth. It does not check that the value is JSON.
func objectEnd(s string) int {
	depth, inString, escaped := 0, false, false
	for i := range len(s) {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > maxDepth {
				return -1
			}
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// readEntries reads the first maxPicksRead entries of a JSON array, raw,
// without decoding the rest.
func readEntries(array json.RawMessage) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(array))
	if _, err := dec.Token(); err != nil { // '['
		return nil, err
	}
	var out []json.RawMessage
	for len(out) < maxPicksRead && dec.More() {
		var e json.RawMessage
		if err := dec.Decode(&e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
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

// readPick reads one entry of "picks": an object with a string "id" and
// perhaps a string "reason", or a bare string id. ok is false when there is
// no non-empty id.
func readPick(entry json.RawMessage) (id, reason string, ok bool) {
	str := func(raw json.RawMessage) (string, bool) {
		var s string
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	if s, isStr := str(entry); isStr {
		id = s
	} else {
		var obj struct {
			ID     json.RawMessage `json:"id"`
			Reason json.RawMessage `json:"reason"`
		}
		if json.Unmarshal(entry, &obj) != nil {
			return "", "", false
		}
		id, _ = str(obj.ID)
		reason, _ = str(obj.Reason)
	}
	id = strings.TrimSpace(id)
	return id, reason, id != ""
}

// idIndex finds candidates by the ids a model gives.
type idIndex struct {
	exact map[string]int
	// loose maps looseKey(id) to a candidate, or to -1 when several
	// candidates share the key.
	loose map[string]int
}

func newIDIndex(candidates []flights.Flight) idIndex {
	x := idIndex{exact: make(map[string]int, len(candidates)), loose: make(map[string]int, len(candidates))}
	for i, f := range candidates {
		if _, dup := x.exact[f.ID]; !dup {
			x.exact[f.ID] = i
		}
		k := looseKey(f.ID)
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
	return strings.ToLower(cleanField(strings.TrimSpace(id), maxIDRunes))
}

// unknownIDs is the error for ids that name no candidate: at most
// maxUnknownListed of them, each quoted and shortened by flights.Quote.
func unknownIDs(ids []string) *AnswerError {
	if len(ids) == 1 {
		return answerErr("answer named an unknown flight id: %s", flights.Quote(ids[0]))
	}
	listed := make([]string, 0, maxUnknownListed)
	for _, id := range ids[:min(len(ids), maxUnknownListed)] {
		listed = append(listed, flights.Quote(id))
	}
	s := "answer named unknown flight ids: " + strings.Join(listed, ", ")
	if more := len(ids) - len(listed); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return &AnswerError{Reason: s}
}

// cleanReason makes a model's reason fit one line for people: control and
// format characters dropped, white space runs (newlines included) made one
// space, trimmed, and cut to maxReasonRunes with an ellipsis. Invalid UTF-8
// becomes U+FFFD.
func cleanReason(s string) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsGraphic(r) {
			return r
		}
		return -1
	}, s)), " ")
	if utf8.RuneCountInString(s) <= maxReasonRunes {
		return s
	}
	r := []rune(s)[:maxReasonRunes-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}
