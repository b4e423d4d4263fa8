package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
)

type reply struct {
	status int
	header http.Header
	body   string
}

// send posts body to url with headers and returns the whole reply.
func send(t *testing.T, url string, headers map[string]string, body string) reply {
	t.Helper()
	return sendOn(t, http.DefaultClient, url, headers, body)
}

// sendOn is send through c.
func sendOn(t *testing.T, c *http.Client, url string, headers map[string]string, body string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// statusOf sends req and returns the reply's status, reading none of its
// body (a stream's would never end).
func statusOf(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

const testToken = "0123456789abcdef-test-token"

func TestHTTPBearerToken(t *testing.T) {
	h := startHTTP(t, "--auth-token", testToken)
	for _, tc := range []struct {
		name      string
		auth      string
		status    int
		challenge string
	}{
		{"no token", "", 401, `Bearer realm="flightserver"`},
		{"wrong token", "Bearer not-the-token-at-all", 401, `Bearer realm="flightserver", error="invalid_token"`},
		{"another scheme", "Basic " + testToken, 401, `Bearer realm="flightserver"`},
		{"right token", "Bearer " + testToken, 200, ""},
		{"the scheme in lower case (RFC 9110: case-insensitive)", "bearer " + testToken, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			headers := map[string]string{}
			for k, v := range modernHeaders {
				headers[k] = v
			}
			if tc.auth != "" {
				headers["Authorization"] = tc.auth
			}
			r := send(t, h.url+"/mcp", headers, discover)
			if r.status != tc.status || r.header.Get("WWW-Authenticate") != tc.challenge {
				t.Errorf("status %d, WWW-Authenticate %q; want %d, %q (%s)", r.status, r.header.Get("WWW-Authenticate"), tc.status, tc.challenge, r.body)
			}
			if tc.status == 401 && (!strings.Contains(r.body, "bearer token") || strings.Contains(r.body, testToken)) {
				t.Errorf("refusal body %s", r.body)
			}
		})
	}
	// Probes carry no token.
	if resp, err := http.Get(h.url + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("healthz: %v %v", err, resp)
	}
	// A real client with the token, in both eras.
	for _, era := range eras {
		tr := streamable(t, h.url+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}))
		c := dial(t, tr, client.WithProtocolVersion(era.version))
		exercise(t, c, era.version)
		c.Close()
	}
	if strings.Contains(h.stderr.String(), testToken) {
		t.Error("the token appeared in the log")
	}
}

func TestPublicAddressNeedsTokenOrOptOut(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--transport", "http", "--addr", "0.0.0.0:8080"}, "no --auth-token is set"},
		{[]string{"--transport", "http", "--addr", ":8080"}, "no --auth-token is set"},
		{[]string{"--transport", "http", "--addr", "192.0.2.10:8080"}, "no --auth-token is set"},
		{[]string{"--transport", "http", "--addr", "example.com:8080"}, "no --auth-token is set"},
		{[]string{"--transport", "http", "--addr", "0.0.0.0:8080", "--auth-token", "short"}, "at least 16 characters"},
		{[]string{"--transport", "http", "--addr", "0.0.0.0:8080", "--auth-token", testToken}, ""},
		{[]string{"--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated"}, ""},
		{[]string{"--transport", "http", "--addr", "127.0.0.1:8080"}, ""},
		{[]string{"--transport", "http", "--addr", "[::1]:8080"}, ""},
		{[]string{"--transport", "http", "--addr", "localhost:8080"}, ""},
		{[]string{"--transport", "stdio", "--addr", "0.0.0.0:8080"}, ""},
		{[]string{"--max-inflight", "-1"}, "--max-inflight"},
		{[]string{"--rate-limit", "-1"}, "--rate-limit"},
		{[]string{"--rate-burst", "0"}, "--rate-burst"},
		{[]string{"--session-idle-ttl", "0s"}, "--session-idle-ttl"},
	} {
		_, err := parseConfig(tc.args, func(string) string { return "" }, io.Discard)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.err)
		}
	}
	// The token from the environment counts, and is never echoed.
	if _, err := parseConfig([]string{"--transport", "http", "--addr", "0.0.0.0:8080"}, func(k string) string {
		if k == "FLIGHTSERVER_AUTH_TOKEN" {
			return testToken
		}
		return ""
	}, io.Discard); err != nil {
		t.Errorf("token from the environment: %v", err)
	}
	// Opting out is allowed, and logged loudly.
	h := startHTTP(t, "--addr", "0.0.0.0:0", "--allow-unauthenticated")
	if !strings.Contains(h.stderr.String(), "WITHOUT authentication") {
		t.Errorf("no warning when listening everywhere without a token:\n%s", h.stderr.String())
	}
}

