package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/mcptest"
)

// The fixtures are written on the engine alone: nothing of the flight
// server is linked in. A second server that needed flights, ranking or the
// flight tools would prove nothing about the engine.
func TestImportsNoFlightPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/flightserver/flightserver/"
	forbidden := []string{"flights", "ranking", "tools", "itinerary", "export", "llm", "data", "cmd"}
	var ours []string
	for _, pkg := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(pkg, module)
		if !ok {
			continue
		}
		ours = append(ours, rel)
		for _, f := range forbidden {
			if rel == f || strings.HasPrefix(rel, f+"/") {
				t.Errorf("examples/conformance depends on %s, a flight package", pkg)
			}
		}
	}
	// The list is not empty for a wrong reason (a module path that changed).
	if len(ours) < 3 {
		t.Fatalf("go list found only %v of the module: the check would pass on nothing", ours)
	}
}

// serveFixtures serves the fixtures as the binary does, on a test server.
func serveFixtures(t *testing.T) string {
	t.Helper()
	f, err := newFixtures(zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	h, shutdown, err := f.handler(zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// user is a client that answers everything: its user fills every field of
// a form from answers, its model writes reply, it shares one root. It
// counts what it was asked.
type user struct {
	answers map[string]any
	reply   string
	mu      sync.Mutex
	asked   []string
}

func (u *user) note(what string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, what)
}

func (u *user) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.note("form:" + req.Params.Message)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: u.answers}}, nil
}

func (u *user) CreateMessage(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	u.note("sampling")
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(u.reply)}, Model: "test"}, nil
}

func (u *user) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	u.note("roots")
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///tmp/work", Name: "work"}}}, nil
}

// connect is mcp-go's client over HTTP in one era; a 2025-11-25 client
// opens the GET stream its era needs for sampling and roots requests.
func connect(t *testing.T, url, version string, u *user) *client.Client {
	t.Helper()
	var opts []transport.StreamableHTTPCOption
	if version == mcp.ProtocolVersion20251125 {
		//lint:ignore SA1019 the legacy GET stream is what this era's clients open, and what legacy sampling needs.
		opts = append(opts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(version),
		client.WithElicitationHandler(u), client.WithSamplingHandler(u), client.WithRootsHandler(u))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "fixtures-test", Version: "1"}}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := c.ProtocolVersion(); got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return c
}

// The asking fixtures give the same answers in both eras: one handler
// each, asking through the engine, which sends a 2025-11-25 session a
// request of its own and a 2026-07-28 client input_required.
func TestAskingToolsInBothEras(t *testing.T) {
	url := serveFixtures(t)
	cases := []struct {
		tool  string
		args  map[string]any
		want  string
		asked []string
	}{
		{"test_sampling", map[string]any{"prompt": "Hi"}, "LLM response: Bonjour", []string{"sampling"}},
		{"test_elicitation", map[string]any{"message": "Who are you?"}, `User response: action=accept, content={"color":"blue","name":"Ada"}`, []string{"form:Who are you?"}},
		{"test_input_required_result_multiple_inputs", nil, "Name: Ada; Greeting: Bonjour; Roots: 1", []string{"form:What is your name?", "sampling", "roots"}},
		{"test_input_required_result_multi_round", nil, "Multi-round complete for Ada who likes blue",
			[]string{"form:Step 1: What is your name?", "form:Step 2: What is your favorite color?"}},
		{"test_input_required_result_request_state", nil, "The user did not confirm.", []string{"form:Please confirm"}},
	}
	for _, era := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
		for _, tc := range cases {
			t.Run(era+"/"+tc.tool, func(t *testing.T) {
				u := &user{answers: map[string]any{"name": "Ada", "color": "blue"}, reply: "Bonjour"}
				c := connect(t, url, era, u)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}})
				if err != nil {
					t.Fatal(err)
				}
				if got := mcptest.Text(res); got != tc.want {
					t.Errorf("%s answered %q, want %q", tc.tool, got, tc.want)
				}
				u.mu.Lock()
				defer u.mu.Unlock()
				// A 2026-07-28 client answers a round's questions in an
				// order of its own.
				slices.Sort(u.asked)
				slices.Sort(tc.asked)
				if !slices.Equal(u.asked, tc.asked) {
					t.Errorf("the client was asked %q, want %q", u.asked, tc.asked)
				}
			})
		}
	}
}

