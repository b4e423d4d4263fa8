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
}

// Disguises are the ways of hiding key in an answer that the server must
// see through: escaped, spaced out, split by zero-width
// characters, divided between the three reasons whole or in pieces among
// other words, and the key as an escaped flight id, which the answer
// reader's error would quote.
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
		{"escaped", answer("Cheapest, and my key is " + escaped(key, ""))},
		{"spaced", answer("Cheapest: " + strings.Join(strings.Split(key, ""), " "))},
		{"zero-width split", answer("Cheapest " + escaped(key, `\u200b`))},
		{"divided between the reasons", answer("Cheapest "+key[:third], "fast "+key[third:2*third], "direct "+key[2*third:])},
		{"in pieces among words", answer("nice "+key[len(key)-18:len(key)-12]+" fare", "good "+key[len(key)-12:len(key)-6]+" times",
			"short "+key[len(key)-6:]+" trip")},
		{"an escaped flight id", func(prompt string) string {
			return `{"picks":[{"id":"` + escaped(key, "") + `","reason":"the best"}]}`
		}},
	}
}

// Pieces lists the 5-character pieces of key, its letters and digits in
// lower case, that texts hold once they are read the same way: what a test
// checks after a Disguise, that none of the key got through. It is written
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
	k, t := fold(key), fold(strings.Join(texts, ""))
	var found []string
	for i := 0; i+5 <= len(k); i++ {
		if strings.Contains(t, k[i:i+5]) {
			found = append(found, k[i:i+5])
		}
	}
	return found
}
