// Package fakeclient plays the client side of an MCP host the way real hosts
// behave, for the tests and the demo: the host's model answering sampling
// requests (a stand-in that reads the candidates in the prompt), a user who
// rejects them, a host that never answers, a model that answers nonsense;
// and a user facing an elicitation form, who fills it, declines, dismisses
// it or never looks.
//
// It is deterministic, so a test can assert which flights it picked.
package fakeclient

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakemodel"
)

// Behaviour is what the client does with a sampling request: what its
// model does (fakemodel.Answers, fakemodel.UnknownIDs, fakemodel.Garbage),
// or what the host does instead (below); with a form, what its user does
// (form.go).
type Behaviour string

// The behaviours a host shows around its model.
const (
	// Rejects: the user says no at the approval prompt.
	Rejects Behaviour = "rejects"
	// Silent: the host never answers (no UI, a stuck approval dialog).
	Silent Behaviour = "silent"
	// Fails: the host answers with an error of its own (no model
	// selected, out of quota).
	Fails Behaviour = "fails"
)

// FailMessage is what a failing host says.
const FailMessage = "no model is available to answer"

// RejectMessage is what a rejecting host says (VS Code and the official
// SDKs use this wording with code -1).
const RejectMessage = "User rejected sampling request"

// Sampler is an mcp-go client.SamplingHandler with a scripted behaviour. It
// records the requests it received so tests can check their shape.
type Sampler struct {
	Behaviour Behaviour
	// Reply, when set, writes an answering model's text from the prompt's
	// (a shape of answer a test wants to see through the rung).
	Reply func(prompt string) string

	requests received[mcp.CreateMessageRequest]
}

// Requests returns the sampling requests received so far.
func (s *Sampler) Requests() []mcp.CreateMessageRequest { return s.requests.all() }

// CreateMessage implements client.SamplingHandler.
func (s *Sampler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	s.requests.add(req)

	prompt := promptText(req)
	switch s.Behaviour {
	case fakemodel.Answers:
		if len(fakemodel.IDs(prompt)) == 0 {
			return nil, errors.New("scripted: no flight ids in the prompt")
		}
	case Rejects:
		//lint:ignore ST1005 the exact words hosts send, capital and all.
		return nil, errors.New(RejectMessage)
	case Silent:
		<-ctx.Done()
		return nil, ctx.Err()
	case Fails:
		return nil, errors.New(FailMessage)
	}
	text, ok := fakemodel.Reply(string(s.Behaviour), prompt, s.Reply)
	if !ok {
		return nil, fmt.Errorf("scripted: unknown behaviour %q", s.Behaviour)
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
		Model:           fakemodel.Model,
		StopReason:      "endTurn",
	}, nil
}

// PromptIDs lists the flight ids in a sampling request's messages, in the
// order the prompt gives them.
func PromptIDs(req mcp.CreateMessageRequest) []string {
	return fakemodel.IDs(promptText(req))
}

// promptText is a sampling request's text messages, joined.
func promptText(req mcp.CreateMessageRequest) string {
	var text strings.Builder
	for _, m := range req.Messages {
		// Content arrives typed or as generic JSON depending on the era
		// and transport: normalise before reading.
		content, err := mcp.ParseSamplingContent(m.Content)
		if err != nil {
			continue
		}
		if tc, ok := mcp.AsTextContent(content); ok {
			text.WriteString(tc.Text + "\n")
		}
	}
	return text.String()
}
