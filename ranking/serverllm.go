package ranking

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/flightserver/flightserver/flights"
)

// ServerLLMTier is the server-side LLM tier: the server itself asks any
// OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI, Ollama,
// vLLM, LM Studio) to rank, with the same prompt and the same answer checks
// as client sampling. The operator pays for it and the endpoint sees the
// candidates, so it comes after the client's own LLM on the ladder.
const ServerLLMTier Tier = "server_llm"

// Defaults for LLMConfig's zero values.
const (
	// DefaultLLMModel is small, cheap and good enough to weigh three
	// numbers per flight. Local endpoints need their own model name.
	DefaultLLMModel = "gpt-4o-mini"
	// DefaultLLMTimeout is per Rank call, retry included. A small model
	// answers this prompt in a second or two; 15 s leaves room for a slow
	// moment without using up a 60 s host budget.
	DefaultLLMTimeout = 15 * time.Second
)

// NotConfiguredReason is the Attempt reason when there is no endpoint to
// ask: no API key and no base URL.
const NotConfiguredReason = "no server-side LLM configured"

// What we ask for and how long we wait. These are deliberately not
// configurable: they bound cost and time, and the prompt asks for well
// under 200 tokens.
const (
	// llmTemperature is low: we want the same sensible answer every time,
	// not creativity.
	llmTemperature = 0.2
	// llmMaxTokens bounds what a call can cost. It is sent as max_tokens,
	// which every OpenAI-compatible server understands; OpenAI's reasoning
	// models (o-series) want max_completion_tokens instead and are not
	// supported here.
	llmMaxTokens = 600
	// retryPause is the wait before the one retry after a 5xx, or a 429
	// that does not say how long to wait.
	retryPause = 200 * time.Millisecond
	// minRetryTime is the time that must be left after the pause for a
	// retry to be worth making (or half the budget, if that is less): a
	// retry cancelled mid-answer still costs the operator tokens and gains
	// nothing. With a short budget, e.g. a fast local endpoint, half of it
	// is a fair chance.
	minRetryTime = time.Second
	// maxReplyBytes bounds what is read from the endpoint. A real reply is
	// about 1 KB; the endpoint is not trusted to be small.
	maxReplyBytes = 1 << 20
	// maxErrorScan is how much of an error reply is searched for mentions
	// of the response format.
	maxErrorScan = 8 << 10
	// maxModelRunes bounds the model name the endpoint reports.
	maxModelRunes = 100
)

// LLMConfig says which endpoint the server-side LLM tier calls. Its zero
// value is "not configured".
type LLMConfig struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1 for Ollama;
	// "" means OpenAI's (https://api.openai.com/v1).
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>". It may be empty for a
	// local endpoint, and then no Authorization header is sent. It never
	// appears in reasons, errors or String; json:"-" keeps it out of JSON
	// logs of the config.
	APIKey string `json:"-"`
	// Model is the model to ask for; "" means DefaultLLMModel.
	Model string
	// Timeout bounds each Rank call, its one retry included; 0 means
	// DefaultLLMTimeout. The caller's context deadline bounds it too.
	Timeout time.Duration
	// HTTPClient, if set, makes the requests (tests, proxies); nil means
	// http.DefaultClient.
	HTTPClient *http.Client `json:"-"`
}

// Configured reports whether there is anything to call: a key (for OpenAI)
// or a base URL (any other endpoint, with or without a key). Without either
// the tier is skipped with NotConfiguredReason.
func (c LLMConfig) Configured() bool {
	return strings.TrimSpace(c.APIKey) != "" || strings.TrimSpace(c.BaseURL) != ""
}

// String describes the configuration for logs without the key (only
// whether one is set, and not even where the base URL holds it) and without
// a password in the base URL.
func (c LLMConfig) String() string {
	base := c.BaseURL
	if u, err := url.Parse(base); err != nil {
		base = "(not a URL)"
	} else {
		base = u.Redacted()
	}
	key := "none"
	if k := strings.TrimSpace(c.APIKey); k != "" {
		key = "set"
		base = strings.ReplaceAll(base, k, "[redacted]")
	}
	return fmt.Sprintf("LLMConfig{BaseURL: %q, APIKey: %s, Model: %q, Timeout: %s}", base, key, c.Model, c.Timeout)
}

// GoString is String, so that %#v cannot print the key either.
func (c LLMConfig) GoString() string { return c.String() }

