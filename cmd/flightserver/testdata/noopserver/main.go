// Command noopserver is the smallest useful Go MCP server: mcp-go over
// stdio with one tool that does nothing. BenchmarkColdStart measures
// flightserver's start-up beside it, and beside it built with -tags floor
// (floor.go). With --http ADDR it serves mcp-go's streamable HTTP at /mcp
// instead, as the mcp-go peer does: scripts/peers.sh measures the floor
// build's no-op there, to tell what linking the libraries costs a call.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("noop", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("noop"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	if len(os.Args) == 3 && os.Args[1] == "--http" {
		if err := server.NewStreamableHTTPServer(s, server.WithEndpointPath("/mcp")).Start(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
