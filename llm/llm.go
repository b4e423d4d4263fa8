// Package llm asks an OpenAI-compatible chat completions endpoint (OpenAI,
// Azure OpenAI, Ollama, vLLM, LM Studio) one system prompt and one user
// message, and gives back the model's text or a classified failure.
//
// It knows nothing of flights or ranking: the caller writes the prompt and
// reads the answer. What it owns is talking to an endpoint that is not
// trusted: a bounded time with at most one retry, a bounded reply, failures
// classified from status codes, error types and errno alone, and an API key
// that never comes back out, not even in pieces.
package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
)

// DefaultMaxTokens is the completion token limit when a Request sets none.
// It bounds what a call can cost; callers quoting the limit (an answer cut
// off at it) use this.
const DefaultMaxTokens = 600

// reasoningTokens is the room a reasoning model is given beyond the
// answer's limit: its hidden reasoning counts against
// max_completion_tokens, and an answer cut off before it begins is no
// answer. It bounds what a call may cost, not what it does cost.
const reasoningTokens = 8192

// What we ask for and how long we wait. These are deliberately not
// configurable: they bound cost and time.
const (
	// temperature is low: we want the same sensible answer every time, not
	// creativity.
	temperature = 0.2
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
	// a few KB; the endpoint is not trusted to be small.
	maxReplyBytes = 1 << 20
	// maxErrorScan is how much of an error reply is searched for mentions
	// of the response format.
	maxErrorScan = 8 << 10
	// maxModelRunes bounds the model name the endpoint reports.
	maxModelRunes = 100
)

// Schema is a strict JSON schema response format to ask for. Strict mode
// needs every property required and no others allowed. An endpoint that
// does not support it is asked again without it, so the caller must read
// the answer from plain text just as well; the schema only makes a
// well-formed answer more likely.
type Schema struct {
	// Name names the format (a-z, A-Z, 0-9, '_' and '-', at most 64).
	Name string
	// Description tells the model what the format is for; may be "".
	Description string
	// Schema is the JSON schema of the answer.
	Schema map[string]any
}

// Request is one prompt: a system prompt and one user message.
type Request struct {
	System, User string
	// Schema, if set, is asked for as the response format.
	Schema *Schema
	// MaxTokens bounds the completion; 0 means DefaultMaxTokens. It is sent
	// as max_tokens, which every OpenAI-compatible server understands; to
	// a model that refuses it (OpenAI's reasoning models, which also refuse
	// any temperature but their default), as max_completion_tokens with
	// reasoningTokens of room for the reasoning it counts, and no
	// temperature (see Complete).
	MaxTokens int
}

// Reply is the model's answer.
type Reply struct {
	// Text is the answer's content, untrusted: the caller reads it as
	// hostile input. It holds no piece of the API key (see Complete). It
	// may be empty, when the model stopped without saying anything; an
	// empty answer at the token limit, a refusal or a withheld answer is a
	// Failure instead.
	Text string
	// Model is the model the endpoint says answered (a dated version, say),
	// cleaned to one short printable word; the configured model when the
	// endpoint says nothing usable or something holding a piece of the key;
	// "" (unknown) if even the configured name holds one.
	Model string
	// CutOff: the answer stopped at the token limit, so it may be
	// incomplete; a caller that cannot read it can say why.
	CutOff bool
	// PromptTokens and CompletionTokens are the usage the endpoint reports,
	// for metrics; 0 when it reports none.
	PromptTokens, CompletionTokens int64
	// Note ends a success reason when a retry was made, e.g.
	// "; retried once after HTTP 500"; "" otherwise.
	Note string
}

// Client calls one configured endpoint. It is safe for concurrent use; make
// one per configuration and keep it, as it remembers what the endpoint
// supports.
//
// A Request with a Schema asks for a strict JSON schema response format.
// An endpoint that refuses it (HTTP 400 or 422 naming response_format or
// json_schema) is asked once more without it, and the Client remembers:
// later calls go without the response format from the start, instead of
// paying for a refusal each time.
type Client struct {
	chat       openai.ChatCompletionService
	model      string
	timeout    time.Duration
	configured bool
	badURL     bool
	endpoint   Endpoint
	// leaks is the key guard (key.go). It is a function rather than a
	// field holding the key so that printing a Client (%+v) cannot show it.
	leaks func(fields ...string) bool
	// noSchema is set once the endpoint has rejected the response format.
	noSchema atomic.Bool
	// reasoning is set once the model has refused max_tokens or our
	// temperature: it is asked with max_completion_tokens and its own
	// temperature from then on.
	reasoning atomic.Bool
}

