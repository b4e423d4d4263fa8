package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rule for what a person can see in one line of text, which every
// cleaner of untrusted text shares (a model's reasons, a client's model
// name, errors and root URIs, a passenger's name): only what shows may
// stay, so that nothing can ride along unseen, an API key written as
// variation selectors (one byte each) or instructions to the host's model
// written in the tag block.
//
// Visible are letters, numbers, punctuation and symbols. Combining marks
// show only on what they follow: they stay directly after a letter or
// number, or after another mark that stayed (Devanagari's vowel signs,
// stacked accents), MaxMarks at most on one letter: a deeper stack
// ("Zalgo" text) is no writing system's, and spills over the lines around
// it. White space is a space. Never kept: controls (Cc), format
// characters (Cf: bidi overrides and isolates, zero-width spaces and
// joiners, the tag block, the soft hyphen), variation selectors, the
// other default-ignorable code points that Unicode files as letters or
// marks (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the
// combining grapheme joiner U+034F, Khmer's inherent vowels), the blank
// symbols U+2800 (braille pattern blank) and U+1D159 (musical null
// notehead), private use, surrogates, noncharacters and unassigned code
// points.
//
// The zero-width joiner goes too, so an emoji sequence joined by it (👨‍👩‍👧)
// shows as its parts (👨👩👧), and U+FE0F no longer asks for an emoji's
// colour form: between letters the joiner is invisible, and a rule that
// kept it only between emoji would still let it carry a bit a person cannot
// see.

// Visible reports whether a person sees r on its own in a line of text: a
// letter, number, punctuation or symbol, and none of the invisible ones
// above. Combining marks and white space are not Visible: see Mark and Line.
func Visible(r rune) bool {
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) && !hidden(r)
}

// Mark reports whether r is a combining mark that a person sees on the
// letter or number it follows (not a variation selector, nor another
// invisible mark). It shows only there: Line keeps it only there.
func Mark(r rune) bool {
	return unicode.Is(unicode.M, r) && !hidden(r)
}

// MaxMarks is how many combining marks Line keeps on one letter or number:
// more than the deepest stacks of real writing (a fully pointed Hebrew
// letter with its cantillation, a Tibetan stack with its vowel sign: four
// or five), a fraction of what flooding text piles up.
const MaxMarks = 8

// hidden reports whether r is a letter, mark or symbol that shows nothing.
func hidden(r rune) bool {
	return r == 0x2800 || r == 0x1D159 ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// Line is s with only what a person sees in one line of text: Visible
// runes, Marks directly after a Visible letter or number in s (or after a
// Mark kept there), MaxMarks of them at most, and each white space rune
// (a space separator, a tab, a newline, a line or paragraph separator) as
// one ' '. Everything else is dropped, invalid UTF-8 becomes U+FFFD, and
// the result is always valid UTF-8. It neither trims, nor joins spaces,
// nor cuts: each caller has its own limits.
func Line(s string) string {
	if isPlain(s) {
		return s // the usual case: nothing to do
	}
	var b strings.Builder
	b.Grow(len(s))
	base := false // the rune before is a letter, number or mark, kept
	marks := 0    // the marks kept on it
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte(' ')
			base = false
		case Mark(r):
			if base && marks < MaxMarks {
				b.WriteRune(r)
				marks++
			} // else: a mark after a dropped one, or past MaxMarks, is dropped
		case Visible(r):
			b.WriteRune(r)
			base, marks = unicode.In(r, unicode.L, unicode.N), 0
		default:
			base = false
		}
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, which Line keeps as it is.
func isPlain(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < ' ' || c >= utf8.RuneSelf || c == 0x7f {
			return false
		}
	}
	return true
}
