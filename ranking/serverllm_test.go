package ranking

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

// testKey must never show up in a reason, a ranking or a printed config.
const testKey = "sk-test-SECRET-123"

// behaviour is what the stand-in endpoint does with a request.
type behaviour string

const (
	epAnswers       behaviour = "answers"         // picks the last three flights of the prompt
	epUnknownIDs    behaviour = "unknown ids"     // picks ids that are not candidates
	epGarbage       behaviour = "garbage"         // prose, no JSON
	epUnauthorized  behaviour = "401"             // echoes the key in its error, as some do
	epForbidden     behaviour = "403"             // no body at all
	epNotFound      behaviour = "404"             // unknown model
	epBadRequest    behaviour = "400"             // a 400 that is not about the response format
	epRetryAfter1   behaviour = "429 wait 1s"     // 429 Retry-After: 1, then answers
	epRetryAfter120 behaviour = "429 wait 120s"   // 429 Retry-After: 120, which never fits
	epLimited       behaviour = "429"             // 429 without Retry-After, every time
	epNoQuota       behaviour = "429 no quota"    // OpenAI's out-of-credit 429
	epFlaky         behaviour = "500 then answer" // 500, then answers
	epBroken        behaviour = "502"             // 502 with a plain text body, every time
	epHangs         behaviour = "hangs"           // never answers
	epNoSchema      behaviour = "no json schema"  // 400 on response_format, else a fenced answer in prose
	epNoSchema422   behaviour = "no json schema, 422"
	epNoChoices     behaviour = "no choices"
	epRefuses       behaviour = "refuses"
	epHuge          behaviour = "huge" // a 2 MB reply
	epEchoesKey     behaviour = "echoes the key"
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

	ids := promptIDs(req.Messages[1].Content)
	good := picksJSON(ids[len(ids)-3:]...)
	switch e.behaviour {
	case epAnswers:
		completion(w, req.Model, good)
	case epUnknownIDs:
		completion(w, req.Model, picksJSON("JFK-LHR-000000-NOPE1", "JFK-LHR-000000-NOPE2"))
	case epGarbage:
		completion(w, req.Model, "The second flight looks nice, I would take that one.")
	case epUnauthorized:
		apiError(w, http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided: "+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	case epForbidden:
		w.WriteHeader(http.StatusForbidden)
	case epNotFound:
		apiError(w, http.StatusNotFound, "model_not_found", "The model `"+req.Model+"` does not exist")
	case epBadRequest:
		apiError(w, http.StatusBadRequest, "invalid_value", "temperature is out of range")
	case epRetryAfter1, epFlaky:
		if nth == 1 {
			if e.behaviour == epRetryAfter1 {
				w.Header().Set("Retry-After", "1")
				apiError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "slow down")
			} else {
				apiError(w, http.StatusInternalServerError, "server_error", "oops")
			}
			return
		}
		completion(w, req.Model, good)
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
			completion(w, req.Model, "Here are my picks:\n```json\n"+good+"\n```\nSafe travels!")
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
				"message": map[string]any{"role": "assistant", "content": nil, "refusal": "I will not rank flights for " + testKey}}}})
	case epHuge:
		completion(w, req.Model, strings.Repeat("x", 2<<20))
	case epEchoesKey:
		completion(w, req.Model, `{"picks":[{"id":"`+ids[0]+`","reason":"your key is `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`"}]}`)
	case epNotJSON:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>Welcome to nginx!</html>")
	}
}

// promptIDs reads the flight ids from a prompt's data lines, in order.
func promptIDs(user string) []string {
	_, data, _ := strings.Cut(user, dataOpen+"\n"+dataHeader+"\n")
	data, _, _ = strings.Cut(data, dataClose)
	var ids []string
	for line := range strings.Lines(data) {
		id, _, _ := strings.Cut(line, dataSep)
		ids = append(ids, id)
	}
	return ids
}

