package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// deterministicReserve is kept back from every tier's timeout so the last
// tier always has time to answer before the call budget runs out.
const deterministicReserve = 500 * time.Millisecond

// remaining is the time left in the call's budget.
func remaining(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Hour
}

// rank walks the ladder for one call, decided per request from the era,
// the declared capabilities, the server's configuration, the strategy and
// the budget:
//
//	auto:          client sampling, server LLM, then the fallback
//	               (deterministic, or candidates with --fallback candidates)
//	sampling:      client sampling only
//	server_llm:    server LLM only
//	deterministic: deterministic
//	candidates:    the shortlist
//
// Every tier tried or skipped is recorded as an Attempt with a reason. It
// returns early with an input_required result when the client must answer a
// question first (modern era), or with an isError when a single-tier
// strategy could not rank.
func (t *Toolset) rank(ctx context.Context, c invocation, log zerolog.Logger, strategy Strategy, trip flights.Trip, cands []flights.Flight) (ranking.Ranking, *mcp.CallToolResult) {
	var attempts []ranking.Attempt
	record := func(a ranking.Attempt) {
		attempts = append(attempts, a)
		log.Info().Str("tier", string(a.Tier)).Str("outcome", string(a.Outcome)).Str("reason", a.Reason).
			Dur("elapsed", a.Elapsed).Msg("tier")
	}
	done := func(r *ranking.Ranking) (ranking.Ranking, *mcp.CallToolResult) {
		r.Attempts = attempts
		return *r, nil
	}
	only := func(tier ranking.Tier, reason string) (ranking.Ranking, *mcp.CallToolResult) {
		return ranking.Ranking{}, mcp.NewToolResultError(fmt.Sprintf("strategy %q could not rank: %s. "+
			"Call again with strategy auto (it falls back on its own), deterministic or candidates.", tier, reason))
	}

	if strategy == Auto || strategy == StrategySampling {
		tr := t.sample(ctx, c, trip, cands)
		if tr.pending != nil {
			log.Info().Str("tier", string(ranking.ClientSampling)).Str("outcome", "asked").
				Str("reason", "asked the client's LLM to rank; waiting for its retry").Msg("tier")
			return ranking.Ranking{}, tr.pending
		}
		record(tr.attempt)
		if tr.ranking != nil {
			return done(tr.ranking)
		}
		if strategy == StrategySampling {
			return only(ranking.ClientSampling, tr.attempt.Reason)
		}
	}
	if strategy == Auto || strategy == StrategyServerLLM {
		r, a := t.askServerLLM(ctx, log, trip, cands)
		record(a)
		if r != nil {
			return done(r)
		}
		if strategy == StrategyServerLLM {
			return only(ranking.ServerLLMTier, a.Reason)
		}
	}

	start := time.Now()
	var r ranking.Ranking
	var reason string
	if strategy == StrategyCandidates || (strategy == Auto && t.fallback == ranking.Candidates) {
		r = t.weights.Shortlist(cands, t.shortlist)
		reason = fmt.Sprintf("the top %d by price, stops and duration, unranked, for the host's model to choose from with the user", len(r.Picks))
		if strategy == Auto {
			reason = "the configured fallback (--fallback candidates): " + reason
		}
	} else {
		r = t.weights.Rank(cands, 3)
		reason = fmt.Sprintf("scored each flight: fare + $%.0f per stop + $%.0f per hour", t.weights.StopPenaltyUSD, t.weights.HourCostUSD)
	}
	record(ranking.Attempt{Tier: r.Method, Outcome: ranking.Used, Reason: reason, Elapsed: time.Since(start)})
	return done(&r)
}

// askServerLLM is the server-side LLM tier: skipped when none is
// configured, otherwise bounded by its own timeout and the call budget left.
func (t *Toolset) askServerLLM(ctx context.Context, log zerolog.Logger, trip flights.Trip, cands []flights.Flight) (*ranking.Ranking, ranking.Attempt) {
	skip := func(reason string) (*ranking.Ranking, ranking.Attempt) {
		return nil, ranking.Attempt{Tier: ranking.ServerLLMTier, Outcome: ranking.Skipped, Reason: reason}
	}
	switch {
	case t.serverLLM == nil:
		return skip("no server-side LLM configured")
	case len(cands) == 0:
		return skip("no flight is within the trip's limits, so there is nothing to rank")
	}
	left := remaining(ctx) - deterministicReserve
	if left <= 0 {
		return skip("no time left in the call budget")
	}
	lctx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	r, a, failure := t.serverLLM.Rank(lctx, t.weights, trip, cands, 3)
	if failure == ranking.BadCredentials {
		// A configuration problem, not a passing one: say it loudly, once.
		t.badCredentials.Do(func() {
			log.Error().Str("tier", string(ranking.ServerLLMTier)).Str("reason", a.Reason).
				Msg("the server-side LLM refuses our credentials; fix --llm-api-key (or OPENAI_API_KEY)")
		})
	}
	return r, a
}
