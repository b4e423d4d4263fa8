package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/trace"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/telemetry"
	"github.com/flightserver/flightserver/fallback/state"
)

// A tool is declared once: its name, the steps at which it may ask the
// client something (each names a question, and a modern retry's state must
// be at one of them), and its handler. The handler reads as the tool's
// decisions; everything every tool does alike — the call budget, who the
// client is, reopening a modern retry's state, recording attempts, one log
// line per call — happens here, once.
type toolSpec[S any] struct {
	name  string
	steps []string
	// handle decides and answers. st is the tool's own state across the
	// rounds of a modern call: decoded from the retry's sealed state, and
	// sealed again with every question the handler asks.
	handle func(ctx context.Context, c *call, st *S) *mcp.CallToolResult
}

// serve turns a spec into the handler mcp-go calls.
func serve[S any](t *Toolset, spec toolSpec[S]) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(ctx, t.callBudget)
		defer cancel()
		var st S
		c := t.newCall(ctx, req, spec.name, &st)
		ctx = c.trace(ctx)
		ended := t.metrics.CallStarted(spec.name)
		res := c.open(spec.steps)
		if res == nil {
			res = spec.handle(ctx, c, &st)
		}
		outcome := c.finish(res)
		ended(string(c.client.Era), t.transport, outcome)
		telemetry.EndToolCall(c.span, outcome, c.errorCode)
		return res, nil
	}
}

// call is one tool call as every tool sees it: who the client is, what the
// rounds before it left (modern era), and the decisions made so far.
type call struct {
	t      *Toolset
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
	// per step (rounds is their sum).
	asked map[string]int
	// attempts are the decisions so far, this round's and earlier rounds'.
	attempts []fallback.Attempt

	// span is the call's trace span; errorCode the code of its isError.
	span      trace.Span
	errorCode string
}

// resumed is a modern retry's verified state: which question it answers.
type resumed struct {
	step  string
	round sealedRound
	// consumed is set once the question's answer has been read, so that a
	// second question at the same step (a form asked again) is asked anew.
	consumed bool
}

// sealedRound is what a modern call's requestState carries from one round
// to the next. It is signed (fallback/state), so the client can read it but not
// change it: nothing secret goes in.
type sealedRound struct {
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
	// Attempts are the decisions made in earlier rounds, so the final
	// result lists them all.
	Attempts []sealedAttempt `json:"att,omitempty"`
	// Data is the tool's own state.
	Data json.RawMessage `json:"d,omitempty"`
}

// sealedAttempt is an Attempt in the state's compact form.
type sealedAttempt struct {
	Step    string              `json:"s"`
	Outcome fallback.Outcome    `json:"o"`
	Why     fallback.Why        `json:"w,omitempty"`
	Reason  string              `json:"r,omitempty"`
	Ms      int64               `json:"ms,omitempty"`
	Answer  fallback.AnswerForm `json:"a,omitempty"`
}

// maxRounds bounds the questions one call may ask, across all its rounds:
// two trip forms, a sampling question and a re-ask leave room to spare. A
// client replaying states cannot make one chain ask forever.
const maxRounds = 6

func (t *Toolset) newCall(ctx context.Context, req mcp.CallToolRequest, tool string, data any) *call {
	client := ClientFrom(ctx)
	return &call{
		t: t, req: req, tool: tool, client: client, data: data, start: time.Now(),
		log: t.log.With().Str("tool", tool).Str("era", string(client.Era)).Str("client", clean(client.Name, 60)).Logger(),
	}
}

