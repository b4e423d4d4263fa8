package tools

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// noopName is a tool registered only by this benchmark: the same protocol
// path (decode, dispatch, result, encode) with no work, the baseline every
// findBestFlight figure is divided by.
const noopName = "noop"

func withNoop(s *server.MCPServer) *server.MCPServer {
	s.AddTool(mcp.NewTool(noopName), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	return s
}

// BenchmarkRoundTrip is a whole tools/call through a real mcp-go client,
// in-process and over HTTP, in both eras, for the no-op tool and for a
// deterministic findBestFlight (after the first call, the route's schedule
// is cached, as it is for repeated searches in production).
func BenchmarkRoundTrip(b *testing.B) {
	find := map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "deterministic"}
	for _, via := range transports {
		for _, era := range eras {
			c := connect(b, withNoop(newServer(b)), via, era.version)
			for _, tool := range []struct {
				name string
				args map[string]any
			}{{noopName, nil}, {FindBestFlightName, find}} {
				b.Run(via+"/"+era.name+"/"+tool.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if res := call(b, c, tool.name, tool.args); res.IsError {
							b.Fatal(text(res))
						}
					}
				})
			}
		}
	}
}
