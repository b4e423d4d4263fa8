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

// stuckSession is a 2025-11-25 session whose notifications nobody reads:
// its streams are gone.
type stuckSession struct{ queue chan mcp.JSONRPCNotification }

func (stuckSession) Initialize()                                           {}
func (stuckSession) Initialized() bool                                     { return true }
func (s stuckSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.queue }
func (stuckSession) SessionID() string                                     { return "stuck" }

// A notification waits for a reader to take it off the session's queue
// (which is what keeps mcp-go from losing it), but not for ever: with no
// reader the call goes on after a bounded wait, and the notification is
// still on the queue.
func TestNotificationsWaitForAReaderWithinABound(t *testing.T) {
	var waited time.Duration
	engine, err := fallback.New(fallback.Config{Sealer: sealerFor(t, testKey), Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("engine-test", "1", server.WithHooks(hooks))
	engine.Attach(s, hooks)
	s.AddTool(mcp.NewTool("report"), fallback.Serve(engine, fallback.Spec[struct{}]{Name: "report",
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			start := time.Now()
			c.Progress(ctx, 1, 2, "halfway")
			waited = time.Since(start)
			return mcp.NewToolResultText("done")
		}}))
	session := stuckSession{queue: make(chan mcp.JSONRPCNotification, 10)}
	ctx, cancel := context.WithTimeout(s.WithContext(context.Background(), session), 10*time.Second)
	defer cancel()
	answered := make(chan mcp.JSONRPCMessage, 1)
	go func() {
		answered <- s.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","_meta":{"progressToken":"p"}}}`))
	}()
	select {
	case msg := <-answered:
		if _, ok := msg.(mcp.JSONRPCResponse); !ok {
			t.Fatalf("the call answered %#v", msg)
		}
	case <-ctx.Done():
		t.Fatal("the call never answered: a notification nobody reads held it")
	}
	if len(session.queue) != 1 {
		t.Errorf("%d notifications on the queue, want the progress notification", len(session.queue))
	}
	// At least the bound (nobody took it), and the call went on after it.
	if waited < 500*time.Millisecond {
		t.Errorf("the notification was waited on for %s: it went on before any reader took it", waited)
	}
}
