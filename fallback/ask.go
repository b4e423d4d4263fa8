package fallback

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/telemetry"
)

// Every question the server puts to the client goes through ask: the
// client's model (sampling), the user (an elicitation form, a
// confirmation), the client's directories (roots). It is the one place
// that knows the two protocol eras:
//
//   - 2025-11-25 (legacy): the server sends its own request while the call
//     is open and waits, under the question's limit and the call budget less
//     AnswerReserve, with progress notifications while a person answers.
//     mcp-go's MRTR bridge would do this too, but it hangs on a silent client
//     and fails the call on any refusal (docs/PROTOCOL.md, its MRTR bridge),
//     so the requests are made directly and every error is classified.
//   - 2026-07-28 (modern): the call answers input_required with the question
//     and a signed requestState, and holds nothing; the client's retry
//     carries the answer, which ask reads back for the same question.
//
// Either way ask returns one of three things: the answer, the pending
// input_required result to send (modern), or a failure with a
// Why and a reason. A client is never asked for what it did not
// declare. The tools only decide what to ask and what to do with the
// outcome.

// Question is one thing to ask the client. Exactly one of Sampling, Form and
// Roots is set.
type Question struct {
	// Step names the question: in attempts, in logs and in the sealed state
	// a modern retry must carry to answer it.
	Step string
	// Key is the question's key in a modern input_required result.
	Key      string
	Sampling *mcp.CreateMessageParams
	Form     *mcp.ElicitationParams
	Roots    bool
	// Limit bounds how long a legacy client may take (the call budget
	// bounds it too).
	Limit time.Duration
	// Waiting is what progress notifications say while a legacy client's
	// user takes their time.
	Waiting string
	// About is a digest of what the question is about (the flights shown to
	// a model): a modern answer sealed about anything else is stale.
	About string
}

func (q Question) kind() AskKind {
	switch {
	case q.Sampling != nil:
		return AskSampling
	case q.Form != nil:
		return AskForm
	default:
		return AskRoots
	}
}

// Answer is what the client answered; the field of the question's kind is
// set.
type Answer struct {
	Sampling *mcp.CreateMessageResult
	// Content is an accepted form's content: untrusted, like arguments.
	Content any
	Roots   []mcp.Root
}

// Asked is the outcome of a question: an Answer, a Pending input_required
// result, or (neither) a failure with Why and Reason. Sent says whether the
// question reached the client at all: one that could not be asked (not
// declared, no stream, no time) makes its rung skipped, not failed.
type Asked struct {
	Answer  *Answer
	Pending *mcp.CallToolResult
	Why     Why
	Reason  string
	Elapsed time.Duration
	Sent    bool
}

// Failed reports whether the question got neither an answer nor a pending
// result.
func (a Asked) Failed() bool { return a.Answer == nil && a.Pending == nil }

// Attempt is a failed question as the attempt of the rung that asked:
// skipped when it could not be asked, failed when it was.
func (a Asked) Attempt(step string) Attempt {
	if !a.Sent {
		return SkippedFor(step, a.Why, a.Reason)
	}
	return FailedFor(step, a.Why, a.Reason, a.Elapsed)
}

// notAsked is a question that never reached the client.
func notAsked(why Why, reason string) Asked {
	return Asked{Why: why, Reason: reason}
}

// unanswered is a question the client got and did not usefully answer.
func unanswered(why Why, reason string, since time.Time) Asked {
	return Asked{Why: why, Reason: reason, Elapsed: time.Since(since), Sent: true}
}

// Ask puts q to the client: see the top of this file. Each question is a
// span of the call's trace.
func (c *Call) Ask(ctx context.Context, q Question) Asked {
	ctx, span := telemetry.StartAsk(ctx, string(q.kind()), q.Step)
	a := c.asking(ctx, q)
	telemetry.EndAsk(span, string(a.Why))
	return a
}

