package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/stdiopipe"
	"github.com/flightserver/flightserver/tools"
)

// terminalNotice is said once, on stderr, when stdin is a terminal: a
// person who ran the binary by hand otherwise sees two JSON log lines and a
// process that seems to hang.
const terminalNotice = `flightserver speaks MCP (JSON-RPC, one message a line) on stdin and stdout:
an MCP host starts it and talks to it; it is waiting for one now, not for typing.
  connect a host:  put this binary's absolute path in the host's MCP server settings
                   (README.md, "Use it from a host"; docs/HOSTS.md)
  see it work:     go run ./cmd/flightdemo   (a scripted host that plays real host profiles)
  serve HTTP:      flightserver --transport http   (http://127.0.0.1:8080/mcp)
Press Ctrl-C to stop.
`

// exitMargin is what a call may take beyond its budget to be answered
// after stdin has closed (writing the answer, a slow machine).
const exitMargin = 5 * time.Second

// serveStdio speaks MCP on stdin/stdout until stdin closes and every call
// in flight has been answered, or ctx ends (a signal: calls in flight are
// cancelled, as the one who sent it asked).
func serveStdio(ctx context.Context, cfg config, srv *server.MCPServer, log zerolog.Logger, stdin io.Reader, stdout io.Writer) error {
	pipe := stdiopipe.New(ctx, stdin, stdout, cfg.maxBodyBytes, cfg.callBudget+exitMargin, log)
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(tools.StdLogger(log))
	err := stdio.Listen(fallback.WithAckSignal(ctx, pipe.Acked), pipe, pipe)
	switch {
	case ctx.Err() != nil:
		log.Info().Msg("interrupted by a signal; exiting")
		return nil
	case err == nil || errors.Is(err, io.EOF):
		log.Info().Msg("stdin closed and every call answered; exiting")
		return nil
	default:
		return fmt.Errorf("stdio: %w", err)
	}
}
