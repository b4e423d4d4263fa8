package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/serverbin"
)

// legacySession starts a 2025-11-25 session at url (…/mcp) as the client
// at ip (sent as X-Real-IP; "" sends none) declaring caps (JSON), as a
// host does: initialize, then notifications/initialized. It returns the
// session's id.
func legacySession(t *testing.T, url, ip, caps string) string {
	t.Helper()
	headers := map[string]string{}
	if ip != "" {
		headers["X-Real-IP"] = ip
	}
	r := send(t, url, headers, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+
		`,"clientInfo":{"name":"raw","version":"1"}}}`)
	id := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || id == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	headers["Mcp-Session-Id"], headers["MCP-Protocol-Version"] = id, "2025-11-25"
	if r := send(t, url, headers, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != 202 && r.status != 200 {
		t.Fatalf("notifications/initialized: %d %s", r.status, r.body)
	}
	return id
}

// openStream is one GET stream as a client holds it.
type openStream struct {
	status int
	header http.Header
	body   string        // a refusal's body; "" for a stream
	ended  chan struct{} // closed when the server ends the stream
	cancel context.CancelFunc
}

// getStream opens session id's GET stream at url and returns once the
// server has answered: with the stream open, or a refusal read whole. The
// client closes the stream when the test ends.
func getStream(t *testing.T, url, id string) *openStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	// A connection of its own, as a stream holds one.
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	s := &openStream{status: resp.StatusCode, header: resp.Header, ended: make(chan struct{}), cancel: cancel}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.body = string(b)
		close(s.ended)
		return s
	}
	go func() {
		defer close(s.ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
	}()
	return s
}

// endsWithin reports whether the server ends s within d.
func (s *openStream) endsWithin(d time.Duration) bool {
	select {
	case <-s.ended:
		return true
	case <-time.After(d):
		return false
	}
}

// The GET streams of 2025-11-25 sessions are bounded and end with their
// session: one per session, a new one replacing the old (what a
// client that reconnects needs); at most --max-streams in all, the next
// refused with a JSON-RPC error that says what to do; and a session's
// stream closed within a second of its DELETE. A flood of streams on one
// session (each costs what docs/BENCHMARKS.md#worst-cases-per-client-and-per-process
// says) leaves one open.
func TestGETStreamsAreBounded(t *testing.T) {
	debug := serverbin.FreeAddr(t)
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--max-streams", "2", "--debug-addr", debug, "--rate-limit", "0")
	url := "http://" + addr + "/mcp"

	s1 := legacySession(t, url, "", `{}`)
	first := getStream(t, url, s1)
	if first.status != 200 {
		t.Fatalf("the session's stream: %d %s", first.status, first.body)
	}
	idle := goroutines(t, debug)
	// The client reconnects: the new stream replaces the old one, which
	// the server closes.
	second := getStream(t, url, s1)
	if second.status != 200 || !first.endsWithin(time.Second) {
		t.Fatalf("a second stream on the session: %d %s; the first ended: %v", second.status, second.body, first.endsWithin(0))
	}
	if second.endsWithin(100 * time.Millisecond) {
		t.Fatal("the replacing stream ended too")
	}
	// A flood on one session: each replaces the one before, and the
	// server holds one stream's worth, as before it.
	var last *openStream
	for i := range 100 {
		s := getStream(t, url, s1)
		if s.status != 200 {
			t.Fatalf("stream %d of the flood: %d %s", i, s.status, s.body)
		}
		if last != nil && !last.endsWithin(time.Second) {
			t.Fatalf("stream %d did not end when %d replaced it", i-1, i)
		}
		last = s
	}
	settles(t, debug, idle+2, "after 100 streams on one session")

	// A second session's stream makes two, the limit; a third is refused,
	// and its session still served.
	s2 := legacySession(t, url, "", `{}`)
	if s := getStream(t, url, s2); s.status != 200 {
		t.Fatalf("a second session's stream: %d %s", s.status, s.body)
	}
	s3 := legacySession(t, url, "", `{}`)
	refused := getStream(t, url, s3)
	code, msg := rpcError(t, reply{status: refused.status, body: refused.body})
	if refused.status != 503 || code != httpguard.CodeBusy || !strings.Contains(msg, "--max-streams") || refused.header.Get("Retry-After") == "" {
		t.Errorf("a stream beyond --max-streams: %d %d %q (Retry-After %q)", refused.status, code, msg, refused.header.Get("Retry-After"))
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if r := send(t, url, map[string]string{"Mcp-Session-Id": s3, "MCP-Protocol-Version": "2025-11-25"}, list); r.status != 200 {
		t.Errorf("the session whose stream was refused: %d %s", r.status, r.body)
	}

	// DELETE ends the session's stream within a second, and frees its
	// place for another session's.
	deleteSession(t, "http://"+addr, s1)
	if !last.endsWithin(time.Second) {
		t.Error("the session's stream was still open a second after its DELETE")
	}
	if s := getStream(t, url, s3); s.status != 200 {
		t.Errorf("a stream once a place is free: %d %s", s.status, s.body)
	}
	// The deleted session's stream cannot come back.
	if s := getStream(t, url, s1); s.status != 404 || !strings.Contains(s.body, "has ended") {
		t.Errorf("a stream for the deleted session: %d %s", s.status, s.body)
	}
}

// A session that idles out (--session-idle-ttl) takes its stream with it:
// mcp-go's sweep forgot the session and left the stream open, sending
// heartbeats nobody could answer.
func TestGETStreamEndsWhenItsSessionExpires(t *testing.T) {
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--session-idle-ttl", "1s")
	url := "http://" + addr + "/mcp"
	id := legacySession(t, url, "", `{}`)
	s := getStream(t, url, id)
	if s.status != 200 {
		t.Fatalf("stream: %d %s", s.status, s.body)
	}
	// Swept within two sweeps of a second each, and the stream with it.
	if !s.endsWithin(5 * time.Second) {
		t.Fatal("the stream was still open 5 s after its session's idle TTL of 1 s")
	}
	if r := send(t, url, map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.status != 404 {
		t.Errorf("the expired session: %d %s", r.status, r.body)
	}
}

// streamsOf is the number of GET streams the server's metrics report.
func streamsOf(t *testing.T, metricsAddr string) string {
	t.Helper()
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "flightserver_get_streams ") {
			return strings.TrimPrefix(line, "flightserver_get_streams ")
		}
	}
	return fmt.Sprintf("no flightserver_get_streams in %d bytes of metrics", len(b))
}

// The open streams are a gauge an operator can watch against --max-streams.
func TestGETStreamsGauge(t *testing.T) {
	metrics := serverbin.FreeAddr(t)
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--metrics-addr", metrics)
	url := "http://" + addr + "/mcp"
	if got := streamsOf(t, metrics); got != "0" {
		t.Fatalf("before any stream: %s", got)
	}
	id := legacySession(t, url, "", `{}`)
	s := getStream(t, url, id)
	if got := streamsOf(t, metrics); got != "1" || s.status != 200 {
		t.Errorf("with one stream: %s (stream %d)", got, s.status)
	}
	deleteSession(t, "http://"+addr, id)
	s.endsWithin(time.Second)
	if got := streamsOf(t, metrics); got != "0" {
		t.Errorf("after DELETE: %s", got)
	}
}
