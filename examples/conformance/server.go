package main

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
)

// fixtures is the server: the engine its asking tools run on, the MCP
// server that holds every fixture, and what the HTTP layer in front needs.
type fixtures struct {
	engine *fallback.Engine
	mcp    *server.MCPServer
	// required names the tools that cannot run at all without a client
	// capability (fallback.Engine.ProtocolErrors refuses them with -32021).
	required fallback.Requirements
}

// stateTTL is how long a 2026-07-28 client has to answer a question.
const stateTTL = 10 * time.Minute

// maxStateBytes bounds a requestState; these are a few hundred bytes.
const maxStateBytes = 4096

// newFixtures builds the server. Its state key is random: one process, no
// replicas to share it with.
func newFixtures(log zerolog.Logger) (*fixtures, error) {
	key, err := state.RandomKey()
	if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	sealer, err := state.New(key, nil, stateTTL, maxStateBytes)
	if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: log, Transport: "http",
		// The suite waits 30 s for a call; a question gets less.
		CallBudget: 25 * time.Second, ProgressInterval: 2 * time.Second})
	if err != nil {
		return nil, err
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("flightserver-conformance-fixtures", "1.0.0",
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(completions{}),
		server.WithCacheHints(0, mcp.CacheScopePrivate),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithLogger(slog.New(zerolog.NewSlogHandler(log.With().Str("component", "mcp-go").Logger()))),
	)
	engine.Attach(s, hooks)
	f := &fixtures{engine: engine, mcp: s, required: fallback.Requirements{}}
	f.addContentTools()
	f.addAskingTools()
	f.addNotifyingTools()
	f.addResources()
	f.addPrompts()
	return f, nil
}
