package answer

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

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

// fenceSpans returns where the contents of the text's ``` code fences are,
// at most maxFences of them, info strings ("json") included: they hold no
// '{'. An unclosed fence runs to the end of the text.
func fenceSpans(text string) [][2]int {
	var out [][2]int
	at := 0
	for len(out) < maxFences {
		start := strings.Index(text[at:], "```")
		if start < 0 {
			break
		}
		at += start + 3
		end := strings.Index(text[at:], "```")
		if end < 0 {
			out = append(out, [2]int{at, len(text)})
			break
		}
		out = append(out, [2]int{at, at + end})
		at += end + 3
	}
	return out
}
