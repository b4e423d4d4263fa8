// This file is the vocabulary every tool uses to say which path it took and
// why: a decision is a list of Attempts, one per rung tried or skipped, each
// with an Outcome, a machine-readable Why and a Reason for people.
//
// The same words appear in every tool's result (the "attempts" list), in the
// logs and in the metrics, so an operator who sees client_sampling failed
// with user_rejected in a dashboard reads the same thing a host sees in a
// result. Why codes form a fixed list: they are safe as metric labels, and a
// client can branch on them without parsing prose.

package fallback

import "time"

// Outcome says what became of one rung on one call.
type Outcome string

// The outcomes of an attempt.
const (
	// Used: this rung produced the result.
	Used Outcome = "used"
	// Skipped: not tried, because it could not apply here (not declared,
	// not configured, turned off, nothing to do, no time left).
	Skipped Outcome = "skipped"
	// Failed: tried, and it gave nothing usable; the next rung ran.
	Failed Outcome = "failed"
)

// Why is the machine-readable cause of a skipped or failed attempt (empty
// for a used one). The Reason says the specifics for people.
type Why string

// Why codes. The list is closed: a new cause gets a new constant here, with
// a line saying when it applies, so dashboards and clients can rely on it.
const (
	// The client could not be asked.

	// ClientCannotAsk: the client did not declare the capability needed.
	ClientCannotAsk Why = "client_cannot_ask"
	// URLModeOnly: the client declared only URL-mode elicitation, and this
	// question needs a form.
	URLModeOnly Why = "url_mode_only"
	// UnknownClient: a legacy request without an initialized session, so
	// nothing says what the client can do.
	UnknownClient Why = "unknown_client"
	// NoStream: legacy streamable HTTP without the GET stream that is the
	// only way mcp-go delivers sampling and roots requests.
	NoStream Why = "no_stream"
	// NoTime: too little of the call's budget was left to wait for it.
	NoTime Why = "no_time"
	// TooManyWaiting: the client's session already has as many of the
	// server's questions waiting for an answer as one session may.
	TooManyWaiting Why = "too_many_waiting"

	// The client was asked, and the answer did not come or did not count.

	// UserDeclined: the user said no to a form.
	UserDeclined Why = "user_declined"
	// UserCancelled: the user dismissed a form without answering.
	UserCancelled Why = "user_cancelled"
	// UserRejected: the user rejected a sampling request at the host's
	// approval prompt.
	UserRejected Why = "user_rejected"
	// NoAnswer: nobody answered in time, or a retry carried no answer.
	NoAnswer Why = "no_answer"
	// ClientError: the client answered the question with an error.
	ClientError Why = "client_error"
	// Unsupported: the client declared the capability but says it does not
	// support the request after all.
	Unsupported Why = "unsupported"
	// StaleAnswer: the answer is about other data than this round has (the
	// flights changed between the question and the answer).
	StaleAnswer Why = "stale_answer"
	// TooManyRounds: this call has already asked the client as often as one
	// call may.
	TooManyRounds Why = "too_many_rounds"
	// UnusableAnswer: an answer came but cannot be used (a model's answer
	// that names no candidate, a form answer that does not validate).
	UnusableAnswer Why = "unusable_answer"
	// StillInvalid: the user's answers were still not valid after the last
	// form this call may show.
	StillInvalid Why = "still_invalid"
	// NotConfirmed: the user answered a confirmation without confirming.
	NotConfirmed Why = "not_confirmed"
	// CallEnded: the call itself ended (cancelled, or out of budget) while
	// this rung waited.
	CallEnded Why = "call_ended"

	// The server could not use the rung.

	// TurnedOff: the operator turned the rung off.
	TurnedOff Why = "turned_off"
	// NotConfigured: the rung needs configuration the server does not have
	// (no LLM endpoint, no export directory).
	NotConfigured Why = "not_configured"
	// NoCandidates: nothing was left to choose from.
	NoCandidates Why = "no_candidates"
	// ServerFault: the server itself failed (a question whose state it
	// could not seal): a defect to report, not something the client did.
	ServerFault Why = "server_fault"
	// NotTrusted: what the client offered cannot be trusted on this
	// transport (a remote HTTP client's roots name its own disk).
	NotTrusted Why = "not_trusted"
	// NotUsable: what the client offered cannot be used here (roots that
	// are not local directories this server can write to).
	NotUsable Why = "not_usable"

	// An endpoint the server calls (the server-side LLM) failed.

	// BadCredentials: the endpoint refused the configured key.
	BadCredentials Why = "bad_credentials"
	// RateLimited: the endpoint asked us to slow down.
	RateLimited Why = "rate_limited"
	// EndpointError: the endpoint failed (5xx), or refused the request.
	EndpointError Why = "endpoint_error"
	// Unreachable: the endpoint could not be reached.
	Unreachable Why = "unreachable"
)

// Attempt records one rung on one call. Step names the rung from a fixed
// list per tool (the flight tools': tools.Steps), so it too is safe as a
// metric label.
type Attempt struct {
	Step    string
	Outcome Outcome
	Why     Why
	Reason  string
	Elapsed time.Duration
	// Answer, on the attempt of a rung that asked a model and got an
	// answer (used, or failed because the answer could not be used), says
	// how the answer came; empty otherwise.
	Answer AnswerForm
}

// AnswerForm is how a model's answer came: the way the rungs that ask a
// model reach it, one level down.
type AnswerForm string

// The forms of an answer.
const (
	// StructuredAnswer: the model called the answer tool the request
	// offered (sampling with tools, when the client declared
	// sampling.tools), and the tool's input was read.
	StructuredAnswer AnswerForm = "structured"
	// TextAnswer: what the model wrote was read by the lenient text
	// reader.
	TextAnswer AnswerForm = "text"
)

// UsedBy is the rung that produced the result: call sites read as the
// decision they record.
func UsedBy(step, reason string, elapsed time.Duration) Attempt {
	return Attempt{Step: step, Outcome: Used, Reason: reason, Elapsed: elapsed}
}

// SkippedFor is a rung not tried, with why.
func SkippedFor(step string, why Why, reason string) Attempt {
	return Attempt{Step: step, Outcome: Skipped, Why: why, Reason: reason}
}

// FailedFor is a rung tried without a usable result, with why.
func FailedFor(step string, why Why, reason string, elapsed time.Duration) Attempt {
	return Attempt{Step: step, Outcome: Failed, Why: why, Reason: reason, Elapsed: elapsed}
}