// New builds the client for cfg once. It never fails, so a server can
// always start: a cfg that is not Configured gives a Client whose Complete
// fails with NotConfigured, and a malformed base URL one whose Complete
// fails with Transport and a reason.
//
// The client is built from cfg alone. openai.NewClient would also read
// OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID and other variables from the
// environment, which could send a key from the environment to a local
// endpoint configured without one; the chat completions service built
// directly reads nothing but its options. The client's own retries are off
// (max retries 0): Complete does its own, at most one, within its deadline.
func New(cfg Config) *Client {
	key := strings.TrimSpace(cfg.APIKey)
	c := &Client{
		model:      strings.TrimSpace(cfg.Model),
		timeout:    cfg.Timeout,
		configured: cfg.Configured(),
		leaks:      newKeyGuard(key).leaks,
	}
	if c.model == "" {
		c.model = DefaultModel
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(), // OpenAI's URL unless BaseURL is set
		option.WithMaxRetries(0),
		option.WithMiddleware(capReply),
	}
	base := strings.TrimSpace(cfg.BaseURL)
	c.endpoint = endpointOf(base)
	if base != "" {
		if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			c.badURL = true
		} else {
			opts = append(opts, option.WithBaseURL(base))
		}
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	c.chat = openai.NewChatCompletionService(opts...)
	return c
}

// Leaks reports whether fields, read together as a person would read them,
// give away a piece of the API key: escapes decoded, case, separators and
// invisible characters ignored, and the fields joined, so a key spaced out,
// escaped, split by zero-width characters or divided between fields counts
// (key.go says exactly what counts). Complete already guards what it
// returns; a caller that turns a Reply into something else (an answer
// reader that decodes escapes, a result with several fields) runs Leaks on
// every string it will show, all in one call, and shows none of them if it
// reports true. False for a nil Client and a Client without a key.
func (c *Client) Leaks(fields ...string) bool {
	return c != nil && c.leaks != nil && c.leaks(fields...)
}

// Configured reports whether Complete has an endpoint to ask; false for a
// nil Client.
func (c *Client) Configured() bool { return c != nil && c.configured }

// Model is the configured model name (DefaultModel if none was given); ""
// for a nil Client.
func (c *Client) Model() string {
	if c == nil {
		return ""
	}
	return c.model
}

// Complete asks the endpoint r and returns the model's answer. Its error is
// always a *Failure; a nil or unconfigured Client fails with NotConfigured.
//
// Time: everything, the one retry and its pause included, happens before
// the smaller of the configured timeout and ctx's deadline. There is at most
// one retry, and only when it fits in the time left (with a second, or half
// the budget, to spare after the pause): after a 5xx or a 429 (waiting as
// long as Retry-After or Retry-After-Ms asks, if it says; otherwise a short
// pause), without the response format after the endpoint rejected it, or
// with max_completion_tokens and the model's own temperature after the
// model refused max_tokens or ours (both are remembered for later calls).
// Nothing else is retried: a bad key, a wrong model or a garbled reply would
// fail the same way again, and a timeout has used the time up.
//
// Safety: the endpoint's reply is hostile input. At most 1 MB of it is
// read. An answer that holds a piece of the API key (as Leaks reads it) is
// not passed on, and a reported model name that does, alone or together
// with the answer, is replaced by the configured one. Reasons are built from status
// codes, error types and our own words; the only endpoint-supplied words
// they quote are API error codes from a fixed vocabulary (model_not_found,
// insufficient_quota, ...), and as a last guard no reason or reply field
// leaves with a piece of the key in it.
func (c *Client) Complete(ctx context.Context, r Request) (Reply, error) {
	if !c.Configured() {
		return Reply{}, &Failure{Kind: NotConfigured, Reason: "no LLM endpoint configured: no API key and no base URL"}
	}
	if c.badURL {
		return c.fail(Transport, "could not reach the endpoint: the base URL is not an http(s) URL")
	}

	// The budget is what the reasons quote; the context enforces it.
	budget := c.timeout
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl))
	}
	if budget <= 0 {
		return c.fail(Timeout, "no time was left to ask the endpoint")
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()

	maxTokens := r.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	schema := r.Schema != nil && !c.noSchema.Load()
	reasoning := c.reasoning.Load()
	note := "" // after a retry: why it was made, for the final reason
	for {
		completion, raw, err := c.call(ctx, r, maxTokens, schema, reasoning)
		if err == nil {
			limit := maxTokens
			if reasoning {
				limit += reasoningTokens
			}
			reply, kind, reason := c.read(completion, limit)
			if kind != "" {
				return c.fail(kind, reason+note)
			}
			reply.Note = note
			return c.guard(reply)
		}
		f := classify(ctx, budget, raw, err, schema, reasoning, c.leaks)
		if f.noSchema {
			c.noSchema.Store(true) // also when there is no time to retry: the next call knows
		}
		if f.reasoning {
			c.reasoning.Store(true)
		}
		if note != "" || !f.retry {
			return c.fail(f.kind, f.reason+note)
		}
		if f.pause+min(minRetryTime, budget/2) > time.Until(deadline) {
			return c.fail(f.kind, f.reason+"; "+f.noTime)
		}
		if err := sleep(ctx, f.pause); err != nil {
			g := classify(ctx, budget, nil, err, schema, reasoning, c.leaks)
			return c.fail(g.kind, g.reason)
		}
		note = "; " + f.retried
		if f.noSchema {
			schema = false
		}
		if f.reasoning {
			reasoning = true
		}
	}
}

