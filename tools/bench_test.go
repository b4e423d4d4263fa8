package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/internal/fakemodel"
)

// noopName is a tool registered only by this benchmark: the same protocol
// path (decode, dispatch, result, encode) with no work, the baseline every
// findBestFlight figure is divided by.
const noopName = "noop"

// cannedName is a second baseline: a tool that returns a findBestFlight
// result computed once, so the protocol carries the same bytes with none of
// the work. findBestFlight against it is the cost of our own code; against
// noop, the cost of our code plus the size of a useful answer.
const cannedName = "canned"

func withBaselines(b *testing.B, s *server.MCPServer, find map[string]any) *server.MCPServer {
	s.AddTool(mcp.NewTool(noopName), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	canned := callTool(b, connect(b, newServer(b), "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName, find)
	s.AddTool(mcp.NewTool(cannedName), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return canned, nil
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
			c := connect(b, withBaselines(b, newServer(b), find), via, era.Version)
			for _, tool := range []struct {
				name string
				args map[string]any
			}{{noopName, nil}, {cannedName, nil}, {FindBestFlightName, find}} {
				b.Run(via+"/"+era.Name+"/"+tool.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if res := callTool(b, c, tool.name, tool.args); res.IsError {
							b.Fatal(text(res))
						}
					}
				})
			}
		}
	}
}

// BenchmarkWire is the server's side of a round trip: raw JSON-RPC over
// HTTP, as a load generator sends it, with the response read but not
// decoded. The mcp-go client in BenchmarkRoundTrip also parses every result
// (several passes over the JSON), a cost that grows with the answer's size
// and belongs to the client, not the server.
func BenchmarkWire(b *testing.B) {
	find := map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "deterministic"}
	ts := httptest.NewServer(server.NewStreamableHTTPServer(withBaselines(b, newServer(b), find)))
	defer ts.Close()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tool := range []struct{ name, args string }{
		{noopName, `{}`},
		{cannedName, `{}`},
		{FindBestFlightName, `{"origin":"JFK","destination":"LHR","date":"2026-12-15","strategy":"deterministic"}`},
	} {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool.name + `","arguments":` + tool.args + `,` + meta + `}}`
		b.Run("http/modern/"+tool.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2026-07-28")
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", tool.name)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || n < 50 {
					b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
				}
			}
		})
	}
}

// BenchmarkSamplingRounds is the server's own cost of each round of a
// modern sampling call, measured on HandleMessage (no transport, no client
// parsing) beside a deterministic call of the same trip: "ask" is the first
// round (search, prompt, seal, input_required), "answer" the retry (open the
// state, search, parse and check the answer, rank).
func BenchmarkSamplingRounds(b *testing.B) {
	s := newServer(b)
	args := `{"origin":"JFK","destination":"LHR","date":"2026-12-15"}`
	meta := func(caps string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	}
	msg := func(caps, extra string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"findBestFlight","arguments":` + args + `,` + meta(caps) + extra + `}}`)
	}
	handle := func(b *testing.B, m []byte) map[string]any {
		out, err := json.Marshal(s.HandleMessage(context.Background(), m))
		if err != nil {
			b.Fatal(err)
		}
		var r struct{ Result map[string]any }
		if err := json.Unmarshal(out, &r); err != nil || r.Result == nil {
			b.Fatalf("%s: %v", out, err)
		}
		return r.Result
	}
	deterministic := msg(`{}`, "")
	ask := msg(`{"sampling":{}}`, "")
	first := handle(b, ask)
	st, _ := first["requestState"].(string)
	if st == "" {
		b.Fatalf("first round: %v", first)
	}
	answer, _ := json.Marshal(map[string]any{"rank": map[string]any{"role": "assistant", "model": "bench",
		"content": map[string]any{"type": "text", "text": fakemodel.Answer(fakemodel.Choose(flightIDs(fmt.Sprint(first["inputRequests"])))...)}}})
	retry := msg(`{"sampling":{}}`, `,"requestState":"`+st+`","inputResponses":`+string(answer))
	if r := handle(b, retry); r["structuredContent"].(map[string]any)["method"] != "client_sampling" {
		b.Fatalf("retry: %v", r)
	}
	for _, bm := range []struct {
		name string
		msg  []byte
	}{{"deterministic", deterministic}, {"ask", ask}, {"answer", retry}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				handle(b, bm.msg)
			}
		})
	}
}
