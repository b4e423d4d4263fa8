// Package fakeendpoint is a stand-in for an OpenAI-compatible chat
// completions API, so the server-side LLM rung can be exercised (in tests
// and in the demo) with no network and no key: a model that answers with
// fakemodel's taste, and the failures real endpoints show.
package fakeendpoint

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/flightserver/flightserver/internal/fakemodel"
)

// Behaviour is what the endpoint does with a request: what its model does
// (fakemodel.Answers, fakemodel.UnknownIDs, fakemodel.Garbage), or what
// the API does instead (below).
type Behaviour string

// The behaviours of the API around its model.
const (
	// Silent: the endpoint never answers.
	Silent Behaviour = "silent"
	// Unauthorized: the key is wrong (HTTP 401).
	Unauthorized Behaviour = "unauthorized"
	// RateLimited: HTTP 429 with a Retry-After that no call budget fits.
	RateLimited Behaviour = "rate-limited"
	// RateLimitedNoRetryAfter: HTTP 429 without Retry-After, every time.
	RateLimitedNoRetryAfter Behaviour = "rate-limited-no-retry-after"
	// ServerError: HTTP 500, every time.
	ServerError Behaviour = "server-error"
	// NoJSONSchema: rejects the JSON schema response format (HTTP 400),
	// then answers in prose when asked without it, as many local servers do.
	NoJSONSchema Behaviour = "no-json-schema"
)

// Outcome is what the server's LLM rung makes of an endpoint behaviour on
// a search from JFK to LHR (47 candidates): the tier that ranks, the
// rung's outcome, its why (the word clients and dashboards branch on) and
// words its reason holds.
type Outcome struct {
	Behaviour                    Behaviour
	Method, Outcome, Why, Reason string
}

// Outcomes hold one Outcome for each behaviour: the one table that the
// rung's tests in package tools (in-process) and the built binary's
// (cmd/flightserver, configured by flags and FLIGHTSERVER_LLM_API_KEY) both assert,
// so the two cannot drift apart. Silent's reason names no duration: each
// test sets its own timeout.
var Outcomes = []Outcome{
	{fakemodel.Answers, "server_llm", "used", "", "ranked the 47 candidates"},
	{NoJSONSchema, "server_llm", "used", "", "ranked the 47 candidates"},
	{fakemodel.UnknownIDs, "deterministic", "failed", "unusable_answer", "unknown flight ids"},
	{fakemodel.Garbage, "deterministic", "failed", "unusable_answer", "not the JSON object"},
	{Unauthorized, "deterministic", "failed", "bad_credentials", "bad credentials (HTTP 401)"},
	{RateLimited, "deterministic", "failed", "rate_limited", "rate limited (HTTP 429); Retry-After"},
	{RateLimitedNoRetryAfter, "deterministic", "failed", "rate_limited", "rate limited (HTTP 429); retried once"},
	{ServerError, "deterministic", "failed", "endpoint_error", "server error (HTTP 500)"},
	{Silent, "deterministic", "failed", "no_answer", "no answer within"},
}

// Model is the model name the stand-in endpoint reports.
const Model = "scripted-endpoint-1"

// Endpoint is a stand-in for an OpenAI-compatible chat completions API,
// so the server-side LLM tier can be exercised (in tests and in the demo)
// with no network and no key. Silent hangs until the request is cancelled.
type Endpoint struct {
	Behaviour Behaviour
	// Reply, when set, writes an answering model's text from the prompt's.
	Reply func(prompt string) string

	mu       sync.Mutex
	calls    int
	authSeen []string
}

// Calls is how many chat completion requests arrived.
func (e *Endpoint) Calls() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls
}

// Authorizations lists the Authorization headers received, in order.
func (e *Endpoint) Authorizations() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.authSeen...)
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format"`
}

// ServeHTTP answers POST .../chat/completions.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "could not parse the request body")
		return
	}
	e.mu.Lock()
	e.calls++
	e.authSeen = append(e.authSeen, r.Header.Get("Authorization"))
	e.mu.Unlock()

	text, isModel := fakemodel.Reply(string(e.Behaviour), req.text(), e.Reply)
	switch e.Behaviour {
	case Unauthorized:
		apiError(w, http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided.")
		return
	case RateLimited:
		w.Header().Set("Retry-After", "3600")
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "Rate limit reached.")
		return
	case RateLimitedNoRetryAfter:
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "Rate limit reached.")
		return
	case ServerError:
		apiError(w, http.StatusInternalServerError, "server_error", "The server had an error.")
		return
	case Silent:
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute): // never reached in tests; bounds a forgotten server
		}
		return
	case NoJSONSchema:
		if len(req.ResponseFormat) > 0 && string(req.ResponseFormat) != "null" {
			apiError(w, http.StatusBadRequest, "invalid_request_error", "response_format json_schema is not supported by this server")
			return
		}
		text = "Sure! " + fakemodel.Answer(fakemodel.Choose(fakemodel.IDs(req.text()))...)
	default:
		if !isModel {
			apiError(w, http.StatusInternalServerError, "server_error", "unknown scripted behaviour")
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-scripted", "object": "chat.completion", "created": time.Now().Unix(), "model": Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": text}}},
		"usage": map[string]any{"prompt_tokens": 900, "completion_tokens": 60, "total_tokens": 960},
	})
}

// text is the request's text messages, joined.
func (r chatRequest) text() string {
	var b strings.Builder
	for _, m := range r.Messages {
		if s, ok := m.Content.(string); ok {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

func apiError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message, "type": code, "code": code}})
}
