package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/tools"
)

// rawStdio runs the binary with args over pipes and returns its stdin, a
// channel of its stdout lines (closed at EOF), and its log.
func rawStdio(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, <-chan string, *serverbin.Log) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	logs := &serverbin.Log{}
	cmd.Stderr = logs
	stdin, stdout := startPiped(t, cmd)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return cmd, stdin, lines, logs
}

// startPiped starts cmd with a pipe to its stdin and one from its stdout.
func startPiped(tb testing.TB, cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser) {
	tb.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return stdin, stdout
}

type rpcReply struct {
	ID     *float64        `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int
		Message string
	} `json:"error"`
}

// collect reads stdout until it ends (or wait passes) and returns the
// answers by id.
func collect(t *testing.T, lines <-chan string, wait time.Duration) map[int]rpcReply {
	t.Helper()
	got := map[int]rpcReply{}
	timeout := time.After(wait)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return got
			}
			var r rpcReply
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Errorf("stdout line is not JSON-RPC: %.200q", line)
				continue
			}
			if r.ID != nil && r.Method == "" {
				got[int(*r.ID)] = r
			}
		case <-timeout:
			t.Fatalf("stdout still open after %s; answers so far %v", wait, got)
		}
	}
}

func waitExit(t *testing.T, cmd *exec.Cmd, logs *serverbin.Log) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v\n%s", err, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the server did not exit\n%s", logs.String())
	}
}

// handshake initializes a legacy session declaring caps and waits for the
// answer, as a host does before it calls a tool (a call sent with it,
// unawaited, waits for it: TestStdioCallPipelinedBehindInitialize).
func handshake(t *testing.T, stdin io.Writer, lines <-chan string, caps string) {
	t.Helper()
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"script","version":"1"}}}`+"\n")
	select {
	case line := <-lines:
		if !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"result"`) {
			t.Fatalf("initialize: %s", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to initialize")
	}
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
}

func toolCall(id int, name string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	return string(b)
}

// A host that sends its calls and closes stdin at once (as scripts and
// some hosts do) gets every answer, in full, before the process exits:
// a search, a booking and a save.
func TestStdioAnswersCallsInFlightWhenStdinCloses(t *testing.T) {
	dir := t.TempDir()
	id := flightID(t)
	cmd, stdin, lines, logs := rawStdio(t, "--export-dir", dir)
	handshake(t, stdin, lines, `{}`)
	script := append([]string{},
		toolCall(2, "findBestFlight", map[string]any{"origin": "NRT", "destination": "SIN", "date": travelDate()}),
		toolCall(3, "bookFlight", map[string]any{"flightId": id, "confirm": true, "passengerName": "Ada Lovelace"}),
		toolCall(4, "saveItinerary", map[string]any{"flightId": id, "filename": "trip"}),
	)
	_, _ = io.WriteString(stdin, strings.Join(script, "\n")+"\n")
	_ = stdin.Close()
	got := collect(t, lines, 20*time.Second)
	waitExit(t, cmd, logs)
	for _, want := range []struct {
		id   int
		says string
	}{{2, `"method":"deterministic"`}, {3, `"reference":"BK-`}, {4, `trip.ics`}} {
		r, ok := got[want.id]
		if !ok || r.Error != nil || !strings.Contains(string(r.Result), want.says) || strings.Contains(string(r.Result), `"isError":true`) {
			t.Errorf("call %d: answered %v, %+v %.300s; want a result with %s", want.id, ok, r.Error, r.Result, want.says)
		}
	}
	if _, err := os.Stat(dir + "/trip.ics"); err != nil {
		t.Errorf("the itinerary is not on disk: %v", err)
	}
	if strings.Contains(logs.String(), "no state key configured") {
		t.Error("stdio warned about the state key, which only matters over HTTP")
	}
	if !strings.Contains(logs.String(), "every call answered") {
		t.Errorf("log does not say why it exited:\n%s", logs.String())
	}
}

