package fallback

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/telemetry"
)

// AskAll puts several questions to the client at once, when a tool needs
// all their answers before it can go on (a name, a model's greeting and the
// client's roots). It returns one Asked per question, in order, and, in the
// modern era, the pending input_required result to send.
//
//   - 2026-07-28 (modern): one input_required result carries every
//     question the client declared what it takes for, each under its Key,
//     with one sealed state. The batch is named by its first question's
//     Step (the state is sealed at it, so it must be one of the Spec's
//     Steps) and records which keys it asked; the retry answers them
//     together. Its About is the first question's. A question the client cannot be asked is not sent (its
//     Asked says why); one the retry leaves unanswered fails with
//     no_answer. A batch counts one question per key against MaxRounds.
//   - 2025-11-25 (legacy): the questions are asked one after the other, each
//     as Ask asks it; pending is nil.
//
// The rules of Ask hold for each question: a client is never asked for what
// it did not declare, and every answer is untrusted.
func (c *Call) AskAll(ctx context.Context, qs ...Question) (asked []Asked, pending *mcp.CallToolResult) {
	if len(qs) == 0 {
		return nil, nil
	}
	batch := qs[0].Step
	if r := c.resumed; r != nil && !r.consumed && r.step == batch && len(r.round.Keys) > 0 {
		r.consumed = true
		return c.readAll(qs, r), nil
	}
	if c.client.Era != Modern {
		asked = make([]Asked, len(qs))
		for i, q := range qs {
			asked[i] = c.Ask(ctx, q)
		}
		return asked, nil
	}
	return c.poseAll(ctx, qs)
}

// poseAll is the modern batch: every question the client may be asked, in
// one input_required result under one sealed state.
func (c *Call) poseAll(ctx context.Context, qs []Question) ([]Asked, *mcp.CallToolResult) {
	asked := make([]Asked, len(qs))
	var keys []string
	for i, q := range qs {
		if why, reason := c.client.CannotAsk(q.kind()); why != "" {
			asked[i] = notAsked(why, reason)
			continue
		}
		keys = append(keys, q.Key)
	}
	if len(keys) == 0 {
		return asked, nil
	}
	if n := c.Rounds(); n+len(keys) > MaxRounds {
		for i := range asked {
			if asked[i].Why == "" {
				asked[i] = notAsked(TooManyRounds, fmt.Sprintf("this call has already asked the client %d times, and %d more would pass the limit of %d", n, len(keys), MaxRounds))
			}
		}
		return asked, nil
	}
	_, span := telemetry.StartAsk(ctx, "batch", qs[0].Step)
	defer telemetry.EndAsk(span, "")
	for _, q := range qs {
		if slices.Contains(keys, q.Key) {
			c.counted(q.Step)
		}
	}
	token, err := c.seal(qs[0].Step, Round{AskedAtMs: time.Now().UnixMilli(), About: qs[0].About, Rounds: c.Rounds(), Asked: c.asked, Keys: keys})
	if err != nil {
		c.log.Error().Err(err).Str("step", qs[0].Step).Msg("could not seal a batch of questions")
		for i := range asked {
			if asked[i].Why == "" {
				asked[i] = notAsked(ServerFault, "the server could not record the questions")
			}
		}
		return asked, nil
	}
	b := server.NewInputRequestBuilder(token)
	for _, q := range qs {
		if slices.Contains(keys, q.Key) {
			q.addTo(b)
		}
	}
	res := b.ToolResult()
	for i, q := range qs {
		if slices.Contains(keys, q.Key) {
			asked[i] = Asked{Pending: res}
		}
	}
	c.log.Debug().Strs("keys", keys).Int("round", c.Rounds()).Msg("asked the client several questions; waiting for its retry")
	return asked, res
}

// readAll reads a modern retry's answers to a batch.
func (c *Call) readAll(qs []Question, r *resumed) []Asked {
	elapsed := max(0, time.Since(time.UnixMilli(r.round.AskedAtMs)))
	stale := qs[0].About != r.round.About
	asked := make([]Asked, len(qs))
	for i, q := range qs {
		switch {
		case !slices.Contains(r.round.Keys, q.Key):
			why, reason := c.client.CannotAsk(q.kind())
			if why == "" {
				why, reason = ClientCannotAsk, "the client could not be asked when the questions went out"
			}
			asked[i] = notAsked(why, reason)
		case stale:
			asked[i] = Asked{Why: StaleAnswer, Reason: "the data changed between the question and the answer, so the answer no longer applies", Elapsed: elapsed, Sent: true}
		default:
			a, form, ok := q.responseIn(c.req.Params.InputResponses)
			switch {
			case !ok:
				asked[i] = Asked{Why: NoAnswer, Reason: "the retry carried no answer to the question", Elapsed: elapsed, Sent: true}
			case form != nil:
				asked[i] = formOutcome(form, elapsed)
			default:
				asked[i] = Asked{Answer: &a, Elapsed: elapsed}
			}
		}
	}
	return asked
}
