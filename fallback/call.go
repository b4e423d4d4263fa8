package fallback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/telemetry"
)

// Spec declares a tool once: its name, the steps at which it may ask the
// client something (each names a question, and a modern retry's state must
// be at one of them), and its handler. The handler reads as the tool's
// decisions; everything every tool does alike — the call budget, who the
// client is, reopening a modern retry's state, recording attempts, one log
// line per call — happens in Serve, once.
type Spec[S any] struct {
	Name  string
	Steps []string
	// Handle decides and answers. st is the tool's own state across the
	// rounds of a modern call: decoded from the retry's sealed state, and
	// sealed again with every question the handler asks.
	Handle func(ctx context.Context, c *Call, st *S) *mcp.CallToolResult
}

// Serve turns a spec into the handler mcp-go calls.
func Serve[S any](e *Engine, spec Spec[S]) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(ctx, e.callBudget)
		defer cancel()
		var st S
		c := e.newCall(ctx, req, spec.Name, &st)
		ctx = c.trace(ctx)
		ended := e.metrics.CallStarted(spec.Name)
		res := c.open(spec.Steps)
		if res == nil {
			res = spec.Handle(ctx, c, &st)
		}
		outcome := c.finish(res)
		ended(string(c.client.Era), e.transport, outcome, c.userWait)
		telemetry.EndToolCall(c.span, outcome, c.errorCode)
		return res, nil
	}
}

// Call is one tool call as every tool sees it: who the client is, what the
// rounds before it left (modern era), and the decisions made so far.
type Call struct {
	e      *Engine
	req    mcp.CallToolRequest
	tool   string
	client Client
	log    zerolog.Logger
	start  time.Time

	// data points at the tool's own state; it travels sealed in the
	// requestState of every question a modern call asks.
	data any
	// resumed is the verified state of a modern retry; nil on a first call.
	resumed *resumed
	// asked counts the questions this call's chain of rounds has asked,
	// per step (rounds is their sum); reasked counts, per step, those that
	// were a question asked again for want of an answer.
	asked   map[string]int
	reasked map[string]int
	// attempts are the decisions so far, this round's and earlier rounds'.
	attempts []Attempt
	// room holds the first attempts: a ladder of three rungs and the
	// view's step, without growing the slice three times.
	room [4]Attempt

	// span is the call's trace span; errorCode the code of its isError.
	span      trace.Span
	errorCode string
	// userWait is how long this round waited on forms the user had open
	// (a legacy call asks while it waits; a modern one between rounds).
	userWait time.Duration
}

// Tool is the name of the tool called.
func (c *Call) Tool() string { return c.tool }

// Request is the call as the client sent it: its arguments are untrusted.
func (c *Call) Request() mcp.CallToolRequest { return c.req }

// Client is who sent the call and what it declared.
func (c *Call) Client() Client { return c.client }

// Log is the call's logger, with the tool, era and client on every line.
func (c *Call) Log() *zerolog.Logger { return &c.log }

// Attempts are the decisions recorded so far, earlier rounds' included,
// in order. The slice is the call's own: read it, do not change it.
func (c *Call) Attempts() []Attempt { return c.attempts }

// resumed is a modern retry's verified state: which question it answers.
type resumed struct {
	step  string
	round Round
	// consumed is set once the question's answer has been read, so that a
	// second question at the same step (a form asked again) is asked anew.
	consumed bool
}

// Round is what a modern call's requestState carries from one round to the
// next. It is signed (fallback/state), so the client can read it but not
// change it: nothing secret goes in. It is exported so that a test can seal
// a state this version would have sealed; a tool never builds one.
type Round struct {
	// AskedAtMs is when the question was asked, for the attempt's elapsed
	// time (across replicas, so clocks may differ a little).
	AskedAtMs int64 `json:"at"`
	// About is a digest of what the question was about (e.g. the candidate
	// flights shown to the model): an answer about anything else is stale.
	About string `json:"about,omitempty"`
	// Rounds is the chain's question count, the sum of Asked. This version
	// reads Asked; Rounds is still written because replicas of earlier
	// versions read it for the round limit, and during a rolling update a
	// retry may reach one.
	Rounds int `json:"n"`
	// Again is how many times this question was asked again because a
	// retry came without its answer.
	Again int `json:"again,omitempty"`
	// Asked counts the questions asked so far per step, this one included
	// (a tool may ask the same thing a bounded number of times).
	Asked map[string]int `json:"asked,omitempty"`
	// ReAsked counts, per step, the questions of Asked that asked again
	// because a retry came without the answer: they count against
	// MaxRounds, not as questions of their own (TimesAsked).
	ReAsked map[string]int `json:"reasked,omitempty"`
	// Attempts are the decisions made in earlier rounds, so the final
	// result lists them all.
	Attempts []sealedAttempt `json:"att,omitempty"`
	// Data is the tool's own state.
	Data json.RawMessage `json:"d,omitempty"`
	// Keys, on a state sealed by AskAll, are the keys of the questions
	// the round asked together (askall.go).
	Keys []string `json:"keys,omitempty"`
}

