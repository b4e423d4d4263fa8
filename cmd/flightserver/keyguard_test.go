package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/telemetry"
)

// hostileKey is the LLM key the hostile endpoint knows (every request
// carries it) and hides in its answers.
const hostileKey = "sk-Zq4Wn8Xc2Vb6Mt9Ld3Kp7Hr1Gf5Js0Ey"

// A hostile endpoint that hides the key in its answers (escaped, spaced,
// zero-width-split, divided between the reasons, as a flight id) gets none
// of it into a result, a log line or a span of the real binary, in either
// era: the rung fails with unusable_answer and the deterministic one
// ranks. The spans name a legacy session by a digest of its id, never by
// the id, which is the session's handle.
func TestHostileEndpointNeverLeaksTheKey(t *testing.T) {
	var mu sync.Mutex
	var reply func(string) string
	endpoint := &fakeendpoint.Endpoint{Behaviour: fakemodel.Answers, Reply: func(prompt string) string {
		mu.Lock()
		defer mu.Unlock()
		return reply(prompt)
	}}
	llmServer := httptest.NewServer(endpoint)
	defer llmServer.Close()
	rec := newOTLPReceiver()
	collector := httptest.NewServer(rec)
	defer collector.Close()
	addr, proc, logs := serverbin.StartHTTP(t, binary, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"FLIGHTSERVER_LLM_API_KEY=" + hostileKey,
	}, "--llm-base-url", llmServer.URL+"/v1", "--log-level", "debug", "--rate-limit", "0")
	url := "http://" + addr + "/mcp"
	trip := map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
	session := legacySession(t, url, "", `{}`)
	var results []string
	check := func(name, era string, result map[string]any) {
		t.Helper()
		b, _ := json.Marshal(result)
		var r struct {
			Method   string
			Attempts []struct{ Step, Outcome, Why string }
		}
		if sc, ok := result["structuredContent"]; ok {
			sb, _ := json.Marshal(sc)
			_ = json.Unmarshal(sb, &r)
		}
		var llmAttempt string
		for _, a := range r.Attempts {
			if a.Step == "server_llm" {
				llmAttempt = a.Outcome + ":" + a.Why
			}
		}
		if r.Method != "deterministic" || llmAttempt != "failed:unusable_answer" {
			t.Errorf("%s, %s: method %q, server_llm %q; want deterministic after server_llm failed:unusable_answer\n%s", name, era, r.Method, llmAttempt, b)
		}
		// json.Marshal escapes no letter or digit: the key shows in it as
		// plainly as a client would show it.
		results = append(results, string(b))
	}
	for _, d := range fakemodel.Disguises(hostileKey) {
		mu.Lock()
		reply = d.Reply
		mu.Unlock()
		check(d.Name, "modern", modernCall(t, url, "findBestFlight", trip, map[string]any{}, "", nil))
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": map[string]any{"name": "findBestFlight", "arguments": trip}})
		r := send(t, url, map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}, string(body))
		var out struct{ Result map[string]any }
		if err := json.Unmarshal([]byte(sseData(r.body)), &out); err != nil || out.Result == nil {
			t.Fatalf("%s, legacy: %d %s", d.Name, r.status, r.body)
		}
		check(d.Name, "legacy", out.Result)
	}
	if n := endpoint.Calls(); n < 2*len(fakemodel.Disguises(hostileKey)) {
		t.Errorf("the endpoint was asked %d times", n)
	}
	_ = proc.Cmd.Process.Signal(syscall.SIGTERM)
	exits(t, proc, logs, 20*time.Second, "SIGTERM")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	spans := strings.Join(rec.text, "\n")
	if _, ok := rec.ids["chat "+"gpt-4o-mini"]; !ok || len(rec.attrs["mcp.session.id"]) == 0 {
		t.Fatalf("spans missing: chat span %v, session attributes %v\n%s", ok, rec.attrs["mcp.session.id"], spans)
	}
	if pieces := fakemodel.Pieces(hostileKey, append(results, logs.String(), spans)...); len(pieces) > 0 {
		t.Errorf("pieces of the key %q got out:\nresults %s\nlog %s\nspans %s", pieces, results, logs.String(), spans)
	}
	for _, v := range rec.attrs["mcp.session.id"] {
		if v != telemetry.SessionRef(session) {
			t.Errorf("mcp.session.id %q, want the digest %q of the session's id", v, telemetry.SessionRef(session))
		}
	}
	if strings.Contains(spans, strings.TrimPrefix(session, "fs-")) {
		t.Error("a span holds the session's id")
	}
}
