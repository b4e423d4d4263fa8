package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/llm"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/telemetry"
)

// Both LLM rungs run one pipeline: the shared prompt, a model asked, the
// answer read by the shared reader, the candidates ranked with it. They
// differ only in how the model is asked: the client's model through
// sampling (a question to the client, like any other), or the server's own
// endpoint through the llm package.

// modelReply is what asking a model gave: a reply, a pending input_required
// result, or a failure (why and reason).
type modelReply struct {
	reply ranking.Reply
	// form is how the reply came: the answer tool's input, or text.
	form    fallback.AnswerForm
	note    string // appended to the rung's reason when it ranks (a retry made)
	pending *mcp.CallToolResult
	// failed is the attempt when there is no reply.
	failed *fallback.Attempt
	// unusable, when set, says why the answer that came cannot be read at
	// all; it may quote the answer, so it goes through the key guard like
	// the reader's own reasons.
	unusable string
	elapsed  time.Duration
}

// askModel asks one model for a reply to the shared prompt: the client's
// (askClientModel) or the server's (askServerModel).
type askModel func(ctx context.Context, c *fallback.Call, p ranking.Prompt, job ranking.Options) modelReply

// rankWithModel is the pipeline both LLM rungs run: who names the model in
// the rung's reason ("the client's model"), ask asks it.
func (t *Toolset) rankWithModel(ctx context.Context, c *fallback.Call, job ranking.Options, tier ranking.Tier, who string, ask askModel) reached {
	step := string(tier)
	m := ask(ctx, c, job.Prompt(), job)
	switch {
	case m.pending != nil:
		return reached{Pending: m.pending}
	case m.failed != nil:
		return reached{Attempt: *m.failed}
	}
	unusable := func(reason string) reached {
		a := fallback.FailedFor(step, fallback.UnusableAnswer, reason, m.elapsed)
		a.Answer = m.form
		return reached{Attempt: a}
	}
	var r ranking.Ranking
	reason := m.unusable
	if reason == "" {
		var err error
		if r, err = ranking.FromReply(tier, m.reply, job, 3); err != nil {
			reason = err.Error()
		}
	}
	if reason != "" {
		// The reason may quote what the model sent (the unknown ids
		// it named, decoded; the name of a tool it called).
		if t.llm.Leaks(reason) {
			c.Log().Warn().Str("step", step).Msg("a model's unusable answer held part of the server's LLM API key; its details are withheld")
			reason = "the answer could not be used, and its details are withheld because they held part of the server's LLM API key"
		}
		return unusable(reason)
	}
	used := ranking.RankedBy(who, r) + m.note
	if t.llm.Leaks(shown(r, used)...) {
		c.Log().Warn().Str("step", step).Msg("a model's answer held part of the server's LLM API key; not used")
		return unusable("the answer held part of the server's LLM API key (written out, escaped, spaced, split or divided between reasons), so it was not used")
	}
	a := fallback.UsedBy(step, used, m.elapsed)
	a.Answer = m.form
	return reached{Result: &r, Attempt: a}
}

// shown is every string of a model's ranking that a result would show, as
// it would show them: the picks' reasons (decoded and cleaned by the answer
// reader), the model's name and the rung's reason. The key guard reads
// them together, so that a key divided between them is seen whole.
func shown(r ranking.Ranking, reason string) []string {
	out := make([]string, 0, len(r.Picks)+2)
	for _, p := range r.Picks {
		out = append(out, p.Reason)
	}
	return append(out, r.Model, reason)
}

// SamplingPreferences shape the sampling request. All are advisory to the
// client, which picks the model; the defaults ask for a small, fast model,
// which is plenty to choose among 47 flights.
type SamplingPreferences struct {
	// ModelHints are model name substrings, in order of preference.
	ModelHints []string
	// Priorities, each 0..1, as the spec defines them.
	CostPriority, SpeedPriority, IntelligencePriority float64
	// MaxTokens bounds the answer: three ids and three short reasons.
	MaxTokens int
}

// DefaultSamplingPreferences are documented in the README.
var DefaultSamplingPreferences = SamplingPreferences{
	ModelHints:   []string{"haiku", "flash", "mini"},
	CostPriority: 0.5, SpeedPriority: 0.7, IntelligencePriority: 0.4,
	MaxTokens: 600,
}

// samplingKey is the sampling question's key in a modern input_required
// result.
const samplingKey = "rank"

// samplingRung asks the client's model.
type samplingRung struct{ t *Toolset }

func (samplingRung) Step() string    { return string(ranking.ClientSampling) }
func (samplingRung) AsksModel() bool { return true }

func (r samplingRung) Unavailable(c *fallback.Call) (fallback.Why, string) {
	if !r.t.samplingOn {
		return fallback.TurnedOff, "sampling is turned off by the operator (--sampling off)"
	}
	return c.Client().CannotAsk(fallback.AskSampling)
}