// post sends one 2026-07-28 tools/call and returns the status and the
// JSON-RPC response.
func post(t *testing.T, url, tool string, caps map[string]any, extra map[string]any) (int, map[string]any) {
	t.Helper()
	params := map[string]any{"name": tool, "arguments": map[string]any{}, "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.ProtocolVersion20260728,
		"io.modelcontextprotocol/clientCapabilities": caps,
	}}
	for k, v := range extra {
		params[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion20260728)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if i := bytes.Index(raw, []byte("data: ")); i >= 0 { // an SSE response: its one event
		raw = bytes.TrimSpace(raw[i+len("data: "):])
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("response %q: %v", raw, err)
	}
	return resp.StatusCode, out
}

// The two refusals 2026-07-28 wants as JSON-RPC errors, which mcp-go gives
// a tool no way to return, come from the engine's HTTP layer; a state
// sealed here but not answered stays the call's to read.
func TestProtocolErrors(t *testing.T) {
	url := serveFixtures(t)
	sampling := map[string]any{"sampling": map[string]any{}}

	status, res := post(t, url, "test_missing_capability", map[string]any{}, nil)
	e, _ := res["error"].(map[string]any)
	if status != http.StatusBadRequest || e["code"] != float64(mcp.MISSING_REQUIRED_CLIENT_CAPABILITY) {
		t.Fatalf("undeclared sampling: HTTP %d %v, want 400 and -32021", status, res)
	}
	if _, ok := e["data"].(map[string]any)["requiredCapabilities"].(map[string]any)["sampling"]; !ok || res["id"] != float64(7) {
		t.Errorf("undeclared sampling: %v, want data.requiredCapabilities.sampling and the request's id", res)
	}

	status, res = post(t, url, "test_missing_capability", sampling, nil)
	result, _ := res["result"].(map[string]any)
	if status != http.StatusOK || result["resultType"] != "input_required" {
		t.Fatalf("declared sampling: HTTP %d %v, want the question as input_required", status, res)
	}
	token, _ := result["requestState"].(string)

	for _, tc := range []struct {
		name, state string
		status      int
		code        float64
	}{
		{"tampered", token + "-TAMPERED", http.StatusBadRequest, mcp.INVALID_PARAMS},
		{"not a state", "hello", http.StatusBadRequest, mcp.INVALID_PARAMS},
	} {
		status, res = post(t, url, "test_missing_capability", sampling, map[string]any{"requestState": tc.state,
			"inputResponses": map[string]any{"hello": map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "hi"}, "model": "m"}}})
		e, _ = res["error"].(map[string]any)
		if status != tc.status || e["code"] != tc.code {
			t.Errorf("%s state: HTTP %d %v, want %d and %v", tc.name, status, res, tc.status, tc.code)
		}
	}

	// Sealed here for another tool: not forged, so the call refuses it, as
	// an isError that says how to start over.
	status, res = post(t, url, "test_sampling", sampling, map[string]any{"requestState": token})
	result, _ = res["result"].(map[string]any)
	if status != http.StatusOK || result["isError"] != true {
		t.Errorf("a state sealed for another tool: HTTP %d %v, want the call's isError", status, res)
	}

	// The genuine state answered completes the call.
	status, res = post(t, url, "test_missing_capability", sampling, map[string]any{"requestState": token,
		"inputResponses": map[string]any{"hello": map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "hi"}, "model": "m"}}})
	result, _ = res["result"].(map[string]any)
	if content, _ := result["content"].([]any); status != http.StatusOK || len(content) == 0 || content[0].(map[string]any)["text"] != "Success: hi" {
		t.Errorf("the answered state: HTTP %d %v, want Success: hi", status, res)
	}
}
