package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/internal/serverproc"
)

// debugVars reads what the server serves at --debug-addr (query added to
// /debug/vars) into v, on a connection of its own that it closes, so the
// reading adds no goroutine and holds no memory in the server.
func debugVars(tb testing.TB, debugAddr, query string, v any) {
	tb.Helper()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	resp, err := c.Get("http://" + debugAddr + "/debug/vars" + query)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		tb.Fatal(err)
	}
}

// goroutines is the server's goroutine count.
func goroutines(t *testing.T, debugAddr string) int {
	t.Helper()
	var v struct{ Goroutines int }
	debugVars(t, debugAddr, "", &v)
	return v.Goroutines
}

// settles waits until the server is back to at most want goroutines.
func settles(t *testing.T, debugAddr string, want int, what string) {
	t.Helper()
	var got int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = goroutines(t, debugAddr); got <= want {
			return
		}
	}
	t.Errorf("%s: the server holds %d goroutines, more than the %d it had before", what, got, want)
}

// A client that leaves while the server waits for it costs nothing after:
// legacy (the server is mid-request) and modern (the server holds nothing).
func TestFaultClientLeavesMidRound(t *testing.T) {
	debug := serverbin.FreeAddr(t)
	addr, _, _ := serverbin.StartHTTP(t, binary, nil, "--debug-addr", debug, "--sampling-timeout", "20s")
	url := "http://" + addr + "/mcp"
	// The baseline is a server that has served one client and seen it go:
	// what starts once (mcp-go's session sweeper) is not a leak.
	warm := &http.Client{Transport: &http.Transport{}}
	first := dial(t, streamable(t, url, transport.WithHTTPBasicClient(warm)), client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	exercise(t, first, mcp.ProtocolVersion20251125)
	_ = first.Close()
	warm.CloseIdleConnections()
	time.Sleep(300 * time.Millisecond)
	base := goroutines(t, debug)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			sampler := &fakeclient.Sampler{Behaviour: fakeclient.Silent}
			hc := &http.Client{Transport: &http.Transport{}}
			topts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(hc)}
			if era.name == "legacy" {
				//lint:ignore SA1019 the legacy GET stream is how a 2025-11-25 client receives sampling requests.
				topts = append(topts, transport.WithContinuousListening())
			}
			c := initialized(t, dial(t, streamable(t, url, topts...), client.WithProtocolVersion(era.version), client.WithSamplingHandler(sampler)))
			time.Sleep(200 * time.Millisecond) // the legacy GET stream opens in the background
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := call(ctx, c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()})
				done <- err
			}()
			for deadline := time.Now().Add(5 * time.Second); len(sampler.Requests()) == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the sampling request never arrived")
				}
			}
			// The user walks away: the call is abandoned and the client closes.
			cancel()
			<-done
			_ = c.Close()
			// Its idle keep-alive connections go too (each holds a server
			// goroutine until the server's idle timeout).
			hc.CloseIdleConnections()
			settles(t, debug, base, "after a client left mid-round")
		})
	}
	// And the next client is served as if nothing happened.
	exercise(t, dial(t, streamable(t, url), client.WithProtocolVersion(mcp.ProtocolVersion20251125)), mcp.ProtocolVersion20251125)
}

// exits waits up to within for the server to exit after what (a signal,
// its last call), and fails the test if it does not, or not cleanly.
func exits(t *testing.T, proc *serverproc.Process, logs *serverbin.Log, within time.Duration, what string) {
	t.Helper()
	select {
	case <-proc.Exited():
		if err := proc.ExitErr(); err != nil {
			t.Errorf("exit after %s: %v\n%s", what, err, logs.String())
		}
	case <-time.After(within):
		t.Fatalf("the server did not exit within %s after %s", within, what)
	}
}

