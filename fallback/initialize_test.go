package fallback_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
)

// whoServer has one tool, who, that answers what the engine knows of its
// client; slowInit holds every initialize back that long before mcp-go
// handles it, so that a call sent right behind it surely runs first.
func whoServer(t *testing.T, slowInit time.Duration) *server.MCPServer {
	t.Helper()
	engine, err := fallback.New(fallback.Config{Sealer: sealerFor(t, testKey), Logger: zerolog.Nop(), CallBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &server.Hooks{}
	hooks.AddBeforeInitialize(func(context.Context, any, *mcp.InitializeRequest) { time.Sleep(slowInit) })
	s := server.NewMCPServer("initialize-test", "1", server.WithHooks(hooks))
	engine.Attach(s, hooks)
	s.AddTool(mcp.NewTool("who"), fallback.Serve(engine, fallback.Spec[struct{}]{
		Name: "who",
		Handle: func(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			why, _ := c.Client().CannotAsk(fallback.AskSampling)
			return mcp.NewToolResultStructured(map[string]any{"known": c.Client().Known, "cannotSample": why}, "who")
		},
	}))
	return s
}

// overStdio serves s through mcp-go's stdio server, writes lines to it
// at once, one after another, and returns the structuredContent of the
// answer with id 1.
func overStdio(t *testing.T, s *server.MCPServer, lines ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(nil)
	go func() { _ = stdio.Listen(ctx, inR, outW) }()
	go func() {
		for _, l := range lines {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
	}()
	answers := bufio.NewScanner(outR)
	for answers.Scan() {
		var m struct {
			ID     any `json:"id"`
			Result struct {
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(answers.Bytes(), &m); err != nil {
			t.Fatalf("answer %s: %v", answers.Bytes(), err)
		}
		if m.ID == float64(1) {
			_ = inW.Close()
			return m.Result.StructuredContent
		}
	}
	t.Fatalf("no answer to the call: %v", answers.Err())
	return nil
}

const (
	initializeLine  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"pipelining","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	whoLine         = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"who","arguments":{}}}`
)

// stdioChild marks a process of its own for one case of
// TestCallThatOvertakesInitializeWaitsForIt: mcp-go's stdio session is one
// per process, and stays initialized once initialized.
const stdioChild = "FALLBACK_TEST_STDIO_CHILD"

// TestCallThatOvertakesInitializeWaitsForIt: a 2025-11-25 client that sends
// its first call right behind initialize, without waiting for the answer,
// is served as the client it declared itself, not as one the server cannot
// know; a call that no initialize ever comes for is still told so.
func TestCallThatOvertakesInitializeWaitsForIt(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lines        []string
		known        bool
		cannotSample string
	}{
		{"pipelined behind initialize", []string{initializeLine, initializedLine, whoLine}, true, ""},
		{"pipelined before the initialized notification", []string{initializeLine, whoLine, initializedLine}, true, ""},
		{"no initialize at all", []string{whoLine}, false, string(fallback.UnknownClient)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if os.Getenv(stdioChild) == "" {
				cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
				cmd.Env = append(os.Environ(), stdioChild+"=1")
				out, err := cmd.CombinedOutput()
				if err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
					t.Fatalf("in a process of its own (%v):\n%s", err, out)
				}
				return
			}
			got := overStdio(t, whoServer(t, 100*time.Millisecond), tc.lines...)
			if got["known"] != tc.known || got["cannotSample"] != tc.cannotSample {
				t.Errorf("the call saw %v; want known %v, cannot sample %q", got, tc.known, tc.cannotSample)
			}
		})
	}
}
