package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/tools"
)

// binary is the real flightserver, built once by TestMain, for the tests
// that drive it as a desktop host would: a subprocess speaking stdio.
var binary string

func TestMain(m *testing.M) { serverbin.Main(m, &binary) }

var eras = []struct{ name, version string }{
	{"legacy", mcp.ProtocolVersion20251125},
	{"modern", mcp.ProtocolVersion20260728},
}

// A date the server accepts whenever the tests run.
func travelDate() string { return time.Now().AddDate(0, 1, 0).Format("2006-01-02") }

// exercise lists the tools, makes a good call and a bad one: the minimum a
// working server must do for a real client.
func exercise(t *testing.T, c *client.Client, version string) {
	t.Helper()
	if got := initialized(t, c).ProtocolVersion(); got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "bookFlight findAirports findBestFlight saveItinerary" {
		t.Fatalf("tools/list: %v", names)
	}
	res, err := call(ctx, c, "findBestFlight", map[string]any{"origin": "CDG", "destination": "JFK", "date": travelDate()})
	if err != nil || res.IsError {
		t.Fatalf("good call: %v %+v", err, res)
	}
	var r struct {
		Method  string `json:"method"`
		Flights []struct {
			ID string `json:"id"`
		} `json:"flights"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil || r.Method != "deterministic" || len(r.Flights) != 3 || !strings.HasPrefix(r.Flights[0].ID, "CDG-JFK-") {
		t.Fatalf("good call result %s: %v", b, err)
	}
	res, err = call(ctx, c, "findBestFlight", map[string]any{"origin": "CDG", "destination": "CDG", "date": "yesterday"})
	if err != nil || !res.IsError {
		t.Fatalf("bad call: want isError, got %v %+v", err, res)
	}
}

func TestStdioBinaryBothEras(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			var stderr serverbin.Log
			tr := transport.NewStdioWithOptions(binary, []string{"FLIGHTSERVER_LOG_LEVEL=debug"}, nil, transport.WithCommandStderrWriter(&stderr))
			c := dial(t, tr, client.WithProtocolVersion(era.version))
			exercise(t, c, era.version)
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			// Every log line is JSON on stderr; the call was logged, with
			// the path it took.
			if !stderr.Await(`"attempts":["client_sampling:skipped:client_cannot_ask","server_llm:skipped:not_configured","deterministic:used","view:skipped:client_cannot_ask"],`, 5*time.Second) {
				t.Errorf("stderr has no log line for the call and its path:\n%s", stderr.String())
			}
		})
	}
}

// On stdio the protocol owns stdout: every byte the server writes there is
// a JSON-RPC message, and logs go to stderr.
func TestStdioStdoutIsProtocolOnly(t *testing.T) {
	cmd, stdin, lines, stderr := rawStdio(t, "--log-level", "debug")
	// Like a host, keep stdin open until the answers are in: on stdin's end
	// the server stops, and calls still in flight then go unanswered.
	_, _ = io.WriteString(stdin, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"NRT","destination":"SIN","date":"` + travelDate() + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"NRT"}}}`,
		`this line is not JSON`,
	}, "\n")+"\n")

	ids := map[float64]bool{}
	timeout := time.After(20 * time.Second)
	for !(ids[1] && ids[2] && ids[3]) {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("stdout ended with responses for ids %v, want 1, 2 and 3\n%s", ids, stderr.String())
			}
			var msg struct {
				JSONRPC string   `json:"jsonrpc"`
				ID      *float64 `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Errorf("stdout line is not JSON-RPC: %q", line)
				continue
			}
			if msg.ID != nil {
				ids[*msg.ID] = true
			}
		case <-timeout:
			t.Fatalf("responses for ids %v after 20 s, want 1, 2 and 3", ids)
		}
	}
	_ = stdin.Close()
	for line := range lines { // whatever else comes is protocol too
		if !json.Valid([]byte(line)) || !strings.Contains(line, `"jsonrpc":"2.0"`) {
			t.Errorf("stdout line is not JSON-RPC: %q", line)
		}
	}
	waitExit(t, cmd, stderr) // on stdin's end
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("stderr line is not a JSON log entry: %q", line)
		}
	}
}