// modernCall posts one 2026-07-28 tools/call and returns its result.
func modernCall(t *testing.T, url, tool string, args map[string]any, caps map[string]any, state string, responses map[string]any) map[string]any {
	t.Helper()
	params := map[string]any{"name": tool, "arguments": args,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps}}
	if state != "" {
		params["requestState"], params["inputResponses"] = state, responses
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
	r := send(t, url, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}, string(body))
	var out struct{ Result map[string]any }
	if err := json.Unmarshal([]byte(sseData(r.body)), &out); err != nil || out.Result == nil {
		t.Fatalf("%s: %d %s", tool, r.status, r.body)
	}
	return out.Result
}

// sseData is the JSON of an answer sent as JSON or as one server-sent event.
func sseData(body string) string {
	if i := strings.Index(body, "data: "); i >= 0 && !strings.HasPrefix(strings.TrimSpace(body), "{") {
		return strings.TrimSpace(strings.SplitN(body[i+6:], "\n", 2)[0])
	}
	return body
}

var flightIDPattern = regexp.MustCompile(`[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}`)

// A retry sent twice (a client that timed out and resent, a proxy that
// replayed) is answered twice, the same way: the state is a signed value,
// not a ticket that is used up, and nothing was held for it.
func TestFaultRetrySentTwice(t *testing.T) {
	h := startHTTP(t)
	url := h.url + "/mcp"
	args := map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
	sampling := map[string]any{"sampling": map[string]any{}}
	first := modernCall(t, url, "findBestFlight", args, sampling, "", nil)
	state, _ := first["requestState"].(string)
	question, _ := json.Marshal(first["inputRequests"])
	ids := fakemodel.Choose(flightIDPattern.FindAllString(string(question), -1))
	if first["resultType"] != "input_required" || state == "" || len(ids) == 0 {
		t.Fatalf("first round: %v", first)
	}
	answer := map[string]any{"rank": map[string]any{"role": "assistant", "model": "m",
		"content": map[string]any{"type": "text", "text": fakemodel.Answer(ids...)}}}
	var results []string
	for range 2 {
		r := modernCall(t, url, "findBestFlight", args, sampling, state, answer)
		sc, _ := json.Marshal(r["structuredContent"])
		var got struct {
			Method  string
			Flights []struct{ ID string }
		}
		_ = json.Unmarshal(sc, &got)
		if r["isError"] == true || got.Method != "client_sampling" || len(got.Flights) != 3 || got.Flights[0].ID != ids[0] {
			t.Fatalf("retry: %v", r)
		}
		results = append(results, fmt.Sprint(got.Flights))
	}
	if results[0] != results[1] {
		t.Errorf("the same retry answered differently: %s / %s", results[0], results[1])
	}

	// A booking confirmed twice is answered twice with the same reference:
	// the reference names the flight, so a replay creates nothing new.
	form := map[string]any{"elicitation": map[string]any{}}
	book := map[string]any{"flightId": ids[0]}
	ask := modernCall(t, url, "bookFlight", book, form, "", nil)
	bookState, _ := ask["requestState"].(string)
	confirm := map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true, "passengerName": "Ada Lovelace"}}}
	var refs []any
	for range 2 {
		r := modernCall(t, url, "bookFlight", book, form, bookState, confirm)
		sc, _ := r["structuredContent"].(map[string]any)
		if r["isError"] == true || sc["reference"] == nil {
			t.Fatalf("booking retry: %v", r)
		}
		refs = append(refs, sc["reference"])
	}
	if refs[0] != refs[1] {
		t.Errorf("references %v", refs)
	}
}