// sealedAttempt is an Attempt in the state's compact form.
type sealedAttempt struct {
	Step    string     `json:"s"`
	Outcome Outcome    `json:"o"`
	Why     Why        `json:"w,omitempty"`
	Reason  string     `json:"r,omitempty"`
	Ms      int64      `json:"ms,omitempty"`
	Answer  AnswerForm `json:"a,omitempty"`
}

// MaxRounds bounds the questions one call may ask, across all its rounds:
// two trip forms, a sampling question and a re-ask leave room to spare. A
// client replaying states cannot make one chain ask forever.
const MaxRounds = 6

func (e *Engine) newCall(ctx context.Context, req mcp.CallToolRequest, tool string, data any) *Call {
	client := e.Client(ctx)
	c := &Call{
		e: e, req: req, tool: tool, client: client, data: data, start: time.Now(),
		log: e.log.With().Str("tool", tool).Str("era", string(client.Era)).Str("client", Clean(client.Name, 60)).Logger(),
	}
	c.attempts = c.room[:0]
	return c
}

// open reads a modern retry's requestState, when there is one, for one of
// the tool's steps. It returns the isError to answer when the state cannot
// be used: it says why and how to start over, and nothing is built on it.
// Answers that arrive without a state prove nothing and are ignored, and so
// is a state on a legacy call (ignoreState).
func (c *Call) open(steps []string) *mcp.CallToolResult {
	p := c.req.Params
	if p.RequestState == "" {
		if len(p.InputResponses) > 0 {
			c.log.Warn().Int("inputResponses", len(p.InputResponses)).Msg("ignored inputResponses sent without requestState")
		}
		return nil
	}
	if c.client.Era != Modern {
		c.ignoreState(steps)
		return nil
	}
	refuse := func(why string) *mcp.CallToolResult {
		c.log.Warn().Str("why", why).Msg("refused requestState")
		return c.Fail(ErrorStateRefused, fmt.Sprintf("This retry's requestState cannot be used: %s. "+
			"Call %s again without requestState and inputResponses to start over.", why, c.tool), nil)
	}
	digest, err := state.Digest(p.Arguments)
	if err != nil {
		return refuse("its arguments cannot be read")
	}
	payload, err := c.e.sealer.Open(p.RequestState, c.tool, digest, steps...)
	if err != nil {
		return refuse(err.Error())
	}
	var round Round
	if err := json.Unmarshal(payload.Data, &round); err != nil {
		// Our own signed bytes that do not decode: another version sealed them.
		return refuse("it holds nothing this server can read (sealed by another version?)")
	}
	if len(round.Data) > 0 {
		if err := json.Unmarshal(round.Data, c.data); err != nil {
			return refuse("it holds nothing this server can read (sealed by another version?)")
		}
	}
	c.resumed = &resumed{step: payload.Step, round: round}
	c.asked, c.reasked = round.Asked, round.ReAsked
	for _, a := range round.Attempts {
		c.attempts = append(c.attempts, Attempt{Step: a.Step, Outcome: a.Outcome, Why: a.Why, Reason: a.Reason,
			Elapsed: time.Duration(a.Ms) * time.Millisecond, Answer: a.Answer})
	}
	return nil
}

// ignoreState is open for a legacy call that carries a requestState (a
// client that began the call in 2026-07-28 and went on in 2025-11-25). A
// legacy call is never resumed: its questions are asked directly, under
// their limits, because an answer read from the state could only be asked
// again through an input_required result, which mcp-go's MRTR bridge would
// send with no time limit (docs/PROTOCOL.md). The call starts over, the
// state and any inputResponses unread. When the state is one this server
// sealed for this call, the decision is recorded at its step (not_usable);
// a state that does not verify names no step that can be trusted, and is
// only logged.
func (c *Call) ignoreState(steps []string) {
	p := c.req.Params
	ev := c.log.Warn().Int("inputResponses", len(p.InputResponses))
	digest, err := state.Digest(p.Arguments)
	var payload state.Payload
	if err == nil {
		payload, err = c.e.sealer.Open(p.RequestState, c.tool, digest, steps...)
	}
	if err != nil {
		ev.Str("why", err.Error()).Msg("ignored requestState on a 2025-11-25 call")
		return
	}
	ev.Str("step", payload.Step).Msg("ignored requestState on a 2025-11-25 call")
	c.Record(SkippedFor(payload.Step, NotUsable, "a 2025-11-25 call does not continue the rounds of a 2026-07-28 one: "+
		"its requestState was not read, and the server asks this call's questions directly"))
}

// trace starts the call's span, a child of the trace the request carried.
func (c *Call) trace(ctx context.Context) context.Context {
	var meta map[string]any
	if m := c.req.Params.Meta; m != nil {
		meta = m.AdditionalFields
	}
	var session string // exported as a digest (telemetry.SessionRef): the id is the session's handle
	if s := server.ClientSessionFromContext(ctx); s != nil && c.client.Era == Legacy {
		session = s.SessionID()
	}
	ctx, c.span = telemetry.StartToolCall(ctx, meta, c.tool, c.client.ProtocolVersion, session, string(c.client.Era))
	return ctx
}

