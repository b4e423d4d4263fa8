// Package tools is the MCP adapter: tool definitions and schemas, what the
// client behind each request declared (in both protocol eras), the ladder
// that picks a ranking tier per request, and result rendering.
//
// It is the only package besides cmd that imports mcp-go; the domain
// (flights) and the choosing (ranking) know nothing of the protocol.
package tools

import (
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// ServerName is the name the server reports to clients.
const ServerName = "flightserver"

// DefaultShortlist is how many flights the candidates strategy returns.
const DefaultShortlist = 10

// Config is what the tools need from the binary. Zero values get defaults,
// except Catalog, which is required.
type Config struct {
	Catalog *flights.Catalog
	// Provider finds flights; nil means the embedded synthetic provider.
	Provider flights.Provider
	// Now is the clock for "today"; nil means time.Now. Tests inject it.
	Now     func() time.Time
	Weights *ranking.Weights
	// Shortlist is the size of the candidates shortlist.
	Shortlist int
	Logger    zerolog.Logger
	Version   string
}

// Toolset holds the tools' shared state. Its handlers are safe for
// concurrent calls.
type Toolset struct {
	provider  flights.Provider
	validator flights.Validator
	weights   ranking.Weights
	shortlist int
	log       zerolog.Logger
}

const instructions = `flightserver finds flights. Call findBestFlight with origin, destination (IATA codes) and date (YYYY-MM-DD).
Every result says which ranking method was used and why the others were not, so tell the user how the choice was made.`

// NewServer builds the MCP server with every tool registered.
func NewServer(cfg Config, opts ...server.ServerOption) (*server.MCPServer, error) {
	if cfg.Catalog == nil {
		return nil, fmt.Errorf("tools: config has no catalog")
	}
	ts := &Toolset{
		provider:  cfg.Provider,
		validator: flights.Validator{Catalog: cfg.Catalog, Now: cfg.Now},
		weights:   ranking.DefaultWeights,
		shortlist: cfg.Shortlist,
		log:       cfg.Logger,
	}
	if ts.provider == nil {
		ts.provider = flights.NewSynthetic(cfg.Catalog, cfg.Now, 0)
	}
	if cfg.Weights != nil {
		ts.weights = *cfg.Weights
	}
	if ts.shortlist <= 0 {
		ts.shortlist = DefaultShortlist
	}
	find, err := ts.findBestFlightTool()
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s := server.NewMCPServer(ServerName, version, append([]server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithInstructions(instructions),
		// A panic in a handler becomes an error result, never a dead process.
		server.WithRecovery(),
		// No server.WithOutputSchemaValidation: our structuredContent is
		// built from Go types, so whether it matches the published schema is
		// a property of the code, checked by every end-to-end test (and by
		// the official TypeScript client in the interop test), not of the
		// input. Checking it again on every call cost a quarter of the
		// round trip.
		server.WithLogger(SlogLogger(cfg.Logger)),
	}, opts...)...)
	s.AddTool(find, ts.findBestFlight)
	return s, nil
}

// SlogLogger adapts the zerolog logger for mcp-go's slog hooks, so the
// library's own messages are structured and on stderr like ours.
func SlogLogger(l zerolog.Logger) *slog.Logger {
	return slog.New(zerolog.NewSlogHandler(l.With().Str("component", "mcp-go").Logger()))
}

// StdLogger adapts the zerolog logger for libraries that want a *log.Logger
// (mcp-go's stdio transport), so their lines land on stderr as structured
// JSON like everything else.
func StdLogger(l zerolog.Logger) *log.Logger {
	return log.New(l.With().Str("component", "mcp-go").Logger(), "", 0)
}
