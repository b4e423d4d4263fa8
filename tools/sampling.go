package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/tools/state"
)

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

// The input request key and the step a sealed state carries between the
// rounds of a modern call.
const (
	samplingKey  = "rank"
	samplingStep = "sample"
)

// samplingRequest builds the createMessage parameters from the shared
// prompt. No tools (not needed, and never without sampling.tools) and
// includeContext "none" (the others are soft-deprecated and need
// sampling.context).
func (t *Toolset) samplingRequest(p ranking.Prompt) mcp.CreateMessageParams {
	prefs := &mcp.ModelPreferences{
		CostPriority:         t.samplingPrefs.CostPriority,
		SpeedPriority:        t.samplingPrefs.SpeedPriority,
		IntelligencePriority: t.samplingPrefs.IntelligencePriority,
	}
	for _, h := range t.samplingPrefs.ModelHints {
		prefs.Hints = append(prefs.Hints, mcp.ModelHint{Name: h})
	}
	return mcp.CreateMessageParams{
		Messages:         []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(p.User)}},
		SystemPrompt:     p.System,
		ModelPreferences: prefs,
		IncludeContext:   "none",
		MaxTokens:        t.samplingPrefs.MaxTokens,
	}
}

// tierResult is what one tier did on this call: a ranking when it was used,
// or a pending input_required result when it must ask the client first
// (modern era), and always the attempt to record.
type tierResult struct {
	ranking *ranking.Ranking
	pending *mcp.CallToolResult
	attempt ranking.Attempt
}

