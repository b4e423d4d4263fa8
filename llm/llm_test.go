package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
)

// testKey must never show up, whole or in part, in a reason, a reply or a
// printed config.
const testKey = "sk-test-SECRET-123"

// behaviour is what the stand-in endpoint does with a request.
type behaviour string

const (
	epAnswers       behaviour = "answers"         // answers the user message
	epProse         behaviour = "prose"           // answers in prose: not llm's business to judge
	epUnauthorized  behaviour = "401"             // echoes the key in its error, as some do
	epForbidden     behaviour = "403"             // no body at all
	epRegion        behaviour = "403 region"      // OpenAI's refusal of the caller's country, with a good key
	epReasoning     behaviour = "reasoning model" // refuses max_tokens and any temperature but 1, as OpenAI's o-series do
	epNotFound      behaviour = "404"             // unknown model
	epBadRequest    behaviour = "400"             // a 400 that is not about the response format
	epOddCode       behaviour = "400 odd code"    // a 400 whose code is not in the vocabulary
	epKeyCode       behaviour = "400 key code"    // an error code quoting the key: "bad_" + its first 10 characters
	epRetryAfter1   behaviour = "429 wait 1s"     // 429 Retry-After: 1, then answers
	epRetryAfterMs  behaviour = "429 wait 50ms"   // 429 Retry-After-Ms: 50, then answers
	epRetryAfter120 behaviour = "429 wait 120s"   // 429 Retry-After: 120, which never fits
	epLimited       behaviour = "429"             // 429 without Retry-After, every time
	epNoQuota       behaviour = "429 no quota"    // OpenAI's out-of-credit 429
	epFlaky         behaviour = "500 then answer" // 500, then answers
	epBroken        behaviour = "502"             // 502 with a plain text body, every time
	epHangs         behaviour = "hangs"           // never answers
	epNoSchema      behaviour = "no json schema"  // 400 on response_format, else answers
	epNoSchema422   behaviour = "no json schema, 422"
	epNoChoices     behaviour = "no choices"
	epRefuses       behaviour = "refuses"
	epFiltered      behaviour = "content filter"
	epCutOff        behaviour = "cut off"       // an answer stopped at the token limit
	epCutOffEmpty   behaviour = "cut off empty" // nothing at the token limit
	epHuge          behaviour = "huge"          // a 2 MB reply
	epEchoesKey     behaviour = "echoes the key"
	epEchoesPiece   behaviour = "echoes a piece of the key" // 10 characters of it, upper-cased
	epKeyModel      behaviour = "model name with a piece of the key"
	epOddModel      behaviour = "model name with spaces and controls"
	epNotJSON       behaviour = "not json" // 200 with an HTML page
)

// received is one request as the endpoint saw it.
type received struct {
	path, authorization string
	body                chatRequest
}

// chatRequest is the part of a chat completions request the tests check.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Temperature    *float64        `json:"temperature"`
	MaxTokens      *int            `json:"max_tokens"`
	// MaxCompletionTokens is what a reasoning model takes instead.
	MaxCompletionTokens *int `json:"max_completion_tokens"`
}

// endpoint is a stand-in OpenAI-compatible server: POST .../chat/completions.
type endpoint struct {
	behaviour behaviour
	mu        sync.Mutex
	requests  []received
}

func (e *endpoint) seen() []received {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]received(nil), e.requests...)
}