// SIGTERM in the middle of a burst: every call the server accepted is
// answered in full (a slow one included), every other is refused before
// any answer starts, no file is left half-written, and the process exits 0.
func TestFaultSIGTERMDuringBurst(t *testing.T) {
	// A server-side LLM that takes 700 ms: calls that are surely in flight.
	slowLLM := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(700 * time.Millisecond)
		(&fakeendpoint.Endpoint{Behaviour: fakemodel.Answers}).ServeHTTP(w, r)
	}))
	defer slowLLM.Close()
	exportDir := t.TempDir()
	addr, proc, logs := serverbin.StartHTTP(t, binary, []string{"FLIGHTSERVER_LLM_API_KEY=test-key-not-secret"}, "--export-dir", exportDir,
		"--rate-limit", "0", "--shutdown-grace", "10s", "--llm-base-url", slowLLM.URL+"/v1")
	url := "http://" + addr + "/mcp"
	id := func() string {
		r := modernCall(t, url, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate(), "strategy": "deterministic"}, map[string]any{}, "", nil)
		sc, _ := json.Marshal(r["structuredContent"])
		return flightIDPattern.FindString(string(sc))
	}()

	type outcome struct {
		kind string // answered, refused, broken
		what string
		tool string
		slow bool
	}
	const n = 60
	outcomes := make([]outcome, n)
	var wg sync.WaitGroup
	httpClient := &http.Client{Timeout: 30 * time.Second}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool, args := "saveItinerary", map[string]any{"flightId": id, "filename": fmt.Sprintf("trip-%02d", i), "format": "ics"}
			slow := i%10 == 0
			switch {
			case slow:
				tool, args = "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
			case i%2 == 1:
				tool, args = "findBestFlight", map[string]any{"origin": "CDG", "destination": "SIN", "date": travelDate(), "strategy": "deterministic"}
			}
			time.Sleep(time.Duration(i) * 4 * time.Millisecond) // spread over ~240 ms
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args,
				"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}}})
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
			for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
				"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool} {
				req.Header.Set(k, v)
			}
			o := outcome{tool: tool, slow: slow}
			resp, err := httpClient.Do(req)
			if err != nil {
				o.kind, o.what = "refused", err.Error() // no answer started
				outcomes[i] = o
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			var msg struct {
				Result *struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				}
			}
			switch {
			case resp.StatusCode == http.StatusServiceUnavailable:
				o.kind = "refused"
			case err != nil || resp.StatusCode != 200 || json.Unmarshal([]byte(sseData(string(b))), &msg) != nil || msg.Result == nil:
				o.kind, o.what = "broken", fmt.Sprintf("%d %v %.200s", resp.StatusCode, err, b)
			default:
				o.kind, o.what = "answered", fmt.Sprint(msg.Result.StructuredContent["method"])
				if p, ok := msg.Result.StructuredContent["path"].(string); ok {
					o.what = filepath.Base(p)
				}
				if msg.Result.IsError {
					o.kind, o.what = "broken", fmt.Sprintf("isError %.200s", b)
				}
			}
			outcomes[i] = o
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if err := proc.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	exits(t, proc, logs, 15*time.Second, "SIGTERM")

	counts := map[string]int{}
	saved := map[string]bool{}
	for i, o := range outcomes {
		counts[o.kind]++
		switch o.kind {
		case "broken":
			t.Errorf("call %d (%s): a broken answer: %s", i, o.tool, o.what)
		case "answered":
			if o.tool == "saveItinerary" {
				saved[o.what] = true
			}
			if o.slow && !strings.Contains(o.what, "server_llm") {
				t.Errorf("call %d: the slow call was answered by %s, not the server LLM it was waiting for", i, o.what)
			}
		}
	}
	t.Logf("outcomes: %v", counts)
	if counts["answered"] == 0 || counts["refused"] == 0 {
		t.Errorf("the signal did not land mid-burst (outcomes %v); the test proves nothing", counts)
	}
	slowAnswered := 0
	for _, o := range outcomes {
		if o.slow && o.kind == "answered" {
			slowAnswered++
		}
	}
	if slowAnswered == 0 {
		t.Error("no slow call was in flight at SIGTERM and answered")
	}
	// Exactly the saves that were answered are on disk, each whole.
	entries, err := os.ReadDir(exportDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !saved[name] {
			t.Errorf("%s is on disk but its call was not answered (a temporary or half-written file?)", name)
			continue
		}
		b, err := os.ReadFile(filepath.Join(exportDir, name))
		if err != nil || !strings.HasPrefix(string(b), "BEGIN:VCALENDAR") || !strings.HasSuffix(string(b), "END:VCALENDAR\r\n") {
			t.Errorf("%s is not a whole calendar: %v", name, err)
		}
		delete(saved, name)
	}
	for name := range saved {
		t.Errorf("%s was reported saved but is not on disk", name)
	}
}
