package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/telemetry"
)

// Every question the server puts to the client goes through ask: the
// client's model (sampling), the user (an elicitation form, a
// confirmation), the client's directories (roots). It is the one place
// that knows the two protocol eras:
//
//   - 2025-11-25 (legacy): the server sends its own request while the call
//     is open and waits, under the question's limit and the call budget less
//     answerReserve, with progress notifications while a person answers.
//     mcp-go's MRTR bridge would do this too, but it hangs on a silent client
//     and turns every refusal into a failed call (PROTOCOL-NOTES §4), so the
//     requests are made directly and every error is classified.
//   - 2026-07-28 (modern): the call answers input_required with the question
//     and a signed requestState, and holds nothing; the client's retry
//     carries the answer, which ask reads back for the same question.
//
// Either way ask returns one of three things: the answer, the pending
// input_required result to send (modern), or a failure with a
// fallback.Why and a reason. A client is never asked for what it did not
// declare. The tools only decide what to ask and what to do with the
// outcome.

// question is one thing to ask the client. Exactly one of sampling, form and
// roots is set.
type question struct {
	// step names the question: in attempts, in logs and in the sealed state
	// a modern retry must carry to answer it.
	step string
	// key is the question's key in a modern input_required result.
	key      string
	sampling *mcp.CreateMessageParams
	form     *mcp.ElicitationParams
	roots    bool
	// limit bounds how long a legacy client may take (the call budget
	// bounds it too).
	limit time.Duration
	// waiting is what progress notifications say while a legacy client's
	// user takes their time.
	waiting string
	// about is a digest of what the question is about (the flights shown to
	// a model): a modern answer sealed about anything else is stale.
	about string
}

func (q question) kind() askKind {
	switch {
	case q.sampling != nil:
		return askSampling
	case q.form != nil:
		return askForm
	default:
		return askRoots
	}
}

// answer is what the client answered; the field of the question's kind is
// set.
type answer struct {
	sampling *mcp.CreateMessageResult
	// content is an accepted form's content: untrusted, like arguments.
	content any
	roots   []mcp.Root
}

// asked is the outcome of a question: an answer, a pending input_required
// result, or (neither) a failure with why and reason. sent says whether the
// question reached the client at all: one that could not be asked (not
// declared, no stream, no time) makes its rung skipped, not failed.
type asked struct {
	answer  *answer
	pending *mcp.CallToolResult
	why     fallback.Why
	reason  string
	elapsed time.Duration
	sent    bool
}

// failed reports whether the question got neither an answer nor a pending
// result.
func (a asked) failed() bool { return a.answer == nil && a.pending == nil }

// attempt is a failed question as the attempt of the rung that asked:
// skipped when it could not be asked, failed when it was.
func (a asked) attempt(step string) fallback.Attempt {
	if !a.sent {
		return fallback.SkippedFor(step, a.why, a.reason)
	}
	return fallback.FailedFor(step, a.why, a.reason, a.elapsed)
}

// notAsked is a question that never reached the client.
func notAsked(why fallback.Why, reason string) asked {
	return asked{why: why, reason: reason}
}

// unanswered is a question the client got and did not usefully answer.
func unanswered(why fallback.Why, reason string, since time.Time) asked {
	return asked{why: why, reason: reason, elapsed: time.Since(since), sent: true}
}

// ask puts q to the client: see the top of this file. Each question is a
// span of the call's trace.
func (c *call) ask(ctx context.Context, q question) asked {
	ctx, span := telemetry.StartAsk(ctx, string(q.kind()), q.step)
	a := c.asking(ctx, q)
	telemetry.EndAsk(span, string(a.why))
	return a
}

func (c *call) asking(ctx context.Context, q question) asked {
	if r := c.resumed; r != nil && !r.consumed && r.step == q.step {
		// A modern retry answering this question. The state proves we
		// asked; what the retry itself declares does not matter, since
		// nothing more is asked of it.
		r.consumed = true
		return c.readAnswer(q, r)
	}
	if why, reason := c.client.cannotAsk(q.kind()); why != "" {
		return notAsked(why, reason)
	}
	if n := c.rounds(); n >= maxRounds {
		return notAsked(fallback.TooManyRounds, fmt.Sprintf("this call has already asked the client %d times", n))
	}
	if c.client.Era == Modern {
		return c.pose(q, 0)
	}
	return c.askNow(ctx, q)
}

