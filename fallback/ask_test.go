package fallback

import (
	"context"
	"errors"
	"testing"
	"time"
)

// What a 2025-11-25 client's error answer means, read from what real
// clients send: each becomes the why the host's model and the dashboards
// branch on, so each word is pinned here.
func TestClassifyAskError(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	timedOut, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer stop()
	live := context.Background()
	for _, tc := range []struct {
		name           string
		call, question context.Context
		err            error
		kind           AskKind
		want           Why
	}{
		{"the call ended first", ended, ended, errors.New("context canceled"), AskSampling, CallEnded},
		{"the question's own limit", live, timedOut, context.DeadlineExceeded, AskSampling, NoAnswer},
		{"VS Code and the SDKs reject with -1", live, live, errors.New("request failed: error -1: User rejected sampling request"), AskSampling, UserRejected},
		{"a host that says declined", live, live, errors.New("the user declined"), AskSampling, UserRejected},
		{"denied", live, live, errors.New("Permission denied by user"), AskSampling, UserRejected},
		{"a form's 'denied' is not a sampling rejection", live, live, errors.New("access denied"), AskForm, ClientError},
		{"method not found", live, live, errors.New("error -32601: Method not found"), AskRoots, Unsupported},
		{"mcp-go without a handler", live, live, errors.New("no sampling handler configured"), AskSampling, Unsupported},
		{"not supported", live, live, errors.New("elicitation is not supported"), AskForm, Unsupported},
		{"an answer mcp-go could not decode", live, live, errors.New("failed to parse sampling response content: tool_use id is missing"), AskSampling, UnusableAnswer},
		{"a form's answer mcp-go could not decode", live, live, errors.New("failed to unmarshal elicitation response: json: cannot unmarshal string into Go value of type mcp.ElicitationResult"), AskForm, UnusableAnswer},
		{"roots mcp-go could not decode, over HTTP", live, live, errors.New("failed to unmarshal list roots response: json: cannot unmarshal number"), AskRoots, UnusableAnswer},
		{"roots mcp-go could not decode, over stdio", live, live, errors.New("failed to unmarshal list root response: unexpected end of JSON input"), AskRoots, UnusableAnswer},
		{"anything else", live, live, errors.New("no model is available"), AskSampling, ClientError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why, reason := classifyAskError(tc.call, tc.question, tc.err, 300*time.Millisecond, tc.kind)
			if why != tc.want || reason == "" {
				t.Errorf("classifyAskError(%q, %s) = %s (%q), want %s", tc.err, tc.kind, why, reason, tc.want)
			}
		})
	}
}
