package tools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A host that defers tools behind a search (Claude Code: docs/HOSTS.md#claude-code)
// shows its model the tool names and the server's instructions, not the
// schemas: the instructions must say what each tool is for, that the flights
// are synthetic, and where a result says how it was made, and stay a few
// lines. Both eras receive them: initialize and server/discover.
func TestInstructionsIntroduceEveryTool(t *testing.T) {
	for _, era := range eras {
		for _, via := range transports {
			t.Run(era.Name+"/"+via, func(t *testing.T) {
				s := newServer(t)
				c := connect(t, s, via, era.Version)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "t", Version: "1"}}})
				if err != nil {
					t.Fatal(err)
				}
				got := res.Instructions
				if got != instructions {
					t.Fatalf("the client received %q", got)
				}
				tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				for _, tool := range tools.Tools {
					if !strings.Contains(got, "- "+tool.Name+": ") {
						t.Errorf("the instructions do not introduce %s", tool.Name)
					}
				}
				for _, want := range []string{"synthetic sample flights", "not live data", `"method"`, `"attempts"`, "candidates", "confirm: true"} {
					if !strings.Contains(got, want) {
						t.Errorf("the instructions do not say %q", want)
					}
				}
				if lines := strings.Count(got, "\n") + 1; lines > 8 || len(got) > 2000 {
					t.Errorf("%d lines, %d bytes: the instructions are what a model reads first; keep them short", lines, len(got))
				}
			})
		}
	}
}