func (c *Call) asking(ctx context.Context, q Question) Asked {
	if r := c.resumed; r != nil && !r.consumed && r.step == q.Step {
		// A modern retry answering this question. The state proves we
		// asked; what the retry itself declares does not matter, since
		// nothing more is asked of it.
		r.consumed = true
		return c.readAnswer(q, r)
	}
	if why, reason := c.client.CannotAsk(q.kind()); why != "" {
		return notAsked(why, reason)
	}
	if n := c.Rounds(); n >= MaxRounds {
		return notAsked(TooManyRounds, fmt.Sprintf("this call has already asked the client %d times", n))
	}
	if c.client.Era == Modern {
		return c.pose(q, 0)
	}
	return c.askNow(ctx, q)
}

// pose is the modern question: an input_required result whose sealed state
// binds the question to this call's tool, arguments and step. again counts
// how often this question was posed again for want of an answer. It is for
// modern calls only: mcp-go would send the result of a legacy one through
// its MRTR bridge, with no time limit, so there it refuses (server_fault).
func (c *Call) pose(q Question, again int) Asked {
	if c.client.Era != Modern {
		c.log.Error().Str("step", q.Step).Msg("a legacy call reached pose")
		return notAsked(ServerFault, "the server tried to ask a 2025-11-25 client through an input_required result")
	}
	if again > 0 {
		c.countedAgain(q.Step)
	} else {
		c.counted(q.Step)
	}
	res, err := c.posed(q.Step, Round{AskedAtMs: time.Now().UnixMilli(), About: q.About, Rounds: c.Rounds(), Again: again, Asked: c.asked, ReAsked: c.reasked}, q)
	if err != nil {
		return notAsked(ServerFault, "the server could not record the question")
	}
	// The client fulfils the request and calls again with the answer; we
	// hold nothing while it does, and if it never does (the user declined
	// to sample), there is nothing to clean up.
	return Asked{Pending: res}
}

// posed seals round at step and builds the input_required result that puts
// qs, each under its Key, to the client: the one way a modern question goes
// out, alone (pose) or in a batch (AskAll).
func (c *Call) posed(step string, round Round, qs ...Question) (*mcp.CallToolResult, error) {
	token, err := c.seal(step, round)
	if err != nil {
		c.log.Error().Err(err).Str("step", step).Msg("could not seal a question")
		return nil, err
	}
	b := server.NewInputRequestBuilder(token)
	for _, q := range qs {
		q.addTo(b)
	}
	c.log.Debug().Str("step", step).Int("questions", len(qs)).Int("round", c.Rounds()).Msg("asked the client; waiting for its retry")
	return b.ToolResult(), nil
}

// readAnswer reads a modern retry's answer to q.
func (c *Call) readAnswer(q Question, r *resumed) Asked {
	elapsed := max(0, time.Since(time.UnixMilli(r.round.AskedAtMs)))
	if q.About != r.round.About {
		return Asked{Why: StaleAnswer, Reason: staleReason, Elapsed: elapsed, Sent: true}
	}
	if a, ok := c.answered(q, elapsed); ok {
		return a
	}
	// The spec asks servers to ask again rather than fail; once, and
	// only if the client still declares what it takes.
	if why, _ := c.client.CannotAsk(q.kind()); why == "" && c.client.Era == Modern && r.round.Again == 0 && c.Rounds() < MaxRounds {
		c.log.Info().Str("step", q.Step).Msg("the retry carried no answer; asking once more")
		return c.pose(q, r.round.Again+1)
	}
	return Asked{Why: NoAnswer, Reason: noAnswerReason, Elapsed: elapsed, Sent: true}
}

// Why a modern retry's answer is not used.
const (
	staleReason    = "the data changed between the question and the answer, so the answer no longer applies"
	noAnswerReason = "the retry carried no answer to the question"
)

// answered is q's answer among a modern retry's inputResponses, classified
// (a form only answers when accepted; an answer that cannot be read as q's
// kind is unusable_answer, as a legacy client's is); ok is false when the
// retry carried none.
func (c *Call) answered(q Question, elapsed time.Duration) (a Asked, ok bool) {
	answer, form, ok, err := q.responseIn(c.req.Params.InputResponses)
	switch {
	case !ok:
		return Asked{}, false
	case err != nil:
		c.log.Info().Str("step", q.Step).Err(err).Msg("the retry's answer could not be read")
		return Asked{Why: UnusableAnswer, Reason: fmt.Sprintf("the client's answer could not be read: it is not a valid %s result", q.kind()),
			Elapsed: elapsed, Sent: true}, true
	case form != nil:
		return formOutcome(form, elapsed), true
	}
	return Asked{Answer: &answer, Elapsed: elapsed}, true
}

