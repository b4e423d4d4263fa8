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

// heldCall is a legacy tools/call whose answer the client holds open: the
// server has sent its form down the call's stream and waits for an answer
// that never comes. status and body are the answer's when the call was
// answered (or refused) instead.
type heldCall struct {
	status int
	body   string
	asked  bool // the form arrived
}

// callAndNeverAnswer sends a legacy findBestFlight with only an origin on
// session id as the client at ip, and returns once the server has asked
// for the missing details (the call then holds its slot until the test
// ends) or has answered.
func callAndNeverAnswer(t *testing.T, url, id, ip string, n int) heldCall {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"JFK"}}}`, n)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("X-Real-IP", ip)
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return heldCall{status: resp.StatusCode, body: string(b)}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, `"elicitation/create"`) {
			go func() { // hold the call open, reading nothing more of use
				defer resp.Body.Close()
				for sc.Scan() {
				}
			}()
			return heldCall{status: resp.StatusCode, asked: true}
		}
		if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"result"`) {
			resp.Body.Close()
			return heldCall{status: resp.StatusCode, body: line}
		}
	}
	resp.Body.Close()
	return heldCall{status: resp.StatusCode}
}

// One client cannot take every --max-inflight slot, not even with a legacy
// session that never answers its forms, and leave every other client a
// 503. A client holds at most its share
// (--max-inflight-per-client), calls that wait for its own answers
// included, and is told 429 past it; one session may have at most four
// questions waiting, and its next call falls through at once instead of
// holding a slot; and a second client is served all the while.
func TestInflightSlotsAreSharedFairly(t *testing.T) {
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--max-inflight", "8", "--max-inflight-per-client", "6",
		"--client-ip-header", "X-Real-IP", "--rate-limit", "0", "--elicitation-timeout", "40s")
	url := "http://" + addr + "/mcp"
	const hostile, other = "198.51.100.20", "198.51.100.21"
	eliciting := `{"elicitation":{}}`

	// One session: four forms wait for answers that never come; the fifth
	// call is not asked (too_many_waiting) and answers at once.
	first := legacySession(t, url, hostile, eliciting)
	for i := range 4 {
		if c := callAndNeverAnswer(t, url, first, hostile, 10+i); !c.asked {
			t.Fatalf("call %d of the first session: not asked (%d %s)", i, c.status, c.body)
		}
	}
	start := time.Now()
	c := callAndNeverAnswer(t, url, first, hostile, 14)
	if c.asked || !strings.Contains(c.body, "too_many_waiting") || !strings.Contains(c.body, `"isError":true`) {
		t.Fatalf("a fifth waiting call on one session: asked %v, %d %s", c.asked, c.status, c.body)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the fifth call took %s to fall through", took)
	}
	// Another session of the same client fills its share of 6.
	second := legacySession(t, url, hostile, eliciting)
	for i := range 2 {
		if c := callAndNeverAnswer(t, url, second, hostile, 20+i); !c.asked {
			t.Fatalf("call %d of the second session: not asked (%d %s)", i, c.status, c.body)
		}
	}
	// The client's next request is refused, with its reason.
	r := send(t, url, map[string]string{"X-Real-IP": hostile, "Mcp-Session-Id": second, "MCP-Protocol-Version": "2025-11-25"},
		`{"jsonrpc":"2.0","id":30,"method":"tools/list"}`)
	code, msg := rpcError(t, r)
	if r.status != 429 || code != httpguard.CodeSlowDown || !strings.Contains(msg, "--max-inflight-per-client") || !strings.Contains(msg, hostile) || r.header.Get("Retry-After") == "" {
		t.Errorf("the client past its share: %d %d %q", r.status, code, msg)
	}
	// Another client is served, in either era.
	res := modernCall(t, url+"", "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate(), "strategy": "deterministic"},
		map[string]any{}, "", nil)
	if res["isError"] == true {
		t.Errorf("a loopback client while the other holds its share: %v", res)
	}
	legacy := legacySession(t, url, other, `{}`)
	r = send(t, url, map[string]string{"X-Real-IP": other, "Mcp-Session-Id": legacy, "MCP-Protocol-Version": "2025-11-25"},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"JFK","destination":"LHR","date":"`+travelDate()+`"}}}`)
	if r.status != 200 || !strings.Contains(r.body, `"method":"deterministic"`) {
		t.Errorf("a second client while the first holds its whole share: %d %s", r.status, r.body)
	}
}
