package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/telemetry"
)

// A legacy session's id is its handle: whoever reads it can send requests
// in the session and answer the server's questions to it, so the spans
// carry a digest of it (telemetry.SessionRef) and the log must not carry it
// either. A client's answer to a question nobody is waiting for any more
// (it came after --sampling-timeout, or answers an id never asked) is what
// mcp-go logs with the session's id, at error, once per such answer.
//
// Both shapes of id are covered, with and without --served-by (which puts
// the replica's name in it): the log's redaction knows the shape the
// session table issues, and this holds the two together.
func TestSessionIDStaysOutOfTheLog(t *testing.T) {
	for _, extra := range [][]string{nil, {"--served-by", "flightserver-0"}} {
		t.Run(strings.Join(append([]string{"flags"}, extra...), " "), func(t *testing.T) {
			sessionIDStaysOutOfTheLog(t, extra)
		})
	}
}

func sessionIDStaysOutOfTheLog(t *testing.T, extra []string) {
	addr, _, logs := serverbin.StartHTTP(t, binary, nil, append([]string{"--log-level", "debug", "--rate-limit", "0"}, extra...)...)
	url := "http://" + addr + "/mcp"
	session := legacySession(t, url, "", `{"sampling":{}}`)
	headers := map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
	for i := range 3 {
		r := send(t, url, headers, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"role":"assistant","content":{"type":"text","text":"late"},"model":"m"}}`, 900+i))
		if r.status < 200 || r.status >= 500 {
			t.Fatalf("a late answer: %d %s", r.status, r.body)
		}
	}
	// The answers were handled: a tools/list in the session after them is
	// answered, so every line about them has been written.
	if r := send(t, url, headers, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.status != 200 {
		t.Fatalf("tools/list: %d %s", r.status, r.body)
	}
	time.Sleep(100 * time.Millisecond)
	if len(extra) > 0 && !strings.Contains(session, "-flightserver-0-") {
		t.Fatalf("session id %q does not name the replica", session)
	}
	secret := session[strings.LastIndex(session, "-")+1:]
	if len(secret) < 32 {
		t.Fatalf("session id %q: no random part found", session)
	}
	if strings.Contains(logs.String(), secret[:16]) {
		t.Errorf("the log holds the session's id:\n%s", logs.String())
	}
	// The lines are there, naming the session as the spans do.
	ref := telemetry.SessionRef(session)
	for _, want := range []string{`"mcp.session.id":"` + ref + `"`, "no pending request found for session " + ref + ", request 902"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs.String())
		}
	}
}

// A request naming a session this process does not hold is refused and
// logged, and the id it names may be a live session of another replica
// (behind a balancer that does not route by the header): the line names it
// by its digest, and by the replica that issued it.
func TestUnknownSessionIsLoggedByDigest(t *testing.T) {
	addr, _, logs := serverbin.StartHTTP(t, binary, nil, "--rate-limit", "0")
	url := "http://" + addr + "/mcp"
	for _, other := range []string{"fs-0123456789abcdef0123456789abcdef", "fs-flightserver-2-fedcba9876543210fedcba9876543210"} {
		r := send(t, url, map[string]string{"Mcp-Session-Id": other, "MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		if r.status != 404 {
			t.Fatalf("%s: %d %s", other, r.status, r.body)
		}
		if !logs.Await(`"session":"`+telemetry.SessionRef(other)+`"`, 5*time.Second) {
			t.Errorf("no line naming %s by its digest:\n%s", other, logs.String())
		}
		if secret := other[len(other)-32:]; strings.Contains(logs.String(), secret[:16]) {
			t.Errorf("the log holds the id %s:\n%s", other, logs.String())
		}
	}
	if !strings.Contains(logs.String(), `"issuer":"fs-flightserver-2"`) {
		t.Errorf("the line does not say which replica issued the id:\n%s", logs.String())
	}
}