// startStdio runs the built binary with args (env adds to its
// environment; stderr, when not nil, receives its logs) and connects an
// mcp-go client to it, initialized in the era the options pin. The client
// closes when the test ends.
func startStdio(t *testing.T, env, args []string, stderr io.Writer, opts ...client.ClientOption) *client.Client {
	t.Helper()
	var topts []transport.StdioOption
	if stderr != nil {
		topts = append(topts, transport.WithCommandStderrWriter(stderr))
	}
	return initialized(t, dial(t, transport.NewStdioWithOptions(binary, env, args, topts...), opts...))
}

// startHTTPClient connects an mcp-go client over streamable HTTP to url,
// initialized in the era version names; it closes when the test ends.
func startHTTPClient(t *testing.T, url, version string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return initialized(t, dial(t, streamable(t, url), append([]client.ClientOption{client.WithProtocolVersion(version)}, opts...)...))
}

// dial starts an mcp-go client on tr, its era and handlers set by opts.
// It closes when the test ends (a test may close it sooner).
func dial(t *testing.T, tr transport.Interface, opts ...client.ClientOption) *client.Client {
	t.Helper()
	c := client.NewClient(tr, opts...)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// initialized sends c's initialize, naming the client cmd-test, and
// returns c once it is answered.
func initialized(t *testing.T, c *client.Client) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "cmd-test", Version: "1"}}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// streamable is a streamable HTTP client transport to url.
func streamable(t *testing.T, url string, opts ...transport.StreamableHTTPCOption) *transport.StreamableHTTP {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// call calls tool with args.
func call(ctx context.Context, c *client.Client, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	return c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
}

// structured reads a result's structuredContent into v and returns its JSON.
func structured(t *testing.T, res *mcp.CallToolResult, v any) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return b
}

// errorDetails reads an isError result's machine-readable details from its
// _meta, and checks it carries no structuredContent (which validating
// clients would check against the output schema).
func errorDetails(t *testing.T, res *mcp.CallToolResult) tools.ToolError {
	t.Helper()
	var d tools.ToolError
	if !res.IsError || res.StructuredContent != nil || res.Meta == nil {
		t.Fatalf("want an isError result without structuredContent and with _meta, got %+v", res)
	}
	b, err := json.Marshal(res.Meta.AdditionalFields[tools.ErrorMetaKey])
	if err == nil {
		err = json.Unmarshal(b, &d)
	}
	if err != nil || d.Error == "" {
		t.Fatalf("%s %s: %v", tools.ErrorMetaKey, b, err)
	}
	return d
}

// usedStep is the step of the attempt a result marks used.
func usedStep(attempts []struct{ Step, Outcome string }) string {
	for _, a := range attempts {
		if a.Outcome == "used" {
			return a.Step
		}
	}
	return ""
}

// firstFlightID is the best flight of a deterministic search.
func firstFlightID(t *testing.T, ctx context.Context, c *client.Client, origin, destination string) string {
	t.Helper()
	found, err := call(ctx, c, "findBestFlight", map[string]any{"origin": origin, "destination": destination, "date": travelDate(), "strategy": "deterministic"})
	if err != nil || found.IsError {
		t.Fatalf("find: %v %+v", err, found)
	}
	var f struct{ Flights []struct{ ID string } }
	structured(t, found, &f)
	return f.Flights[0].ID
}

