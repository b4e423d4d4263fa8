package llm

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
)

// Kind classifies why Complete gave no reply, for code: logs, metrics and
// the caller's choice of what to do next. The Failure's Reason says the
// same for people.
type Kind string

// Failure kinds.
const (
	// NotConfigured: no key and no base URL; nobody was asked.
	NotConfigured Kind = "not_configured"
	// BadCredentials: HTTP 401 or 403. A configuration problem, not a
	// passing one: worth one error-level log line.
	BadCredentials Kind = "bad_credentials"
	// RateLimited: HTTP 429, also after the one retry if it fitted.
	RateLimited Kind = "rate_limited"
	// ServerError: HTTP 5xx, also after the one retry if it fitted.
	ServerError Kind = "server_error"
	// Rejected: another 4xx, such as an unknown model (404) or a request
	// the endpoint refuses (400); usually configuration.
	Rejected Kind = "rejected"
	// Timeout: no answer before the deadline, the smaller of the
	// configured timeout and the caller's deadline.
	Timeout Kind = "timeout"
	// Canceled: the caller gave up (its context was canceled).
	Canceled Kind = "canceled"
	// Unusable: the endpoint answered, but with nothing we can pass on (no
	// choices, a refusal, a withheld or empty answer at the token limit, a
	// reply that is not a chat completion or too large, or one that contains
	// the API key).
	Unusable Kind = "unusable"
	// Transport: the endpoint could not be reached (refused, DNS, TLS) or
	// the base URL is malformed.
	Transport Kind = "transport"
)

// Failure is the error Complete returns. Kind is for code; Reason is for
// people, and may be shown to the client: it is written in our own words
// from status codes, a fixed vocabulary of API error codes and the error's
// type, never from the endpoint's or the HTTP client's error text, and it
// holds no piece of the API key.
type Failure struct {
	Kind   Kind
	Reason string
}

// Error is the Reason with its Kind, for logs and wrapping.
func (f *Failure) Error() string { return "llm " + string(f.Kind) + ": " + f.Reason }

// failure is why one request gave no completion, and whether the one retry
// may help.
type failure struct {
	kind   Kind
	reason string
	// retry: one more request may succeed, after pause. retried ends the
	// final reason when the retry was made ("retried once after HTTP 500");
	// noTime ends it when the retry did not fit.
	retry           bool
	pause           time.Duration
	retried, noTime string
	// noSchema: the endpoint rejected the response format; retry without.
	noSchema bool
	// reasoning: the model refused max_tokens or our temperature; retry
	// with max_completion_tokens and its own.
	reasoning bool
}

// classify says why a request failed. It never uses err's text: the
// client's errors and the endpoint's messages may carry the request's
// details, the key among them. leaks is the Client's key check.
func classify(ctx context.Context, budget time.Duration, raw *http.Response, err error, schema, reasoning bool, leaks func(...string) bool) failure {
	if ctxErr := ctx.Err(); ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return failure{kind: Timeout, reason: "no answer within " + formatWait(budget)}
		}
		return failure{kind: Canceled, reason: "the call was canceled before the endpoint answered"}
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		// A timeout of the HTTP client's own (cfg.HTTPClient), not ours.
		return failure{kind: Timeout, reason: "no answer: the HTTP client timed out"}
	}
	if raw != nil && raw.StatusCode >= 400 {
		return statusFailure(raw, err, schema, reasoning, leaks)
	}
	switch {
	case errors.Is(err, errReplyTooLarge):
		return failure{kind: Unusable, reason: fmt.Sprintf("the endpoint's reply was larger than %d MB", maxReplyBytes>>20)}
	case raw != nil && !isNetError(err):
		return failure{kind: Unusable, reason: fmt.Sprintf("the endpoint's reply (HTTP %d) was not a chat completion", raw.StatusCode)}
	}
	return failure{kind: Transport, reason: "could not reach the endpoint" + transportCause(err)}
}

// statusFailure classifies an HTTP error status.
func statusFailure(raw *http.Response, err error, schema, reasoning bool, leaks func(...string) bool) failure {
	code := raw.StatusCode
	status := "HTTP " + strconv.Itoa(code)
	apiCode := ""
	if ae, ok := errors.AsType[*openai.Error](err); ok {
		apiCode = knownCode(ae.Code, leaks)
	}
	switch {
	case code == http.StatusUnauthorized || (code == http.StatusForbidden && credentialCode(apiCode)):
		return failure{kind: BadCredentials, reason: "bad credentials (" + status + "): check --llm-api-key"}

	case code == http.StatusTooManyRequests && apiCode == "insufficient_quota":
		// OpenAI's 429 for an account out of credit: waiting will not help.
		return failure{kind: RateLimited, reason: "rate limited (" + status + ", insufficient_quota): the account has no credit left"}

	case code == http.StatusTooManyRequests || code >= 500:
		f := failure{kind: ServerError, reason: "server error (" + status + ")", retry: true, pause: retryPause,
			retried: "retried once after " + status, noTime: "too little time left to retry"}
		if code == http.StatusTooManyRequests {
			f.kind, f.reason = RateLimited, "rate limited ("+status+")"
		}
		if wait, ok := retryAfter(raw.Header); ok {
			f.pause = wait
			f.retried = fmt.Sprintf("retried once after %s, waiting %s as Retry-After asked", status, formatWait(wait))
			f.noTime = fmt.Sprintf("Retry-After %s does not fit the time left", formatWait(wait))
		}
		return f

	case schema && (code == http.StatusBadRequest || code == http.StatusUnprocessableEntity) && mentionsResponseFormat(raw, err):
		return failure{kind: Rejected, reason: "the endpoint rejected the JSON schema response format (" + status + ")",
			retry: true, noSchema: true,
			retried: "asked again without the JSON schema response format, which the endpoint rejects",
			noTime:  "too little time left to ask again without it"}

	case !reasoning && code == http.StatusBadRequest && refusesTokensOrTemperature(err):
		return failure{kind: Rejected, reason: "the model refuses max_tokens or a temperature (" + status + "): it is a reasoning model",
			retry: true, reasoning: true,
			retried: "asked again with max_completion_tokens and the model's own temperature, as a reasoning model needs",
			noTime:  "too little time left to ask again with them"}
	}
	if apiCode != "" {
		status += ", " + apiCode
	}
	reason := "the endpoint rejected the request (" + status + ")"
	if code == http.StatusNotFound {
		reason += ": check --llm-model and --llm-base-url"
	}
	return failure{kind: Rejected, reason: reason}
}