// Waits: a modern call asks and returns at once; a legacy one waits.
func (samplingRung) Waits(c *fallback.Call) bool { return c.Client().Era == fallback.Legacy }

func (r samplingRung) Run(ctx context.Context, c *fallback.Call, job rankJob) reached {
	return r.t.rankWithModel(ctx, c, job.Options, ranking.ClientSampling, "the client's model", r.t.askClientModel)
}

// askClientModel is sampling as a question to the client, with
// includeContext "none" (the others are soft-deprecated and need
// sampling.context). A client that declared sampling.tools is offered one
// tool, the answer tool, and required to call it: its input is the answer,
// already structured, checked like any other. Any other client is sent no
// tools at all (a client that did not declare them must refuse such a
// request), and its model's text is read.
func (t *Toolset) askClientModel(ctx context.Context, c *fallback.Call, p ranking.Prompt, job ranking.Options) modelReply {
	prefs := &mcp.ModelPreferences{
		CostPriority:         t.samplingPrefs.CostPriority,
		SpeedPriority:        t.samplingPrefs.SpeedPriority,
		IntelligencePriority: t.samplingPrefs.IntelligencePriority,
	}
	for _, h := range t.samplingPrefs.ModelHints {
		prefs.Hints = append(prefs.Hints, mcp.ModelHint{Name: h})
	}
	params := &mcp.CreateMessageParams{
		ModelPreferences: prefs,
		IncludeContext:   "none",
		MaxTokens:        t.samplingPrefs.MaxTokens,
	}
	if c.Client().CanSampleWithTools() {
		p = p.WithAnswerTool()
		params.Tools = []mcp.Tool{answerTool}
		params.ToolChoice = &mcp.ToolChoice{Mode: mcp.ToolChoiceModeRequired}
	}
	params.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(p.User)}}
	params.SystemPrompt = p.System
	a := c.Ask(ctx, fallback.Question{
		Step: string(ranking.ClientSampling), Key: samplingKey, Limit: t.samplingTimeout,
		Waiting: "waiting for the client's model (and the user's approval)",
		// The answer must be about these candidates, in this order.
		About:    optionsDigest(job),
		Sampling: params,
	})
	switch {
	case a.Pending != nil:
		return modelReply{pending: a.Pending}
	case a.Failed():
		at := a.Attempt(string(ranking.ClientSampling))
		return modelReply{failed: &at}
	}
	res := a.Answer.Sampling
	m := samplingReply(res.Content)
	m.reply.Model, m.reply.CutOff, m.elapsed = fallback.Clean(res.Model, 80), res.StopReason == "maxTokens", a.Elapsed
	return m
}

// answerTool is the one tool a sampling request offers, to a client that
// declared sampling.tools: calling it is the answer, and its input schema
// is the contract the server's LLM is asked to follow (answerFormat).
var answerTool = func() mcp.Tool {
	schema, err := json.Marshal(ranking.AnswerSchema())
	if err != nil {
		panic(err) // a map of strings, lists and maps always encodes
	}
	return mcp.Tool{Name: ranking.AnswerTool, Description: ranking.AnswerToolDescription, RawInputSchema: schema}
}()

// samplingReply reads a sampling answer in either era: a modern retry
// decodes content into generic JSON, a legacy call returns typed content,
// and either may hold one block or an array of them. A call of the answer
// tool is the answer (structured), whatever text comes with it; without
// one, the text is (a host may ignore the tool, or the client was offered
// none). A call of any other tool is not an answer.
func samplingReply(content any) modelReply {
	parsed, err := mcp.ParseSamplingContent(content)
	if err != nil {
		return modelReply{form: fallback.TextAnswer, unusable: "answer content could not be read: " + fallback.Clean(err.Error(), 80)}
	}
	blocks := []any{parsed}
	if list, ok := parsed.([]mcp.Content); ok {
		blocks = blocks[:0]
		for _, b := range list {
			blocks = append(blocks, b)
		}
	}
	var (
		text   strings.Builder
		inputs []any
		others []string
	)
	for _, block := range blocks {
		if tc, ok := mcp.AsTextContent(block); ok {
			text.WriteString(tc.Text)
		}
		if tu, ok := toolUse(block); ok {
			if tu.Name == ranking.AnswerTool {
				inputs = append(inputs, tu.Input)
			} else {
				others = append(others, tu.Name)
			}
		}
	}
	switch {
	case inputs != nil:
		return modelReply{form: fallback.StructuredAnswer, reply: ranking.Reply{Inputs: inputs}}
	case strings.TrimSpace(text.String()) != "" || len(others) == 0 && text.Len() > 0:
		return modelReply{form: fallback.TextAnswer, reply: ranking.Reply{Text: text.String()}}
	case len(others) > 0:
		return modelReply{form: fallback.StructuredAnswer,
			unusable: fmt.Sprintf("the model called the tool %s instead of %s, and wrote no answer", flights.Quote(fallback.Clean(others[0], 64)), ranking.AnswerTool)}
	}
	return modelReply{form: fallback.TextAnswer, unusable: "answer held no text"}
}