// call makes one chat completions request. raw is the endpoint's HTTP
// response when there was one, error or not, for its status and headers:
// the client's error type depends on the error body's shape, which
// OpenAI-compatible servers do not agree on.
func (c *Client) call(ctx context.Context, r Request, maxTokens int, schema, reasoning bool) (*openai.ChatCompletion, *http.Response, error) {
	params := openai.ChatCompletionNewParams{
		Model: c.model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(r.System),
			openai.UserMessage(r.User),
		},
		Temperature: openai.Float(temperature),
		MaxTokens:   openai.Int(int64(maxTokens)),
	}
	if reasoning {
		params.Temperature, params.MaxTokens = param.Opt[float64]{}, param.Opt[int64]{}
		params.MaxCompletionTokens = openai.Int(int64(maxTokens + reasoningTokens))
	}
	if schema {
		js := openai.ResponseFormatJSONSchemaJSONSchemaParam{
			Name:   r.Schema.Name,
			Strict: openai.Bool(true),
			Schema: r.Schema.Schema,
		}
		if r.Schema.Description != "" {
			js.Description = openai.String(r.Schema.Description)
		}
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{JSONSchema: js},
		}
	}
	var raw *http.Response
	completion, err := c.chat.New(ctx, params, option.WithResponseInto(&raw))
	return completion, raw, err
}

// read turns a completion into a Reply, or says why there is none to pass
// on.
func (c *Client) read(completion *openai.ChatCompletion, maxTokens int) (Reply, Kind, string) {
	if completion == nil || len(completion.Choices) == 0 {
		return Reply{}, Unusable, "the endpoint returned no choices"
	}
	choice := completion.Choices[0]
	content := choice.Message.Content
	cutOff := choice.FinishReason == "length"
	if strings.TrimSpace(content) == "" {
		switch {
		case choice.Message.Refusal != "": // its text is the model's: not shown
			return Reply{}, Unusable, "the model refused to answer"
		case choice.FinishReason == "content_filter":
			return Reply{}, Unusable, "the endpoint's content filter withheld the answer"
		case cutOff:
			return Reply{}, Unusable, fmt.Sprintf("the answer was empty at the %d-token limit", maxTokens)
		}
	}
	if c.leaks(content) {
		// The endpoint echoed our key, or part of it: passing the answer on
		// could pass the key on to the client.
		return Reply{}, Unusable, "the answer contained the API key, so it was not used"
	}
	return Reply{
		Text:             content,
		Model:            c.reportedModel(completion.Model, content),
		CutOff:           cutOff,
		PromptTokens:     completion.Usage.PromptTokens,
		CompletionTokens: completion.Usage.CompletionTokens,
	}, "", ""
}

// reportedModel is the model the endpoint says answered, cleaned; the
// configured model if the endpoint says nothing usable, or a name that
// holds a piece of the key, alone or with the answer's text (a key divided
// between the two).
func (c *Client) reportedModel(m, text string) string {
	if clean := cleanModel(m); clean != "" && !c.leaks(clean) && !c.leaks(text, clean) && !c.leaks(clean, text) {
		return clean
	}
	return c.model
}

// fail is the Failure to return, with the last guard on its reason: if it
// holds a piece of the key after all (a bug, or a key that happens to
// share 8 characters with our words), it says only what kind of failure
// it was.
func (c *Client) fail(kind Kind, reason string) (Reply, error) {
	if c.leaks(reason) {
		reason = "the call failed (" + string(kind) + "); the details are withheld because they contained part of the API key"
	}
	return Reply{}, &Failure{Kind: kind, Reason: reason}
}

// guard is the last check on a Reply before it leaves: no field may hold a
// piece of the key. read has already checked Text and Model; this catches
// whatever a later change might add.
func (c *Client) guard(r Reply) (Reply, error) {
	if c.leaks(r.Text) {
		return c.fail(Unusable, "the answer contained the API key, so it was not used")
	}
	if c.leaks(r.Model) {
		r.Model = ""
	}
	if c.leaks(r.Note) {
		r.Note = ""
	}
	return r, nil
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

// cappedBody is a reply body that fails once more than left bytes are read.
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
