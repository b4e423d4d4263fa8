package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// BenchmarkHandler is the server's HTTP stack as run serves it (every
// protection layer in front of mcp-go's streamable HTTP server, the log at
// its default level), called concurrently the way a load test calls it,
// for the no-op tool and a deterministic findBestFlight in 2026-07-28.
// bare is mcp-go's handler alone over the same tools: what the layers cost.
// peer is the floor the peer kit measures against (../shared/peers, the
// mcp-go peer): mcp-go's default server with only a no-op and a tool
// "replay" that returns findBestFlight's own result, read the way the
// peer's --replay reads it. full/findBestFlight ÷ peer/replay is then
// findBestFlight's work and our layers on the same answer bytes, and
// full/noop ÷ peer/noop the layers alone.
func BenchmarkHandler(b *testing.B) {
	cfg, err := parseConfig([]string{"--transport", "http", "--rate-limit", "0", "--max-inflight", "0", "--load-test-tools"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	log, closeLog := newLogger(cfg, io.Discard)
	defer closeLog()
	srv, err := newMCPServer(cfg, nil, log)
	if err != nil {
		b.Fatal(err)
	}
	full := shippedHandler(b, cfg, srv, log)
	bareSrv, err := newMCPServer(cfg, nil, zerolog.Nop())
	if err != nil {
		b.Fatal(err)
	}
	bare := http.NewServeMux()
	bare.Handle("/mcp", server.NewStreamableHTTPServer(bareSrv, server.WithEndpointPath("/mcp")))
	find := `{"origin":"SFO","destination":"JFK","date":"` + travelDate() + `"}` // the binary's clock is the real one
	var answer struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(handlerCall(b, full, "findBestFlight", find, "").Bytes(), &answer); err != nil {
		b.Fatal(err)
	}
	replay, err := mcp.ParseCallToolResult(&answer.Result)
	if err != nil {
		b.Fatal(err)
	}
	peerSrv := server.NewMCPServer("peer-mcpgo", "1.0.0", server.WithToolCapabilities(false))
	peerSrv.AddTool(mcp.NewTool(noopTool), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	peerSrv.AddTool(mcp.NewTool("replay"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := *replay
		return &r, nil
	})
	peer := http.NewServeMux()
	peer.Handle("/mcp", server.NewStreamableHTTPServer(peerSrv, server.WithEndpointPath("/mcp")))
	for _, c := range []struct {
		stack, tool, args string
		handler           http.Handler
		legacy            bool
	}{
		{"peer", noopTool, `{}`, peer, false}, {"peer", "replay", `{}`, peer, false},
		{"bare", noopTool, `{}`, bare, false}, {"bare", "findBestFlight", find, bare, false},
		{"full", noopTool, `{}`, full, false}, {"full", "findBestFlight", find, full, false},
		// 2025-11-25, one session a goroutine, as the driver keeps one a
		// worker: what the session layers cost besides.
		{"peer", noopTool, `{}`, peer, true}, {"peer", "replay", `{}`, peer, true},
		{"full", noopTool, `{}`, full, true}, {"full", "findBestFlight", find, full, true},
	} {
		name := c.stack + "/" + c.tool
		if c.legacy {
			name += "/legacy"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				session := ""
				if c.legacy {
					session = handlerSession(b, c.handler)
				}
				for pb.Next() {
					handlerCall(b, c.handler, c.tool, c.args, session)
				}
			})
			// The process's CPU time per call: on a machine shared with
			// other work it moves less than the wall time does.
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// handlerCall makes one tools/call into h, as the peers' driver sends it,
// and returns the answer; anything but a 200 without isError fails the
// benchmark. Without a session it is a 2026-07-28 call, with one a
// 2025-11-25 call in that session (handlerSession).
func handlerCall(b *testing.B, h http.Handler, tool, args, session string) *bytes.Buffer {
	headers := map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": session}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	if session == "" {
		const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` + meta + `}}`
		headers = map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}
	}
	rec := handlerPost(h, body, headers)
	if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"isError":true`)) {
		b.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	return rec.Body
}

// handlerSession initializes a 2025-11-25 session on h, as the driver's
// workers each do, and returns its id.
func handlerSession(b *testing.B, h http.Handler) string {
	rec := handlerPost(h, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, nil)
	session := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != http.StatusOK || session == "" {
		b.Fatalf("initialize: %d %s", rec.Code, rec.Body.String())
	}
	headers := map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": session}
	if rec := handlerPost(h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers); rec.Code != http.StatusAccepted {
		b.Fatalf("notifications/initialized: %d %s", rec.Code, rec.Body.String())
	}
	return session
}

// handlerPost is one POST of body to h from a loopback client, with the
// headers every client sends and these.
func handlerPost(h http.Handler, body string, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:40000"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
