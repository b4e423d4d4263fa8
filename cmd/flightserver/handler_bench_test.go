package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// BenchmarkHandler is the server's HTTP stack as run serves it (every
// protection layer in front of mcp-go's streamable HTTP server, the log at
// its default level), called concurrently the way a load test calls it,
// for the no-op tool and a deterministic findBestFlight in 2026-07-28.
// bare is mcp-go's handler alone over the same tools: the framework's
// floor, which the layers and our work are measured against.
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
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, h := range []struct {
		name    string
		handler http.Handler
	}{{"bare", bare}, {"full", full}} {
		for _, tool := range []struct{ name, args string }{
			{noopTool, `{}`},
			{"findBestFlight", `{"origin":"SFO","destination":"JFK","date":"` + travelDate() + `"}`}, // the binary's clock is the real one
		} {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool.name + `","arguments":` + tool.args + `,` + meta + `}}`
			b.Run(h.name+"/"+tool.name, func(b *testing.B) {
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", strings.NewReader(body))
						req.RemoteAddr = "127.0.0.1:40000"
						for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
							"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool.name} {
							req.Header.Set(k, v)
						}
						rec := httptest.NewRecorder()
						h.handler.ServeHTTP(rec, req)
						if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"isError":true`) {
							b.Fatalf("%d %s", rec.Code, rec.Body.String())
						}
					}
				})
			})
		}
	}
}