// When stdin has closed, a question the server asks the client can never
// be answered: the call falls back at once instead of waiting out its
// timeout, and says why.
func TestStdioQuestionsAfterStdinClosesFallBackAtOnce(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t, "--sampling-timeout", "20s", "--elicitation-timeout", "20s")
	handshake(t, stdin, lines, `{"sampling":{},"elicitation":{}}`)
	script := append([]string{},
		toolCall(2, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}),
		toolCall(3, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR"}),
	)
	start := time.Now()
	_, _ = io.WriteString(stdin, strings.Join(script, "\n")+"\n")
	_ = stdin.Close()
	got := collect(t, lines, 15*time.Second)
	waitExit(t, cmd, logs)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s: the calls waited for answers that could not come", took)
	}
	var sampled struct {
		StructuredContent struct {
			Attempts []struct{ Tier, Outcome, Reason string }
		}
	}
	_ = json.Unmarshal(got[2].Result, &sampled)
	t.Logf("the sampling call's attempts: %+v", sampled.StructuredContent.Attempts)
	if r := string(got[2].Result); !strings.Contains(r, `"method":"deterministic"`) || !strings.Contains(r, "closed its end of stdin") {
		t.Errorf("the sampling call: %.1500s", r)
	}
	if r := string(got[3].Result); !strings.Contains(r, `"isError":true`) || !strings.Contains(r, "closed its end of stdin") {
		t.Errorf("the form call: %.600s", r)
	}
}

// deterministicSteps reads a findBestFlight result that must have ranked
// deterministically, and gives each attempt's outcome and why by step
// ("skipped/unknown_client").
func deterministicSteps(t *testing.T, what string, result json.RawMessage) map[string]string {
	t.Helper()
	var found struct {
		StructuredContent struct {
			Method   string
			Attempts []struct{ Step, Outcome, Why string }
		}
	}
	if err := json.Unmarshal(result, &found); err != nil || found.StructuredContent.Method != "deterministic" {
		t.Fatalf("%s: %v %.800s", what, err, result)
	}
	why := map[string]string{}
	for _, a := range found.StructuredContent.Attempts {
		why[a.Step] = a.Outcome + "/" + a.Why
	}
	return why
}

// A host that sends its first call right behind initialize, without
// waiting for the answer, is served as the client it declared: mcp-go
// serves the two concurrently, and the call waits for the initialize
// (fallback/initialize.go) instead of finding nothing negotiated. The host
// declares no MCP Apps, so the view's step says the client cannot render
// it, where a call that ran first said the client was unknown.
func TestStdioCallPipelinedBehindInitialize(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t)
	script := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipelining","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		toolCall(2, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate(), "strategy": "deterministic"}),
	}
	_, _ = io.WriteString(stdin, strings.Join(script, "\n")+"\n")
	_ = stdin.Close()
	got := collect(t, lines, 15*time.Second)
	waitExit(t, cmd, logs)
	why := deterministicSteps(t, "the pipelined call", got[2].Result)
	if why["view"] != "skipped/client_cannot_ask" {
		t.Errorf("view: %q, want skipped/client_cannot_ask (all: %v)", why["view"], why)
	}
}

// A host that calls before it initializes has declared nothing, and the
// server cannot tell "declared nothing" from "did not say": every rung
// that would ask the client is skipped as unknown_client (not
// client_cannot_ask), the search still answers, and a call missing trip
// details names them without claiming the user was asked.
func TestStdioCallBeforeInitializeIsUnknownClient(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t)
	script := []string{
		toolCall(2, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}),
		toolCall(3, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR"}),
	}
	_, _ = io.WriteString(stdin, strings.Join(script, "\n")+"\n")
	_ = stdin.Close()
	got := collect(t, lines, 15*time.Second)
	waitExit(t, cmd, logs)

	why := deterministicSteps(t, "the search before initialize", got[2].Result)
	for step, want := range map[string]string{
		"client_sampling": "skipped/unknown_client", "server_llm": "skipped/not_configured",
		"deterministic": "used/", "view": "skipped/unknown_client",
	} {
		if why[step] != want {
			t.Errorf("%s: %q, want %q (all: %v)", step, why[step], want, why)
		}
	}

	var missing struct {
		IsError bool
		Meta    map[string]tools.ToolError `json:"_meta"`
	}
	if err := json.Unmarshal(got[3].Result, &missing); err != nil {
		t.Fatal(err)
	}
	e := missing.Meta["io.github.flightserver/error"]
	var fields []string
	for _, f := range e.Fields {
		fields = append(fields, f.Field)
	}
	if !missing.IsError || e.Error != "trip_details_needed" || e.AskedUser == nil || *e.AskedUser || e.Why != "unknown_client" || !slices.Equal(fields, []string{"date"}) {
		t.Errorf("the call missing its date before initialize: %+v %.600s", e, got[3].Result)
	}
}