// open reads a modern retry's requestState, when there is one, for one of
// the tool's steps. It returns the isError to answer when the state cannot
// be used: it says why and how to start over, and nothing is built on it.
// Answers that arrive without a state prove nothing and are ignored.
func (c *call) open(steps []string) *mcp.CallToolResult {
	p := c.req.Params
	if p.RequestState == "" {
		if len(p.InputResponses) > 0 {
			c.log.Warn().Int("inputResponses", len(p.InputResponses)).Msg("ignored inputResponses sent without requestState")
		}
		return nil
	}
	refuse := func(why string) *mcp.CallToolResult {
		c.log.Warn().Str("why", why).Msg("refused requestState")
		return c.fail(ErrorStateRefused, fmt.Sprintf("This retry's requestState cannot be used: %s. "+
			"Call %s again without requestState and inputResponses to start over.", why, c.tool), nil)
	}
	digest, err := state.Digest(p.Arguments)
	if err != nil {
		return refuse("its arguments cannot be read")
	}
	payload, err := c.t.sealer.Open(p.RequestState, c.tool, digest, steps...)
	if err != nil {
		return refuse(err.Error())
	}
	var round sealedRound
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
	c.asked = round.Asked
	for _, a := range round.Attempts {
		c.attempts = append(c.attempts, fallback.Attempt{Step: a.Step, Outcome: a.Outcome, Why: a.Why, Reason: a.Reason,
			Elapsed: time.Duration(a.Ms) * time.Millisecond, Answer: a.Answer})
	}
	return nil
}

// trace starts the call's span, a child of the trace the request carried.
func (c *call) trace(ctx context.Context) context.Context {
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

// record adds one decision to the call's attempts: in the result, the
// metrics and the trace alike.
func (c *call) record(a fallback.Attempt) {
	c.attempts = append(c.attempts, a)
	c.t.metrics.Attempt(c.tool, a.Step, string(a.Outcome))
	telemetry.Rung(c.span.SpanContext(), a.Step, string(a.Outcome), string(a.Why), a.Elapsed)
	c.log.Debug().Str("step", a.Step).Str("outcome", string(a.Outcome)).Str("why", string(a.Why)).
		Str("reason", a.Reason).Str("answer", string(a.Answer)).Dur("elapsed_ms", a.Elapsed).Msg("attempt")
}

// seal writes the state of a question at step: this call's arguments (the
// retry must carry the same), the tool's data and, if they fit, the attempts
// so far.
func (c *call) seal(step string, round sealedRound) (string, error) {
	token, err := c.sealWith(step, round, true)
	if errors.Is(err, state.ErrTooLarge) {
		// The attempts are there to be shown; the question must go out.
		token, err = c.sealWith(step, round, false)
	}
	return token, err
}

func (c *call) sealWith(step string, round sealedRound, attempts bool) (string, error) {
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
			Reason: clean(a.Reason, 240), Ms: max(0, a.Elapsed.Milliseconds()), Answer: a.Answer})
	}
	digest, err := state.Digest(c.req.Params.Arguments)
	if err != nil {
		return "", fmt.Errorf("digest arguments: %w", err)
	}
	body, err := json.Marshal(round)
	if err != nil {
		return "", fmt.Errorf("record the %s state: %w", step, err)
	}
	token, err := c.t.sealer.Seal(state.Payload{Tool: c.tool, ArgsDigest: digest, Step: step, Data: body})
	if err != nil {
		return "", fmt.Errorf("seal the %s state: %w", step, err)
	}
	return token, nil
}

// finish logs the one line every call gets at info: what it decided and
// how it ended (ok, error, input_required, which it returns). Per-rung
// detail is at debug.
func (c *call) finish(res *mcp.CallToolResult) string {
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
		path := make([]string, len(c.attempts))
		for i, a := range c.attempts {
			path[i] = a.Step + ":" + string(a.Outcome)
			if a.Why != "" {
				path[i] += ":" + string(a.Why)
			}
		}
		ev = ev.Strs("attempts", path)
	}
	if c.errorCode != "" {
		ev = ev.Str("error", c.errorCode)
	}
	ev.Msg("call")
	return outcome
}

// timesAsked is how many times this call's chain has asked the question at
// step.
func (c *call) timesAsked(step string) int { return c.asked[step] }

// counted notes one more question asked at step.
func (c *call) counted(step string) {
	if c.asked == nil {
		c.asked = map[string]int{}
	}
	c.asked[step]++
}

// rounds is how many questions this call's chain has asked, at every step.
func (c *call) rounds() int {
	n := 0
	for _, k := range c.asked {
		n += k
	}
	return n
}

// resuming reports whether this call is a modern retry whose answer to the
// question at step has not been read yet.
func (c *call) resuming(step string) bool {
	return c.resumed != nil && !c.resumed.consumed && c.resumed.step == step
}