// toolUse reads a tool_use block, typed by value or by pointer.
func toolUse(block any) (*mcp.ToolUseContent, bool) {
	if tu, ok := block.(*mcp.ToolUseContent); ok && tu != nil {
		return tu, true
	}
	return mcp.AsToolUseContent(block)
}

// optionsDigest names the options a model was shown by their ids, in order.
func optionsDigest(o ranking.Options) string {
	d, _ := state.Digest(o.IDs()) // a []string always encodes
	return d
}

// serverLLMRung asks the server's own endpoint.
type serverLLMRung struct{ t *Toolset }

func (serverLLMRung) Step() string              { return string(ranking.ServerLLMTier) }
func (serverLLMRung) AsksModel() bool           { return true }
func (serverLLMRung) Waits(*fallback.Call) bool { return true }

func (r serverLLMRung) Unavailable(*fallback.Call) (fallback.Why, string) {
	if r.t.llm == nil || !r.t.llm.Configured() {
		return fallback.NotConfigured, "no server-side LLM configured"
	}
	return "", ""
}

func (r serverLLMRung) Run(ctx context.Context, c *fallback.Call, job rankJob) reached {
	return r.t.rankWithModel(ctx, c, job.Options, ranking.ServerLLMTier, "the server's LLM", r.t.askServerModel)
}

// answerFormat is the answer contract, asked of endpoints that take a JSON
// schema response format.
var answerFormat = &llm.Schema{Name: "flight_picks", Description: "Up to three flights, best first, each by its id with a short reason.", Schema: ranking.AnswerSchema()}

// askServerModel calls the endpoint within the call budget (its own
// --llm-timeout applies inside).
func (t *Toolset) askServerModel(ctx context.Context, c *fallback.Call, p ranking.Prompt, _ ranking.Options) modelReply {
	start := time.Now()
	lctx, cancel := context.WithTimeout(ctx, fallback.Waitable(ctx, time.Hour))
	defer cancel()
	at := t.llm.Endpoint()
	lctx, span := telemetry.StartChat(lctx, t.llm.Model(), at.Provider, at.Host, at.Port)
	reply, err := t.llm.Complete(lctx, llm.Request{System: p.System, User: p.User, Schema: answerFormat})
	outcome, failure := "ok", ""
	if err != nil {
		failure = string(llm.Unusable)
		if f, ok := errors.AsType[*llm.Failure](err); ok {
			failure = string(f.Kind)
		}
		outcome = failure
	}
	// reply.Model has passed the key guard alone and with the answer's
	// text (llm.Client.Complete), so the span may carry it.
	telemetry.EndChat(span, reply.Model, reply.PromptTokens, reply.CompletionTokens, failure)
	t.metrics.LLM(outcome, time.Since(start), reply.PromptTokens, reply.CompletionTokens)
	if err != nil {
		f, ok := errors.AsType[*llm.Failure](err)
		if !ok {
			f = &llm.Failure{Kind: llm.Unusable, Reason: "the endpoint's answer could not be used"}
		}
		if f.Kind == llm.BadCredentials {
			// A configuration problem, not a passing one: say it loudly, once.
			t.badCredentials.Do(func() {
				c.Log().Error().Str("step", string(ranking.ServerLLMTier)).Str("reason", f.Reason).
					Msg("the server-side LLM refuses our credentials; fix --llm-api-key (or OPENAI_API_KEY)")
			})
		}
		why, ok := llmWhy[f.Kind]
		if !ok {
			why = fallback.EndpointError
		}
		at := fallback.FailedFor(string(ranking.ServerLLMTier), why, f.Reason, time.Since(start))
		return modelReply{failed: &at}
	}
	return modelReply{reply: ranking.Reply{Text: reply.Text, Model: reply.Model, CutOff: reply.CutOff}, form: fallback.TextAnswer,
		note: reply.Note, elapsed: time.Since(start)}
}

// llmWhy says each endpoint failure in the common vocabulary.
var llmWhy = map[llm.Kind]fallback.Why{
	llm.NotConfigured:  fallback.NotConfigured,
	llm.BadCredentials: fallback.BadCredentials,
	llm.RateLimited:    fallback.RateLimited,
	llm.ServerError:    fallback.EndpointError,
	llm.Rejected:       fallback.EndpointError,
	llm.Timeout:        fallback.NoAnswer,
	llm.Canceled:       fallback.CallEnded,
	llm.Unusable:       fallback.UnusableAnswer,
	llm.Transport:      fallback.Unreachable,
}