// sample is the client-sampling tier. It never fails the call: every
// outcome but a usable answer is an attempt with a reason, and the ladder
// moves on.
func (t *Toolset) sample(ctx context.Context, c invocation, trip flights.Trip, cands []flights.Flight) tierResult {
	start := time.Now()
	skip := func(reason string) tierResult {
		return tierResult{attempt: ranking.Attempt{Tier: ranking.ClientSampling, Outcome: ranking.Skipped, Reason: reason}}
	}
	fail := func(reason string, since time.Time) tierResult {
		return tierResult{attempt: ranking.Attempt{Tier: ranking.ClientSampling, Outcome: ranking.Failed, Reason: reason, Elapsed: time.Since(since)}}
	}

	// A modern retry carrying our state: this round reads the answer. The
	// state proves we asked; what the retry itself declares does not
	// matter, since we ask nothing more.
	if c.resumed != nil && c.resumed.Step == samplingStep {
		st := c.state
		asked := time.UnixMilli(st.AskedAtMs)
		if st.Candidates != candidateDigest(cands) {
			return fail("the flights changed between the question and the answer, so the answer no longer applies", asked)
		}
		res := server.SamplingResponse(c.req.Params.InputResponses, samplingKey)
		if res == nil {
			return fail("the retry carried no sampling answer", asked)
		}
		return t.useAnswer(res, cands, asked)
	}

	switch {
	case len(cands) == 0:
		return skip("no flight is within the trip's limits, so there is nothing to rank")
	case !t.samplingOn:
		return skip("sampling is turned off by the operator (--sampling off)")
	case !c.client.Known:
		return skip("cannot tell whether this client can sample: a legacy request without an initialized session")
	case !c.client.CanSample():
		return skip("client did not declare sampling")
	}
	params := t.samplingRequest(ranking.NewPrompt(trip, cands))

	if c.client.Era == Modern {
		// The question rides in the state with what earlier rounds left
		// there (the user's trip details), which the retry needs again.
		st := *c.state
		st.AskedAtMs, st.Candidates = time.Now().UnixMilli(), candidateDigest(cands)
		data, err := json.Marshal(st)
		if err != nil {
			return fail("could not record the question: "+err.Error(), start)
		}
		// The state is bound to these exact arguments: a retry with others
		// is refused.
		token, err := t.seal(c.req, samplingStep, data)
		if err != nil {
			return fail("could not seal the question: "+err.Error(), start)
		}
		// The client fulfils the request and calls again with the answer;
		// we hold nothing while it does, and if it never does (the user
		// declined), there is nothing to clean up.
		return tierResult{pending: server.NewInputRequestBuilder(token).Sample(samplingKey, params).ToolResult()}
	}

	if legacyHTTPWithoutGETStream(ctx) {
		return skip("client has no GET stream open (waited " + getStreamGrace.String() + "), the only way mcp-go can deliver a sampling request on legacy streamable HTTP")
	}
	timeout := min(t.samplingTimeout, remaining(ctx)-deterministicReserve)
	if timeout <= 0 {
		return skip("no time left in the call budget")
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	//lint:ignore SA1019 sampling is deprecated in 2026-07-28 but is how a legacy client lends its model; this tier exists to use it where it still works.
	res, err := server.ServerFromContext(ctx).RequestSampling(sctx, mcp.CreateMessageRequest{CreateMessageParams: params})
	if err != nil {
		return fail(classifySamplingError(ctx, sctx, err, timeout), start)
	}
	return t.useAnswer(res, cands, start)
}

// useAnswer validates a sampling answer against the candidates and ranks
// with it, or says why it cannot.
func (t *Toolset) useAnswer(res *mcp.CreateMessageResult, cands []flights.Flight, since time.Time) tierResult {
	fail := func(reason string) tierResult {
		return tierResult{attempt: ranking.Attempt{Tier: ranking.ClientSampling, Outcome: ranking.Failed, Reason: reason, Elapsed: time.Since(since)}}
	}
	text, err := samplingText(res.Content)
	if err != nil {
		return fail(err.Error())
	}
	picks, err := ranking.ParseAnswer(text, cands)
	if err != nil {
		return fail(err.Error())
	}
	r := t.weights.FromAnswer(ranking.ClientSampling, cands, picks, 3)
	r.Model = clean(res.Model, 80)
	reason := fmt.Sprintf("the client's model ranked the %d candidates", len(cands))
	if r.Model != "" {
		reason = fmt.Sprintf("the client's model (%s) ranked the %d candidates", r.Model, len(cands))
	}
	return tierResult{ranking: &r, attempt: ranking.Attempt{Tier: ranking.ClientSampling, Outcome: ranking.Used, Reason: reason, Elapsed: time.Since(since)}}
}

// samplingText reads the text of a sampling answer in either era: a modern
// retry decodes content into generic JSON, a legacy call returns typed
// content, and either may hold one block or an array of blocks.
func samplingText(content any) (string, error) {
	parsed, err := mcp.ParseSamplingContent(content)
	if err != nil {
		return "", fmt.Errorf("answer content could not be read: %v", clean(err.Error(), 80))
	}
	var blocks []any
	switch p := parsed.(type) {
	case []mcp.Content:
		for _, c := range p {
			blocks = append(blocks, c)
		}
	default:
		blocks = []any{p}
	}
	var b strings.Builder
	for _, block := range blocks {
		if tc, ok := mcp.AsTextContent(block); ok {
			b.WriteString(tc.Text)
		}
	}
	if b.Len() == 0 {
		return "", errors.New("answer held no text")
	}
	return b.String(), nil
}

// classifySamplingError turns what the legacy direct request returned into
// a reason a person understands. mcp-go has no typed error for a client's
// answer: stdio keeps only the message, HTTP keeps the code inside the
// string ("... error -1: ..."), so the message is all there is to read.
func classifySamplingError(call, sampling context.Context, err error, timeout time.Duration) string {
	msg := strings.ToLower(err.Error())
	switch {
	case call.Err() != nil:
		return "the call ended (cancelled or out of budget) while waiting for the client"
	case errors.Is(sampling.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout.Round(100*time.Millisecond))
	case strings.Contains(msg, "error -1:") || strings.Contains(msg, "reject") || strings.Contains(msg, "declin") || strings.Contains(msg, "denied"):
		return "the user rejected the request"
	case strings.Contains(msg, "-32601") || strings.Contains(msg, "method not found") || strings.Contains(msg, "not support") || strings.Contains(msg, "no sampling handler"):
		return "the client does not support sampling after all"
	default:
		return "the client answered with an error: " + clean(err.Error(), 120)
	}
}

// candidateDigest names a candidate list by its ids, in order.
func candidateDigest(cands []flights.Flight) string {
	ids := make([]string, len(cands))
	for i, f := range cands {
		ids[i] = f.ID
	}
	d, _ := state.Digest(ids) // a []string always encodes
	return d
}

// clean makes untrusted text safe to show in one line: no control
// characters, at most n bytes.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