// ServerLLM calls one configured endpoint. It is safe for concurrent use; make
// one per configuration and keep it, as it remembers what the endpoint
// supports.
//
// It asks for a strict JSON schema response format. An endpoint that refuses
// it (HTTP 400 or 422 naming response_format or json_schema) is asked once
// more without it, and the ServerLLM remembers: later calls go without the
// response format from the start, instead of paying for a refusal each time.
// ParseAnswer reads the JSON from plain text just as well; the schema only
// makes a well-formed answer more likely.
type ServerLLM struct {
	chat       openai.ChatCompletionService
	model      string
	timeout    time.Duration
	configured bool
	badURL     bool
	// redact removes the API key from a text. It is a closure rather than a
	// string field so that printing a ServerLLM (%+v) cannot show the key.
	redact func(string) string
	// noSchema is set once the endpoint has rejected the response format.
	noSchema atomic.Bool
}

// NewServerLLM builds the client for cfg once. It never fails: a config that
// is not Configured gives a ServerLLM whose Rank skips, and a malformed base
// URL gives one whose Rank fails with a reason, so the ladder always goes on.
//
// The client is built from cfg alone. openai.NewClient would also read
// OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID and other variables from the
// environment, which could send a key from the environment to a local
// endpoint configured without one; the chat completions service built
// directly reads nothing but its options. The client's own retries are off
// (max retries 0): Rank does its own, at most one, within its deadline.
func NewServerLLM(cfg LLMConfig) *ServerLLM {
	key := strings.TrimSpace(cfg.APIKey)
	s := &ServerLLM{
		model:      strings.TrimSpace(cfg.Model),
		timeout:    cfg.Timeout,
		configured: cfg.Configured(),
		redact:     func(t string) string { return t },
	}
	if s.model == "" {
		s.model = DefaultLLMModel
	}
	if s.timeout <= 0 {
		s.timeout = DefaultLLMTimeout
	}
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(), // OpenAI's URL unless BaseURL is set
		option.WithMaxRetries(0),
		option.WithMiddleware(capReply),
	}
	if base := strings.TrimSpace(cfg.BaseURL); base != "" {
		if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			s.badURL = true
		} else {
			opts = append(opts, option.WithBaseURL(base))
		}
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
		s.redact = func(t string) string { return strings.ReplaceAll(t, key, "[redacted]") }
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	s.chat = openai.NewChatCompletionService(opts...)
	return s
}

// LLMFailure classifies why the server-side LLM did not rank, for logs,
// metrics and tests; it is "" when it ranked. The Attempt's Reason says the
// same for people.
type LLMFailure string

// Failure kinds. Every one of them means the ladder goes on to the next tier.
const (
	// NotConfigured: no key and no base URL; the tier was skipped.
	NotConfigured LLMFailure = "not_configured"
	// BadCredentials: HTTP 401 or 403. A configuration problem, not a
	// passing one: worth one error-level log line.
	BadCredentials LLMFailure = "bad_credentials"
	// RateLimited: HTTP 429, also after the one retry if it fitted.
	RateLimited LLMFailure = "rate_limited"
	// ServerError: HTTP 5xx, also after the one retry if it fitted.
	ServerError LLMFailure = "server_error"
	// Rejected: another 4xx, such as an unknown model (404) or a request
	// the endpoint refuses (400); usually configuration.
	Rejected LLMFailure = "rejected"
	// Timeout: no answer before the deadline, the smaller of the
	// configured timeout and the caller's deadline.
	Timeout LLMFailure = "timeout"
	// Canceled: the caller gave up (its context was canceled).
	Canceled LLMFailure = "canceled"
	// Unusable: the endpoint answered, but not with picks we can use
	// (unknown ids, garbage, no choices, a refusal).
	Unusable LLMFailure = "unusable"
	// Transport: the endpoint could not be reached (refused, DNS, TLS) or
	// the base URL is malformed.
	Transport LLMFailure = "transport"
)

