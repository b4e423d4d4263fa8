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
	log := newLogger(cfg, io.Discard)
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
	if err := json.Unmarshal(handlerCall(b, full, "findBestFlight", find).Bytes(), &answer); err != nil {
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
	}{
		{"peer", noopTool, `{}`, peer}, {"peer", "replay", `{}`, peer},
		{"bare", noopTool, `{}`, bare}, {"bare", "findBestFlight", find, bare},
		{"full", noopTool, `{}`, full}, {"full", "findBestFlight", find, full},
	} {
		b.Run(c.stack+"/"+c.tool, func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					handlerCall(b, c.handler, c.tool, c.args)
				}
			})
			// The process's CPU time per call: on a machine shared with
			// other work it moves less than the wall time does.
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// handlerCall makes one 2026-07-28 tools/call into h, as the peers' driver
// sends it, and returns the answer; anything but a 200 without isError
// fails the benchmark.
func handlerCall(b *testing.B, h http.Handler, tool, args string) *bytes.Buffer {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` + meta + `}}`
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:40000"
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool} {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"isError":true`)) {
		b.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	return rec.Body
}