// flightID is the best flight NRT to SIN (ids are the same in every
// process), found through a short-lived server of its own.
func flightID(t *testing.T) string {
	t.Helper()
	cmd, stdin, lines, logs := rawStdio(t)
	handshake(t, stdin, lines, `{}`)
	_, _ = io.WriteString(stdin, toolCall(2, "findBestFlight", map[string]any{"origin": "NRT", "destination": "SIN", "date": travelDate(), "strategy": "deterministic"})+"\n")
	_ = stdin.Close()
	got := collect(t, lines, 20*time.Second)
	waitExit(t, cmd, logs)
	id := flightIDPattern.FindString(string(got[2].Result))
	if id == "" {
		t.Fatalf("no flight id in %.300s", got[2].Result)
	}
	return id
}

// One enormous line (100 MB) is skipped as it streams in, answered with a
// parse error that carries its id, and the next line is served; the
// process never holds the line.
func TestStdioOversizedMessage(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t)
	handshake(t, stdin, lines, `{}`)
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<20)
		_, _ = w.WriteString(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"`)
		chunk := strings.Repeat("A", 1<<20)
		for range 100 {
			_, _ = w.WriteString(chunk)
		}
		_, _ = w.WriteString("\"}}}\n" + `{"jsonrpc":"2.0","id":8,"method":"ping"}` + "\n")
		_ = w.Flush()
		_ = stdin.Close()
	}()
	got := collect(t, lines, 30*time.Second)
	waitExit(t, cmd, logs)
	if r := got[7]; r.Error == nil || r.Error.Code != mcp.PARSE_ERROR || !strings.Contains(r.Error.Message, "over the limit of 1048576 (--max-body-bytes)") {
		t.Errorf("the oversized message: %+v", r)
	}
	if r, ok := got[8]; !ok || r.Error != nil {
		t.Errorf("the line after it: %v %+v", ok, r)
	}
	// Beside a server that read only small lines: holding the line would
	// add at least its 100 MB.
	base, baseIn, baseLines, baseLogs := rawStdio(t)
	handshake(t, baseIn, baseLines, `{}`)
	_, _ = io.WriteString(baseIn, `{"jsonrpc":"2.0","id":8,"method":"ping"}`+"\n")
	_ = baseIn.Close()
	collect(t, baseLines, 10*time.Second)
	waitExit(t, base, baseLogs)
	peak, ok := peakRSS(t, cmd)
	basePeak, _ := peakRSS(t, base)
	if !ok {
		t.Skipf("the line was answered; this platform gives no peak RSS to tell whether it was held")
	}
	t.Logf("peak RSS %d MiB, %d MiB without the line", peak>>20, basePeak>>20)
	if peak > basePeak+40<<20 {
		t.Errorf("peak RSS %d MiB for a 100 MB line, %d MiB without: the line was held", peak>>20, basePeak>>20)
	}
}

// Messages mcp-go never answers do not count as calls in flight when stdin
// closes: one that carries a result (an answer, whatever its method says)
// and a request whose id is not a number or a string, written with spaces
// that mcp-go's echo of it drops. Counted, each held the exit back for
// the whole drain (the call budget and a margin, 50 s).
func TestStdioUnansweredMessagesDoNotHoldTheExit(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t)
	handshake(t, stdin, lines, `{}`)
	_, _ = io.WriteString(stdin, strings.Join([]string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","result":{}}`,
		`{"jsonrpc":"2.0","id":{"x": 1, "a": [1, 2]},"method":"tools/list"}`,
		toolCall(2, "findAirports", map[string]any{"query": "London"}),
	}, "\n")+"\n")
	_ = stdin.Close()
	var out []string // collect would refuse the object id's answer
	for done := false; !done; {
		select {
		case line, ok := <-lines:
			out = append(out, line)
			done = !ok
		case <-time.After(20 * time.Second):
			t.Fatalf("stdout still open after 20 s (the drain is 50 s); so far:\n%s", strings.Join(out, "\n"))
		}
	}
	waitExit(t, cmd, logs)
	all := strings.Join(out, "\n")
	for _, want := range []string{`"id":2,"result"`, `"id":{"a":[1,2],"x":1},"result"`} {
		if !strings.Contains(all, want) {
			t.Errorf("no answer with %s in:\n%.600s", want, all)
		}
	}
	if strings.Contains(all, `"id":7`) {
		t.Error("a message with a result was answered")
	}
	if !strings.Contains(logs.String(), "every call answered") {
		t.Errorf("log does not say why it exited:\n%s", logs.String())
	}
}
