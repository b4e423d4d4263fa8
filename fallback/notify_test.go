package fallback_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/mcptest"
)

// reportServer serves "report", a tool that sends three progress
// notifications and three log messages and answers at once: the last of
// each goes out just before the result, where mcp-go could lose it.
func reportServer(t *testing.T) *server.MCPServer {
	t.Helper()
	engine, err := fallback.New(fallback.Config{Sealer: sealerFor(t, testKey), Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("engine-test", "1", server.WithHooks(hooks), server.WithLogging())
	engine.Attach(s, hooks)
	s.AddTool(mcp.NewTool("report"), fallback.Serve(engine, fallback.Spec[struct{}]{Name: "report",
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			sent := 0
			for i := range 3 {
				c.LogToClient(ctx, mcp.LoggingLevelInfo, "report", fmt.Sprintf("step %d", i))
				if c.Progress(ctx, float64(50*i), 100, "working") {
					sent++
				}
			}
			return mcp.NewToolResultText(fmt.Sprintf("sent %d", sent))
		}}))
	return s
}

// Every notification a call sends reaches the client, the last one too,
// in both eras; progress goes only to a request that asked for it.
func TestNotificationsReachTheClient(t *testing.T) {
	for _, via := range transports {
		for _, era := range mcptest.Eras {
			for _, token := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/token=%v", via, era.Name, token), func(t *testing.T) {
					c := mcptest.Connect(t, reportServer(t), via, era.Version, false)
					var mu sync.Mutex
					got := map[string]int{}
					c.OnNotification(func(n mcp.JSONRPCNotification) {
						mu.Lock()
						defer mu.Unlock()
						got[n.Method]++
					})
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					wantLogs := 0
					if era.Name == "legacy" {
						// A 2026-07-28 request that names no logLevel gets no
						// log messages; a legacy session asks once.
						//lint:ignore SA1019 logging is deprecated in 2026-07-28, and is how a 2025-11-25 session asks for log messages.
						if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelDebug}}); err != nil {
							t.Fatal(err)
						}
						wantLogs = 3
					}
					req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "report"}}
					wantProgress := 0
					if token {
						req.Params.Meta = &mcp.Meta{ProgressToken: "p-1"}
						wantProgress = 3
					}
					res, err := c.CallTool(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					if want := fmt.Sprintf("sent %d", wantProgress); mcptest.Text(res) != want {
						t.Errorf("the tool says %q, want %q", mcptest.Text(res), want)
					}
					mu.Lock()
					defer mu.Unlock()
					if got[string(mcp.MethodNotificationProgress)] != wantProgress || got[string(mcp.MethodNotificationMessage)] != wantLogs {
						t.Errorf("the client got %v, want %d progress and %d log notifications", got, wantProgress, wantLogs)
					}
				})
			}
		}
	}
}