// answer is what the endpoint answers to a user message: it shows that the
// reply is the endpoint's answer to this very request.
func answer(user string) string { return "answer to: " + user }

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
		apiError(w, http.StatusBadRequest, "invalid_request_error", "bad request")
		return
	}
	e.mu.Lock()
	e.requests = append(e.requests, received{path: r.URL.Path, authorization: r.Header.Get("Authorization"), body: req})
	nth := len(e.requests)
	e.mu.Unlock()

	bearer := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	good := answer(req.Messages[1].Content)
	switch e.behaviour {
	case epAnswers:
		completion(w, req.Model, good, "stop")
	case epProse:
		completion(w, req.Model, "The second flight looks nice, I would take that one.", "stop")
	case epUnauthorized:
		apiError(w, http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided: "+bearer)
	case epForbidden:
		w.WriteHeader(http.StatusForbidden)
	case epRegion:
		apiError(w, http.StatusForbidden, "unsupported_country_region_territory", "Country, region, or territory not supported")
	case epReasoning:
		switch {
		case req.MaxTokens != nil:
			apiErrorFor(w, "max_tokens", "unsupported_parameter", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
		case req.Temperature != nil && *req.Temperature != 1:
			apiErrorFor(w, "temperature", "unsupported_value", "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.")
		case req.MaxCompletionTokens == nil:
			apiError(w, http.StatusBadRequest, "missing_required_parameter", "max_completion_tokens is required")
		default:
			completion(w, req.Model, good, "stop")
		}
	case epNotFound:
		apiError(w, http.StatusNotFound, "model_not_found", "The model `"+req.Model+"` does not exist")
	case epBadRequest:
		apiError(w, http.StatusBadRequest, "invalid_value", "temperature is out of range")
	case epOddCode:
		apiError(w, http.StatusBadRequest, "see_https://evil.example/x", "no")
	case epKeyCode:
		apiError(w, http.StatusBadRequest, "bad_"+bearer[:10], "bad key")
	case epRetryAfter1, epRetryAfterMs, epFlaky:
		if nth == 1 {
			switch e.behaviour {
			case epRetryAfter1:
				w.Header().Set("Retry-After", "1")
				apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "slow down")
			case epRetryAfterMs:
				w.Header().Set("Retry-After-Ms", "50")
				apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "slow down")
			default:
				apiError(w, http.StatusInternalServerError, "server_error", "oops")
			}
			return
		}
		completion(w, req.Model, good, "stop")
	case epRetryAfter120:
		w.Header().Set("Retry-After", "120")
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "slow down")
	case epLimited:
		apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "slow down")
	case epNoQuota:
		apiError(w, http.StatusTooManyRequests, "insufficient_quota", "You exceeded your current quota")
	case epBroken:
		http.Error(w, "upstream connect error", http.StatusBadGateway)
	case epHangs:
		<-r.Context().Done() // until the client gives up, so the server closes cleanly
	case epNoSchema, epNoSchema422:
		switch {
		case len(req.ResponseFormat) == 0:
			completion(w, req.Model, good, "stop")
		case e.behaviour == epNoSchema:
			apiError(w, http.StatusBadRequest, "invalid_request_error", "response_format json_schema is not supported by this server")
		default: // vLLM's shape: no "error" wrapper
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"object":"error","message":"guided decoding with json_schema is unavailable","type":"BadRequestError","code":422}`)
		}
	case epNoChoices:
		writeJSON(w, map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model, "choices": []any{}})
	case epRefuses:
		writeJSON(w, map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": nil, "refusal": "I will not answer " + bearer}}}})
	case epFiltered:
		completion(w, req.Model, "", "content_filter")
	case epCutOff:
		completion(w, req.Model, good, "length")
	case epCutOffEmpty:
		completion(w, req.Model, " \n", "length")
	case epHuge:
		completion(w, req.Model, strings.Repeat("x", 2<<20), "stop")
	case epEchoesKey:
		completion(w, req.Model, good+"; your key is "+bearer, "stop")
	case epEchoesPiece:
		completion(w, req.Model, good+"; it starts "+strings.ToUpper(bearer[2:12]), "stop")
	case epKeyModel:
		completion(w, "gpt-"+bearer[5:15], good, "stop")
	case epOddModel:
		completion(w, "my model\x07\n", good, "stop")
	case epNotJSON:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>Welcome to nginx!</html>")
	}
}

// endpointModel is the model the endpoint says answered: a dated version of
// the one asked for, as OpenAI reports it. completion adds the date.
func endpointModel(asked string) string { return asked + "-2024-07-18" }

// completion writes a chat completion with one choice.
func completion(w http.ResponseWriter, model, content, finish string) {
	writeJSON(w, map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1765800000, "model": endpointModel(model),
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": finish, "logprobs": nil,
			"message": map[string]any{"role": "assistant", "content": content, "refusal": nil},
		}},
		"usage": map[string]any{"prompt_tokens": 1000, "completion_tokens": 60, "total_tokens": 1060},
	})
}

// apiError writes an error in OpenAI's shape.
func apiError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "param": nil, "code": code}})
	w.Write(b)
}

// apiErrorFor is apiError for a 400 that names the parameter it refuses.
func apiErrorFor(w http.ResponseWriter, param, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "param": param, "code": code}})
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// serve starts an endpoint with behaviour b and a Client pointing at it.
func serve(t *testing.T, b behaviour, cfg Config) (*endpoint, *Client) {
	t.Helper()
	e := &endpoint{behaviour: b}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = srv.Client()
	}
	return e, New(cfg)
}

// testSchema is a strict schema as a caller would ask for one.
var testSchema = &Schema{
	Name:        "picks",
	Description: "What to pick.",
	Schema: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"picks"},
		"properties":           map[string]any{"picks": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
	},
}

// testRequest is the request most tests send.
var testRequest = Request{System: "You choose.", User: "Choose one of A, B, C.", Schema: testSchema}

// failureOf is err as a *Failure; it fails the test if err is anything else.
func failureOf(t *testing.T, err error) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) || f == nil {
		t.Fatalf("error %v (%T) is not a *Failure", err, err)
	}
	return f
}

// Every endpoint behaviour gives the right reply, or the right kind of
// failure with the right reason, after the right number of requests.
func TestCompleteOutcomes(t *testing.T) {
	good := answer(testRequest.User)
	const model = "gpt-4o-mini-2024-07-18"
	for _, tc := range []struct {
		b       behaviour
		timeout time.Duration // 0: the default 15s
		kind    Kind          // "": a reply
		// want is the reason of a failure, or the Note of a reply.
		want string
		// text and model are the reply's; ignored for a failure.
		text, model string
		cutOff      bool
		calls       int
	}{
		{b: epAnswers, text: good, model: model, calls: 1},
		{b: epProse, text: "The second flight looks nice, I would take that one.", model: model, calls: 1},
		{b: epUnauthorized, kind: BadCredentials, want: "bad credentials (HTTP 401): check --llm-api-key", calls: 1},
		{b: epForbidden, kind: BadCredentials, want: "bad credentials (HTTP 403): check --llm-api-key", calls: 1},
		{b: epRegion, kind: Rejected, want: "the endpoint rejected the request (HTTP 403, unsupported_country_region_territory)", calls: 1},
		{b: epNotFound, kind: Rejected, want: "the endpoint rejected the request (HTTP 404, model_not_found): check --llm-model and --llm-base-url", calls: 1},
		{b: epBadRequest, kind: Rejected, want: "the endpoint rejected the request (HTTP 400, invalid_value)", calls: 1},
		{b: epOddCode, kind: Rejected, want: "the endpoint rejected the request (HTTP 400)", calls: 1},
		{b: epKeyCode, kind: Rejected, want: "the endpoint rejected the request (HTTP 400)", calls: 1},
		{b: epRetryAfter1, timeout: 5 * time.Second, want: "; retried once after HTTP 429, waiting 1s as Retry-After asked", text: good, model: model, calls: 2},
		{b: epRetryAfterMs, want: "; retried once after HTTP 429, waiting 50ms as Retry-After asked", text: good, model: model, calls: 2},
		{b: epRetryAfter120, kind: RateLimited, want: "rate limited (HTTP 429); Retry-After 120s does not fit the time left", calls: 1},
		{b: epLimited, kind: RateLimited, want: "rate limited (HTTP 429); retried once after HTTP 429", calls: 2},
		{b: epLimited, timeout: 300 * time.Millisecond, kind: RateLimited, want: "rate limited (HTTP 429); too little time left to retry", calls: 1},
		{b: epNoQuota, kind: RateLimited, want: "rate limited (HTTP 429, insufficient_quota): the account has no credit left", calls: 1},
		{b: epFlaky, want: "; retried once after HTTP 500", text: good, model: model, calls: 2},
		{b: epBroken, kind: ServerError, want: "server error (HTTP 502); retried once after HTTP 502", calls: 2},
		{b: epBroken, timeout: 300 * time.Millisecond, kind: ServerError, want: "server error (HTTP 502); too little time left to retry", calls: 1},
		{b: epHangs, timeout: 300 * time.Millisecond, kind: Timeout, want: "no answer within 300ms", calls: 1},
		{b: epNoSchema, want: "; asked again without the JSON schema response format, which the endpoint rejects", text: good, model: model, calls: 2},
		// A short budget still allows the retry when half of it is left
		// (2 s, not less: under -race on a loaded machine the first request
		// alone can take a few hundred ms).
		{b: epNoSchema, timeout: 2 * time.Second, want: "; asked again without the JSON schema response format, which the endpoint rejects", text: good, model: model, calls: 2},
		{b: epNoSchema422, want: "; asked again without the JSON schema response format, which the endpoint rejects", text: good, model: model, calls: 2},
		{b: epReasoning, want: "; asked again with max_completion_tokens and the model's own temperature, as a reasoning model needs", text: good, model: model, calls: 2},
		{b: epNoChoices, kind: Unusable, want: "the endpoint returned no choices", calls: 1},
		{b: epRefuses, kind: Unusable, want: "the model refused to answer", calls: 1},
		{b: epFiltered, kind: Unusable, want: "the endpoint's content filter withheld the answer", calls: 1},
		{b: epCutOff, text: good, model: model, cutOff: true, calls: 1},
		{b: epCutOffEmpty, kind: Unusable, want: "the answer was empty at the 600-token limit", calls: 1},
		{b: epHuge, kind: Unusable, want: "the endpoint's reply was larger than 1 MB", calls: 1},
		{b: epEchoesKey, kind: Unusable, want: "the answer contained the API key, so it was not used", calls: 1},
		{b: epEchoesPiece, kind: Unusable, want: "the answer contained the API key, so it was not used", calls: 1},
		{b: epKeyModel, text: good, model: DefaultModel, calls: 1}, // the configured model instead
		{b: epOddModel, text: good, model: "mymodel-2024-07-18", calls: 1},
		{b: epNotJSON, kind: Unusable, want: "the endpoint's reply (HTTP 200) was not a chat completion", calls: 1},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.b, tc.timeout), func(t *testing.T) {
			t.Parallel()
			e, c := serve(t, tc.b, Config{APIKey: testKey, Timeout: tc.timeout})
			reply, err := c.Complete(context.Background(), testRequest)
			if got := len(e.seen()); got != tc.calls {
				t.Errorf("the endpoint got %d requests, want %d", got, tc.calls)
			}
			if tc.kind != "" {
				f := failureOf(t, err)
				if f.Kind != tc.kind || f.Reason != tc.want {
					t.Errorf("failure %s %q; want %s %q", f.Kind, f.Reason, tc.kind, tc.want)
				}
				if want := "llm " + string(tc.kind) + ": " + tc.want; f.Error() != want {
					t.Errorf("Error() = %q, want %q", f.Error(), want)
				}
				if reply != (Reply{}) {
					t.Errorf("a failure came with a reply: %+v", reply)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			want := Reply{Text: tc.text, Model: tc.model, CutOff: tc.cutOff, PromptTokens: 1000, CompletionTokens: 60, Note: tc.want}
			if reply != want {
				t.Errorf("reply %+v\nwant  %+v", reply, want)
			}
		})
	}
}

// The request is the caller's prompt, to the configured model at the usual
// path, with the key as a bearer token, a low temperature, the token limit
// and, only if asked for, the strict JSON schema response format.
func TestCompleteRequest(t *testing.T) {
	noDescription := *testSchema
	noDescription.Description = ""
	for _, tc := range []struct {
		name      string
		r         Request
		maxTokens int
	}{
		{"schema, default limit", testRequest, DefaultMaxTokens},
		{"no schema, own limit", Request{System: "s", User: "u", MaxTokens: 50}, 50},
		{"schema without description", Request{System: "s", User: "u", Schema: &noDescription}, DefaultMaxTokens},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, c := serve(t, epAnswers, Config{APIKey: "  " + testKey + "\n", Model: " my-model "})
			if _, err := c.Complete(context.Background(), tc.r); err != nil {
				t.Fatal(err)
			}
			got := e.seen()[0]
			if got.path != "/v1/chat/completions" || got.authorization != "Bearer "+testKey || got.body.Model != "my-model" {
				t.Errorf("path %q, Authorization %q, model %q", got.path, got.authorization, got.body.Model)
			}
			if m := got.body.Messages; m[0].Role != "system" || m[0].Content != tc.r.System || m[1].Role != "user" || m[1].Content != tc.r.User {
				t.Errorf("messages %+v are not the request's system and user messages", m)
			}
			if got.body.Temperature == nil || *got.body.Temperature != 0.2 || got.body.MaxTokens == nil || *got.body.MaxTokens != tc.maxTokens {
				t.Errorf("temperature %v, max_tokens %v; want 0.2, %d", got.body.Temperature, got.body.MaxTokens, tc.maxTokens)
			}
			if tc.r.Schema == nil {
				if len(got.body.ResponseFormat) != 0 {
					t.Errorf("response_format %s sent without a schema", got.body.ResponseFormat)
				}
				return
			}
			var rf struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Name        string         `json:"name"`
					Description *string        `json:"description"`
					Strict      bool           `json:"strict"`
					Schema      map[string]any `json:"schema"`
				} `json:"json_schema"`
			}
			if err := json.Unmarshal(got.body.ResponseFormat, &rf); err != nil {
				t.Fatalf("response_format %s: %v", got.body.ResponseFormat, err)
			}
			js := rf.JSONSchema
			if rf.Type != "json_schema" || !js.Strict || js.Name != tc.r.Schema.Name || !reflect.DeepEqual(js.Schema, tc.r.Schema.Schema) {
				t.Errorf("response_format is not the strict schema asked for: %s", got.body.ResponseFormat)
			}
			if d := tc.r.Schema.Description; (d == "") != (js.Description == nil) || d != "" && *js.Description != d {
				t.Errorf("description %v, want %q (absent if empty)", js.Description, d)
			}
		})
	}
}

// A local endpoint without a key works and is sent no Authorization, even
// with OPENAI_* variables in the environment: only Config counts.
func TestCompleteLocalEndpointWithoutKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-SECRET-456")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	e, c := serve(t, epAnswers, Config{Model: "llama3.1:8b"})
	reply, err := c.Complete(context.Background(), testRequest)
	if err != nil || reply.Text != answer(testRequest.User) || reply.Model != "llama3.1:8b-2024-07-18" {
		t.Fatalf("reply %+v, error %v", reply, err)
	}
	got := e.seen()[0]
	if got.authorization != "" || got.body.Model != "llama3.1:8b" {
		t.Errorf("Authorization %q, model %q", got.authorization, got.body.Model)
	}
}

// An endpoint that rejects the response format is asked without it, and
// from then on without asking first.
func TestCompleteRemembersTheResponseFormatIsRejected(t *testing.T) {
	e, c := serve(t, epNoSchema, Config{APIKey: testKey})
	for i, wantNote := range []string{"; asked again without the JSON schema response format, which the endpoint rejects", ""} {
		reply, err := c.Complete(context.Background(), testRequest)
		if err != nil || reply.Note != wantNote {
			t.Fatalf("call %d: reply %+v, error %v; want note %q", i+1, reply, err, wantNote)
		}
	}
	var withFormat []bool
	for _, r := range e.seen() {
		withFormat = append(withFormat, len(r.body.ResponseFormat) > 0)
	}
	if fmt.Sprint(withFormat) != "[true false false]" {
		t.Errorf("response_format sent per request: %v, want [true false false]", withFormat)
	}
}

// A reasoning model that refuses max_tokens and our temperature is asked
// with max_completion_tokens (the answer's limit and room for its
// reasoning) and no temperature, and from then on without asking first.
func TestCompleteRemembersAReasoningModel(t *testing.T) {
	e, c := serve(t, epReasoning, Config{APIKey: testKey, Model: "o4-mini"})
	for i, wantNote := range []string{"; asked again with max_completion_tokens and the model's own temperature, as a reasoning model needs", ""} {
		reply, err := c.Complete(context.Background(), testRequest)
		if err != nil || reply.Note != wantNote {
			t.Fatalf("call %d: reply %+v, error %v; want note %q", i+1, reply, err, wantNote)
		}
	}
	var sent []string
	for _, r := range e.seen() {
		sent = append(sent, fmt.Sprintf("%v/%v/%v", r.body.MaxTokens != nil, r.body.Temperature != nil, r.body.MaxCompletionTokens != nil))
		if m := r.body.MaxCompletionTokens; m != nil && *m != DefaultMaxTokens+reasoningTokens {
			t.Errorf("max_completion_tokens %d, want %d", *m, DefaultMaxTokens+reasoningTokens)
		}
	}
	if got := strings.Join(sent, " "); got != "true/true/false false/false/true false/false/true" {
		t.Errorf("max_tokens/temperature/max_completion_tokens sent per request: %s", got)
	}
}

// Concurrent calls on one Client all get their own answer, and the
// remembered rejection is shared safely (run with -race).
func TestCompleteConcurrently(t *testing.T) {
	e, c := serve(t, epNoSchema, Config{APIKey: testKey})
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			r := Request{System: "s", User: fmt.Sprint("question ", i), Schema: testSchema}
			reply, err := c.Complete(context.Background(), r)
			if err == nil && reply.Text != answer(r.User) {
				err = fmt.Errorf("reply %q to %q", reply.Text, r.User)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Error(err)
	}
	// Each call sent the format at most once; after they all ran, none does.
	if got := len(e.seen()); got < n || got > 2*n {
		t.Errorf("%d requests for %d calls", got, n)
	}
	before := len(e.seen())
	if _, err := c.Complete(context.Background(), testRequest); err != nil || len(e.seen()) != before+1 || len(e.seen()[before].body.ResponseFormat) != 0 {
		t.Errorf("a later call: error %v, %d requests, format sent: %s", err, len(e.seen())-before, e.seen()[before].body.ResponseFormat)
	}
}

// The caller's deadline bounds the call as well as the configured timeout,
// and a caller that gives up is told apart from a timeout.
func TestCompleteHonoursTheCallersContext(t *testing.T) {
	e, c := serve(t, epHangs, Config{APIKey: testKey, Timeout: time.Minute})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Complete(ctx, testRequest)
	// Far below the minute configured: the deadline, not the timeout, ended it.
	if f := failureOf(t, err); f.Kind != Timeout || !strings.HasPrefix(f.Reason, "no answer within ") || time.Since(start) > 30*time.Second {
		t.Errorf("deadline: %+v after %v", f, time.Since(start))
	}

	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = c.Complete(ctx, testRequest)
	if f := failureOf(t, err); f.Kind != Timeout || f.Reason != "no time was left to ask the endpoint" {
		t.Errorf("past deadline: %+v", f)
	}
	if n := len(e.seen()); n != 1 {
		t.Errorf("%d requests, want 1: none once the deadline has passed", n)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = c.Complete(ctx, testRequest)
	if f := failureOf(t, err); f.Kind != Canceled || f.Reason != "the call was canceled before the endpoint answered" {
		t.Errorf("cancel: %+v", f)
	}
}

// Failures before any answer: nothing configured, a malformed base URL, an
// endpoint that is not there.
func TestCompleteWithoutAnEndpoint(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // its port now refuses connections

	for _, tc := range []struct {
		name       string
		c          *Client
		configured bool
		kind       Kind
		reason     string
	}{
		{"nil", nil, false, NotConfigured, "no LLM endpoint configured: no API key and no base URL"},
		{"zero config", New(Config{}), false, NotConfigured, "no LLM endpoint configured: no API key and no base URL"},
		{"blank key", New(Config{APIKey: " \t"}), false, NotConfigured, "no LLM endpoint configured: no API key and no base URL"},
		{"bad base URL", New(Config{BaseURL: "ftp://" + testKey + "@example.com", APIKey: testKey}), true, Transport, "could not reach the endpoint: the base URL is not an http(s) URL"},
		{"no host", New(Config{BaseURL: "http:///v1"}), true, Transport, "could not reach the endpoint: the base URL is not an http(s) URL"},
		{"refused", New(Config{BaseURL: gone.URL + "/v1?key=" + testKey, APIKey: testKey}), true, Transport, "could not reach the endpoint: connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Configured(); got != tc.configured {
				t.Errorf("Configured() = %v, want %v", got, tc.configured)
			}
			reply, err := tc.c.Complete(context.Background(), testRequest)
			if f := failureOf(t, err); reply != (Reply{}) || f.Kind != tc.kind || f.Reason != tc.reason {
				t.Errorf("reply %+v, failure %+v; want %s %q", reply, f, tc.kind, tc.reason)
			}
		})
	}
}

func TestModel(t *testing.T) {
	for _, tc := range []struct {
		c    *Client
		want string
	}{
		{nil, ""},
		{New(Config{}), DefaultModel},
		{New(Config{Model: " llama3.1:8b "}), "llama3.1:8b"},
	} {
		if got := tc.c.Model(); got != tc.want {
			t.Errorf("Model() = %q, want %q", got, tc.want)
		}
	}
}

// A configured model name that holds a piece of the key (an operator's
// slip) is not passed back either: the reply says the model is unknown.
func TestCompleteModelNameHoldingTheKey(t *testing.T) {
	for _, b := range []behaviour{epAnswers, epKeyModel} {
		_, c := serve(t, b, Config{APIKey: testKey, Model: "m-" + testKey[3:12]})
		reply, err := c.Complete(context.Background(), testRequest)
		if err != nil || reply.Model != "" || reply.Text != answer(testRequest.User) {
			t.Errorf("%s: reply %+v, error %v; want the answer with no model", b, reply, err)
		}
	}
}

// leaked reports the first piece of key, 8 characters or more, in any
// case, that s contains. It is written apart from containsKeyFragment, so
// that a bug there does not hide a leak here.
func leaked(s, key string) (string, bool) {
	s, key = strings.ToLower(s), strings.ToLower(key)
	for i := range key {
		for j := i + 8; j <= len(key); j++ {
			if strings.Contains(s, key[i:j]) {
				return key[i:j], true
			}
		}
	}
	return "", false
}

// The key appears, whole or in part, in no reason, reply or printed form,
// whatever the endpoint does, including echoing the key back in errors,
// error codes, answers and model names.
func TestCompleteNeverShowsTheKey(t *testing.T) {
	var outputs []string
	for _, b := range []behaviour{epAnswers, epProse, epUnauthorized, epForbidden, epNotFound, epBadRequest, epOddCode, epKeyCode,
		epRetryAfter120, epLimited, epNoQuota, epBroken, epHangs, epNoSchema, epNoSchema422, epNoChoices, epRefuses, epFiltered,
		epCutOff, epCutOffEmpty, epHuge, epEchoesKey, epEchoesPiece, epKeyModel, epOddModel, epNotJSON} {
		_, c := serve(t, b, Config{APIKey: testKey, Timeout: 300 * time.Millisecond})
		reply, err := c.Complete(context.Background(), testRequest)
		outputs = append(outputs, fmt.Sprintf("%s: %+v %v %#v %#v %+v", b, reply, err, err, c, c))
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for _, base := range []string{gone.URL + "/" + testKey, "http://user:" + testKey + "@" + strings.TrimPrefix(gone.URL, "http://"), "::" + testKey} {
		cfg := Config{BaseURL: base, APIKey: testKey}
		_, err := New(cfg).Complete(context.Background(), testRequest)
		outputs = append(outputs, fmt.Sprintf("%v %+v %v %+v %#v", err, err, cfg, cfg, cfg))
	}
	cfgJSON, err := json.Marshal(Config{BaseURL: "http://localhost:11434/v1", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(cfgJSON))
	for _, o := range outputs {
		if piece, ok := leaked(o, testKey); ok {
			t.Errorf("the key leaked (%q): %s", piece, o)
		}
	}
}

// A local server's placeholder key is not a secret: an answer that says it
// (here the endpoint even echoes it) is used. A short key that is not a
// placeholder is guarded like any other (TestCompleteNeverShowsTheKey).
func TestPlaceholderKeyAnswerIsUsed(t *testing.T) {
	for _, key := range []string{"none", "EMPTY", "ollama"} {
		_, c := serve(t, epEchoesKey, Config{APIKey: key})
		reply, err := c.Complete(context.Background(), testRequest)
		if err != nil || !strings.HasSuffix(reply.Text, "your key is "+key) {
			t.Errorf("key %q: reply %+v, error %v; want the answer used", key, reply, err)
		}
	}
	_, c := serve(t, epEchoesKey, Config{APIKey: "sk-1234"})
	if reply, err := c.Complete(context.Background(), testRequest); err == nil || strings.Contains(reply.Text, "sk-1234") {
		t.Errorf("a short real key echoed: reply %+v, error %v; want it refused", reply, err)
	}
}

// The key guard reads what it is given as a person (or the host's model)
// would: every disguise below gives the key, or 8 of its characters, away,
// and each is caught; ordinary text and placeholders are not.
func TestKeyGuard(t *testing.T) {
	const key = "sk-proj-AbCdEfGhIjKlMnOpQrSt"
	zw := func(s string) string { // a zero-width space between letters
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			b.WriteString("\u200b")
		}
		return b.String()
	}
	esc := func(s string) string { // every letter a \u escape
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		return b.String()
	}
	decoded := func(s string) string { // what a JSON decoder makes of it
		var out string
		if err := json.Unmarshal([]byte(`"`+s+`"`), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	esc16 := func(s string) string { // every rune a \u escape, as JSON writes it
		var b strings.Builder
		for _, r := range utf16.Encode([]rune(s)) {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		return b.String()
	}
	selectors := func(s string) string { // one variation selector a byte
		var b strings.Builder
		for _, c := range []byte(s) {
			if c < 16 {
				b.WriteRune(rune(0xFE00 + int(c)))
			} else {
				b.WriteRune(rune(0xE0100 + int(c) - 16))
			}
		}
		return b.String()
	}
	tags := func(s string) string { // one tag character an ASCII one
		var b strings.Builder
		for _, c := range []byte(s) {
			b.WriteRune(rune(0xE0000 + int(c)))
		}
		return b.String()
	}
	spaced := strings.Join(strings.Split(key, ""), " ")
	for _, tc := range []struct {
		name   string
		fields []string
		key    string
		want   bool
	}{
		{"empty text", []string{""}, key, false},
		{"no key", []string{"anything"}, "", false},
		{"the whole key", []string{"the whole " + key}, key, true},
		{"its first 10", []string{"bad_" + key[:10]}, key, true}, // as an endpoint's error code quotes it
		{"its last 8", []string{"x" + key[20:28] + "y"}, key, true},
		{"8 from the middle", []string{"x" + key[9:17] + "y"}, key, true},
		{"in another case", []string{strings.ToUpper(key[3:14])}, key, true},
		{"7 characters", []string{"x" + key[21:28]}, key, false},
		{"spaced out", []string{"key: " + spaced}, key, true},
		{"spaced out, 7 split by a space", []string{key[:7] + " " + key[7:14]}, key, true},
		{"zero-width split, decoded", []string{decoded(zw(key))}, key, true},
		{"zero-width split, still escaped", []string{zw(key)}, key, true},
		{"escaped", []string{esc(key)}, key, true},
		{"in variation selectors", []string{"cheapest nonstop" + selectors(key)}, key, true},
		{"in variation selectors, escaped", []string{"cheapest nonstop" + esc16(selectors(key))}, key, true},
		{"in tag characters", []string{"cheapest" + tags(key)}, key, true},
		{"in variation selectors, divided between fields", []string{"a" + selectors(key[:14]), "b" + selectors(key[14:])}, key, true},
		{"emoji with selectors and a tag flag", []string{"❤\ufe0f 1\ufe0f\u20e3 \U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"}, key, false},
		{"escaped, decoded", []string{decoded(esc(key))}, key, true},
		{"HTML entities", []string{"&#115;&#107;&#45;&#x70;&#x72;&#x6f;&#x6a;&#45;AbCdEfGh"}, key, true},
		{"percent-encoded", []string{"%73%6b%2d%70%72%6f%6a%2dAbCd"}, key, true},
		{"full-width letters", []string{"ｓｋ－ｐｒｏｊ－ＡｂＣｄＥｆ"}, key, true},
		{"Cyrillic look-alikes", []string{strings.NewReplacer("s", "ѕ", "k", "к", "p", "р", "o", "о", "j", "ј", "A", "А", "C", "С", "E", "Е").Replace(key[:14])}, key, true},
		{"Greek look-alikes", []string{strings.NewReplacer("A", "Α", "E", "Ε", "I", "Ι", "K", "Κ", "M", "Μ", "n", "ν", "O", "Ο").Replace(key[8:22])}, key, true},
		{"Russian and Greek words", []string{"Москва → Αθήνα, прямой рейс"}, key, false},
		{"divided across three fields", []string{"Cheapest " + key[:9], "fast " + key[9:18], "direct " + key[18:]}, key, true},
		{"divided, 6 apiece among words", []string{"nice " + key[8:14] + " fare", "good " + key[14:20] + " times", "short " + key[20:26] + " trip"}, key, true},
		{"two pieces of 4 apart", []string{"a " + key[8:12] + " b", "c " + key[16:20] + " d"}, key, false},
		{"ordinary model name", []string{"gpt-4o-mini-2024-07-18"}, key, false},
		{"our own words", []string{"retried once after HTTP 500"}, key, false},
		{"reasons", []string{"Cheapest nonstop at $412, 7h 05m", "Shortest trip, one stop in BOS", "Best arrival time"}, key, false},
		{"a local server's placeholder", []string{"use ollama here"}, "ollama", false},
		{"whatever the answer says", []string{"None of these fit"}, "none", false},
		{"a short key counts whole", []string{"your key is SK-1234"}, "sk-1234", true},
		{"and only whole", []string{"sk-123 is not it"}, "sk-1234", false},
		{"a short key spaced out", []string{"s k - 1 2 3 4"}, "sk-1234", true},
		{"exactly 8", []string{"aBcDeFgH"}, "abcdefgh", true},
		{"7 of an 8-character key", []string{"bcdefgh"}, "abcdefgh", false},
		{"multi-byte", []string{"ÄÖÜäöüßé-key"}, "äöüäöüßé-key-rest", true},
	} {
		if got := newKeyGuard(tc.key).leaks(tc.fields...); got != tc.want {
			t.Errorf("%s: leaks(%q) with key %q = %v, want %v", tc.name, tc.fields, tc.key, got, tc.want)
		}
	}
	if New(Config{}).Leaks(key) || (*Client)(nil).Leaks(key) {
		t.Error("a client without a key, or none, guards something")
	}
	if !New(Config{APIKey: key}).Leaks("x", key[:4], key[4:12]) {
		t.Error("Client.Leaks does not guard the configured key")
	}
}

func TestConfigured(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want bool
	}{
		{Config{}, false},
		{Config{Model: "gpt-4o", Timeout: time.Second}, false},
		{Config{APIKey: "  "}, false},
		{Config{BaseURL: " "}, false},
		{Config{APIKey: testKey}, true},
		{Config{BaseURL: "http://localhost:11434/v1"}, true},
	} {
		if got := tc.cfg.Configured(); got != tc.want {
			t.Errorf("%v.Configured() = %v, want %v", tc.cfg, got, tc.want)
		}
	}
}

func TestConfigString(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, `llm.Config{BaseURL: "", APIKey: none, Model: "", Timeout: 0s}`},
		{Config{BaseURL: "http://u:pw@localhost:11434/v1", Model: "m", Timeout: time.Second},
			`llm.Config{BaseURL: "http://u:xxxxx@localhost:11434/v1", APIKey: none, Model: "m", Timeout: 1s}`},
		{Config{BaseURL: "https://h/v1?k=" + testKey, APIKey: testKey},
			`llm.Config{BaseURL: "https://h/v1?k=[redacted]", APIKey: set, Model: "", Timeout: 0s}`},
		{Config{BaseURL: "::x"}, `llm.Config{BaseURL: "(not a URL)", APIKey: none, Model: "", Timeout: 0s}`},
	} {
		if got := tc.cfg.String(); got != tc.want {
			t.Errorf("String() = %s\nwant       %s", got, tc.want)
		}
		if got := fmt.Sprintf("%#v", tc.cfg); got != tc.want {
			t.Errorf("%%#v = %s\nwant  %s", got, tc.want)
		}
	}
}

func TestRetryAfterAndFormatWait(t *testing.T) {
	for _, tc := range []struct {
		header, value string
		want          time.Duration
		ok            bool
	}{
		{"Retry-After", "1", time.Second, true},
		{"Retry-After", "0.5", 500 * time.Millisecond, true},
		{"Retry-After-Ms", "250", 250 * time.Millisecond, true},
		{"Retry-After", "1e300", 24 * time.Hour, true},
		{"Retry-After", "-3", 0, false},
		{"Retry-After", "NaN", 0, false},
		{"Retry-After", "soon", 0, false},
		{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT", 0, true}, // in the past: no wait
	} {
		h := http.Header{}
		h.Set(tc.header, tc.value)
		if got, ok := retryAfter(h); got != tc.want || ok != tc.ok {
			t.Errorf("%s: %s gave %v %v, want %v %v", tc.header, tc.value, got, ok, tc.want, tc.ok)
		}
	}
	for d, want := range map[time.Duration]string{300 * time.Millisecond: "300ms", time.Second: "1s", 2500 * time.Millisecond: "2.5s", 120 * time.Second: "120s", 14730 * time.Millisecond: "14.7s"} {
		if got := formatWait(d); got != want {
			t.Errorf("formatWait(%v) = %q, want %q", d, got, want)
		}
	}
}

// The guard refuses an answer for nothing only by rare chance: ordinary
// reasons, in the words a model ranking flights uses and in varied prose,
// trip it for none of 100 random keys as long as real project keys
// (sk-proj- and 156 letters and digits). The seed is fixed, so the count
// is the same on every run; with minKeyChunk at 4 the guard refuses 39
// of these 10,000 answers, which this test would catch.
func TestKeyGuardSparesOrdinaryAnswers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	words := strings.Fields(`cheapest fastest shortest nonstop direct connection stop stops via arrives arriving departs departure
		morning evening afternoon night overnight red-eye early late time times price fare fares total traveller travellers
		balance good best better value comfortable short long layover airline carrier aircraft seat seats cabin economy
		business premium flight flights option options trip trips return outbound inbound day days week weekend local hours
		minutes only more less than the a an and or of in on at for with from to by this that one two three first second
		third reasonable convenient reliable punctual schedule scheduled airport terminal transfer connecting minimum
		maximum lowest highest cost costs saves saving savings extra included baggage checked carry-on meal meals wifi
		legroom window aisle quick quicker slower cheaper pricier alternative choice pick picks recommended recommend
		because since while although however also still just well nearly about around under over within between`)
	reasons := func() []string {
		var out []string
		for range 3 {
			var s []string
			for n := 0; n < 150; {
				w := words[r.IntN(len(words))]
				if r.IntN(6) == 0 {
					w = fmt.Sprintf("$%d", 100+r.IntN(2000))
				}
				s = append(s, w)
				n += len(w) + 1
			}
			out = append(out, strings.Join(s, " "))
		}
		return out
	}
	tripped, checked := 0, 0
	for range 100 {
		key := []byte("sk-proj-")
		for range 156 {
			key = append(key, alnum[r.IntN(len(alnum))])
		}
		g := newKeyGuard(string(key))
		for range 100 {
			checked++
			if g.leaks(reasons()...) {
				tripped++
			}
		}
	}
	if tripped > 0 {
		t.Errorf("the guard refused %d of %d ordinary answers", tripped, checked)
	}
}
