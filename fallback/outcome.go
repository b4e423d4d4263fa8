package fallback

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/problem"
)

// Every result says which path the call took and why, in one vocabulary:
// a successful result's structuredContent has "attempts", and an isError
// result carries the same attempts, with an error code, in _meta.

// AttemptOut is one decision in a result: the "attempts" of every tool. Its
// schema's descriptions are generic; a tool names its own steps in them
// (DefineTool's RefineOutput).
type AttemptOut struct {
	Step      string `json:"step" jsonschema:"the step this decision is about, from the tool's fixed list"`
	Outcome   string `json:"outcome" jsonschema:"used, skipped (not tried: unavailable or not asked for) or failed (tried, with no usable result; the next rung ran)"`
	Why       string `json:"why,omitempty" jsonschema:"for skipped and failed: the cause, from a fixed list (client_cannot_ask, user_declined, user_rejected, no_answer, no_time, not_configured, ...; see docs/FALLBACKS.md)"`
	Reason    string `json:"reason" jsonschema:"the cause in words, for people"`
	ElapsedMs int64  `json:"elapsedMs"`
	Answer    string `json:"answer,omitempty" jsonschema:"for a step that asked a model and got an answer: how the answer came, structured (the model called the answer tool it was offered, because the client declared sampling.tools) or text (what the model wrote, read leniently)"`
}

// AttemptsOut is the attempts as a result lists them.
func AttemptsOut(as []Attempt) []AttemptOut {
	out := make([]AttemptOut, len(as))
	for i, a := range as {
		// max: an elapsed time measured across replicas with skewed clocks
		// must not come out negative.
		out[i] = AttemptOut{Step: a.Step, Outcome: string(a.Outcome), Why: string(a.Why), Reason: a.Reason,
			ElapsedMs: max(0, a.Elapsed.Milliseconds()), Answer: string(a.Answer)}
	}
	return out
}

// An isError result carries its machine-readable details (ToolError) in
// _meta, under the engine's Config.ErrorMetaKey.
//
// They are not in structuredContent, because validating clients (the
// official TypeScript SDK 1.x that most desktop hosts embed, the Inspector)
// check structuredContent against the tool's output schema on every result,
// isError ones included, and reject the whole result when it does not
// match: the user would never see the message. A result without
// structuredContent passes everywhere, and _meta is where the protocol
// keeps data for programs rather than models.

// Error codes of ToolError.Error that mean the same for every tool; a
// tool adds its own (tools: not_booked, trip_details_needed, ...).
const (
	// ErrorInvalidArguments: the arguments are wrong; Fields says how.
	ErrorInvalidArguments = "invalid_arguments"
	// ErrorStateRefused: a modern retry's requestState cannot be used.
	ErrorStateRefused = "state_refused"
	// ErrorCancelled: the call was cancelled before it could finish.
	ErrorCancelled = "cancelled"
	// ErrorBusy: the server had no room for the work in time;
	// RetryAfterSeconds says when to call again.
	ErrorBusy = "busy"
)

// ToolError is the machine-readable half of an isError result, under
// the engine's error meta key in its _meta; the text says the same for people.
type ToolError struct {
	Error string `json:"error"`
	// Why is the cause, from the fallback vocabulary (or a tool's own, such
	// as tools' trip-details Why* values).
	Why    string `json:"why,omitempty"`
	Reason string `json:"reason,omitempty"`
	// AskedUser says whether the server showed the user a form (trip
	// details): true means the form reached the client and the user did not
	// give the details; false means no form was sent (the client cannot
	// show one, or there was no time or round left to ask).
	AskedUser *bool `json:"askedUser,omitempty"`
	// Fields are the problems with the arguments or the details still
	// needed: each field, what is wrong and what is accepted.
	Fields   []Problem    `json:"fields,omitempty"`
	Attempts []AttemptOut `json:"attempts,omitempty"`
	// RetryAfterSeconds, on a busy error, is when to call again.
	RetryAfterSeconds int `json:"retryAfterSeconds,omitempty"`
}

// Fail is an isError result with text for people and the details for
// programs; detail may be nil (then only the code and the attempts).
func (c *Call) Fail(code, text string, detail *ToolError) *mcp.CallToolResult {
	d := ToolError{}
	if detail != nil {
		d = *detail
	}
	d.Error = code
	c.errorCode = code
	if len(c.attempts) > 0 {
		d.Attempts = AttemptsOut(c.attempts)
	}
	res := mcp.NewToolResultError(text)
	res.Meta = mcp.NewMetaFromMap(map[string]any{c.e.errorMetaKey: d})
	return res
}

// Problem is one thing wrong with a call's arguments, or one detail still
// needed: the field, what is wrong and what is accepted. It is the
// module's one vocabulary for that (package problem), so a tool's own
// validation and this engine's decoder list problems alike.
type Problem = problem.Problem
