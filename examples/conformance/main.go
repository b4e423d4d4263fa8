// Command conformance is a second server on the fallback engine: the
// fixture tools, resources and prompts the official MCP conformance suite
// (@modelcontextprotocol/conformance) calls, served over streamable HTTP
// at /mcp in both protocol eras, and nothing about flights.
//
//	go run ./examples/conformance --addr 127.0.0.1:3000
//
// Every tool that asks the client something (sampling, a form, roots,
// several at once) asks through the engine (fallback.Serve, Call.Ask,
// Call.AskAll), so the same handler sends a server-initiated request to a
// 2025-11-25 session and answers input_required to a 2026-07-28 client,
// with a sealed requestState. README.md says how to run the suite against
// it and what each fixture shows.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rs/zerolog"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

// run parses args and serves until ctx ends.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:3000", "HOST:PORT to serve streamable HTTP on, at /mcp (port 0: any free port; the log says which)")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: the only flags are --addr and --log-level", fs.Args())
	}
	lvl, err := zerolog.ParseLevel(*level)
	if err != nil {
		return fmt.Errorf("--log-level %q: use debug, info, warn or error", *level)
	}
	log := zerolog.New(stderr).Level(lvl).With().Timestamp().Logger()
	f, err := newFixtures(log)
	if err != nil {
		return err
	}
	return serve(ctx, *addr, f, log)
}
