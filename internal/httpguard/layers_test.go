package httpguard

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/telemetry"
)

// reached is the handler behind the layer under test: it says it was
// reached, and what body it was given.
var reached = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	_, _ = io.WriteString(w, "reached:"+string(b))
})

// refusalOf is the status and JSON-RPC error of an answer; code 0 when the
// body is no JSON-RPC error.
func refusalOf(t *testing.T, rec *httptest.ResponseRecorder) (status, code int, message string) {
	t.Helper()
	var body struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.JSONRPC != "2.0" || string(body.ID) != "null" {
		return rec.Code, 0, rec.Body.String()
	}
	return rec.Code, body.Error.Code, body.Error.Message
}

// Each layer passes what it guards nothing against, and refuses the rest
// with its one status and JSON-RPC code, a message that says what to do,
// and Retry-After where waiting helps; a refusal of a request whose body
// was not read closes the connection.
func TestLayersRefuseWithTheirStatusAndCode(t *testing.T) {
	log := zerolog.Nop()
	post := func(body string, headers ...string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		return r
	}
	onAddress := func(ip net.IP, r *http.Request) *http.Request {
		return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(&net.TCPAddr{IP: ip, Port: 8080})))
	}
	onLoopback := func(r *http.Request) *http.Request { return onAddress(net.IPv4(127, 0, 0, 1), r) }
	inContainer := func(r *http.Request) *http.Request { return onAddress(net.IPv4(172, 17, 0, 2), r) } // a published port's connections arrive here
	from := func(addr string, r *http.Request) *http.Request { r.RemoteAddr = addr; return r }
	host := func(name string, r *http.Request) *http.Request { r.Host = name; return r }
	chunked := func(r *http.Request) *http.Request { r.ContentLength = -1; return r }
	limiter, err := NewRateLimiter(0.001, 1, Clients{})
	if err != nil {
		t.Fatal(err)
	}
	rated := limiter.Wrap(log, reached)
	token := RequireToken("s3cret-token", log, reached)
	origin := CheckHostOrigin(Allowed{Origins: []string{"https://app.example"}}, log, reached)
	open := CheckHostOrigin(Allowed{Hosts: []string{"flights.internal"}, Unauthenticated: true}, log, reached)
	body := ReadBody(16, time.Second, log, reached)
	bounded := BoundBodies(time.Second, log, reached)
	with := func(method, body string) *http.Request {
		return httptest.NewRequest(method, "/healthz", strings.NewReader(body))
	}

	for _, tc := range []struct {
		name    string
		h       http.Handler
		r       *http.Request
		status  int // 200: passed
		code    int
		says    string // in the message (or, passed, in the body next saw)
		retry   bool   // Retry-After set
		closing bool   // Connection: close
	}{
		{"token: right", token, post("{}", "Authorization", "Bearer s3cret-token"), 200, 0, "reached:{}", false, false},
		{"token: the scheme in any case", token, post("{}", "Authorization", "bearer  s3cret-token "), 200, 0, "reached:{}", false, false},
		{"token: none", token, post("{}"), 401, CodeUnauthorized, "Authorization: Bearer <token>", false, true},
		{"token: wrong", token, post("{}", "Authorization", "Bearer guess"), 401, CodeUnauthorized, "not this server's --auth-token", false, true},
		{"origin: none", origin, post("{}"), 200, 0, "reached", false, false},
		{"origin: its own host", origin, post("{}", "Origin", "http://127.0.0.1:8080"), 200, 0, "reached", false, false},
		{"origin: allowed, with a slash", origin, post("{}", "Origin", "https://app.example/"), 200, 0, "reached", false, false},
		{"origin: foreign", origin, post("{}", "Origin", "https://evil.example"), 403, CodeRefused, "--allowed-origins", false, true},
		{"origin: foreign scheme", origin, post("{}", "Origin", "file://127.0.0.1:8080"), 403, CodeRefused, "forbidden origin", false, true},
		{"host: loopback by name", origin, onLoopback(host("localhost:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: rebound on loopback", origin, onLoopback(host("evil.example:8080", post("{}"))), 403, CodeRefused, "DNS rebinding", false, true},
		{"host: a listed name on loopback", open, onLoopback(host("flights.internal:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: rebound beyond loopback, no token", open, inContainer(host("evil.example:8080", post("{}", "Origin", "http://evil.example:8080"))), 403, CodeRefused, "without --auth-token", false, true},
		{"host: beyond loopback, no token, by address", open, inContainer(host("172.17.0.2:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: beyond loopback, no token, by IPv6 address", open, inContainer(host("[2001:db8::2]:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: beyond loopback, no token, localhost", open, inContainer(host("localhost:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: beyond loopback, no token, a listed name", open, inContainer(host("Flights.Internal.:8080", post("{}"))), 200, 0, "reached", false, false},
		{"host: beyond loopback, no token, no name", open, inContainer(host("", post("{}"))), 403, CodeRefused, "--allowed-hosts", false, true},
		{"host: beyond loopback with a token, any name", origin, inContainer(host("flights.example.com", post("{}"))), 200, 0, "reached", false, false},
		{"body: within the limit", body, post(`{"id":1}`), 200, 0, `reached:{"id":1}`, false, false},
		{"body: announced over the limit", body, post(`{"id":1,"pad":"xxxxxxxx"}`), 413, CodeTooLarge, "--max-body-bytes", false, true},
		{"body: over the limit, unannounced", body, chunked(post(`{"id":1,"pad":"xxxxxxxx"}`)), 413, CodeTooLarge, "--max-body-bytes", false, true},
		{"body: a GET is not read", body, httptest.NewRequest(http.MethodGet, "/mcp", nil), 200, 0, "reached:", false, false},
		{"bodies: a GET without one", bounded, httptest.NewRequest(http.MethodGet, "/healthz", nil), 200, 0, "reached:", false, false},
		{"bodies: a GET with one", bounded, with(http.MethodGet, "{}"), 400, CodeRefused, "a GET request carries no body", false, true},
		{"bodies: a DELETE, chunked", bounded, chunked(with(http.MethodDelete, "{}")), 400, CodeRefused, "no Content-Length, no Transfer-Encoding", false, true},
		{"bodies: a POST's is for the next layer", bounded, post(`{"id":1}`), 200, 0, `reached:{"id":1}`, false, false},
		{"rate: the burst", rated, from("198.51.100.1:1000", post("{}")), 200, 0, "reached", false, false},
		{"rate: over it", rated, from("198.51.100.1:1001", post("{}")), 429, CodeSlowDown, "--rate-limit", true, true},
		{"rate: another client", rated, from("198.51.100.2:1000", post("{}")), 200, 0, "reached", false, false},
		{"rate: loopback is exempt", rated, from("127.0.0.1:1000", post("{}")), 200, 0, "reached", false, false},
		{"rate: loopback is exempt again", rated, from("127.0.0.1:1001", post("{}")), 200, 0, "reached", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, tc.r)
			status, code, msg := refusalOf(t, rec)
			if status != tc.status || code != tc.code || !strings.Contains(msg, tc.says) {
				t.Errorf("answer %d, code %d, %q; want %d, code %d, saying %q", status, code, msg, tc.status, tc.code, tc.says)
			}
			if got := rec.Header().Get("Retry-After") != ""; got != tc.retry {
				t.Errorf("Retry-After %q, want one: %v", rec.Header().Get("Retry-After"), tc.retry)
			}
			if got := rec.Header().Get("Connection") == "close"; got != tc.closing {
				t.Errorf("Connection %q, want close: %v", rec.Header().Get("Connection"), tc.closing)
			}
			if strings.Contains(msg, "s3cret-token") || strings.Contains(msg, "guess") {
				t.Errorf("the refusal echoes the token sent: %q", msg)
			}
		})
	}
}

// Behind ReadBody the body has been read: a refusal then keeps the
// connection, and the next layer still gets the whole body.
func TestRefusalBehindReadBodyKeepsTheConnection(t *testing.T) {
	calls := NewInflight(0, 0, Clients{})
	calls.Stop(context.Background())
	h := ReadBody(1<<10, time.Second, zerolog.Nop(), calls.Wrap(zerolog.Nop(), reached))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
	if status, code, _ := refusalOf(t, rec); status != 503 || code != CodeBusy || rec.Header().Get("Connection") != "close" {
		// Inflight sets Connection: close itself while draining, so that
		// the client goes to another replica.
		t.Errorf("draining: %d, code %d, Connection %q; want 503, %d, close", status, code, rec.Header().Get("Connection"), CodeBusy)
	}
	token := ReadBody(1<<10, time.Second, zerolog.Nop(), RequireToken("t", zerolog.Nop(), reached))
	rec = httptest.NewRecorder()
	token.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{}`)))
	if rec.Code != 401 || rec.Header().Get("Connection") == "close" {
		t.Errorf("a refusal after the body was read: %d, Connection %q; want 401 on a kept connection", rec.Code, rec.Header().Get("Connection"))
	}
}

// Inflight serves at most max requests at once and perClient of them for
// one limited client; answers and notifications never count; once
// stopping, everything but them is refused, and Stop returns when the
// last request in flight is done.
func TestInflightBoundsAndDrains(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 8)
	held := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	calls := NewInflight(3, 2, Clients{})
	h := ReadBody(1<<10, time.Second, zerolog.Nop(), calls.Wrap(zerolog.Nop(), held))
	send := func(remote, body string) chan *httptest.ResponseRecorder {
		done := make(chan *httptest.ResponseRecorder, 1)
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		r.RemoteAddr = remote
		rec := httptest.NewRecorder()
		go func() { h.ServeHTTP(rec, r); done <- rec }()
		return done
	}
	request := `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`
	var inFlight []chan *httptest.ResponseRecorder
	for _, remote := range []string{"198.51.100.1:1", "198.51.100.1:2", "127.0.0.1:1"} {
		inFlight = append(inFlight, send(remote, request))
		<-entered
	}
	if n := calls.Count(); n != 3 {
		t.Fatalf("Count = %d, want 3", n)
	}
	for _, tc := range []struct {
		name, remote, body string
		status, code       int
	}{
		{"the client's share is in flight", "198.51.100.1:3", request, 429, CodeSlowDown},
		{"the server is full", "198.51.100.2:1", request, 503, CodeBusy},
	} {
		rec := <-send(tc.remote, tc.body)
		if status, code, msg := refusalOf(t, rec); status != tc.status || code != tc.code || rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: %d, code %d, %q; want %d, code %d, with Retry-After", tc.name, status, code, msg, tc.status, tc.code)
		}
	}
	// An answer to the server's own question completes work: it passes
	// even now.
	answer := send("198.51.100.1:4", `{"jsonrpc":"2.0","id":7,"result":{}}`)
	<-entered
	stopped := make(chan int, 1)
	go func() { stopped <- calls.Stop(context.Background()) }()
	for !calls.Draining() {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // time for a Stop that did not wait to return
	if rec := <-send("198.51.100.3:1", request); rec.Code != 503 || !strings.Contains(rec.Body.String(), "shutting down") {
		t.Errorf("a request while stopping: %d %s", rec.Code, rec.Body.String())
	}
	select {
	case n := <-stopped:
		t.Fatalf("Stop returned %d with calls in flight", n)
	default:
	}
	close(release)
	for _, done := range append(inFlight, answer) {
		if rec := <-done; rec.Code != 200 {
			t.Errorf("a call in flight was answered %d", rec.Code)
		}
	}
	if n := <-stopped; n != 0 {
		t.Errorf("Stop = %d left, want 0", n)
	}
}

// Sessions admits initializes within its bounds, knows the ids it issued,
// and refuses the rest with a status that tells the client what to do.
func TestSessionsTable(t *testing.T) {
	var closed []string
	sess, err := NewSessions(SessionLimits{Max: 2, MaxPerClient: 1, MaxStreams: 5, ServedBy: "pod-a"}, zerolog.Nop(),
		func(StreamBounds) Streams { return closeRecorder(func(id string) { closed = append(closed, id) }) })
	if err != nil {
		t.Fatal(err)
	}
	// mcp-go stands behind the table: it issues an id for an initialize.
	mcpgo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if messageOf(r).initialize {
			w.Header().Set("Mcp-Session-Id", sess.Generate())
		}
		_, _ = io.WriteString(w, "reached")
	})
	h := ReadBody(1<<10, time.Second, zerolog.Nop(), sess.Handler(zerolog.Nop(), mcpgo))
	do := func(method, remote, id, body string, headers ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/mcp", strings.NewReader(body))
		r.RemoteAddr = remote
		if id != "" {
			r.Header.Set("Mcp-Session-Id", id)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	first := do(http.MethodPost, "198.51.100.1:1", "", initialize).Header().Get("Mcp-Session-Id")
	if !strings.HasPrefix(first, "fs-pod-a-") || len(first) != len("fs-pod-a-")+32 {
		t.Fatalf("issued id %q, want fs-pod-a- and 32 hex digits", first)
	}
	if sess.Live() != 1 {
		t.Fatalf("Live = %d, want 1", sess.Live())
	}
	for _, tc := range []struct {
		name                     string
		method, remote, id, body string
		headers                  []string
		status, code             int
		says                     string
	}{
		{"a request on the session", http.MethodPost, "198.51.100.1:2", first, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil, 200, 0, "reached"},
		{"a second session for the client", http.MethodPost, "198.51.100.1:3", "", initialize, nil, 429, CodeSlowDown, "--max-sessions-per-client"},
		{"a session issued elsewhere", http.MethodPost, "198.51.100.2:1", "fs-pod-b-00", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil, 404, CodeSessionNotFound, "sticky sessions"},
		{"no session on a legacy request", http.MethodPost, "198.51.100.2:1", "", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil, 400, CodeRefused, "initialize first"},
		{"no session on a GET stream", http.MethodGet, "198.51.100.2:1", "", "", nil, 400, CodeRefused, "Mcp-Session-Id"},
		{"a 2026-07-28 request needs none", http.MethodPost, "198.51.100.2:1", "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, []string{"MCP-Protocol-Version", "2026-07-28"}, 200, 0, "reached"},
		{"another client's session", http.MethodPost, "198.51.100.2:1", "", initialize, nil, 200, 0, "reached"},
		{"the table is full", http.MethodPost, "198.51.100.3:1", "", initialize, nil, 503, CodeBusy, "--max-sessions"},
	} {
		rec := do(tc.method, tc.remote, tc.id, tc.body, tc.headers...)
		if status, code, msg := refusalOf(t, rec); status != tc.status || code != tc.code || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d, code %d, %q; want %d, code %d, saying %q", tc.name, status, code, msg, tc.status, tc.code, tc.says)
		}
	}
	// Ending the first session frees the client's place, closes its
	// stream, and its id is known as ended.
	if _, err := sess.Terminate(first); err != nil {
		t.Fatal(err)
	}
	if len(closed) != 1 || closed[0] != first {
		t.Errorf("streams closed: %v, want the first session's", closed)
	}
	if ended, err := sess.Validate(first); !ended || err != nil {
		t.Errorf("Validate(ended) = %v, %v; want terminated", ended, err)
	}
	if status, code, msg := refusalOf(t, do(http.MethodPost, "198.51.100.1:4", first, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)); status != 404 || code != CodeSessionNotFound || !strings.Contains(msg, "has ended") {
		t.Errorf("a request on the ended session: %d, code %d, %q", status, code, msg)
	}
	if rec := do(http.MethodPost, "198.51.100.1:5", "", initialize); rec.Header().Get("Mcp-Session-Id") == "" {
		t.Errorf("the client could not start a session after ending its one: %d %s", rec.Code, rec.Body.String())
	}
}

// closeRecorder is a Streams that records the sessions whose stream it
// closes.
type closeRecorder func(id string)

func (c closeRecorder) CloseSession(id string) { c(id) }

// Every refusal behind CountRefusals is counted under its reason; those
// without a reason are not.
func TestRefusalsAreCounted(t *testing.T) {
	m := telemetry.NewMetrics()
	h := CountRefusals(m, CheckHostOrigin(Allowed{}, zerolog.Nop(), RequireToken("t", zerolog.Nop(), reached)))
	for _, headers := range []map[string]string{
		{"Origin": "https://evil.example"},
		{"Origin": "https://evil.example"},
		{},
		{"Authorization": "Bearer t"},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
		for k, v := range headers {
			r.Header.Set(k, v)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{`flightserver_http_refusals_total{reason="origin"} 2`, `flightserver_http_refusals_total{reason="auth"} 1`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(rec.Body.String(), "refusals"))
		}
	}
}

// A lost session and a draining server are counted too: after a rollout,
// or behind a balancer that loses sessions, they are what an operator
// looks for. Refusals of a malformed request are not.
func TestRefusalsOfSessionsAndDrainingAreCounted(t *testing.T) {
	m := telemetry.NewMetrics()
	for _, why := range []refusal{refusedUnknownSession, refusedUnknownSession, refusedDraining, refusedUnreadable, refusedNoSession, refusedStrayBody} {
		h := CountRefusals(m, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeError(w, r, why, "refused") }))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", nil))
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	got := grepLines(rec.Body.String(), "flightserver_http_refusals_total{")
	want := `flightserver_http_refusals_total{reason="draining"} 1` + "\n" + `flightserver_http_refusals_total{reason="unknown_session"} 2`
	if got != want {
		t.Errorf("refusals counted:\n%s\nwant:\n%s", got, want)
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
