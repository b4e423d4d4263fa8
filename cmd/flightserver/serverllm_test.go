package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeendpoint"
)

// The server-side LLM tier through the real binary over stdio, configured
// the way an operator does (flags and OPENAI_API_KEY), against a stand-in
// OpenAI-compatible endpoint, in both eras. The key must not reach stderr.
func TestStdioServerLLM(t *testing.T) {
	const key = "sk-test-SECRET-456"
	for _, tc := range fakeendpoint.Outcomes {
		for _, era := range eras {
			t.Run(string(tc.Behaviour)+"/"+era.name, func(t *testing.T) {
				endpoint := &fakeendpoint.Endpoint{Behaviour: tc.Behaviour}
				ts := httptest.NewServer(endpoint)
				defer ts.Close()
				var stderr serverbin.Log
				timeout := "10s" // short only where the endpoint hangs
				if tc.Behaviour == fakeendpoint.Silent {
					timeout = "300ms"
				}
				c := startStdio(t, []string{"OPENAI_API_KEY=" + key},
					[]string{"--llm-base-url", ts.URL + "/v1", "--llm-timeout", timeout, "--log-level", "debug"}, &stderr,
					client.WithProtocolVersion(era.version))
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
					Arguments: map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}}})
				if err != nil || res.IsError {
					t.Fatalf("call: %v %+v", err, res)
				}
				var r struct {
					Method   string
					Attempts []struct{ Step, Outcome, Reason string }
				}
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &r); err != nil || len(r.Attempts) < 2 {
					t.Fatalf("result %s: %v", b, err)
				}
				if a := r.Attempts[1]; r.Method != tc.Method || a.Step != "server_llm" || a.Outcome != tc.Outcome || !strings.Contains(a.Reason, tc.Reason) {
					t.Errorf("method %s attempts %+v; want %s with server_llm %s (%q)", r.Method, r.Attempts, tc.Method, tc.Outcome, tc.Reason)
				}
				if auth := endpoint.Authorizations(); len(auth) == 0 || auth[0] != "Bearer "+key {
					t.Errorf("the key from OPENAI_API_KEY did not reach the endpoint: %q", auth)
				}
				_ = c.Close()
				for _, out := range []string{stderr.String(), string(b)} {
					if strings.Contains(out, "SECRET") {
						t.Errorf("the API key leaked:\n%s", out)
					}
				}
			})
		}
	}
}
