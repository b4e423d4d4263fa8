// Package scripted plays the client side of sampling the way real hosts
// behave, for the tests and the demo: a stand-in LLM that actually reads
// the candidates in the prompt, a user who rejects, a host that never
// answers, a model that answers with nonsense.
//
// It is deterministic, so a test can assert which flights it picked.
package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Behaviour is what the client does with a sampling request.
type Behaviour string

// The behaviours a host shows.
const (
	// Answers: the model reads the flights and answers as asked.
	Answers Behaviour = "answers"
	// UnknownIDs: the model invents flight ids.
	UnknownIDs Behaviour = "unknown-ids"
	// Garbage: the model chats instead of answering in JSON.
	Garbage Behaviour = "garbage"
	// Rejects: the user says no at the approval prompt.
	Rejects Behaviour = "rejects"
	// Silent: the host never answers (no UI, a stuck approval dialog).
	Silent Behaviour = "silent"
)

// Model is the model name the stand-in reports.
const Model = "scripted-llm-1"

// RejectMessage is what a rejecting host says (VS Code and the official
// SDKs use this wording with code -1).
const RejectMessage = "User rejected sampling request"

var flightID = regexp.MustCompile(`\b[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}\b`)

// Sampler is an mcp-go client.SamplingHandler with a scripted behaviour. It
// records the requests it received so tests can check their shape.
type Sampler struct {
	Behaviour Behaviour

	mu       sync.Mutex
	requests []mcp.CreateMessageRequest
}

// Requests returns the sampling requests received so far.
func (s *Sampler) Requests() []mcp.CreateMessageRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]mcp.CreateMessageRequest(nil), s.requests...)
}

// CreateMessage implements client.SamplingHandler.
func (s *Sampler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	var text string
	switch s.Behaviour {
	case Answers:
		ids := PromptIDs(req)
		if len(ids) == 0 {
			return nil, errors.New("scripted: no flight ids in the prompt")
		}
		text = Answer(Choose(ids)...)
	case UnknownIDs:
		text = Answer("XX-YY-000000-X9X9X", "Q1")
	case Garbage:
		text = "Honestly, they all look lovely. I'd take the one with the nicest meal."
	case Rejects:
		//lint:ignore ST1005 the exact words hosts send, capital and all.
		return nil, errors.New(RejectMessage)
	case Silent:
		<-ctx.Done()
		return nil, ctx.Err()
	default:
		return nil, fmt.Errorf("scripted: unknown behaviour %q", s.Behaviour)
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
		Model:           Model,
		StopReason:      "endTurn",
	}, nil
}

// PromptIDs lists the flight ids in a sampling request's messages, in the
// order the prompt gives them.
func PromptIDs(req mcp.CreateMessageRequest) []string {
	var ids []string
	seen := map[string]bool{}
	for _, m := range req.Messages {
		// Content arrives typed or as generic JSON depending on the era
		// and transport: normalise before reading.
		content, err := mcp.ParseSamplingContent(m.Content)
		if err != nil {
			continue
		}
		tc, ok := mcp.AsTextContent(content)
		if !ok {
			continue
		}
		for _, id := range flightID.FindAllString(tc.Text, -1) {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
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