// pose is the modern question: an input_required result whose sealed state
// binds the question to this call's tool, arguments and step. again counts
// how often this question was posed again for want of an answer.
func (c *call) pose(q question, again int) asked {
	start := time.Now()
	c.counted(q.step)
	token, err := c.seal(q.step, sealedRound{AskedAtMs: start.UnixMilli(), About: q.about, Rounds: c.rounds(), Again: again, Asked: c.asked})
	if err != nil {
		c.log.Error().Err(err).Str("step", q.step).Msg("could not seal a question")
		return notAsked(fallback.ServerFault, "the server could not record the question")
	}
	b := server.NewInputRequestBuilder(token)
	switch q.kind() {
	case askSampling:
		b.Sample(q.key, *q.sampling)
	case askForm:
		b.Elicit(q.key, *q.form)
	default:
		b.Roots(q.key)
	}
	c.log.Debug().Str("step", q.step).Int("round", c.rounds()).Msg("asked the client; waiting for its retry")
	// The client fulfils the request and calls again with the answer; we
	// hold nothing while it does, and if it never does (the user declined
	// to sample), there is nothing to clean up.
	return asked{pending: b.ToolResult()}
}

// readAnswer reads a modern retry's answer to q.
func (c *call) readAnswer(q question, r *resumed) asked {
	elapsed := max(0, time.Since(time.UnixMilli(r.round.AskedAtMs)))
	fail := func(why fallback.Why, reason string) asked {
		return asked{why: why, reason: reason, elapsed: elapsed, sent: true}
	}
	if q.about != r.round.About {
		return fail(fallback.StaleAnswer, "the data changed between the question and the answer, so the answer no longer applies")
	}
	responses := c.req.Params.InputResponses
	var a answer
	var form *mcp.ElicitationResult
	switch q.kind() {
	case askSampling:
		a.sampling = server.SamplingResponse(responses, q.key)
	case askForm:
		form = server.ElicitationResponse(responses, q.key)
	default:
		if res := server.RootsResponse(responses, q.key); res != nil {
			a.roots = res.Roots
			if a.roots == nil {
				a.roots = []mcp.Root{}
			}
		}
	}
	if a.sampling == nil && form == nil && a.roots == nil {
		// The spec asks servers to ask again rather than fail; once, and
		// only if the client still declares what it takes.
		if why, _ := c.client.cannotAsk(q.kind()); why == "" && r.round.Again == 0 && c.rounds() < maxRounds {
			c.log.Info().Str("step", q.step).Msg("the retry carried no answer; asking once more")
			return c.pose(q, r.round.Again+1)
		}
		return fail(fallback.NoAnswer, "the retry carried no answer to the question")
	}
	if form != nil {
		return formOutcome(form, elapsed)
	}
	return asked{answer: &a, elapsed: elapsed}
}

// formOutcome classifies a form's answer: only an accepted form answers.
func formOutcome(res *mcp.ElicitationResult, elapsed time.Duration) asked {
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		return asked{answer: &answer{content: res.Content}, elapsed: elapsed}
	case mcp.ElicitationResponseActionDecline:
		return asked{why: fallback.UserDeclined, reason: "the user declined", elapsed: elapsed, sent: true}
	default:
		return asked{why: fallback.UserCancelled, reason: "the user dismissed the form without answering", elapsed: elapsed, sent: true}
	}
}

// askNow is the legacy question: a direct request while the call waits.
func (c *call) askNow(ctx context.Context, q question) asked {
	start := time.Now()
	kind := q.kind()
	session := server.ClientSessionFromContext(ctx)
	if kind == askRoots && session != nil {
		if roots, ok := c.t.roots.get(session.SessionID()); ok {
			return asked{answer: &answer{roots: roots}}
		}
	}
	if kind != askForm && legacyHTTPWithoutGETStream(ctx) {
		return notAsked(fallback.NoStream, fmt.Sprintf("client has no GET stream open (waited %s), the only way mcp-go can deliver %s on legacy streamable HTTP",
			formatWait(getStreamGrace), kind))
	}
	wait := waitable(ctx, q.limit)
	if wait <= 0 {
		return notAsked(fallback.NoTime, "no time was left in the call budget to wait for an answer")
	}
	if session != nil {
		leave, ok := c.t.waiting.enter(session.SessionID())
		if !ok {
			return notAsked(fallback.TooManyWaiting, fmt.Sprintf("this session already has %d of the server's questions waiting for its answers, "+
				"the most one session may: answer or dismiss them first", maxWaitingPerSession))
		}
		defer leave()
	}
	qctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	c.counted(q.step)
	stop := c.progressWhileWaiting(qctx, q.waiting)
	defer stop()

	srv := server.ServerFromContext(ctx)
	var a answer
	var err error
	switch kind {
	case askSampling:
		//lint:ignore SA1019 sampling is deprecated in 2026-07-28 but is how a legacy client lends its model; the rung exists to use it where it still works.
		a.sampling, err = srv.RequestSampling(qctx, mcp.CreateMessageRequest{CreateMessageParams: *q.sampling})
	case askForm:
		var res *mcp.ElicitationResult
		if res, err = srv.RequestElicitation(qctx, mcp.ElicitationRequest{Params: *q.form}); err == nil {
			return formOutcome(res, time.Since(start))
		}
	default:
		var res *mcp.ListRootsResult
		if res, err = srv.RequestRoots(qctx, mcp.ListRootsRequest{}); err == nil {
			a.roots = res.Roots
			if session != nil {
				c.t.roots.put(session.SessionID(), a.roots)
			}
		}
	}
	if err != nil {
		why, reason := classifyAskError(ctx, qctx, err, wait, kind)
		return unanswered(why, reason, start)
	}
	return asked{answer: &a, elapsed: time.Since(start)}
}

