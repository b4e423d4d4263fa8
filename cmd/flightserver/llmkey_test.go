package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/flightserver/flightserver/llm"
)

// An operator who points the server LLM at another endpoint (a local
// Ollama, a third-party gateway) and configures no key for it must not have
// the OpenAI key of their environment sent there.
func TestOpenAIKeyNotSentToAnotherEndpoint(t *testing.T) {
	var mu sync.Mutex
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"llama3","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"picks\":[]}"}}]}`)
	}))
	defer srv.Close()
	const key = "sk-proj-Zq8rT2vL9mN4pK7xW3cB6yH1jF5dG0sA"
	c, err := parseConfig([]string{"--llm-base-url", srv.URL + "/v1", "--llm-model", "llama3"},
		env(map[string]string{"OPENAI_API_KEY": key}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := llm.New(c.llm).Complete(context.Background(), llm.Request{System: "s", User: "u"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if auth != "" {
		t.Errorf("the endpoint at %s received Authorization %q: the OPENAI_API_KEY meant for api.openai.com", srv.URL, auth)
	}
}
