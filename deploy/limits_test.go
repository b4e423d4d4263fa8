package deploy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// answer is one HTTP answer, read whole.
type answer struct {
	status int
	header http.Header
	body   string
}

// rpcCode is the JSON-RPC error code of a refusal, 0 for none.
func (a answer) rpcCode() int {
	var r struct{ Error struct{ Code int } }
	_ = json.Unmarshal([]byte(a.body), &r)
	return r.Error.Code
}

// post sends body to the router's /mcp with headers and reads the answer.
func post(t *testing.T, url string, headers map[string]string, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

const initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// initializeAs starts a 2025-11-25 session through the router with the
// given headers (the ingress's X-Forwarded-For, a client's X-Real-IP) and
// returns the initialize's answer and the session id ("" if refused).
func initializeAs(t *testing.T, url string, headers map[string]string) (answer, string) {
	t.Helper()
	a := post(t, url, headers, initializeRequest)
	id := a.header.Get("Mcp-Session-Id")
	if a.status != 200 || id == "" {
		return a, ""
	}
	h := map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25"}
	for k, v := range headers {
		h[k] = v
	}
	if n := post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); n.status/100 != 2 {
		t.Fatalf("notifications/initialized: %d %s", n.status, n.body)
	}
	return a, id
}

// holdStream opens session id's GET stream through the router as the
// client whose address the ingress put last in X-Forwarded-For, and keeps
// it open until close is called or the test ends. It returns the status.
func holdStream(t *testing.T, url, id, xff string) (status int, close func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("X-Forwarded-For", xff)
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
	}()
	return resp.StatusCode, cancel
}

// One client cannot use up the router (its worker_connections, with GET
// streams or calls) and leave every other client, modern calls included,
// a 500. A client, known by the address the ingress appended
// to X-Forwarded-For, may hold 64 requests at once (streams and calls);
// past them it gets 429 with a JSON-RPC error that says what to do,
// whatever X-Real-IP or earlier addresses it sends, while another client
// is served and the router's own probe answers. A stream it closes gives
// its place back.
func TestRouterBoundsEachClient(t *testing.T) {
	c := startCluster(t, strings.Repeat("5a", 32), "--client-ip-header", "X-Real-IP")
	const greedy, other = "198.51.100.50", "198.51.100.51"
	var closers []func()
	for i := range 64 {
		a, id := initializeAs(t, c.url, map[string]string{"X-Forwarded-For": greedy})
		if id == "" {
			t.Fatalf("session %d of the first client: %d %s", i, a.status, a.body)
		}
		status, closeStream := holdStream(t, c.url, id, greedy)
		if status != 200 {
			t.Fatalf("stream %d of the first client: %d", i, status)
		}
		closers = append(closers, closeStream)
	}
	for _, tc := range []struct {
		name    string
		headers map[string]string
	}{
		{"the 65th request", map[string]string{"X-Forwarded-For": greedy}},
		{"with an X-Real-IP of its own", map[string]string{"X-Forwarded-For": greedy, "X-Real-IP": "192.0.2.77"}},
		{"with addresses of its own before the ingress's", map[string]string{"X-Forwarded-For": "192.0.2.78, " + greedy}},
	} {
		a := post(t, c.url, tc.headers, initializeRequest)
		if a.status != 429 || a.rpcCode() != -32006 || !strings.Contains(a.body, "64 from one client") || a.header.Get("Retry-After") == "" {
			t.Errorf("%s: %d %s (Retry-After %q); want 429 with -32006", tc.name, a.status, a.body, a.header.Get("Retry-After"))
		}
	}
	// Another client is served, in both eras, and so is the probe.
	if a, id := initializeAs(t, c.url, map[string]string{"X-Forwarded-For": other}); id == "" {
		t.Errorf("another client's initialize: %d %s", a.status, a.body)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"JFK","destination":"LHR","date":%q,"strategy":"deterministic"},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, time.Now().AddDate(0, 1, 0).Format("2006-01-02"))
	a := post(t, c.url, map[string]string{"X-Forwarded-For": other, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "findBestFlight"}, body)
	if a.status != 200 || !strings.Contains(a.body, `"method":"deterministic"`) {
		t.Errorf("another client's 2026-07-28 call: %d %s", a.status, a.body)
	}
	if resp, err := http.Get(c.url + "/router/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("the router's probe: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	// A stream the client closes gives its place back.
	closers[0]()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if a, id := initializeAs(t, c.url, map[string]string{"X-Forwarded-For": greedy}); id != "" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("a place after closing a stream: %d %s", a.status, a.body)
		}
	}
}

