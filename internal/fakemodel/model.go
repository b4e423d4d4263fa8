// Package fakemodel is the stand-in LLM of the tests and the demo: it reads
// the flight ids in the ranking prompt and picks deterministically, so a test
// can assert which flights it chose and see that its ranking is its own.
// The client stand-ins (fakeclient) and the endpoint stand-in (fakeendpoint)
// both answer with its taste.
package fakemodel

import (
	"encoding/json"
	"regexp"
)

// Model is the model name the stand-in reports through sampling.
const Model = "scripted-llm-1"

var flightID = regexp.MustCompile(`\b[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}\b`)

// IDs lists the flight ids in a text, in order, each once.
func IDs(text string) []string {
	var ids []string
	seen := map[string]bool{}
	for _, id := range flightID.FindAllString(text, -1) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// Choose is the stand-in model's taste: it prefers the flights listed last
// (the prompt lists the deterministic favourites first), so its ranking is
// visibly its own. It picks up to three.
func Choose(ids []string) []string {
	var out []string
	for i := len(ids) - 1; i >= 0 && len(out) < 3; i-- {
		out = append(out, ids[i])
	}
	return out
}

// Answer writes picks in the format the prompt asks for, wrapped the way
// chatty models do: a sentence and a fenced block.
func Answer(ids ...string) string {
	type pick struct {
		ID     string `json:"id"`
		Reason string `json:"reason"`
	}
	var ps []pick
	for _, id := range ids {
		ps = append(ps, pick{ID: id, Reason: "scripted choice"})
	}
	b, _ := json.Marshal(map[string]any{"picks": ps})
	return "Here is my ranking:\n```json\n" + string(b) + "\n```"
}