// At most N requests in flight: the next is told to come back. A client's
// answer to the server's own question is not a new request and still gets
// through, or the call holding the slot could never finish.
func TestHTTPMaxInflight(t *testing.T) {
	h := startHTTP(t, "--max-inflight", "1")
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"date": travelDate()}, Delay: 700 * time.Millisecond}
	c := startHTTPClient(t, h.url+"/mcp", mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := call(context.Background(), c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "strategy": "deterministic"})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	for deadline := time.Now().Add(5 * time.Second); len(form.Requests()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the form never arrived")
		}
	}
	// The call holds the only slot while the user types.
	r := send(t, h.url+"/mcp", nil, initialize)
	if r.status != 503 || r.header.Get("Retry-After") != "1" || !strings.Contains(r.body, "--max-inflight") {
		t.Errorf("second request while one is in flight: %d %v %s", r.status, r.header, r.body)
	}
	// A notification is not a request: it passes.
	if r := send(t, h.url+"/mcp", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status == 503 {
		t.Errorf("a notification was refused: %s", r.body)
	}
	res := <-done
	if res == nil || res.IsError {
		t.Fatalf("the call holding the slot: %+v", res)
	}
	// The slot is free once the handler has returned, a moment after the
	// client has read the answer.
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r := send(t, h.url+"/mcp", nil, initialize)
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("after the call: %d %s", r.status, r.body)
			break
		}
	}
}

