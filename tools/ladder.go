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
//	auto:          client sampling, then deterministic
//	sampling:      client sampling only (an isError when it cannot rank)
//	deterministic: deterministic
//	candidates:    the shortlist
//
// Every tier tried or skipped is recorded as an Attempt with a reason. It
// returns early with an input_required result when the client must answer a
// question first (modern era), or with an isError when strategy sampling
// could not rank.
func (t *Toolset) rank(ctx context.Context, c invocation, log zerolog.Logger, strategy Strategy, trip flights.Trip, cands []flights.Flight) (ranking.Ranking, *mcp.CallToolResult) {
	var attempts []ranking.Attempt
	record := func(a ranking.Attempt) {
		attempts = append(attempts, a)
		log.Info().Str("tier", string(a.Tier)).Str("outcome", string(a.Outcome)).Str("reason", a.Reason).
			Dur("elapsed", a.Elapsed).Msg("tier")
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
			r := *tr.ranking
			r.Attempts = attempts
			return r, nil
		}
		if strategy == StrategySampling {
			return ranking.Ranking{}, mcp.NewToolResultError(fmt.Sprintf("strategy \"sampling\" could not rank: %s. "+
				"Call again with strategy auto (it falls back on its own), deterministic or candidates.", tr.attempt.Reason))
		}
	}

	start := time.Now()
	var r ranking.Ranking
	var reason string
	if strategy == StrategyCandidates {
		r = t.weights.Shortlist(trip, cands, t.shortlist)
		reason = fmt.Sprintf("strategy %q: the top %d by price, stops and duration, unranked, for the host's model to choose from with the user", strategy, len(r.Picks))
	} else {
		r = t.weights.Rank(trip, cands, 3)
		reason = fmt.Sprintf("scored each flight: fare + $%.0f per stop + $%.0f per hour", t.weights.StopPenaltyUSD, t.weights.HourCostUSD)
	}
	record(ranking.Attempt{Tier: r.Method, Outcome: ranking.Used, Reason: reason, Elapsed: time.Since(start)})
	r.Attempts = attempts
	return r, nil
}
