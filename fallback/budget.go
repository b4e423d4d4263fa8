package fallback

import (
	"context"
	"time"
)

// Every call runs under a budget (--call-budget, well inside the 60 s hosts
// allow), and every wait inside it, for the client's model, the user's form,
// the roots, the server's own LLM, gets only what the budget has left less
// AnswerReserve. So a call always has time to say what happened.

// AnswerReserve is kept back from every wait inside a call, so that after
// the wait the call can still answer: run the deterministic rung, render
// the result, or say which question went unanswered.
const AnswerReserve = 500 * time.Millisecond

// Remaining is the time left in the call's budget.
func Remaining(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Hour
}

// Waitable is how long a wait capped at limit may take inside ctx's budget:
// the smaller of limit and what is left less AnswerReserve. Zero or less
// means there is no time to wait at all.
func Waitable(ctx context.Context, limit time.Duration) time.Duration {
	return min(limit, Remaining(ctx)-AnswerReserve)
}

// FormatWait writes a wait the way people say it, to the tenth of a second:
// "1s", "2.5s", not "999.7ms".
func FormatWait(d time.Duration) string {
	return d.Round(100 * time.Millisecond).String()
}