// The server's per-client limits count by the address the router passes in
// X-Real-IP, which is the one the ingress appended to X-Forwarded-For,
// never the client's own X-Real-IP (which it could rotate to get past the
// per-client limit) nor addresses the client put first in
// X-Forwarded-For. Without X-Forwarded-For every client is the ingress
// itself (here the test, on loopback, which --limit-loopback limits).
func TestRouterPassesOnlyTheIngressAddress(t *testing.T) {
	c := startCluster(t, strings.Repeat("5a", 32), "--client-ip-header", "X-Real-IP", "--max-sessions-per-client", "2", "--limit-loopback")
	for _, tc := range []struct {
		name, xff, seen string
	}{
		{"the ingress's address", "203.0.113.9", "203.0.113.9"},
		{"after the client's own", "192.0.2.1, 203.0.113.10", "203.0.113.10"},
		{"no X-Forwarded-For", "", "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			admitted, refused := 0, 0
			// Three replicas allow 2 each: 10 initializes, each with an
			// X-Real-IP of its own, must meet a refusal.
			for i := range 10 {
				h := map[string]string{"X-Real-IP": fmt.Sprintf("192.0.2.%d", 100+i)}
				if tc.xff != "" {
					h["X-Forwarded-For"] = tc.xff
				}
				a, id := initializeAs(t, c.url, h)
				switch {
				case id != "":
					admitted++
				case a.status == 429 && strings.Contains(a.body, tc.seen+" already holds 2 sessions"):
					refused++
				default:
					t.Fatalf("initialize %d: %d %s; want a refusal naming %s", i, a.status, a.body, tc.seen)
				}
			}
			if admitted > 6 || refused == 0 {
				t.Errorf("%d admitted, %d refused as %s: the client's own X-Real-IP made it new clients", admitted, refused, tc.seen)
			}
		})
	}
}

// A full router still answers: at 1,500 requests at once (streams of many
// clients, each under its own limit) the next is refused with the same
// clear 429, and the router's probe and refusals still get connections,
// because worker_connections leaves room beyond what /mcp admits.
func TestRouterFullStillAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,500 streams; -short skips it")
	}
	c := startCluster(t, strings.Repeat("5a", 32), "--client-ip-header", "X-Real-IP")
	for i := range 1500 {
		client := fmt.Sprintf("198.51.100.%d", 1+i/60) // 60 a client, under its 64
		a, id := initializeAs(t, c.url, map[string]string{"X-Forwarded-For": client})
		if id == "" {
			t.Fatalf("session %d: %d %s", i, a.status, a.body)
		}
		// The router counts a request until it has finalised it, which
		// can be just after its answer reached the client: at the limit,
		// the initialize just answered may still count beside the stream
		// that follows it. So a stream refused there is tried again, for
		// a moment; one refused for longer is a real failure.
		status := 0
		for try := 0; try < 50; try++ {
			if status, _ = holdStream(t, c.url, id, client); status != 429 || i < 1500-10 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if status != 200 {
			t.Fatalf("stream %d: %d", i, status)
		}
	}
	a := post(t, c.url, map[string]string{"X-Forwarded-For": "203.0.113.99"}, initializeRequest)
	if a.status != 429 || a.rpcCode() != -32006 || !strings.Contains(a.body, "1500 from all") {
		t.Errorf("a new client at the router's limit: %d %s", a.status, a.body)
	}
	for range 20 {
		resp, err := http.Get(c.url + "/router/healthz")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("the router's probe at its limit: %v %v", err, resp)
		}
		resp.Body.Close()
	}
}
