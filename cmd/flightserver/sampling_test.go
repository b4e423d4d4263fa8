package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
)

// The sampling ladder through the real binary over stdio, the way desktop
// hosts run it, for every client behaviour in both eras. (tools runs the
// same matrix in-process and over HTTP.)
func TestStdioSamplingMatrix(t *testing.T) {
	type want struct{ method, outcome, reason, callErr string }
	for _, tc := range []struct {
		behaviour      fakeclient.Behaviour
		legacy, modern want
	}{
		{fakemodel.Answers, want{"client_sampling", "used", "scripted-llm-1", ""}, want{"client_sampling", "used", "scripted-llm-1", ""}},
		{fakemodel.UnknownIDs, want{"deterministic", "failed", "unknown flight ids", ""}, want{"deterministic", "failed", "unknown flight ids", ""}},
		{fakemodel.Garbage, want{"deterministic", "failed", "not the JSON object", ""}, want{"deterministic", "failed", "not the JSON object", ""}},
		{fakeclient.Rejects, want{"deterministic", "failed", "the user rejected the request", ""}, want{callErr: fakeclient.RejectMessage}},
		{fakeclient.Silent, want{"deterministic", "failed", "no answer within 300ms", ""}, want{callErr: "context deadline exceeded"}},
		{"", want{"deterministic", "skipped", "client did not declare sampling", ""}, want{"deterministic", "skipped", "client did not declare sampling", ""}},
	} {
		for _, era := range eras {
			name := string(tc.behaviour)
			if name == "" {
				name = "undeclared"
			}
			t.Run(name+"/"+era.name, func(t *testing.T) {
				w := tc.legacy
				if era.name == "modern" {
					w = tc.modern
				}
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				if tc.behaviour != "" {
					opts = append(opts, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: tc.behaviour}))
				}
				// Short only for the silent client, so an answer on a slow
				// machine is never mistaken for a timeout.
				timeout := "20s"
				if tc.behaviour == fakeclient.Silent {
					timeout = "300ms"
				}
				c := startStdio(t, nil, []string{"--sampling-timeout", timeout, "--log-level", "warn"}, nil, opts...)
				callCtx, cancelCall := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancelCall()
				res, err := c.CallTool(callCtx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
					Arguments: map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}}})
				if w.callErr != "" {
					if err == nil || !strings.Contains(err.Error(), w.callErr) {
						t.Fatalf("call error %v, want one containing %q", err, w.callErr)
					}
					return
				}
				if err != nil || res.IsError {
					t.Fatalf("call: %v %+v", err, res)
				}
				var r struct {
					Method   string
					Attempts []struct{ Step, Outcome, Reason string }
				}
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &r); err != nil || len(r.Attempts) == 0 {
					t.Fatalf("result %s: %v", b, err)
				}
				if a := r.Attempts[0]; r.Method != w.method || a.Step != "client_sampling" || a.Outcome != w.outcome || !strings.Contains(a.Reason, w.reason) {
					t.Errorf("method %s, attempts %+v; want %s with sampling %s (%q)", r.Method, r.Attempts, w.method, w.outcome, w.reason)
				}
			})
		}
	}
}