// addTo adds q to a modern input_required result under its Key.
func (q Question) addTo(b *server.InputRequestBuilder) {
	switch q.kind() {
	case AskSampling:
		b.Sample(q.Key, *q.Sampling)
	case AskForm:
		b.Elicit(q.Key, *q.Form)
	default:
		b.Roots(q.Key)
	}
}

// responseIn finds the answer to q among a modern retry's inputResponses:
// the answer of q's kind (a form's result apart, to be classified),
// whether there was an answer at all, and the error when the answer under
// q's Key cannot be read as q's kind. mcp-go's SamplingResponse and its
// kin say nil for both "absent" and "unreadable", so presence is read
// first and the decoding done here.
func (q Question) responseIn(responses mcp.InputResponses) (a Answer, form *mcp.ElicitationResult, ok bool, err error) {
	r, ok := server.InputResponse(responses, q.Key)
	if !ok {
		return a, nil, false, nil
	}
	switch q.kind() {
	case AskSampling:
		if r.Sampling == nil {
			err = r.DecodeFor(mcp.MethodSamplingCreateMessage)
		}
		a.Sampling = r.Sampling
	case AskForm:
		if r.Elicitation == nil {
			err = r.DecodeFor(mcp.MethodElicitationCreate)
		}
		form = r.Elicitation
	default:
		if r.Roots == nil {
			err = r.DecodeFor(mcp.MethodListRoots)
		}
		if r.Roots != nil {
			a.Roots = r.Roots.Roots
			if a.Roots == nil {
				a.Roots = []mcp.Root{}
			}
		}
	}
	if err != nil {
		return Answer{}, nil, true, err
	}
	return a, form, a.Sampling != nil || form != nil || a.Roots != nil, nil
}

// formOutcome classifies a form's answer: only an accepted form answers.
func formOutcome(res *mcp.ElicitationResult, elapsed time.Duration) Asked {
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		return Asked{Answer: &Answer{Content: res.Content}, Elapsed: elapsed}
	case mcp.ElicitationResponseActionDecline:
		return Asked{Why: UserDeclined, Reason: "the user declined", Elapsed: elapsed, Sent: true}
	default:
		return Asked{Why: UserCancelled, Reason: "the user dismissed the form without answering", Elapsed: elapsed, Sent: true}
	}
}

