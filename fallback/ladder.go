package fallback

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A ladder is a list of rungs of one shape, each a way to rank a job,
// walked in order until one ranks. Which rungs, and in which order, is the
// tool's to decide per call (from the caller's strategy, the era, the
// server's configuration); what every rung shares, the skip rules and
// resuming at the rung a modern retry answers, lives once, in Walk.

// Job is what a ladder is given to rank.
type Job interface {
	// Empty says, when the job holds nothing to rank, why, in words ("no
	// flight is within the trip's limits"); "" when it holds something.
	Empty() string
}

// Rung is one way to rank a J into an R. A rung is a value of a named type,
// so a reader (and go-to-definition) can follow a ladder into each rung.
type Rung[J Job, R any] interface {
	// Step names the rung: in attempts, metrics and a modern retry's state.
	Step() string
	// Unavailable says why the rung cannot run on this call (not declared,
	// not configured, turned off), or "" when it can.
	Unavailable(c *Call) (Why, string)
	// AsksModel reports whether the rung shows the job to a model, and so
	// is skipped when there is nothing to show. A rung that does not
	// (a score, a shortlist) always runs, and ends the ladder.
	AsksModel() bool
	// Waits reports whether the rung waits on this call, and so needs time
	// left in the call's budget.
	Waits(c *Call) bool
	// Run ranks, or asks the client first (Pending), or fails with the
	// attempt to record.
	Run(ctx context.Context, c *Call, job J) Reached[R]
}

// Reached is what one rung did on this call: a Result, or a Pending
// input_required result (the rung asked the client, modern era), and the
// Attempt to record otherwise.
type Reached[R any] struct {
	Result  *R
	Pending *mcp.CallToolResult
	Attempt Attempt
}

// Walk climbs rungs in order for one call, recording each rung's attempt,
// until one ranks (its result) or asks the client first (the pending
// input_required result to send). Neither means no rung ranked: the last
// attempt says why, and the tool says what to do.
func Walk[J Job, R any](ctx context.Context, c *Call, rungs []Rung[J, R], job J) (*R, *mcp.CallToolResult) {
	// A modern retry answering a rung's question resumes at that rung: the
	// rungs above it ran in an earlier round, and their attempts came back
	// with the state. Running them again would pay for them twice (a
	// server LLM called again, a user waiting out its timeout again) and
	// could throw away the answer the user just gave.
	for i, r := range rungs {
		if c.Resuming(r.Step()) {
			rungs = rungs[i:]
			break
		}
	}
	for _, r := range rungs {
		res := climb(ctx, c, r, job)
		if res.Pending != nil {
			return nil, res.Pending
		}
		c.Record(res.Attempt)
		if res.Result != nil {
			return res.Result, nil
		}
	}
	return nil, nil
}

// climb applies the rules every rung shares, then runs it.
func climb[J Job, R any](ctx context.Context, c *Call, r Rung[J, R], job J) Reached[R] {
	step := r.Step()
	skip := func(why Why, reason string) Reached[R] {
		return Reached[R]{Attempt: SkippedFor(step, why, reason)}
	}
	// The operator's settings hold on every round: a state sealed by a
	// replica with other settings does not bring a rung this one turned
	// off back.
	if why, reason := r.Unavailable(c); why == TurnedOff || why == NotConfigured || (why != "" && !c.Resuming(step)) {
		return skip(why, reason)
	}
	empty := job.Empty()
	// A modern retry answering this rung's question goes straight to the
	// answer otherwise: the state proves the client could be asked.
	if !c.Resuming(step) {
		if r.AsksModel() && empty != "" {
			return skip(NoCandidates, empty+", so there is nothing to rank")
		}
		if r.Waits(c) && Waitable(ctx, time.Hour) <= 0 {
			return skip(NoTime, "no time left in the call budget")
		}
	}
	res := r.Run(ctx, c, job)
	// A rung that always answers (a score, a shortlist) still ends the
	// ladder with nothing to rank, so the call gets its empty ranking; but
	// it used nothing, and the attempt says so.
	if !r.AsksModel() && empty != "" && res.Result != nil {
		res.Attempt = SkippedFor(step, NoCandidates, empty+", so there was nothing to rank")
	}
	return res
}
