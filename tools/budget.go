package tools

import (
	"context"
	"time"
)

// Every call runs under a budget (--call-budget, well inside the 60 s hosts
// allow), and every wait inside it, for the client's model, the user's form,
// the roots, the server's own LLM, gets only what the budget has left less
// answerReserve. So a call always has time to say what happened.

// answerReserve is kept back from every wait inside a call, so that after
// the wait the call can still answer: run the deterministic rung, render
// the result, or say which question went unanswered.
const answerReserve = 500 * time.Millisecond

// remaining is the time left in the call's budget.
func remaining(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Hour
}

// waitable is how long a wait capped at limit may take inside ctx's budget:
// the smaller of limit and what is left less answerReserve. Zero or less
// means there is no time to wait at all.
func waitable(ctx context.Context, limit time.Duration) time.Duration {
	return min(limit, remaining(ctx)-answerReserve)
}

// orDefault is d, or def when d is not set.
func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// formatWait writes a wait the way people say it, to the tenth of a second:
// "1s", "2.5s", not "999.7ms".
func formatWait(d time.Duration) string {
	return d.Round(100 * time.Millisecond).String()
}