// Record adds one decision to the call's attempts: in the result, the
// metrics and the trace alike.
func (c *Call) Record(a Attempt) {
	c.attempts = append(c.attempts, a)
	c.e.metrics.Attempt(c.tool, a.Step, string(a.Outcome))
	telemetry.Rung(c.span.SpanContext(), a.Step, string(a.Outcome), string(a.Why), a.Elapsed)
	c.log.Debug().Str("step", a.Step).Str("outcome", string(a.Outcome)).Str("why", string(a.Why)).
		Str("reason", a.Reason).Str("answer", string(a.Answer)).Dur("elapsed_ms", a.Elapsed).Msg("attempt")
}

// seal writes the state of a question at step: this call's arguments (the
// retry must carry the same), the tool's data and, if they fit, the attempts
// so far.
func (c *Call) seal(step string, round Round) (string, error) {
	token, err := c.sealWith(step, round, true)
	if errors.Is(err, state.ErrTooLarge) {
		// The attempts are there to be shown; the question must go out.
		token, err = c.sealWith(step, round, false)
	}
	return token, err
}

func (c *Call) sealWith(step string, round Round, attempts bool) (string, error) {
	data, err := json.Marshal(c.data)
	if err != nil {
		return "", fmt.Errorf("record the %s state: %w", step, err)
	}
	round.Data = data
	for _, a := range c.attempts {
		if !attempts {
			break
		}
		round.Attempts = append(round.Attempts, sealedAttempt{Step: a.Step, Outcome: a.Outcome, Why: a.Why,
			Reason: Clean(a.Reason, 240), Ms: max(0, a.Elapsed.Milliseconds()), Answer: a.Answer})
	}
	digest, err := state.Digest(c.req.Params.Arguments)
	if err != nil {
		return "", fmt.Errorf("digest arguments: %w", err)
	}
	body, err := json.Marshal(round)
	if err != nil {
		return "", fmt.Errorf("record the %s state: %w", step, err)
	}
	token, err := c.e.sealer.Seal(state.Payload{Tool: c.tool, ArgsDigest: digest, Step: step, Data: body})
	if err != nil {
		return "", fmt.Errorf("seal the %s state: %w", step, err)
	}
	return token, nil
}

// finish logs the one line every call gets at info: what it decided and
// how it ended (ok, error, input_required, which it returns). Per-rung
// detail is at debug.
func (c *Call) finish(res *mcp.CallToolResult) string {
	outcome := "ok"
	switch {
	case res == nil:
		outcome = "none"
	case res.ResultType == mcp.ResultTypeInputRequired:
		outcome = "input_required"
	case res.IsError:
		outcome = "error"
	}
	ev := c.log.Info().Str("outcome", outcome).Dur("elapsed_ms", time.Since(c.start))
	if len(c.attempts) > 0 {
		// "step:outcome[:why]" for each attempt, all written into one
		// string and sliced from it: three allocations a line, however
		// many attempts, where each attempt took one or two.
		var b strings.Builder
		size := 0
		for _, a := range c.attempts {
			size += len(a.Step) + len(a.Outcome) + len(a.Why) + 2
		}
		b.Grow(size)
		ends := make([]int, len(c.attempts))
		for i, a := range c.attempts {
			b.WriteString(a.Step)
			b.WriteString(":")
			b.WriteString(string(a.Outcome))
			if a.Why != "" {
				b.WriteString(":")
				b.WriteString(string(a.Why))
			}
			ends[i] = b.Len()
		}
		all, path, start := b.String(), make([]string, len(ends)), 0
		for i, end := range ends {
			path[i], start = all[start:end], end
		}
		ev = ev.Strs("attempts", path)
	}
	if c.errorCode != "" {
		ev = ev.Str("error", c.errorCode)
	}
	ev.Msg("call")
	return outcome
}

// TimesAsked is how many times this call's chain has asked the question at
// step. A question asked again because a retry came without its answer is
// the same question, not counted twice (it counts in Rounds).
func (c *Call) TimesAsked(step string) int { return c.asked[step] - c.reasked[step] }

// counted notes one more question asked at step.
func (c *Call) counted(step string) {
	if c.asked == nil {
		c.asked = map[string]int{}
	}
	c.asked[step]++
}

// countedAgain notes one more question asked at step that asks again for
// want of an answer.
func (c *Call) countedAgain(step string) {
	c.counted(step)
	if c.reasked == nil {
		c.reasked = map[string]int{}
	}
	c.reasked[step]++
}

// Rounds is how many questions this call's chain has asked, at every step.
func (c *Call) Rounds() int {
	n := 0
	for _, k := range c.asked {
		n += k
	}
	return n
}

// Resuming reports whether this call is a modern retry whose answer to the
// question at step has not been read yet.
func (c *Call) Resuming(step string) bool {
	return c.resumed != nil && !c.resumed.consumed && c.resumed.step == step
}