// refusesTokensOrTemperature reports whether a 400 is OpenAI's refusal of
// max_tokens or of a temperature other than the model's default, as its
// reasoning models answer: code unsupported_parameter or unsupported_value
// for param max_tokens or temperature. A temperature out of range for any
// model (invalid_value) is not one.
func refusesTokensOrTemperature(err error) bool {
	ae, ok := errors.AsType[*openai.Error](err)
	return ok && (ae.Code == "unsupported_parameter" || ae.Code == "unsupported_value") &&
		(ae.Param == "max_tokens" || ae.Param == "temperature")
}

// mentionsResponseFormat reports whether an error reply is about the
// response format. It reads the endpoint's own words, since servers differ
// in their error shapes, but only to decide: they are never shown.
func mentionsResponseFormat(raw *http.Response, err error) bool {
	var text string
	if ae, ok := errors.AsType[*openai.Error](err); ok {
		text = ae.Message + " " + ae.Param + " " + ae.Code
	}
	if raw.Body != nil {
		// The client has read the body and put it back in memory.
		b, _ := io.ReadAll(io.LimitReader(raw.Body, maxErrorScan))
		text += " " + string(b)
	}
	text = strings.ToLower(text)
	return strings.Contains(text, "response_format") || strings.Contains(text, "json_schema") ||
		strings.Contains(text, "response format")
}

// apiCodes is the fixed vocabulary of API error codes a reason may quote:
// OpenAI's documented codes (and the error types some compatible servers
// put in the code field) that tell an operator what to fix. Any other code
// is dropped rather than shown: it is the endpoint's text, and an endpoint
// that echoes the request could make it anything, the key included.
var apiCodes = map[string]bool{
	"account_deactivated":                  true,
	"billing_hard_limit_reached":           true,
	"content_policy_violation":             true,
	"context_length_exceeded":              true,
	"insufficient_quota":                   true,
	"integer_above_max_value":              true,
	"integer_below_min_value":              true,
	"invalid_api_key":                      true,
	"invalid_organization":                 true,
	"invalid_request_error":                true,
	"invalid_type":                         true,
	"invalid_value":                        true,
	"missing_required_parameter":           true,
	"model_not_found":                      true,
	"rate_limit_exceeded":                  true,
	"server_error":                         true,
	"string_above_max_length":              true,
	"unsupported_country_region_territory": true,
	"unsupported_parameter":                true,
	"unsupported_value":                    true,
}

// credentialCode reports whether a 403's API code (from apiCodes, or ""
// when it had none or an unknown one) says the key is the problem: a 403
// for a region, a model or a policy is a refusal of the request, which a
// new key would not change.
func credentialCode(c string) bool {
	switch c {
	case "", "invalid_api_key", "account_deactivated", "invalid_organization":
		return true
	}
	return false
}

// knownCode is c if it is in apiCodes and, belt and braces, leaks no piece
// of the key; "" otherwise.
func knownCode(c string, leaks func(...string) bool) string {
	if !apiCodes[c] || leaks(c) {
		return ""
	}
	return c
}

// retryAfter reads how long the endpoint asks us to wait: OpenAI's
// Retry-After-Ms, or Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header) (time.Duration, bool) {
	seconds := func(v string, unit float64) (time.Duration, bool) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || f < 0 {
			return 0, false
		}
		f = min(f*unit, 24*3600) // no overflow; a day never fits anyway
		return time.Duration(f * float64(time.Second)), true
	}
	if d, ok := seconds(h.Get("Retry-After-Ms"), 0.001); ok {
		return d, true
	}
	v := h.Get("Retry-After")
	if d, ok := seconds(v, 1); ok {
		return d, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// transportCause is ": " and why a connection failed, in a few fixed words,
// or "" if we cannot tell. It looks only at the innermost errors' types and
// the operating system's error number: the outer errors' text includes the
// URL, which is not ours to show.
func transportCause(err error) string {
	if dns, ok := errors.AsType[*net.DNSError](err); ok {
		if dns.IsNotFound {
			return ": host not found"
		}
		return ": DNS lookup failed"
	}
	if errno, ok := errors.AsType[syscall.Errno](err); ok {
		// The operating system's fixed text for the number, e.g.
		// "connection refused".
		return ": " + errno.Error()
	}
	if _, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return ": its TLS certificate is not trusted"
	}
	if _, ok := errors.AsType[tls.RecordHeaderError](err); ok {
		return ": TLS handshake failed (check http or https in the base URL)"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return ": the connection closed before an answer"
	}
	return ""
}

// isNetError reports whether err comes from the network rather than from
// decoding a reply.
func isNetError(err error) bool {
	_, op := errors.AsType[*net.OpError](err)
	_, errno := errors.AsType[syscall.Errno](err)
	return op || errno
}

// formatWait writes a duration the way people say it: 300ms, 1s, 2.5s, 120s.
func formatWait(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + "s"
}