// shippedHandler is the HTTP handler serveHTTP builds (every protection
// layer in front of mcp-go's streamable HTTP server) around srv, for
// tests that call it in process.
func shippedHandler(tb testing.TB, cfg config, srv *server.MCPServer, log zerolog.Logger) http.Handler {
	tb.Helper()
	sess, streams, err := newSessions(cfg, log)
	if err != nil {
		tb.Fatal(err)
	}
	calls := httpguard.NewInflight(cfg.maxInflight, cfg.maxInflightPerClient, cfg.clients())
	mcpHTTP := mcpTransport(cfg, srv, sess, log)
	tb.Cleanup(func() { _ = mcpHTTP.Shutdown(context.Background()) })
	h, err := newHandler(mcpHTTP, cfg, sess, streams, calls, nil, log)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// httpServer runs the whole program with --transport http on a free port.
type httpServer struct {
	url    string // http://127.0.0.1:port
	stop   context.CancelFunc
	done   chan error
	stderr *serverbin.Log
}

func startHTTP(t *testing.T, args ...string) *httpServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	h := &httpServer{stop: cancel, done: make(chan error, 1), stderr: &serverbin.Log{}}
	args = append([]string{"--transport", "http", "--addr", "127.0.0.1:0", "--shutdown-grace", "5s"}, args...)
	go func() {
		h.done <- run(ctx, args, func(string) string { return "" }, strings.NewReader(""), io.Discard, io.MultiWriter(pw, h.stderr))
		pw.Close()
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var line struct {
				Message, Addr string
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Message == "listening" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		h.url = "http://" + a
	case err := <-h.done:
		t.Fatalf("server exited: %v\n%s", err, h.stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start listening")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-h.done:
			if err != nil {
				t.Errorf("run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("server did not shut down")
		}
	})
	return h
}

func TestHTTPBothEras(t *testing.T) {
	h := startHTTP(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			exercise(t, dial(t, streamable(t, h.url+"/mcp"), client.WithProtocolVersion(era.version)), era.version)
		})
	}
}

const discover = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

var modernHeaders = map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}

func TestHTTPHardening(t *testing.T) {
	h := startHTTP(t, "--allowed-origins", "http://localhost:6274", "--max-body-bytes", "4096")
	withOrigin := func(o string) map[string]string {
		m := map[string]string{"Origin": o}
		for k, v := range modernHeaders {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		says    string
	}{
		{"no Origin (not a browser)", modernHeaders, discover, 200, `"supportedVersions"`},
		{"same origin", withOrigin(h.url), discover, 200, `"supportedVersions"`},
		{"allowed origin", withOrigin("http://localhost:6274"), discover, 200, `"supportedVersions"`},
		{"cross-site origin", withOrigin("https://evil.example"), discover, 403, "forbidden origin"},
		{"look-alike origin", withOrigin(h.url + ".evil.example"), discover, 403, "forbidden origin"},
		{"oversized body", modernHeaders, `{"pad":"` + strings.Repeat("x", 5000) + `"}`, 413, "over the limit of 4096"},
		{"modern request without _meta", modernHeaders, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, 400, "_meta"},
		{"modern request without capabilities", modernHeaders, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, 400, "clientCapabilities"},
		{"not JSON", modernHeaders, `{"jsonrpc":`, 400, "not valid json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := send(t, h.url+"/mcp", tc.headers, tc.body)
			if r.status != tc.status || !strings.Contains(r.body, tc.says) {
				t.Errorf("status %d body %s; want %d containing %q", r.status, r.body, tc.status, tc.says)
			}
		})
	}

	t.Run("cross-site GET stream", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, h.url+"/mcp", nil)
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Accept", "text/event-stream")
		if status := statusOf(t, req); status != 403 {
			t.Errorf("status %d, want 403", status)
		}
	})

	t.Run("healthz", func(t *testing.T) {
		resp, err := http.Get(h.url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != `{"status":"ok"}` {
			t.Errorf("healthz: %d %s", resp.StatusCode, b)
		}
	})
}

// A slow-loris client that never finishes its headers is cut off.
func TestHTTPReadHeaderTimeout(t *testing.T) {
	h := startHTTP(t, "--read-header-timeout", "200ms")
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(h.url, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST /mcp HTTP/1.1\r\nHost: x\r\n")); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = conn.Read(make([]byte, 1024))
	if err == nil {
		// The server may answer 408 before closing; either way it must not wait.
		_, err = conn.Read(make([]byte, 1024))
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a half-sent request open past the header timeout")
	}
}