// Rank asks the endpoint to choose n of the candidates (already filtered by
// the trip and ordered, e.g. by Weights.Order) with the shared Prompt, and
// checks the answer with ParseAnswer. When the answer is usable it returns
// the Ranking (Method ServerLLMTier, Model as the endpoint reports it,
// Attempts not set) and a "" failure. It always returns this tier's
// Attempt: Used or Failed with a reason for people, or Skipped when the
// ServerLLM is nil or not Configured.
//
// Time: everything, the one retry and its pause included, happens before
// the smaller of the configured timeout and ctx's deadline. There is at most
// one retry, and only when it fits in the time left (with a second, or
// half the budget, to spare after the pause): after a 5xx or a 429 (waiting as long as Retry-After asks, if it
// says; otherwise a short pause), or without the response format after the
// endpoint rejected it. Nothing else is retried: a bad key, a wrong model or
// a garbled answer would fail the same way again, and a timeout has used the
// time up.
//
// Safety: the endpoint's reply is hostile input. At most 1 MB of it is read;
// ParseAnswer accepts only candidate ids; the reported model name is
// cleaned; an answer that contains the API key is not used. Reasons are
// built from status codes and our own words, never from error strings of
// the client or the endpoint, and the API key is removed from every one.
func (s *ServerLLM) Rank(ctx context.Context, w Weights, trip flights.Trip, candidates []flights.Flight, n int) (*Ranking, Attempt, LLMFailure) {
	start := time.Now()
	if s == nil || !s.configured {
		return nil, Attempt{Tier: ServerLLMTier, Outcome: Skipped, Reason: NotConfiguredReason}, NotConfigured
	}
	done := func(r *Ranking, kind LLMFailure, reason string) (*Ranking, Attempt, LLMFailure) {
		out := Used
		if kind != "" {
			out, r = Failed, nil
		}
		return r, Attempt{Tier: ServerLLMTier, Outcome: out, Reason: s.redact(reason), Elapsed: time.Since(start)}, kind
	}
	switch {
	case s.badURL:
		return done(nil, Transport, "could not reach the endpoint: the base URL is not an http(s) URL")
	case len(candidates) == 0:
		return done(nil, Unusable, "there were no candidates to rank")
	case n <= 0:
		return done(nil, Unusable, "no picks were asked for")
	}

	// The budget is what the reasons quote; the context enforces it.
	budget := s.timeout
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl))
	}
	if budget <= 0 {
		return done(nil, Timeout, "no time was left to ask the endpoint")
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()

	prompt := NewPrompt(trip, candidates)
	schema := !s.noSchema.Load()
	note := "" // after a retry: why it was made, for the final reason
	for {
		completion, raw, err := s.call(ctx, prompt, schema)
		if err == nil {
			r, kind, reason := s.use(completion, w, candidates, n)
			return done(r, kind, reason+note)
		}
		f := classify(ctx, budget, raw, err, schema)
		if f.noSchema {
			s.noSchema.Store(true) // also when there is no time to retry: the next call knows
		}
		if note != "" || !f.retry {
			return done(nil, f.kind, f.reason+note)
		}
		if f.pause+min(minRetryTime, budget/2) > time.Until(deadline) {
			return done(nil, f.kind, f.reason+"; "+f.noTime)
		}
		if err := sleep(ctx, f.pause); err != nil {
			g := classify(ctx, budget, nil, err, schema)
			return done(nil, g.kind, g.reason)
		}
		note = "; " + f.retried
		if f.noSchema {
			schema = false
		}
	}
}

// picksFormat is the strict JSON schema response format for the answer the
// system prompt asks for: {"picks":[{"id":"...","reason":"..."}]}. Strict
// mode needs every property required and no others allowed.
var picksFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
	OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{
		JSONSchema: openai.ResponseFormatJSONSchemaJSONSchemaParam{
			Name:        "flight_picks",
			Description: openai.String("Up to three flights, best first, each by its id with a short reason."),
			Strict:      openai.Bool(true),
			Schema: map[string]any{
				"type":                 "object",
				"additionalProperties": false,
				"required":             []string{"picks"},
				"properties": map[string]any{
					"picks": map[string]any{
						"type": "array",
						"items": map[string]any{
							"type":                 "object",
							"additionalProperties": false,
							"required":             []string{"id", "reason"},
							"properties": map[string]any{
								"id":     map[string]any{"type": "string"},
								"reason": map[string]any{"type": "string"},
							},
						},
					},
				},
			},
		},
	},
}

// call makes one chat completions request. raw is the endpoint's HTTP
// response when there was one, error or not, for its status and headers:
// the client's error type depends on the error body's shape, which
// OpenAI-compatible servers do not agree on.
func (s *ServerLLM) call(ctx context.Context, p Prompt, schema bool) (*openai.ChatCompletion, *http.Response, error) {
	params := openai.ChatCompletionNewParams{
		Model: s.model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(p.System),
			openai.UserMessage(p.User),
		},
		Temperature: openai.Float(llmTemperature),
		MaxTokens:   openai.Int(llmMaxTokens),
	}
	if schema {
		params.ResponseFormat = picksFormat
	}
	var raw *http.Response
	c, err := s.chat.New(ctx, params, option.WithResponseInto(&raw))
	return c, raw, err
}

