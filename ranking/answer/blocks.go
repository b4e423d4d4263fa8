package answer

import (
	"strings"
)

// reasoningTags are the blocks of a model's reasoning, cut out of the
// answer before it is read (the prompt's own data block is cut out too:
// see dataTags).
var reasoningTags = []string{"think", "thinking", "reasoning"}

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
