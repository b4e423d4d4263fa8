package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/serverbin"
)

// rpcError is the JSON-RPC error in a refusal's body.
func rpcError(t *testing.T, r reply) (int, string) {
	t.Helper()
	var body struct {
		Error struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(r.body), &body); err != nil {
		t.Fatalf("refusal body is not JSON-RPC: %d %q", r.status, r.body)
	}
	return body.Error.Code, body.Error.Message
}

// With default flags, one local client (the conformance suite, the
// Inspector, a test loop) is never told to slow down; the same burst from
// beyond loopback is, with a code that says "slow down", not "invalid".
func TestRateLimitDefaultsSpareALocalClient(t *testing.T) {
	h := startHTTP(t)
	for i := range 300 {
		if r := send(t, h.url+"/mcp", modernHeaders, discover); r.status != 200 {
			t.Fatalf("local request %d of 300 with default flags: %d %s", i+1, r.status, r.body)
		}
	}
	limited := startHTTP(t, "--limit-loopback")
	var last reply
	for range 300 {
		if last = send(t, limited.url+"/mcp", modernHeaders, discover); last.status == 429 {
			break
		}
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" {
		t.Fatalf("--limit-loopback: 300 quick requests never got 429 (last %d)", last.status)
	}
	if code, msg := rpcError(t, last); code != httpguard.CodeSlowDown || !strings.Contains(msg, "slow down") {
		t.Errorf("429 body: code %d %q, want %d saying slow down", code, msg, httpguard.CodeSlowDown)
	}
}

