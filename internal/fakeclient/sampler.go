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
	"github.com/flightserver/flightserver/ranking"
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
//
// Offered tools (sampling with tools), an answering model does what one
// told to call a tool does: it calls the answer tool (ranking.AnswerTool)
// with its picks as the input, in a tool_use block, unless Tools says
// otherwise.
type Sampler struct {
	Behaviour Behaviour
	// Reply, when set, writes an answering model's text from the prompt's
	// (a shape of answer a test wants to see through the rung).
	Reply func(prompt string) string
	// Input, when set, writes the input an answering model calls the
	// answer tool with, from the prompt's (a shape of structured answer a
	// test wants to see through the rung).
	Input func(prompt string) any
	// Tools is what the model does with a request that offers tools.
	Tools ToolUse
	// Preamble, when set, is text the model writes before its tool call,
	// in a text block of its own (models often say what they are doing).
	Preamble string

	requests received[mcp.CreateMessageRequest]
}

// ToolUse is what a model does with the tools a sampling request offers.
type ToolUse string

const (
	// CallsTool (the default): it calls the answer tool.
	CallsTool ToolUse = ""
	// IgnoresTools: it answers in text anyway, as some hosts make it.
	IgnoresTools ToolUse = "ignores"
	// CallsOtherTool: it calls a tool of another name (OtherTool).
	CallsOtherTool ToolUse = "other"
)

// OtherTool is the tool a CallsOtherTool model calls.
const OtherTool = "search_web"

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
	if offersAnswerTool(req) && s.Tools != IgnoresTools && s.Behaviour == fakemodel.Answers {
		return s.callTool(prompt), nil
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

// callTool is the model's tool call: the answer tool with its picks (or
// Input's), or another tool, after the Preamble if there is one.
func (s *Sampler) callTool(prompt string) *mcp.CreateMessageResult {
	name, input := ranking.AnswerTool, any(fakemodel.AnswerInput(fakemodel.Choose(fakemodel.IDs(prompt))...))
	if s.Input != nil {
		input = s.Input(prompt)
	}
	if s.Tools == CallsOtherTool {
		name, input = OtherTool, map[string]any{"query": "flights JFK to LHR"}
	}
	var content any = mcp.NewToolUseContent("call_1", name, input)
	if s.Preamble != "" {
		content = []mcp.Content{mcp.NewTextContent(s.Preamble), mcp.NewToolUseContent("call_1", name, input)}
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: content},
		Model:           fakemodel.Model,
		StopReason:      "toolUse",
	}
}

// offersAnswerTool reports whether a sampling request offers the answer
// tool.
func offersAnswerTool(req mcp.CreateMessageRequest) bool {
	for _, t := range req.Tools {
		if t.Name == ranking.AnswerTool {
			return true
		}
	}
	return false
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
