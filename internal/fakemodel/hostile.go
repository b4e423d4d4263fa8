package fakemodel

import (
	"fmt"
	"strings"
	"unicode"
)

// Disguise is a hostile model's answer that picks real candidates and hides
// an API key in what it writes, the way an endpoint that holds the key (it
// arrives with every request) could write it back to get it past a guard
// that reads only the raw text.
type Disguise struct {
	Name string
	// Reply writes the answer for a ranking prompt, as the model's raw text.
	Reply func(prompt string) string
	// Unseen says the key hides in runes no person sees, which the answer
	// reader drops: where the server reads the raw answer (its own
	// endpoint's) the guard refuses it, but where it reads only what a
	// result would show (a client's model's) the answer ranks, without the
	// key, and its reasons read Shown.
	Unseen bool
	Shown  string
}

// Disguises are the ways of hiding key in an answer that the server must
// see through: escaped, spaced out, split by zero-width
// characters, divided between the three reasons whole or in pieces among
// other words, the key as an escaped flight id, which the answer reader's
// error would quote, and the key in variation selectors, which no person
// sees.
func Disguises(key string) []Disguise {
	escaped := func(s, between string) string { // each character a JSON \u escape
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, `\u%04x%s`, r, between)
		}
		return b.String()
	}
	third := len(key) / 3
	answer := func(reasons ...string) func(string) string {
		return func(prompt string) string {
			ids := Choose(IDs(prompt))
			var picks []string
			for i, id := range ids {
				picks = append(picks, fmt.Sprintf(`{"id":%q,"reason":"%s"}`, id, reasons[i%len(reasons)]))
			}
			return "Here is my ranking:\n```json\n{\"picks\":[" + strings.Join(picks, ",") + "]}\n```"
		}
	}
	return []Disguise{
		{Name: "escaped", Reply: answer("Cheapest, and my key is " + escaped(key, ""))},
		{Name: "spaced", Reply: answer("Cheapest: " + strings.Join(strings.Split(key, ""), " "))},
		{Name: "zero-width split", Reply: answer("Cheapest " + escaped(key, `\u200b`))},
		{Name: "divided between the reasons", Reply: answer("Cheapest "+key[:third], "fast "+key[third:2*third], "direct "+key[2*third:])},
		{Name: "in pieces among words", Reply: answer("nice "+key[len(key)-18:len(key)-12]+" fare", "good "+key[len(key)-12:len(key)-6]+" times",
			"short "+key[len(key)-6:]+" trip")},
		{Name: "an escaped flight id", Reply: func(prompt string) string {
			return `{"picks":[{"id":"` + escaped(key, "") + `","reason":"the best"}]}`
		}},
		{Name: "in variation selectors", Reply: answer("Cheapest nonstop" + Selectors(key)), Unseen: true, Shown: "Cheapest nonstop"},
	}
}

// Selectors writes s as variation selectors, one a byte (U+FE00–U+FE0F for
// 0–15, U+E0100–U+E01EF for 16–255): text no person sees, that a program
// reads back with Unselect.
func Selectors(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c < 16 {
			b.WriteRune(rune(0xFE00 + int(c)))
		} else {
			b.WriteRune(rune(0xE0100 + int(c) - 16))
		}
	}
	return b.String()
}

// Unselect is the bytes that the variation selectors in s stand for (see
// Selectors), the rest of s dropped.
func Unselect(s string) string {
	var out []byte
	for _, r := range s {
		switch {
		case r >= 0xFE00 && r <= 0xFE0F:
			out = append(out, byte(r-0xFE00))
		case r >= 0xE0100 && r <= 0xE01EF:
			out = append(out, byte(r-0xE0100+16))
		}
	}
	return string(out)
}

// Pieces lists the 5-character pieces of key, its letters and digits in
// lower case, that texts hold once they are read the same way: what a test
// checks after a Disguise, that none of the key got through, written out or
// in variation selectors (Unselect). It is written
// apart from the server's own guard (llm/key.go), and is stricter (any one
// piece of 5 counts), so a gap in the guard cannot hide a leak from it.
func Pieces(key string, texts ...string) []string {
	fold := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	joined := strings.Join(texts, "")
	// The key written in variation selectors counts as written out.
	k, t := fold(key), fold(joined)+fold(Unselect(joined))
	var found []string
	for i := 0; i+5 <= len(k); i++ {
		if strings.Contains(t, k[i:i+5]) {
			found = append(found, k[i:i+5])
		}
	}
	return found
}
