package fallback

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

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
//     together. Its About is the first question's. A question the client
//     cannot be asked is not sent (its Asked says why); one the retry
//     leaves unanswered fails with no_answer. A batch counts one question
//     per key against MaxRounds.
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
// one input_required result under one sealed state (posed).
func (c *Call) poseAll(ctx context.Context, qs []Question) ([]Asked, *mcp.CallToolResult) {
	asked := make([]Asked, len(qs))
	var sent []int // indexes of the questions that go out
	for i, q := range qs {
		if why, reason := c.client.CannotAsk(q.kind()); why != "" {
			asked[i] = notAsked(why, reason)
			continue
		}
		sent = append(sent, i)
	}
	if len(sent) == 0 {
		return asked, nil
	}
	failAll := func(why Why, reason string) ([]Asked, *mcp.CallToolResult) {
		for _, i := range sent {
			asked[i] = notAsked(why, reason)
		}
		return asked, nil
	}
	if n := c.Rounds(); n+len(sent) > MaxRounds {
		return failAll(TooManyRounds, fmt.Sprintf("this call has already asked the client %d times, and %d more would pass the limit of %d", n, len(sent), MaxRounds))
	}
	_, span := telemetry.StartAsk(ctx, "batch", qs[0].Step)
	defer telemetry.EndAsk(span, "")
	keys := make([]string, len(sent))
	out := make([]Question, len(sent))
	for j, i := range sent {
		c.counted(qs[i].Step)
		keys[j], out[j] = qs[i].Key, qs[i]
	}
	res, err := c.posed(qs[0].Step, Round{AskedAtMs: time.Now().UnixMilli(), About: qs[0].About, Rounds: c.Rounds(), Asked: c.asked, ReAsked: c.reasked, Keys: keys}, out...)
	if err != nil {
		return failAll(ServerFault, "the server could not record the questions")
	}
	for _, i := range sent {
		asked[i] = Asked{Pending: res}
	}
	return asked, res
}

// readAll reads a modern retry's answers to a batch.
func (c *Call) readAll(qs []Question, r *resumed) []Asked {
	elapsed := max(0, time.Since(time.UnixMilli(r.round.AskedAtMs)))
	stale := qs[0].About != r.round.About
	asked := make([]Asked, len(qs))
	for i, q := range qs {
		if !slices.Contains(r.round.Keys, q.Key) {
			why, reason := c.client.CannotAsk(q.kind())
			if why == "" {
				why, reason = ClientCannotAsk, "the client could not be asked when the questions went out"
			}
			asked[i] = notAsked(why, reason)
			continue
		}
		if stale {
			asked[i] = Asked{Why: StaleAnswer, Reason: staleReason, Elapsed: elapsed, Sent: true}
			continue
		}
		a, ok := c.answered(q, elapsed)
		if !ok {
			a = Asked{Why: NoAnswer, Reason: noAnswerReason, Elapsed: elapsed, Sent: true}
		}
		asked[i] = a
	}
	return asked
}
