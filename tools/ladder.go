package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/ranking"
)

// The ranking ladder is a list of rungs of one shape, walked in order until
// one ranks. Which rungs, and in which order, is decided per call from the
// caller's strategy, the era and the server's configuration (rungsFor); what
// every rung shares, the skip rules, lives once in climb.

// rungResult is what one rung did on this call: a ranking, or a pending
// input_required result (the rung asked the client, modern era), and the
// attempt to record otherwise.
type rungResult struct {
	ranking *ranking.Ranking
	pending *mcp.CallToolResult
	attempt fallback.Attempt
}

// rung is one way to rank.
type rung struct {
	tier ranking.Tier
	// unavailable says why this rung cannot run on this call (not declared,
	// not configured, turned off), or "" when it can.
	unavailable func(c *fallback.Call) (fallback.Why, string)
	// model is set for rungs that ask a model: they need candidates to show.
	model bool
	// waits says whether the rung waits on this call (and so needs time
	// left in the budget).
	waits func(c *fallback.Call) bool
	run   func(ctx context.Context, c *fallback.Call, job ranking.Options) rungResult
}

// rank walks the ladder for one call. It returns early with an
// input_required result when a rung must ask the client first (modern), or
// with an isError when a single-rung strategy could not rank.
func (t *Toolset) rank(ctx context.Context, c *fallback.Call, strategy Strategy, job ranking.Options) (ranking.Ranking, *mcp.CallToolResult) {
	rungs := t.rungsFor(strategy, c)
	// A modern retry answering a rung's question resumes at that rung: the
	// rungs above it ran in an earlier round, and their attempts came back
	// with the state. Running them again would pay for them twice (a
	// server LLM called again, a user waiting out its timeout again) and
	// could throw away the answer the user just gave.
	for i, r := range rungs {
		if c.Resuming(string(r.tier)) {
			rungs = rungs[i:]
			break
		}
	}
	for _, r := range rungs {
		res := t.climb(ctx, c, r, job)
		if res.pending != nil {
			return ranking.Ranking{}, res.pending
		}
		c.Record(res.attempt)
		if res.ranking != nil {
			return *res.ranking, nil
		}
	}
	// Only a single-rung strategy gets here: auto ends with a rung that
	// always ranks.
	last := c.Attempts()[len(c.Attempts())-1]
	return ranking.Ranking{}, c.Fail(ErrorNotRanked, fmt.Sprintf("strategy %q could not rank: %s. "+
		"Call again with strategy auto (it falls back on its own), deterministic or candidates.", strategy, last.Reason),
		&ToolError{Why: string(last.Why), Reason: last.Reason})
}

// climb applies the rules every rung shares, then runs it.
func (t *Toolset) climb(ctx context.Context, c *fallback.Call, r rung, job ranking.Options) rungResult {
	step := string(r.tier)
	skip := func(why fallback.Why, reason string) rungResult {
		return rungResult{attempt: fallback.SkippedFor(step, why, reason)}
	}
	// The operator's settings hold on every round: a state sealed by a
	// replica with other settings does not bring a rung this one turned
	// off back.
	if r.unavailable != nil {
		if why, reason := r.unavailable(c); why == fallback.TurnedOff || why == fallback.NotConfigured || (why != "" && !c.Resuming(step)) {
			return skip(why, reason)
		}
	}
	// A modern retry answering this rung's question goes straight to the
	// answer otherwise: the state proves the client could be asked.
	if !c.Resuming(step) {
		if r.model && job.Len() == 0 {
			return skip(fallback.NoCandidates, "no flight is within the trip's limits, so there is nothing to rank")
		}
		if r.waits != nil && r.waits(c) && fallback.Waitable(ctx, time.Hour) <= 0 {
			return skip(fallback.NoTime, "no time left in the call budget")
		}
	}
	res := r.run(ctx, c, job)
	// A rung that always answers (the score, the shortlist) still ends
	// the ladder with nothing to rank, so the call gets its empty
	// ranking; but it used nothing, and the attempt says so.
	if !r.model && job.Len() == 0 && res.ranking != nil {
		res.attempt = fallback.SkippedFor(step, fallback.NoCandidates, "no flight is within the trip's limits, so there was nothing to rank")
	}
	return res
}

// Steps is every step a call can record, in ladder order: the values of
// the rung label on flightserver_rung_attempts_total and of attempts[].step
// in results. Dashboards and alerts may name these and no others; a new
// step goes here, or the deployment's contract test fails.
var Steps = []string{
	string(ranking.ClientSampling), string(ranking.ServerLLMTier), string(ranking.Deterministic), string(ranking.Candidates),
	stepTrip, stepConfirmForm, stepConfirmArgs, stepRoots, stepExportDir, stepView,
}

// Names is every tool the server can list (findBestFlight, bookFlight and
// saveItinerary always; findAirports too): the values of the tool label.
var Names = []string{FindBestFlightName, BookFlightName, SaveItineraryName, FindAirportsName}

// rungsFor is the ladder for this call:
//
//	auto:          client sampling, server LLM, then the fallback
//	               (deterministic, or candidates with --fallback candidates);
//	               server LLM first with --server-llm-first (for every
//	               client, or for 2026-07-28 clients only)
//	sampling:      client sampling only
//	server_llm:    server LLM only
//	deterministic: deterministic
//	candidates:    the shortlist
func (t *Toolset) rungsFor(strategy Strategy, c *fallback.Call) []rung {
	switch strategy {
	case StrategySampling:
		return []rung{t.samplingRung()}
	case StrategyServerLLM:
		return []rung{t.serverLLMRung()}
	case StrategyDeterministic:
		return []rung{t.deterministicRung("")}
	case StrategyCandidates:
		return []rung{t.candidatesRung("")}
	}
	models := []rung{t.samplingRung(), t.serverLLMRung()}
	if t.serverLLMFirst == ServerLLMFirstAlways || (t.serverLLMFirst == ServerLLMFirstModern && c.Client().Era == fallback.Modern) {
		models[0], models[1] = models[1], models[0]
	}
	last := t.deterministicRung("")
	if t.fallback == ranking.Candidates {
		last = t.candidatesRung("the configured fallback (--fallback candidates): ")
	}
	return append(models, last)
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

// deterministicRung scores every flight; it always ranks.
func (t *Toolset) deterministicRung(prefix string) rung {
	return rung{tier: ranking.Deterministic, run: func(_ context.Context, _ *fallback.Call, job ranking.Options) rungResult {
		start := time.Now()
		r := t.weights.Deterministic(job, 3)
		reason := "scored each option: " + t.weights.ExplainCabin(job.Trip.Cabin)
		return rungResult{ranking: &r, attempt: fallback.UsedBy(string(r.Method), prefix+reason, time.Since(start))}
	}}
}

// candidatesRung returns a shortlist for the host's model; it always
// answers.
func (t *Toolset) candidatesRung(prefix string) rung {
	return rung{tier: ranking.Candidates, run: func(_ context.Context, _ *fallback.Call, job ranking.Options) rungResult {
		start := time.Now()
		r := t.weights.ShortlistOf(job, t.shortlist)
		reason := fmt.Sprintf("the top %d by price, stops and duration, unranked, for the host's model to choose from with the user", len(r.Picks))
		return rungResult{ranking: &r, attempt: fallback.UsedBy(string(r.Method), prefix+reason, time.Since(start))}
	}}
}