// askNow is the legacy question: a direct request while the call waits.
func (c *Call) askNow(ctx context.Context, q Question) Asked {
	start := time.Now()
	kind := q.kind()
	if kind == AskForm {
		// The user's time, answered or not: the metrics tell it apart
		// from the server's own (telemetry.Metrics.CallStarted).
		defer func() { c.userWait += time.Since(start) }()
	}
	session := server.ClientSessionFromContext(ctx)
	// Roots are kept for the session only when its client will say they
	// changed: one that did not declare roots.listChanged never will.
	cacheRoots := kind == AskRoots && session != nil && c.client.Capabilities.Roots != nil && c.client.Capabilities.Roots.ListChanged
	if cacheRoots {
		if roots, ok := c.e.roots.get(session.SessionID()); ok {
			return Asked{Answer: &Answer{Roots: roots}}
		}
	}
	if kind != AskForm && legacyHTTPWithoutGETStream(ctx) {
		return notAsked(NoStream, fmt.Sprintf("client has no GET stream open (waited %s), the only way mcp-go can deliver %s on legacy streamable HTTP",
			FormatWait(getStreamGrace), kind))
	}
	wait := Waitable(ctx, q.Limit)
	if wait <= 0 {
		return notAsked(NoTime, "no time was left in the call budget to wait for an answer")
	}
	if session != nil {
		leave, ok := c.e.waiting.enter(session.SessionID())
		if !ok {
			return notAsked(TooManyWaiting, fmt.Sprintf("this session already has %d of the server's questions waiting for its answers, "+
				"the most one session may: answer or dismiss them first", maxWaitingPerSession))
		}
		defer leave()
	}
	qctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	c.counted(q.Step)
	stop := c.progressWhileWaiting(qctx, q.Waiting)
	defer stop()

	srv := server.ServerFromContext(ctx)
	var a Answer
	var err error
	switch kind {
	case AskSampling:
		//lint:ignore SA1019 sampling is deprecated in 2026-07-28 but is how a legacy client lends its model; the rung exists to use it where it still works.
		a.Sampling, err = srv.RequestSampling(qctx, mcp.CreateMessageRequest{CreateMessageParams: *q.Sampling})
	case AskForm:
		var res *mcp.ElicitationResult
		if res, err = srv.RequestElicitation(qctx, mcp.ElicitationRequest{Params: *q.Form}); err == nil {
			return formOutcome(res, time.Since(start))
		}
	default:
		var res *mcp.ListRootsResult
		if res, err = srv.RequestRoots(qctx, mcp.ListRootsRequest{}); err == nil {
			a.Roots = res.Roots
			if cacheRoots {
				c.e.roots.put(session.SessionID(), a.Roots)
			}
		}
	}
	if err != nil {
		why, reason := classifyAskError(ctx, qctx, err, wait, kind)
		return unanswered(why, reason, start)
	}
	return Asked{Answer: &a, Elapsed: time.Since(start)}
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
func classifyAskError(call, question context.Context, err error, wait time.Duration, kind AskKind) (Why, string) {
	msg := strings.ToLower(err.Error())
	switch {
	case call.Err() != nil:
		return CallEnded, "the call ended (cancelled or out of budget) while waiting for the client"
	case errors.Is(question.Err(), context.DeadlineExceeded):
		return NoAnswer, "no answer within " + FormatWait(wait)
	case kind == AskSampling && (strings.Contains(msg, "error -1:") || strings.Contains(msg, "reject") ||
		strings.Contains(msg, "declin") || strings.Contains(msg, "denied")):
		return UserRejected, "the user rejected the request"
	case kind == AskSampling && (strings.Contains(msg, "failed to parse sampling response") || strings.Contains(msg, "failed to unmarshal sampling response")):
		// mcp-go decodes the answer before we see it (a tool_use block
		// without an id or a name, a content type it does not know): the
		// client did answer, with nothing readable.
		return UnusableAnswer, "the client's answer could not be read: its content is not valid sampling content"
	case strings.Contains(msg, "failed to unmarshal elicitation response") || strings.Contains(msg, "failed to unmarshal list root"):
		// The same for a form's or the roots' answer: as a 2026-07-28
		// answer that cannot be read is (responseIn).
		return UnusableAnswer, fmt.Sprintf("the client's answer could not be read: it is not a valid %s result", kind)
	case strings.Contains(msg, "-32601") || strings.Contains(msg, "method not found") || strings.Contains(msg, "not support") ||
		strings.Contains(msg, "no sampling handler") || strings.Contains(msg, "no elicitation handler") || strings.Contains(msg, "no roots handler"):
		return Unsupported, fmt.Sprintf("the client does not support %s after all", kind)
	default:
		return ClientError, "the client answered with an error: " + Clean(err.Error(), 120)
	}
}

// progressWhileWaiting sends a progress notification every few seconds
// while the server waits for the client, when the request carried a
// progress token: hosts that reset their timeout on progress then wait for
// a slow typist. It returns the function that stops it.
func (c *Call) progressWhileWaiting(ctx context.Context, message string) func() {
	meta := c.req.Params.Meta
	if meta == nil || meta.ProgressToken == nil {
		return func() {}
	}
	if message == "" {
		message = "waiting for the client"
	}
	// Stopping cancels ctx too, so that a notification still settling
	// (sendSettled) does not hold up the answer that stopped it.
	ctx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(c.e.progressEvery)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				c.Progress(ctx, float64(n), 0, message)
			}
		}
	}()
	return func() { stop(); <-stopped }
}