func picksJSON(ids ...string) string {
	type pick struct {
		ID     string `json:"id"`
		Reason string `json:"reason"`
	}
	var a struct {
		Picks []pick `json:"picks"`
	}
	for i, id := range ids {
		a.Picks = append(a.Picks, pick{id, fmt.Sprintf("choice %d of the endpoint", i+1)})
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// endpointModel is the model the endpoint says answered: a dated version of
// the one asked for, as OpenAI reports it.
func endpointModel(asked string) string { return asked + "-2024-07-18" }

// completion writes a chat completion with one choice.
func completion(w http.ResponseWriter, model, content string) {
	writeJSON(w, map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1765800000, "model": endpointModel(model),
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop", "logprobs": nil,
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

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// jfkLHR is a real search's candidates, filtered and ordered as the ladder
// hands them to a tier.
func jfkLHR(t *testing.T) (flights.Trip, []flights.Flight) {
	t.Helper()
	trip, fs := search(t, "JFK", "LHR", "2026-12-15")
	fs = Filter(trip, fs)
	DefaultWeights.Order(fs)
	return trip, fs
}

// serve starts an endpoint with behaviour b and a ServerLLM pointing at it.
func serve(t *testing.T, b behaviour, cfg LLMConfig) (*endpoint, *ServerLLM) {
	t.Helper()
	e := &endpoint{behaviour: b}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = srv.Client()
	}
	return e, NewServerLLM(cfg)
}

func TestServerLLMOutcomes(t *testing.T) {
	trip, cands := jfkLHR(t)
	ranked := fmt.Sprintf("the server's LLM (gpt-4o-mini-2024-07-18) ranked the %d candidates", len(cands))
	for _, tc := range []struct {
		b       behaviour
		timeout time.Duration // 0: the default 15s
		kind    LLMFailure
		reason  []string
		calls   int
	}{
		{epAnswers, 0, "", []string{ranked}, 1},
		{epUnknownIDs, 0, Unusable, []string{`answer named unknown flight ids: "JFK-LHR-000000-NOPE1"`}, 1},
		{epGarbage, 0, Unusable, []string{"answer is not the JSON object asked for"}, 1},
		{epUnauthorized, 0, BadCredentials, []string{"bad credentials (HTTP 401): check --llm-api-key"}, 1},
		{epForbidden, 0, BadCredentials, []string{"bad credentials (HTTP 403)"}, 1},
		{epNotFound, 0, Rejected, []string{"the endpoint rejected the request (HTTP 404, model_not_found): check --llm-model"}, 1},
		{epBadRequest, 0, Rejected, []string{"the endpoint rejected the request (HTTP 400, invalid_value)"}, 1},
		{epRetryAfter1, 5 * time.Second, "", []string{ranked, "retried once after HTTP 429, waiting 1s as Retry-After asked"}, 2},
		{epRetryAfter120, 0, RateLimited, []string{"rate limited (HTTP 429); Retry-After 120s does not fit the time left"}, 1},
		{epLimited, 0, RateLimited, []string{"rate limited (HTTP 429); retried once after HTTP 429"}, 2},
		{epLimited, 300 * time.Millisecond, RateLimited, []string{"rate limited (HTTP 429); too little time left to retry"}, 1},
		{epNoQuota, 0, RateLimited, []string{"insufficient_quota", "no credit left"}, 1},
		{epFlaky, 0, "", []string{ranked, "retried once after HTTP 500"}, 2},
		{epBroken, 0, ServerError, []string{"server error (HTTP 502); retried once after HTTP 502"}, 2},
		{epBroken, 300 * time.Millisecond, ServerError, []string{"server error (HTTP 502); too little time left to retry"}, 1},
		{epHangs, 300 * time.Millisecond, Timeout, []string{"no answer within 300ms"}, 1},
		{epNoSchema, 0, "", []string{ranked, "asked again without the JSON schema response format"}, 2},
		// A short budget still allows the retry when half of it is left
		// (2 s, not less: under -race on a loaded machine the first request
		// alone can take a few hundred ms).
		{epNoSchema, 2 * time.Second, "", []string{ranked, "asked again without"}, 2},
		{epNoSchema422, 0, "", []string{ranked, "asked again without the JSON schema response format"}, 2},
		{epNoChoices, 0, Unusable, []string{"the endpoint returned no choices"}, 1},
		{epRefuses, 0, Unusable, []string{"the model refused to answer"}, 1},
		{epHuge, 0, Unusable, []string{"the endpoint's reply was larger than 1 MB"}, 1},
		{epEchoesKey, 0, Unusable, []string{"the answer contained the API key, so it was not used"}, 1},
		{epNotJSON, 0, Unusable, []string{"the endpoint's reply (HTTP 200) was not a chat completion"}, 1},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.b, tc.timeout), func(t *testing.T) {
			t.Parallel()
			e, s := serve(t, tc.b, LLMConfig{APIKey: testKey, Timeout: tc.timeout})
			r, a, kind := s.Rank(context.Background(), DefaultWeights, trip, cands, 3)

			wantOutcome := Used
			if tc.kind != "" {
				wantOutcome = Failed
			}
			if a.Tier != ServerLLMTier || a.Outcome != wantOutcome || kind != tc.kind {
				t.Fatalf("attempt %+v, failure %q; want %s, failure %q", a, kind, wantOutcome, tc.kind)
			}
			for _, want := range tc.reason {
				if !strings.Contains(a.Reason, want) {
					t.Errorf("reason %q lacks %q", a.Reason, want)
				}
			}
			if a.Elapsed <= 0 {
				t.Errorf("elapsed %v", a.Elapsed)
			}
			if got := len(e.seen()); got != tc.calls {
				t.Errorf("the endpoint got %d requests, want %d", got, tc.calls)
			}
			if (r != nil) != (tc.kind == "") {
				t.Fatalf("ranking %v with failure %q", r, tc.kind)
			}
			if r != nil {
				checkRanking(t, r, cands)
			}
		})
	}
}

// checkRanking checks a ranking from the endpoint's good answer: the last
// three candidates, in that order, with the endpoint's reasons.
func checkRanking(t *testing.T, r *Ranking, cands []flights.Flight) {
	t.Helper()
	if r.Method != ServerLLMTier || !r.Ranked || r.Model != "gpt-4o-mini-2024-07-18" || r.Considered != len(cands) || r.Attempts != nil {
		t.Errorf("method %s ranked %v model %q considered %d attempts %v", r.Method, r.Ranked, r.Model, r.Considered, r.Attempts)
	}
	last := cands[len(cands)-3:]
	if want := last[0].ID + " " + last[1].ID + " " + last[2].ID; ids(r.Picks) != want {
		t.Errorf("picks %s, want %s", ids(r.Picks), want)
	}
	if len(r.Picks) > 0 && r.Picks[0].Reason != "choice 1 of the endpoint" {
		t.Errorf("first reason %q", r.Picks[0].Reason)
	}
}

// The request is the shared prompt, asked for as strict JSON, to the
// configured model at the usual path, with the key as a bearer token.
func TestServerLLMRequest(t *testing.T) {
	trip, cands := jfkLHR(t)
	e, s := serve(t, epAnswers, LLMConfig{APIKey: testKey, Model: "gpt-4o-mini"})
	if _, a, _ := s.Rank(context.Background(), DefaultWeights, trip, cands, 3); a.Outcome != Used {
		t.Fatalf("attempt %+v", a)
	}
	got := e.seen()[0]
	p := NewPrompt(trip, cands)
	if got.path != "/v1/chat/completions" || got.authorization != "Bearer "+testKey || got.body.Model != "gpt-4o-mini" {
		t.Errorf("path %q, Authorization %q, model %q", got.path, got.authorization, got.body.Model)
	}
	if m := got.body.Messages; m[0].Role != "system" || m[0].Content != p.System || m[1].Role != "user" || m[1].Content != p.User {
		t.Error("the messages are not NewPrompt's system and user messages")
	}
	if got.body.Temperature == nil || *got.body.Temperature != llmTemperature || got.body.MaxTokens == nil || *got.body.MaxTokens != llmMaxTokens {
		t.Errorf("temperature %v, max_tokens %v", got.body.Temperature, got.body.MaxTokens)
	}
	var rf struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
			Schema struct {
				AdditionalProperties *bool    `json:"additionalProperties"`
				Required             []string `json:"required"`
				Properties           struct {
					Picks struct {
						Items struct {
							AdditionalProperties *bool    `json:"additionalProperties"`
							Required             []string `json:"required"`
						} `json:"items"`
					} `json:"picks"`
				} `json:"properties"`
			} `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(got.body.ResponseFormat, &rf); err != nil {
		t.Fatalf("response_format %s: %v", got.body.ResponseFormat, err)
	}
	sc := rf.JSONSchema.Schema
	items := sc.Properties.Picks.Items
	if rf.Type != "json_schema" || !rf.JSONSchema.Strict || rf.JSONSchema.Name == "" ||
		sc.AdditionalProperties == nil || *sc.AdditionalProperties || fmt.Sprint(sc.Required) != "[picks]" ||
		items.AdditionalProperties == nil || *items.AdditionalProperties || fmt.Sprint(items.Required) != "[id reason]" {
		t.Errorf("response_format is not the strict picks schema: %s", got.body.ResponseFormat)
	}
}

// A local endpoint without a key works and is sent no Authorization, even
// with OPENAI_* variables in the environment: only LLMConfig counts.
func TestServerLLMLocalEndpointWithoutKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-SECRET-456")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	trip, cands := jfkLHR(t)
	cfg := LLMConfig{Model: "llama3.1:8b"}
	e, s := serve(t, epAnswers, cfg)
	r, a, kind := s.Rank(context.Background(), DefaultWeights, trip, cands, 3)
	if a.Outcome != Used || kind != "" || r == nil || r.Model != "llama3.1:8b-2024-07-18" {
		t.Fatalf("attempt %+v, failure %q, ranking %v", a, kind, r)
	}
	if got := e.seen()[0]; got.authorization != "" || got.body.Model != "llama3.1:8b" {
		t.Errorf("Authorization %q, model %q", got.authorization, got.body.Model)
	}
}

// An endpoint that rejects the response format is asked without it, and
// from then on without asking first.
func TestServerLLMRemembersTheResponseFormatIsRejected(t *testing.T) {
	trip, cands := jfkLHR(t)
	e, s := serve(t, epNoSchema, LLMConfig{APIKey: testKey})
	for i := range 2 {
		if _, a, _ := s.Rank(context.Background(), DefaultWeights, trip, cands, 3); a.Outcome != Used {
			t.Fatalf("call %d: attempt %+v", i+1, a)
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

// The caller's deadline bounds the call as well as the configured timeout,
// and a caller that gives up is told apart from a timeout.
func TestServerLLMHonoursTheCallersContext(t *testing.T) {
	trip, cands := jfkLHR(t)
	e, s := serve(t, epHangs, LLMConfig{APIKey: testKey, Timeout: time.Minute})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// Elapsed far below the minute configured: the deadline, not the timeout, ended it.
	if _, a, kind := s.Rank(ctx, DefaultWeights, trip, cands, 3); kind != Timeout || !strings.Contains(a.Reason, "no answer within") || a.Elapsed > 30*time.Second {
		t.Errorf("deadline: attempt %+v, failure %q", a, kind)
	}

	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, a, kind := s.Rank(ctx, DefaultWeights, trip, cands, 3); kind != Timeout || a.Reason != "no time was left to ask the endpoint" {
		t.Errorf("past deadline: attempt %+v, failure %q", a, kind)
	}
	if n := len(e.seen()); n != 1 {
		t.Errorf("%d requests, want 1: none once the deadline has passed", n)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, a, kind := s.Rank(ctx, DefaultWeights, trip, cands, 3); kind != Canceled || a.Outcome != Failed || !strings.Contains(a.Reason, "canceled") {
		t.Errorf("cancel: attempt %+v, failure %q", a, kind)
	}
}

// Failures before any request: nothing configured, a malformed base URL, an
// endpoint that is not there, nothing to rank.
func TestServerLLMWithoutAnEndpoint(t *testing.T) {
	trip, cands := jfkLHR(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // its port now refuses connections

	for _, tc := range []struct {
		name    string
		s       *ServerLLM
		cands   []flights.Flight
		outcome Outcome
		kind    LLMFailure
		reason  string
	}{
		{"nil", nil, cands, Skipped, NotConfigured, NotConfiguredReason},
		{"zero config", NewServerLLM(LLMConfig{}), cands, Skipped, NotConfigured, NotConfiguredReason},
		{"bad base URL", NewServerLLM(LLMConfig{BaseURL: "ftp://" + testKey + "@example.com", APIKey: testKey}), cands, Failed, Transport, "could not reach the endpoint: the base URL is not an http(s) URL"},
		{"refused", NewServerLLM(LLMConfig{BaseURL: gone.URL + "/v1?key=" + testKey, APIKey: testKey}), cands, Failed, Transport, "could not reach the endpoint: connection refused"},
		{"no candidates", NewServerLLM(LLMConfig{APIKey: testKey}), nil, Failed, Unusable, "there were no candidates to rank"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, a, kind := tc.s.Rank(context.Background(), DefaultWeights, trip, tc.cands, 3)
			if r != nil || a.Tier != ServerLLMTier || a.Outcome != tc.outcome || kind != tc.kind || a.Reason != tc.reason {
				t.Errorf("ranking %v, attempt %+v, failure %q; want %s %q %q", r, a, kind, tc.outcome, tc.kind, tc.reason)
			}
		})
	}
}

// The key appears in no reason, ranking or printed form, whatever the
// endpoint does, including echoing the key back in errors and answers.
func TestServerLLMNeverShowsTheKey(t *testing.T) {
	trip, cands := jfkLHR(t)
	var outputs []string
	for _, b := range []behaviour{epAnswers, epUnknownIDs, epGarbage, epUnauthorized, epForbidden, epNotFound, epBadRequest, epRetryAfter120,
		epLimited, epNoQuota, epBroken, epHangs, epNoSchema, epNoSchema422, epNoChoices, epRefuses, epHuge, epEchoesKey, epNotJSON} {
		_, s := serve(t, b, LLMConfig{APIKey: testKey, Timeout: 300 * time.Millisecond})
		r, a, kind := s.Rank(context.Background(), DefaultWeights, trip, cands, 3)
		outputs = append(outputs, fmt.Sprintf("%s: %+v %+v %s %#v %+v", b, r, a, kind, s, s))
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for _, base := range []string{gone.URL + "/" + testKey, "http://user:" + testKey + "@" + strings.TrimPrefix(gone.URL, "http://"), "::" + testKey} {
		cfg := LLMConfig{BaseURL: base, APIKey: testKey}
		_, a, _ := NewServerLLM(cfg).Rank(context.Background(), DefaultWeights, trip, cands, 3)
		outputs = append(outputs, a.Reason, fmt.Sprintf("%v %+v %#v", cfg, cfg, cfg))
	}
	cfgJSON, _ := json.Marshal(LLMConfig{BaseURL: "http://localhost:11434/v1", APIKey: testKey})
	outputs = append(outputs, string(cfgJSON))
	for _, o := range outputs {
		if strings.Contains(o, "SECRET") {
			t.Errorf("the key leaked: %s", o)
		}
	}
}

func TestLLMConfigured(t *testing.T) {
	for _, tc := range []struct {
		cfg  LLMConfig
		want bool
	}{
		{LLMConfig{}, false},
		{LLMConfig{Model: "gpt-4o", Timeout: time.Second}, false},
		{LLMConfig{APIKey: "  "}, false},
		{LLMConfig{APIKey: testKey}, true},
		{LLMConfig{BaseURL: "http://localhost:11434/v1"}, true},
	} {
		if got := tc.cfg.Configured(); got != tc.want {
			t.Errorf("%v.Configured() = %v, want %v", tc.cfg, got, tc.want)
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
