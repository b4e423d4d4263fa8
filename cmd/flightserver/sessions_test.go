package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/serverbin"
)

// initializeFrom initializes a legacy session as the client at ip (through
// X-Real-IP) and returns the reply.
func initializeFrom(t *testing.T, url, ip string) reply {
	t.Helper()
	return send(t, url+"/mcp", map[string]string{"X-Real-IP": ip}, initialize)
}

func deleteSession(t *testing.T, url, id string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, url+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if status := statusOf(t, req); status != 200 {
		t.Fatalf("DELETE: %d", status)
	}
}

// Live 2025-11-25 sessions are bounded in all and per client, each
// refusal says what to do, and a session's place comes back when it is
// deleted or idles out.
func TestSessionLimits(t *testing.T) {
	h := startHTTP(t, "--max-sessions", "4", "--max-sessions-per-client", "2", "--client-ip-header", "X-Real-IP", "--rate-limit", "0",
		"--session-idle-ttl", "1s")
	var a []string
	for range 2 {
		r := initializeFrom(t, h.url, "198.51.100.1")
		if r.status != 200 || r.header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("initialize within the limit: %d %s", r.status, r.body)
		}
		a = append(a, r.header.Get("Mcp-Session-Id"))
	}
	r := initializeFrom(t, h.url, "198.51.100.1")
	code, msg := rpcError(t, r)
	if r.status != 429 || code != httpguard.CodeSlowDown || !strings.Contains(msg, "--max-sessions-per-client") || !strings.Contains(msg, "DELETE") || r.header.Get("Retry-After") == "" {
		t.Errorf("a third session for one client: %d %d %q", r.status, code, msg)
	}
	// Another client has its own allowance; loopback clients are exempt
	// from the per-client limit, not from the global one.
	if r := initializeFrom(t, h.url, "198.51.100.2"); r.status != 200 {
		t.Errorf("another client: %d %s", r.status, r.body)
	}
	if r := send(t, h.url+"/mcp", nil, initialize); r.status != 200 {
		t.Errorf("a loopback client: %d %s", r.status, r.body)
	}
	r = initializeFrom(t, h.url, "198.51.100.3")
	code, msg = rpcError(t, r)
	if r.status != 503 || code != httpguard.CodeBusy || !strings.Contains(msg, "--max-sessions") || !strings.Contains(msg, "2026-07-28") {
		t.Errorf("beyond --max-sessions: %d %d %q", r.status, code, msg)
	}
	// An initialize that carries a live session's id starts a session
	// too (mcp-go mints a new one): it counts like any other.
	withID := map[string]string{"X-Real-IP": "198.51.100.4", "Mcp-Session-Id": a[1]}
	if r := send(t, h.url+"/mcp", withID, initialize); r.status != 503 {
		t.Errorf("an initialize carrying a session id, beyond --max-sessions: %d %s", r.status, r.body)
	}
	// Stateless 2026-07-28 requests need no session and are not refused.
	if r := send(t, h.url+"/mcp", modernHeaders, discover); r.status != 200 {
		t.Errorf("a modern request while sessions are full: %d %s", r.status, r.body)
	}
	// DELETE gives the client's place back.
	deleteSession(t, h.url, a[0])
	if r := initializeFrom(t, h.url, "198.51.100.1"); r.status != 200 {
		t.Errorf("after DELETE: %d %s", r.status, r.body)
	}
	// And so does the idle sweep (--session-idle-ttl 1s sweeps every second).
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := initializeFrom(t, h.url, "198.51.100.1")
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("idle sessions never gave their places back: %d %s", r.status, r.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A flood of initializes from one client beyond loopback stops at its
// limit, and the server's sessions stay bounded.
func TestSessionFloodIsBounded(t *testing.T) {
	h := startHTTP(t, "--client-ip-header", "X-Real-IP", "--rate-limit", "0")
	ok, refused := 0, 0
	for range 300 {
		switch r := initializeFrom(t, h.url, "203.0.113.9"); r.status {
		case 200:
			ok++
		case 429:
			refused++
		default:
			t.Fatalf("initialize: %d %s", r.status, r.body)
		}
	}
	if ok != 100 || refused != 200 {
		t.Errorf("300 initializes from one client: %d admitted, %d refused; want the default 100 admitted", ok, refused)
	}
}

// mcp-go mints a session for a legacy GET stream that names none: one no
// initialize admitted and nothing would ever sweep. It is refused instead,
// as the transport spec allows (400 for a request without the session id).
func TestGETStreamWithoutSession(t *testing.T) {
	h := startHTTP(t)
	req, _ := http.NewRequest(http.MethodGet, h.url+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b := make([]byte, 4096)
	n, _ := resp.Body.Read(b)
	if resp.StatusCode != 400 || !strings.Contains(string(b[:n]), "Mcp-Session-Id") {
		t.Errorf("GET without a session: %d %s", resp.StatusCode, b[:n])
	}
	// So is a legacy tools/call that names none: a JSON-RPC error that
	// says to initialize (mcp-go alone answered 404 in plain text).
	r := send(t, h.url+"/mcp", map[string]string{"MCP-Protocol-Version": "2025-11-25"},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"findAirports","arguments":{"query":"paris"}}}`)
	if code, msg := rpcError(t, r); r.status != 400 || code != httpguard.CodeRefused || !strings.Contains(msg, "initialize first") {
		t.Errorf("legacy tools/call without a session: %d %d %q", r.status, code, msg)
	}
}

// /debug/vars answers only what /mcp would: a loopback Host, and no
// browser page from another site.
func TestDebugVarsHostAndOrigin(t *testing.T) {
	debug := serverbin.FreeAddr(t)
	startHTTP(t, "--debug-addr", debug)
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"", "", 200},
		{"localhost" + debug[strings.LastIndex(debug, ":"):], "", 200},
		{"evil.example", "", 403},
		{"", "https://evil.example", 403},
		{"", "http://" + debug, 200},
	} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+debug+"/debug/vars", nil)
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if status := statusOf(t, req); status != tc.status {
			t.Errorf("Host %q Origin %q: %d, want %d", tc.host, tc.origin, status, tc.status)
		}
	}
	// /mcp refuses a rebound Host in JSON-RPC.
	h := startHTTP(t)
	req, _ := http.NewRequest(http.MethodPost, h.url+"/mcp", strings.NewReader(initialize))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if code, msg := rpcError(t, reply{status: resp.StatusCode, body: string(b)}); resp.StatusCode != 403 || code != httpguard.CodeRefused || !strings.Contains(msg, "DNS rebinding") {
		t.Errorf("/mcp with a rebound Host: %d %d %q", resp.StatusCode, code, msg)
	}
}

// Refusals are counted in the metrics; their log lines are sampled, so a
// client sending bad requests cannot decide how much the server logs.
func TestRefusalLogsAreBounded(t *testing.T) {
	h := startHTTP(t)
	for range 200 {
		send(t, h.url+"/mcp", map[string]string{"Origin": "https://evil.example"}, initialize)
	}
	if n := strings.Count(h.stderr.String(), "refused cross-origin request"); n == 0 || n > 2*httpguard.RefusalLogBurst {
		t.Errorf("200 refused requests in well under a few seconds logged %d lines; want some, at most %d", n, 2*httpguard.RefusalLogBurst)
	}
}