// maxWaitingPerSession bounds the legacy questions one session may have
// waiting for its client at once. Each holds its call, and over HTTP the
// call's slot in the client's share of --max-inflight-per-client, until
// the client answers or the question times out; a client that sends calls
// and never answers their forms would otherwise turn every call into a
// slot held for the whole --elicitation-timeout. Past the bound a question
// is not asked (too_many_waiting) and its rung falls through at once. A
// host asks one thing of its user at a time; four leaves room for
// parallel tool calls that each ask.
const maxWaitingPerSession = 4

// waitingTable counts the legacy questions waiting for an answer, per
// session; it holds an entry only while a question waits, so it is never
// bigger than the calls in flight. Its zero value is empty.
type waitingTable struct {
	mu sync.Mutex
	n  map[string]int
}

// enter counts one more question waiting in session, unless it already
// has maxWaitingPerSession; leave counts it out again.
func (w *waitingTable) enter(session string) (leave func(), ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n[session] >= maxWaitingPerSession {
		return nil, false
	}
	if w.n == nil {
		w.n = map[string]int{}
	}
	w.n[session]++
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.n[session]--; w.n[session] <= 0 {
			delete(w.n, session)
		}
	}, true
}

// classifyAskError turns what a legacy direct request returned into a Why
// and a reason a person understands. mcp-go has no typed error for a
// client's answer: stdio keeps only the message, HTTP keeps the code inside
// the string ("... error -1: ..."), so the message is all there is to read.
func classifyAskError(call, question context.Context, err error, wait time.Duration, kind askKind) (fallback.Why, string) {
	msg := strings.ToLower(err.Error())
	switch {
	case call.Err() != nil:
		return fallback.CallEnded, "the call ended (cancelled or out of budget) while waiting for the client"
	case errors.Is(question.Err(), context.DeadlineExceeded):
		return fallback.NoAnswer, "no answer within " + formatWait(wait)
	case kind == askSampling && (strings.Contains(msg, "error -1:") || strings.Contains(msg, "reject") ||
		strings.Contains(msg, "declin") || strings.Contains(msg, "denied")):
		return fallback.UserRejected, "the user rejected the request"
	case kind == askSampling && (strings.Contains(msg, "failed to parse sampling response") || strings.Contains(msg, "failed to unmarshal sampling response")):
		// mcp-go decodes the answer before we see it (a tool_use block
		// without an id or a name, a content type it does not know): the
		// client did answer, with nothing readable.
		return fallback.UnusableAnswer, "the client's answer could not be read: its content is not valid sampling content"
	case strings.Contains(msg, "-32601") || strings.Contains(msg, "method not found") || strings.Contains(msg, "not support") ||
		strings.Contains(msg, "no sampling handler") || strings.Contains(msg, "no elicitation handler") || strings.Contains(msg, "no roots handler"):
		return fallback.Unsupported, fmt.Sprintf("the client does not support %s after all", kind)
	default:
		return fallback.ClientError, "the client answered with an error: " + clean(err.Error(), 120)
	}
}

// progressWhileWaiting sends a progress notification every few seconds
// while the server waits for the client, when the request carried a
// progress token: hosts that reset their timeout on progress then wait for
// a slow typist. It returns the function that stops it.
func (c *call) progressWhileWaiting(ctx context.Context, message string) func() {
	meta := c.req.Params.Meta
	if meta == nil || meta.ProgressToken == nil {
		return func() {}
	}
	if message == "" {
		message = "waiting for the client"
	}
	token := meta.ProgressToken
	srv := server.ServerFromContext(ctx)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(c.t.progressEvery)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				// Best effort: a dropped notification costs nothing.
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress),
					map[string]any{"progressToken": token, "progress": n, "message": message})
			}
		}
	}()
	return func() { close(done); <-stopped }
}
