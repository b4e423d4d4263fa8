package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/serverbin"
)

// get is a GET on a connection of its own (a probe does not reuse one).
func get(url string) (int, string, error) {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 3 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// The SIGTERM sequence a load balancer and Kubernetes need, against the
// real binary: /readyz turns 503 at once while /healthz stays 200; during
// --drain-delay new calls are still served; then new calls get 503 while
// the call in flight finishes and is answered; the process exits 0, and
// only then does the port close.
func TestDrainOnSIGTERM(t *testing.T) {
	slowLLM := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2500 * time.Millisecond)
		(&fakeendpoint.Endpoint{Behaviour: fakemodel.Answers}).ServeHTTP(w, r)
	}))
	defer slowLLM.Close()
	addr, proc, logs := serverbin.StartHTTP(t, binary, []string{"FLIGHTSERVER_LLM_API_KEY=test-key-not-secret"},
		"--llm-base-url", slowLLM.URL+"/v1", "--drain-delay", "700ms", "--shutdown-grace", "10s")
	base := "http://" + addr
	if status, body, _ := get(base + "/readyz"); status != 200 || body != `{"status":"ready"}` {
		t.Fatalf("readyz before SIGTERM: %d %s", status, body)
	}
	args := map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
	inFlight := make(chan map[string]any, 1)
	go func() { inFlight <- modernCall(t, base+"/mcp", "findBestFlight", args, map[string]any{}, "", nil) }()
	time.Sleep(300 * time.Millisecond) // the call is waiting for the server LLM
	if err := proc.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if status, body, err := get(base + "/readyz"); status != 503 || body != `{"status":"draining"}` {
		t.Errorf("readyz right after SIGTERM: %d %s %v", status, body, err)
	}
	if status, _, err := get(base + "/healthz"); status != 200 {
		t.Errorf("healthz right after SIGTERM: %d %v", status, err)
	}
	// Within --drain-delay a balancer that has not yet heard is still served.
	deterministic := map[string]any{"origin": "CDG", "destination": "SIN", "date": travelDate(), "strategy": "deterministic"}
	if r := modernCall(t, base+"/mcp", "findBestFlight", deterministic, map[string]any{}, "", nil); r["isError"] == true {
		t.Errorf("a call during the drain delay: %v", r)
	}
	time.Sleep(900 * time.Millisecond) // past the delay: new calls are turned away
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": map[string]any{"name": "findBestFlight", "arguments": deterministic,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}}})
	r := send(t, base+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "findBestFlight"}, string(body))
	if code, msg := rpcError(t, r); r.status != 503 || code != httpguard.CodeBusy || !strings.Contains(msg, "shutting down") || r.header.Get("Retry-After") == "" {
		t.Errorf("a new call while draining: %d %d %q", r.status, code, msg)
	}
	if status, _, err := get(base + "/healthz"); status != 200 {
		t.Errorf("healthz while the call finishes: %d %v", status, err)
	}
	select {
	case res := <-inFlight:
		sc, _ := res["structuredContent"].(map[string]any)
		if res["isError"] == true || sc["method"] != "server_llm" {
			t.Errorf("the call in flight at SIGTERM: %v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight was never answered")
	}
	exits(t, proc, logs, 10*time.Second, "its last call")
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("the port still accepts connections after exit")
	}
}
