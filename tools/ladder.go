package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/ranking"
)

// The ranking ladder is the engine's (fallback.Walk): rungs of one shape,
// walked in order until one ranks. Which rungs, and in which order, is
// decided here per call from the caller's strategy, the era and the
// server's configuration (rungsFor); each rung is a named type below or in
// models.go, registered once in steps.go.

// rank walks the ladder for one call. It returns early with an
// input_required result when a rung must ask the client first (modern), or
// with an isError when a single-rung strategy could not rank.
func (t *Toolset) rank(ctx context.Context, c *fallback.Call, strategy Strategy, job ranking.Options, all ranking.Standouts) (ranking.Ranking, *mcp.CallToolResult) {
	r, pending := fallback.Walk(ctx, c, t.rungsFor(strategy, c), rankJob{job, all})
	switch {
	case pending != nil:
		return ranking.Ranking{}, pending
	case r != nil:
		return *r, nil
	}
	// Only a single-rung strategy gets here: auto ends with a rung that
	// always ranks.
	last := c.Attempts()[len(c.Attempts())-1]
	return ranking.Ranking{}, c.Fail(ErrorNotRanked, fmt.Sprintf("strategy %q could not rank: %s. "+
		"Call again with strategy auto (it falls back on its own), deterministic or candidates.", strategy, last.Reason),
		&ToolError{Why: string(last.Why), Reason: last.Reason})
}

// rungsFor is the ladder for this call:
//
//	auto:          client sampling, server LLM, then the fallback
//	               (deterministic, or candidates with --fallback candidates);
//	               server LLM first with --server-llm-first (for every
//	               client, or for 2026-07-28 clients only)
//	any other:     the rung steps names for that strategy, alone
//	               (sampling, server_llm, deterministic, candidates)
func (t *Toolset) rungsFor(strategy Strategy, c *fallback.Call) []ladderRung {
	if s, ok := stepFor(strategy); ok {
		return []ladderRung{s.rung(t)}
	}
	rungs := []ladderRung{samplingRung{t}, serverLLMRung{t}, deterministicRung{t, ""}}
	if t.serverLLMFirst == ServerLLMFirstAlways || (t.serverLLMFirst == ServerLLMFirstModern && c.Client().Era == fallback.Modern) {
		rungs[0], rungs[1] = rungs[1], rungs[0]
	}
	if t.fallback == ranking.Candidates {
		rungs[2] = candidatesRung{t, "the configured fallback (--fallback candidates): "}
	}
	return rungs
}

// When the server-LLM rung comes before client sampling (--server-llm-first).
const (
	// ServerLLMFirstNever keeps the client's own model first.
	ServerLLMFirstNever = "never"
	// ServerLLMFirstModern puts the server's LLM first for 2026-07-28
	// clients, where sampling is deprecated (SEP-2577) and a user who
	// rejects it ends the call on the client's side.
	ServerLLMFirstModern = "modern"
	// ServerLLMFirstAlways puts the server's LLM first for every client.
	ServerLLMFirstAlways = "always"
)

// deterministicRung scores every flight; it always ranks. prefix starts
// its reason.
type deterministicRung struct {
	t      *Toolset
	prefix string
}

func (deterministicRung) Step() string                                      { return string(ranking.Deterministic) }
func (deterministicRung) Unavailable(*fallback.Call) (fallback.Why, string) { return "", "" }
func (deterministicRung) AsksModel() bool                                   { return false }
func (deterministicRung) Waits(*fallback.Call) bool                         { return false }

func (r deterministicRung) Run(_ context.Context, _ *fallback.Call, job rankJob) reached {
	start := time.Now()
	rk := r.t.weights.Rank(job.List, 3, job.all)
	reason := "scored each option: " + r.t.weights.ExplainCabin(job.Trip.Cabin)
	return reached{Result: &rk, Attempt: fallback.UsedBy(string(rk.Method), r.prefix+reason, time.Since(start))}
}

// candidatesRung returns a shortlist for the host's model; it always
// answers. prefix starts its reason.
type candidatesRung struct {
	t      *Toolset
	prefix string
}

func (candidatesRung) Step() string                                      { return string(ranking.Candidates) }
func (candidatesRung) Unavailable(*fallback.Call) (fallback.Why, string) { return "", "" }
func (candidatesRung) AsksModel() bool                                   { return false }
func (candidatesRung) Waits(*fallback.Call) bool                         { return false }

func (r candidatesRung) Run(_ context.Context, _ *fallback.Call, job rankJob) reached {
	start := time.Now()
	rk := r.t.weights.Shortlist(job.List, r.t.shortlist)
	reason := fmt.Sprintf("the top %d by price, stops and duration, unranked, for the host's model to choose from with the user", len(rk.Picks))
	return reached{Result: &rk, Attempt: fallback.UsedBy(string(rk.Method), r.prefix+reason, time.Since(start))}
}