// Every refusal the HTTP layer makes has its own status and code, none of
// them -32600 Invalid Request, and a message that says what to do.
func TestRefusalCodes(t *testing.T) {
	h := startHTTP(t, "--auth-token", testToken, "--max-body-bytes", "2048", "--limit-loopback", "--rate-limit", "0.001", "--rate-burst", "5",
		"--max-sessions", "1", "--client-ip-header", "X-Real-IP")
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for _, src := range []map[string]string{auth, extra} {
			for k, v := range src {
				m[k] = v
			}
		}
		return m
	}
	first := send(t, h.url+"/mcp", with(map[string]string{"X-Real-IP": "198.51.100.1"}), initialize)
	if first.status != 200 {
		t.Fatalf("initialize: %d %s", first.status, first.body)
	}
	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		code    int
		says    string
	}{
		{"no token", map[string]string{"X-Real-IP": "198.51.100.2"}, initialize, 401, httpguard.CodeUnauthorized, "bearer token"},
		{"foreign origin", with(map[string]string{"Origin": "https://evil.example", "X-Real-IP": "198.51.100.3"}), initialize, 403, httpguard.CodeRefused, "forbidden origin"},
		{"unknown session", with(map[string]string{"Mcp-Session-Id": "fs-nope", "MCP-Protocol-Version": "2025-11-25", "X-Real-IP": "198.51.100.4"}), `{"jsonrpc":"2.0","id":2,"method":"ping"}`, 404, httpguard.CodeSessionNotFound, "Initialize again"},
		{"body too large", with(map[string]string{"X-Real-IP": "198.51.100.5"}), `{"pad":"` + strings.Repeat("x", 3000) + `"}`, 413, httpguard.CodeTooLarge, "--max-body-bytes"},
		{"sessions full", with(map[string]string{"X-Real-IP": "198.51.100.6"}), initialize, 503, httpguard.CodeBusy, "--max-sessions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := send(t, h.url+"/mcp", tc.headers, tc.body)
			code, msg := rpcError(t, r)
			if r.status != tc.status || code != tc.code || !strings.Contains(msg, tc.says) {
				t.Errorf("%d code %d %q; want %d code %d containing %q", r.status, code, msg, tc.status, tc.code, tc.says)
			}
		})
	}
	for i := range 10 {
		r := send(t, h.url+"/mcp", with(map[string]string{"X-Real-IP": "198.51.100.7"}), `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		if r.status == 429 {
			if code, _ := rpcError(t, r); code != httpguard.CodeSlowDown {
				t.Errorf("429 code %d", code)
			}
			break
		}
		if i == 9 {
			t.Error("never rate limited")
		}
	}
}

// rawPOST opens a connection and sends a POST's headers announcing
// length bytes of body, then only sent of them.
func rawPOST(t *testing.T, addr string, headers map[string]string, length int, sent string) net.Conn {
	t.Helper()
	return rawRequest(t, addr, "POST /mcp", headers, length, sent)
}

// rawRequest is rawPOST for any method and path ("GET /healthz").
func rawRequest(t *testing.T, addr, request string, headers map[string]string, length int, sent string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var b strings.Builder
	fmt.Fprintf(&b, "%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n", request, addr, length)
	for k, v := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n" + sent)
	if _, err := conn.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	return conn
}

// readReply reads one HTTP response from conn within wait, and reports
// whether the server closed the connection after it.
func readReply(t *testing.T, conn net.Conn, wait time.Duration) (*http.Response, bool) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer within %s: %v", wait, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, err = br.ReadByte()
	return resp, err != nil && !isTimeout(err)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A client that sends its headers, one byte of a 4000-byte body, then
// nothing, is answered 408 and cut off after --read-body-timeout, however
// many do it at once; with --auth-token, a client without a token is
// refused at once, before its body; a body on another method or path is
// refused or cut off too, never waited for; and neither a long legacy
// answer nor the GET stream is cut by the body's deadline.
func TestSlowRequestBody(t *testing.T) {
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--read-body-timeout", "300ms", "--auth-token", testToken)
	const n = 50
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = rawPOST(t, addr, map[string]string{"Authorization": "Bearer " + testToken}, 4000, "{")
	}
	start := time.Now()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			resp, closed := readReply(t, c, 5*time.Second)
			if resp.StatusCode != http.StatusRequestTimeout || !closed {
				t.Errorf("slow body: status %d, connection closed %v; want 408 and closed", resp.StatusCode, closed)
			}
		})
	}
	wg.Wait()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("%d slow bodies took %s to be cut off (timeout 300ms)", n, took)
	}

	// No token: refused before the body, which never comes.
	noToken := rawPOST(t, addr, nil, 4000, "{")
	resp, closed := readReply(t, noToken, time.Second)
	if resp.StatusCode != http.StatusUnauthorized || !closed {
		t.Errorf("no token, slow body: %d closed %v; want 401 at once, closed", resp.StatusCode, closed)
	}

	// A body that never comes, on a request that no layer reads the body
	// of: net/http would wait for it, without a deadline, before answering.
	for _, tc := range []struct {
		request string
		status  int
		within  time.Duration
	}{
		{"GET /healthz", http.StatusBadRequest, time.Second},            // refused at once: a GET takes no body
		{"GET /readyz", http.StatusBadRequest, time.Second},             //
		{"DELETE /mcp", http.StatusBadRequest, time.Second},             // before the token is asked for
		{"GET /mcp", http.StatusBadRequest, time.Second},                // the GET stream
		{"POST /healthz", http.StatusMethodNotAllowed, 3 * time.Second}, // once the body's deadline has passed
		{"POST /nowhere", http.StatusNotFound, 3 * time.Second},         //
	} {
		c := rawRequest(t, addr, tc.request, nil, 100, "{")
		resp, closed := readReply(t, c, tc.within)
		if resp.StatusCode != tc.status || !closed {
			t.Errorf("%s announcing a body it never sends: %d, closed %v; want %d within %s, closed", tc.request, resp.StatusCode, closed, tc.status, tc.within)
		}
	}
}

// A body read deadline that outlived the read would cut off the answers
// that take longest: a legacy call waiting for the user's form (its answer
// streams on the same connection), and the legacy GET stream.
func TestBodyDeadlineSparesLongAnswers(t *testing.T) {
	h := startHTTP(t, "--read-body-timeout", "200ms")
	testLegacyFormAnswer(t, h.url, 900*time.Millisecond)
}

// testLegacyFormAnswer runs a 2025-11-25 client with a GET stream whose
// user takes delay to fill the trip form, then, after another delay, a call
// ranked by the client's LLM (sampling reaches a legacy HTTP client only on
// its GET stream): both must succeed however long they outlast a body
// deadline.
func testLegacyFormAnswer(t *testing.T, url string, delay time.Duration) {
	t.Helper()
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"date": travelDate()}, Delay: delay}
	sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
	//lint:ignore SA1019 the legacy GET stream is how a 2025-11-25 client receives sampling requests.
	tr := streamable(t, url+"/mcp", transport.WithContinuousListening())
	c := initialized(t, dial(t, tr, client.WithProtocolVersion(mcp.ProtocolVersion20251125), client.WithElicitationHandler(form), client.WithSamplingHandler(sampler)))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := call(ctx, c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "strategy": "deterministic"})
	if err != nil || res.IsError || len(form.Requests()) != 1 {
		t.Fatalf("a call answered %s after its request: %v %+v (forms %d)", delay, err, res, len(form.Requests()))
	}
	time.Sleep(delay)
	res, err = call(ctx, c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()})
	var got struct{ Method string }
	if err != nil || res.IsError {
		t.Fatalf("a sampling call on a GET stream %s old: %v %+v", delay, err, res)
	}
	if structured(t, res, &got); got.Method != "client_sampling" {
		t.Errorf("the GET stream %s old no longer carried the sampling request: method %s", delay, got.Method)
	}
}

// The metrics and debug listeners bound a body that never comes as /mcp's
// listener does: refused at once on a GET, never waited for.
func TestDebugListenersBoundBodies(t *testing.T) {
	metrics, debug := serverbin.FreeAddr(t), serverbin.FreeAddr(t)
	serverbin.StartHTTP(t, binary, nil, "--metrics-addr", metrics, "--debug-addr", debug)
	for _, tc := range []struct{ addr, request string }{{metrics, "GET /metrics"}, {debug, "GET /debug/vars"}} {
		resp, closed := readReply(t, rawRequest(t, tc.addr, tc.request, nil, 100, "{"), time.Second)
		if resp.StatusCode != http.StatusBadRequest || !closed {
			t.Errorf("%s announcing a body it never sends: %d, closed %v; want 400 at once, closed", tc.request, resp.StatusCode, closed)
		}
	}
}

// Beyond loopback without --auth-token, as the container image runs, a
// request must call the server by an address or a name in --allowed-hosts:
// a page whose own name was rebound to the published port is refused,
// Origin and all. With a token, the token decides.
func TestRebindingBeyondLoopback(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	inContainer := net.Addr(&net.TCPAddr{IP: net.IPv4(172, 17, 0, 2), Port: 8080})
	for _, tc := range []struct {
		name, host string
		env        map[string]string
		status     int
	}{
		{"a rebound name", "rebind.evil.example:8080", nil, http.StatusForbidden},
		{"the container's address", "172.17.0.2:8080", nil, http.StatusOK},
		{"localhost", "localhost:8080", nil, http.StatusOK},
		{"a listed name", "flights.internal:8080", nil, http.StatusOK},
		{"any name, with a token", "rebind.evil.example:8080", map[string]string{"FLIGHTSERVER_AUTH_TOKEN": testToken}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parseConfig([]string{"--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated", "--allowed-hosts", "flights.internal"}, env(tc.env), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := newMCPServer(cfg, nil, zerolog.Nop())
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest(http.MethodPost, "http://"+tc.host+"/mcp", strings.NewReader(initialize))
			req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, inContainer))
			req.RemoteAddr = "172.17.0.1:40000" // docker-proxy, for a browser on the host machine
			req.Header.Set("Origin", "http://"+tc.host)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+testToken)
			rec := httptest.NewRecorder()
			shippedHandler(t, cfg, srv, zerolog.Nop()).ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Errorf("Host %s: %d %s; want %d", tc.host, rec.Code, rec.Body.String(), tc.status)
			}
		})
	}
}