// use turns a completion into a Ranking, or says why it cannot.
func (s *ServerLLM) use(c *openai.ChatCompletion, w Weights, candidates []flights.Flight, n int) (*Ranking, LLMFailure, string) {
	if c == nil || len(c.Choices) == 0 {
		return nil, Unusable, "the endpoint returned no choices"
	}
	choice := c.Choices[0]
	content := choice.Message.Content
	cutOff := choice.FinishReason == "length"
	if strings.TrimSpace(content) == "" {
		switch {
		case choice.Message.Refusal != "": // its text is the model's: not shown
			return nil, Unusable, "the model refused to answer"
		case choice.FinishReason == "content_filter":
			return nil, Unusable, "the endpoint's content filter withheld the answer"
		case cutOff:
			return nil, Unusable, fmt.Sprintf("the answer was empty at the %d-token limit", llmMaxTokens)
		}
	}
	if s.redact(content) != content {
		// The endpoint echoed our key: showing its picks' reasons could pass
		// the key on to the client.
		return nil, Unusable, "the answer contained the API key, so it was not used"
	}
	picks, err := ParseAnswer(content, candidates)
	if err != nil {
		reason := "answer could not be read"
		if ae, ok := errors.AsType[*AnswerError](err); ok {
			reason = ae.Reason
		}
		if cutOff {
			reason += fmt.Sprintf(" (cut off at the %d-token limit)", llmMaxTokens)
		}
		return nil, Unusable, reason
	}
	r := w.FromAnswer(ServerLLMTier, candidates, picks, n)
	r.Model = s.reportedModel(c.Model)
	noun := "candidates"
	if len(candidates) == 1 {
		noun = "candidate"
	}
	return &r, "", fmt.Sprintf("the server's LLM (%s) ranked the %d %s", r.Model, len(candidates), noun)
}

// reportedModel is the model the endpoint says answered (a dated version,
// say), cleaned to one short printable word; the configured model if the
// endpoint says nothing usable.
func (s *ServerLLM) reportedModel(m string) string {
	var b strings.Builder
	k := 0
	for _, r := range m {
		if k == maxModelRunes {
			break
		}
		if unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
			k++
		}
	}
	if clean := b.String(); clean != "" && s.redact(clean) == clean {
		return clean
	}
	return s.model
}

// failure is why one request gave no completion, and whether the one retry
// may help.
type failure struct {
	kind   LLMFailure
	reason string
	// retry: one more request may succeed, after pause. retried ends the
	// final reason when the retry was made ("retried once after HTTP 500");
	// noTime ends it when the retry did not fit.
	retry           bool
	pause           time.Duration
	retried, noTime string
	// noSchema: the endpoint rejected the response format; retry without.
	noSchema bool
}

// classify says why a request failed. It never uses err's text: the
// client's errors and the endpoint's messages may carry the request's
// details.
func classify(ctx context.Context, budget time.Duration, raw *http.Response, err error, schema bool) failure {
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
		return statusFailure(raw, err, schema)
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
func statusFailure(raw *http.Response, err error, schema bool) failure {
	code := raw.StatusCode
	status := "HTTP " + strconv.Itoa(code)
	apiCode := ""
	if ae, ok := errors.AsType[*openai.Error](err); ok {
		apiCode = safeCode(ae.Code)
	}
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
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

// safeCode keeps an API error code such as "model_not_found" if it looks
// like one (short, letters, digits, '_', '-', '.'), and drops anything else.
func safeCode(c string) string {
	if len(c) == 0 || len(c) > 40 {
		return ""
	}
	for _, r := range c {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return ""
		}
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
		return ": " + cleanReason(errno.Error())
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

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errReplyTooLarge ends reading a reply past maxReplyBytes.
var errReplyTooLarge = errors.New("reply too large")

// capReply is client middleware that bounds every reply body to
// maxReplyBytes, so a broken or hostile endpoint cannot make us read
// gigabytes: the client itself reads bodies whole.
func capReply(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if res != nil && res.Body != nil {
		res.Body = &cappedBody{ReadCloser: res.Body, left: maxReplyBytes}
	}
	return res, err
}

type cappedBody struct {
	io.ReadCloser
	left int64
}

// Read passes reads through until more than left bytes would have been
// read, then fails with errReplyTooLarge.
func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), 0
		return n, errReplyTooLarge
	}
	b.left -= int64(n)
	return n, err
}
