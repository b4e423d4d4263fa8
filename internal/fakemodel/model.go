// Package fakemodel is the stand-in LLM of the tests and the demo: it reads
// the flight ids in the ranking prompt and picks deterministically, so a test
// can assert which flights it chose and see that its ranking is its own.
// The client stand-ins (fakeclient) and the endpoint stand-in (fakeendpoint)
// both answer with its taste.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Model is the model name the stand-in reports through sampling.
const Model = "scripted-llm-1"

// What the model does with a ranking prompt. The client and endpoint
// stand-ins take these as behaviours of theirs (untyped, so each keeps its
// own Behaviour type) and add what a host or an API does around a model: a
// user who rejects, a host or a server that never answers, HTTP errors.
const (
	// Answers: the model reads the flights and answers as asked.
	Answers = "answers"
	// UnknownIDs: the model invents flight ids.
	UnknownIDs = "unknown-ids"
	// Garbage: the model chats instead of answering in JSON.
	Garbage = "garbage"
)

// Reply is the model's text for prompt when it behaves as behaviour (one
// of the above); reply, when not nil, writes an answering model's text
// instead (a shape of answer a test wants to see through the rung). ok is
// false for a behaviour that is not the model's, for the stand-in around it
// to play.
func Reply(behaviour, prompt string, reply func(prompt string) string) (text string, ok bool) {
	switch behaviour {
	case Answers:
		if reply != nil {
			return reply(prompt), true
		}
		return Answer(Choose(IDs(prompt))...), true
	case UnknownIDs:
		return Answer("XX-YY-000000-X9X9X", "Q1"), true
	case Garbage:
		return "Honestly, they all look lovely. I'd take the one with the nicest meal.", true
	}
	return "", false
}

// flightID matches a flight's id, or a round trip's (two joined by "_").
var flightID = regexp.MustCompile(`\b[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}(?:_[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5})?\b`)

// IDs lists the option ids in a text (flights' or round trips'), in
// order, each once.
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
	b, _ := json.Marshal(AnswerInput(ids...))
	return "Here is my ranking:\n```json\n" + string(b) + "\n```"
}

// AnswerInput is the answer as the input of the answer tool, decoded JSON
// as a client passes it on: {"picks":[{"id":…,"reason":"scripted choice"}]}.
func AnswerInput(ids ...string) map[string]any {
	picks := make([]any, 0, len(ids))
	for _, id := range ids {
		picks = append(picks, map[string]any{"id": id, "reason": "scripted choice"})
	}
	return map[string]any{"picks": picks}
}

// placeholder is how answer templates name flights: {{id N}} is the Nth
// flight of the prompt, {{lower N}} the same in lower case, and {{flights}}
// the prompt's whole data block.
var placeholder = regexp.MustCompile(`\{\{(?:(id|lower) (\d+)|flights)\}\}`)

// Fill writes an answer template (the corpus under
// ranking/answer/testdata/answers) as a model would answer this prompt: with the
// ids the prompt showed. It fails on a placeholder the prompt cannot fill.
func Fill(template, prompt string) (string, error) {
	ids := IDs(prompt)
	var bad string
	text := placeholder.ReplaceAllStringFunc(template, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		if sub[1] == "" {
			start, end := strings.Index(prompt, "<flights>"), strings.Index(prompt, "</flights>")
			if start < 0 || end < start {
				bad = m
				return m
			}
			return prompt[start : end+len("</flights>")]
		}
		n, _ := strconv.Atoi(sub[2])
		if n < 1 || n > len(ids) {
			bad = m
			return m
		}
		if sub[1] == "lower" {
			return strings.ToLower(ids[n-1])
		}
		return ids[n-1]
	})
	if i := strings.Index(text, "{{"); bad != "" || i >= 0 {
		return "", fmt.Errorf("placeholder %q names no flight of the prompt, or is not one of {{id N}}, {{lower N}}, {{flights}}", bad+text[max(i, 0):min(max(i, 0)+20, len(text))])
	}
	return text, nil
}