func TestHTTPRateLimitPerClient(t *testing.T) {
	h := startHTTP(t, "--rate-limit", "0.5", "--rate-burst", "2", "--client-ip-header", "X-Real-IP")
	from := func(ip string) map[string]string { return map[string]string{"X-Real-IP": ip} }
	for i := range 2 {
		if r := send(t, h.url+"/mcp", from("198.51.100.1"), initialize); r.status != 200 {
			t.Fatalf("request %d within the burst: %d %s", i+1, r.status, r.body)
		}
	}
	r := send(t, h.url+"/mcp", from("198.51.100.1"), initialize)
	if r.status != 429 || r.header.Get("Retry-After") != "2" || !strings.Contains(r.body, "--rate-limit") {
		t.Errorf("over the limit: %d Retry-After %q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// Another client has its own bucket; a proxy's list counts by its last
	// address, the one the proxy appended.
	if r := send(t, h.url+"/mcp", from("198.51.100.1, 198.51.100.2"), initialize); r.status != 200 {
		t.Errorf("another client: %d %s", r.status, r.body)
	}
	// Health probes are never limited.
	for range 5 {
		if resp, err := http.Get(h.url + "/healthz"); err != nil || resp.StatusCode != 200 {
			t.Fatalf("healthz: %v %v", err, resp)
		}
	}
}

// A legacy session lives in one process: another replica refuses it
// clearly instead of serving it with no capabilities.
func TestLegacySessionOnAnotherReplica(t *testing.T) {
	key := []string{"--state-key", strings.Repeat("ab", 32)}
	a, b := startHTTP(t, key...), startHTTP(t, key...)
	c := startHTTPClient(t, a.url+"/mcp", mcp.ProtocolVersion20251125)
	id := c.GetSessionId()
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	legacy := map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25"}
	if r := send(t, a.url+"/mcp", legacy, list); r.status != 200 {
		t.Fatalf("the replica that owns the session: %d %s", r.status, r.body)
	}
	r := send(t, b.url+"/mcp", legacy, list)
	if r.status != 404 || !strings.Contains(r.body, "not known to this server process") || !strings.Contains(r.body, "sticky sessions") || !strings.Contains(r.body, "2026-07-28") {
		t.Errorf("another replica: %d %s", r.status, r.body)
	}
	// Ended sessions say so.
	c.Close()
	if r := send(t, a.url+"/mcp", legacy, list); r.status != 404 || !strings.Contains(r.body, "has ended") {
		t.Errorf("after DELETE: %d %s", r.status, r.body)
	}
	// Modern requests carry no session: any replica serves them.
	headers := map[string]string{"Mcp-Session-Id": id}
	for k, v := range modernHeaders {
		headers[k] = v
	}
	if r := send(t, b.url+"/mcp", headers, discover); r.status != 200 {
		t.Errorf("modern request with a stray session header: %d %s", r.status, r.body)
	}
}

// --load-test-tools adds the noop baseline; --debug-addr serves the numbers
// a load test watches, and never the command line.
func TestLoadTestToolsAndDebugVars(t *testing.T) {
	debug := "127.0.0.1:" + strings.Split(serverbin.FreeAddr(t), ":")[1]
	h := startHTTP(t, "--load-test-tools", "--debug-addr", debug, "--auth-token", testToken)
	list := send(t, h.url+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list", "Authorization": "Bearer " + testToken},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	if list.status != 200 || !strings.Contains(list.body, `"name":"noop"`) {
		t.Errorf("tools/list with --load-test-tools: %d %s", list.status, list.body)
	}
	resp, err := http.Get("http://" + debug + "/debug/vars")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"goroutines":`) || !strings.Contains(string(b), `"heapInuse":`) || strings.Contains(string(b), testToken) {
		t.Errorf("debug vars: %s", b)
	}
	if _, err := parseConfig([]string{"--debug-addr", "0.0.0.0:6060"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("--debug-addr beyond loopback was accepted")
	}
	// Without the flag there is no noop tool.
	plain := startHTTP(t)
	if r := send(t, plain.url+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`); strings.Contains(r.body, `"name":"noop"`) {
		t.Error("noop listed without --load-test-tools")
	}
}

// A token read from a file ends in a newline (FLIGHTSERVER_AUTH_TOKEN from
// $(cat token) keeps none, but a Secret written with echo does): the
// server trims it and says so, without the token, instead of answering
// every request 401. A token that is only white space is refused at start.
func TestAuthTokenWithATrailingNewline(t *testing.T) {
	addr, _, logs := serverbin.StartHTTP(t, binary, []string{"FLIGHTSERVER_AUTH_TOKEN=" + testToken + "\n"})
	r := send(t, "http://"+addr+"/mcp", map[string]string{"Authorization": "Bearer " + testToken}, initialize)
	if r.status != 200 {
		t.Errorf("the token without its newline: %d %s", r.status, r.body)
	}
	if !logs.Await(`"secrets":["FLIGHTSERVER_AUTH_TOKEN"]`, 5*time.Second) || strings.Contains(logs.String(), testToken) {
		t.Errorf("no warning naming the trimmed secret (or one showing it):\n%s", logs.String())
	}
	_, err := parseConfig([]string{"--transport", "http"}, env(map[string]string{"FLIGHTSERVER_AUTH_TOKEN": " \n"}), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "FLIGHTSERVER_AUTH_TOKEN is only white space") {
		t.Errorf("a token of white space: %v", err)
	}
}

// --metrics-addr beyond loopback serves metrics to anyone who can reach it
// (the cluster's pods do, behind a NetworkPolicy): the server says so, as
// it does for --addr; on loopback it does not.
func TestMetricsBeyondLoopbackWarns(t *testing.T) {
	const warning = "metrics listen beyond loopback WITHOUT authentication"
	port := serverbin.FreeAddr(t)
	_, _, logs := serverbin.StartHTTP(t, binary, nil, "--metrics-addr", "0.0.0.0"+port[strings.LastIndex(port, ":"):])
	if !logs.Await(warning, 5*time.Second) {
		t.Errorf("no warning for metrics on every interface:\n%s", logs.String())
	}
	_, _, quiet := serverbin.StartHTTP(t, binary, nil, "--metrics-addr", serverbin.FreeAddr(t))
	if !quiet.Await("metrics at /metrics", 5*time.Second) || strings.Contains(quiet.String(), warning) {
		t.Errorf("metrics on loopback:\n%s", quiet.String())
	}
}
