// Package mcptest connects mcp-go's real client to a server under test, in
// either protocol era, in process or over streamable HTTP served the way
// cmd/flightserver serves it (through fallback.GETStreams). It is for tests
// only: the engine's (a one-question fake tool) and the flight tools' share
// it, so both reach their servers the same way.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/fallback"
)

// ClientName is the clientInfo.name every client of Connect sends.
const ClientName = "flightserver-test"

// Eras are the protocol eras every end-to-end test runs in.
var Eras = []struct {
	Name    string
	Version string
}{
	{"legacy", mcp.ProtocolVersion20251125},
	{"modern", mcp.ProtocolVersion20260728},
}

// Connect starts a real mcp-go client on the given transport ("inprocess",
// "http", or "stateless-http": HTTP without sessions, which
// cmd/flightserver never serves but mcp-go offers) and era, initializes it
// and checks the era was actually negotiated. With getStream, an HTTP
// client opens the standalone GET stream, as the official SDKs do in the
// legacy era, and Connect waits until the server has it. The client is
// closed when the test ends.
func Connect(t testing.TB, s *server.MCPServer, via, version string, getStream bool, opts ...client.ClientOption) *client.Client {
	t.Helper()
	opts = append([]client.ClientOption{client.WithProtocolVersion(version)}, opts...)
	var c *client.Client
	switch via {
	case "inprocess":
		var err error
		if c, err = client.NewInProcessClientWithOptions(s, opts...); err != nil {
			t.Fatal(err)
		}
	case "http", "stateless-http":
		// Served as cmd/flightserver serves it: through GETStreams.
		streams := fallback.NewGETStreams(fallback.StreamLimits{})
		handler := streams.Handler(server.NewStreamableHTTPServer(s))
		if via == "stateless-http" {
			handler = server.NewStreamableHTTPServer(s, server.WithStateLess(true))
		}
		ts := httptest.NewServer(handler)
		t.Cleanup(ts.Close)
		defer func() {
			// The client opens its GET stream in the background; a test
			// that needs it waits until the server has it.
			for deadline := time.Now().Add(5 * time.Second); getStream && !streams.Has(c.GetSessionId()); {
				if time.Now().After(deadline) {
					t.Fatal("the client's GET stream did not open")
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		var topts []transport.StreamableHTTPCOption
		if getStream {
			//lint:ignore SA1019 the legacy GET stream is what this era's clients open, and what legacy sampling needs.
			topts = append(topts, transport.WithContinuousListening())
		}
		tr, err := transport.NewStreamableHTTP(ts.URL+"/mcp", topts...)
		if err != nil {
			t.Fatal(err)
		}
		c = client.NewClient(tr, opts...)
	default:
		t.Fatalf("unknown transport %q", via)
	}
	// The client lives until Close: Start's context also runs its
	// background GET stream, so it must not be a short-lived one.
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: ClientName, Version: "1"}}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := c.ProtocolVersion(); got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return c
}

// Text is the text content of a result, concatenated.
func Text(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			s += tc.Text
		}
	}
	return s
}

// ModernCall sends one 2026-07-28 tools/call straight to s, as a client
// that declares caps (in the request's _meta) would, with requestState and
// inputResponses when given, and returns the JSON-RPC result. It is how a
// test plays a retry a real client would not send: a forged state, an
// answer to a question never asked.
func ModernCall(t testing.TB, s *server.MCPServer, tool string, caps, args map[string]any, requestState string, inputResponses map[string]any) json.RawMessage {
	t.Helper()
	params := map[string]any{
		"name": tool, "arguments": args,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": mcp.ProtocolVersion20260728, "io.modelcontextprotocol/clientCapabilities": caps},
	}
	if requestState != "" {
		params["requestState"] = requestState
	}
	if inputResponses != nil {
		params["inputResponses"] = inputResponses
	}
	return handle(t, context.Background(), s, "tools/call", params)
}

// legacySessions numbers the sessions of LegacySession.
var legacySessions atomic.Int64

// LegacySession registers a 2025-11-25 in-process session on s whose client
// answers with the given handlers (nil: none), initializes it declaring
// caps, and returns the context its requests run in, for LegacyCall.
func LegacySession(t testing.TB, s *server.MCPServer, caps map[string]any, sampling server.SamplingHandler, elicitation server.ElicitationHandler, roots server.RootsHandler) context.Context {
	t.Helper()
	session := server.NewInProcessSessionWithHandlers(fmt.Sprintf("mcptest-legacy-%d", legacySessions.Add(1)), sampling, elicitation, roots)
	if err := s.RegisterSession(context.Background(), session); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.UnregisterSession(context.Background(), session.SessionID()) })
	ctx := s.WithContext(context.Background(), session)
	handle(t, ctx, s, "initialize", map[string]any{"protocolVersion": mcp.ProtocolVersion20251125, "capabilities": caps,
		"clientInfo": map[string]any{"name": ClientName, "version": "1"}})
	return ctx
}

// LegacyCall sends one tools/call in the 2025-11-25 session of ctx (from
// LegacySession), with requestState and inputResponses when given, and
// returns the JSON-RPC result: a call mcp-go's client would not send, as
// that client fills both fields itself.
func LegacyCall(t testing.TB, ctx context.Context, s *server.MCPServer, tool string, args map[string]any, requestState string, inputResponses map[string]any) json.RawMessage {
	t.Helper()
	params := map[string]any{"name": tool, "arguments": args}
	if requestState != "" {
		params["requestState"] = requestState
	}
	if inputResponses != nil {
		params["inputResponses"] = inputResponses
	}
	return handle(t, ctx, s, "tools/call", params)
}

// handle sends one request straight to s and returns its result.
func handle(t testing.TB, ctx context.Context, s *server.MCPServer, method string, params map[string]any) json.RawMessage {
	t.Helper()
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := json.Marshal(s.HandleMessage(ctx, msg))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.Unmarshal(resp, &out); err != nil || len(out.Result) == 0 || string(out.Result) == "null" {
		t.Fatalf("response %s: %v", resp, err)
	}
	return out.Result
}

// CallTool calls tool with args from c, within 10 s, and fails the test if
// the call itself fails (an isError result is a result, returned).
func CallTool(t testing.TB, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return res
}
