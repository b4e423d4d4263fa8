package answer

import (
	"strings"
)

// reasoningTags are the blocks of a model's reasoning, cut out of the
// answer before it is read (the prompt's own data block is cut out too:
// see dataTags).
var reasoningTags = []string{"think", "thinking", "reasoning"}

// blockRules say how cutBlocks treats the blocks of one kind.
type blockRules struct {
	// orphanClose: a closing tag met before any opening one ends a block
	// that began with the text: some APIs send a reasoning model's answer
	// without the opening tag, which was part of the prompt template.
	orphanClose bool
	// keepUnclosed, if set, reports whether an opening tag at text[at:]
	// that never closes is a word of the text, left in it, rather than a
	// block that runs to the end of the text.
	keepUnclosed func(text string, at, n int) bool
}

// The rules for the model's reasoning and for the prompt's data block.
var (
	// reasoningRules: a reasoning block that does not close is a draft that
	// runs to the end (see Parse for the reading that leaves a tag named
	// in mid-line as a word).
	reasoningRules = blockRules{orphanClose: true}
	// dataRules: a data block is cut when it closes, or when it begins a
	// line and the lines after it are the prompt's data; a tag named in a
	// sentence ("the flights in the <flights> block") is a word.
	dataRules = blockRules{keepUnclosed: func(text string, at, n int) bool {
		return !beginsLine(text, at) || !holdsDataLines(text[at+n:])
	}}
	// reasoningNamedRules: reasoning, with a tag that never closes and
	// stands in mid-line ("I kept my reasoning out of <thinking> tags")
	// left as a word.
	reasoningNamedRules = blockRules{orphanClose: true, keepUnclosed: func(text string, at, _ int) bool {
		return !beginsLine(text, at)
	}}
)

// cutBlocks removes from text every block that opens with <tag> and closes
// with </tag>, for the tags given, matched case-insensitively, not nested.
// A block that does not close runs to the end of the text (unclosed is
// then true), unless the rules keep its tag as a word of the text. found is
// the first tag cut, as "<tag>", or "". One pass over the text.
func cutBlocks(text string, tags []string, rules blockRules) (body, found string, unclosed bool) {
	low := asciiLower(text)
	var b strings.Builder
	last := 0 // text[last:] is not yet copied
	neverCloses := make(map[string]bool)
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
			if rules.orphanClose && found == "" {
				last = i + n // what came before was a block
				b.Reset()
				found = "<" + tag + ">"
			}
			i += n
			continue
		}
		end := -1
		if !neverCloses[tag] {
			end = strings.Index(low[i+n:], "</"+tag+">")
		}
		if end < 0 && rules.keepUnclosed != nil && rules.keepUnclosed(text, i, n) {
			neverCloses[tag] = true // nor will a later one: one pass in all
			i += n
			continue
		}
		b.WriteString(text[last:i])
		if found == "" {
			found = "<" + tag + ">"
		}
		if end < 0 {
			return b.String(), found, true
		}
		i += n + end + len(tag) + 3
		last = i
	}
	b.WriteString(text[last:])
	return b.String(), found, false
}

// beginsLine reports whether only spaces come before text[at:] on its line.
func beginsLine(text string, at int) bool {
	for k := at - 1; k >= 0; k-- {
		switch text[k] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// maxDataProbe is how many lines after a data tag are looked at for the
// prompt's data, and
// maxDataProbeBytes bounds the text looked at for them.
const (
	maxDataProbe      = 3
	maxDataProbeBytes = 2 << 10
)

// holdsDataLines reports whether one of the first maxDataProbe non-blank
// lines of s is a line of the prompt's data: fields parted by '|', at
// least three of them, not a markdown table's row (which starts with '|').
func holdsDataLines(s string) bool {
	s = s[:min(len(s), maxDataProbeBytes)]
	for k := 0; k < maxDataProbe && s != ""; {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		k++
		if !strings.HasPrefix(t, "|") && strings.Count(t, "|") >= 2 {
			return true
		}
	}
	return false
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
