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
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/tools/state"
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

	// DisableSampling turns the client-sampling tier off (--sampling off).
	DisableSampling bool
	// SamplingTimeout bounds a legacy sampling request (default 20 s, and
	// never more than the call budget left).
	SamplingTimeout time.Duration
	// SamplingPreferences shape the request; nil means the defaults.
	SamplingPreferences *SamplingPreferences
	// CallBudget bounds a whole call, every tier included (default 45 s,
	// well inside the 60 s hosts allow).
	CallBudget time.Duration
	// StateKey signs the requestState of modern rounds. Every replica must
	// share it; nil means a random key for this process only (logged).
	StateKey []byte
	// PreviousStateKeys still open states they sealed (never sign): during a
	// key rotation, the keys other replicas may still sign with, so calls in
	// flight survive a rolling update.
	PreviousStateKeys [][]byte
	// StateTTL is how long a client has to answer a modern round (default 10 min).
	StateTTL time.Duration
	// LLM configures the server-side LLM tier; unconfigured, it is skipped.
	LLM ranking.LLMConfig
	// Fallback is the last tier under strategy auto: ranking.Deterministic
	// (the zero value's default) or ranking.Candidates.
	Fallback ranking.Tier
	// ExportDir is where saveItinerary writes when the client shares no
	// roots; empty means nowhere (saving then needs roots).
	ExportDir string
	// RootsTimeout bounds a legacy roots/list request (default 5 s).
	RootsTimeout time.Duration
	// ElicitationTimeout bounds a legacy elicitation (default 40 s, and
	// never more than the call budget left).
	ElicitationTimeout time.Duration
	// ProgressInterval is how often a waiting call reports progress when
	// the request carried a progress token (default 5 s).
	ProgressInterval time.Duration

	Logger  zerolog.Logger
	Version string
}

// Defaults for the zero values of Config.
const (
	DefaultSamplingTimeout = 20 * time.Second
	DefaultCallBudget      = 45 * time.Second
	DefaultStateTTL        = 10 * time.Minute
	// maxStateBytes bounds a requestState: ours are a few hundred bytes.
	maxStateBytes = 4096
)

// Toolset holds the tools' shared state. Its handlers are safe for
// concurrent calls.
type Toolset struct {
	provider  flights.Provider
	validator flights.Validator
	weights   ranking.Weights
	shortlist int
	log       zerolog.Logger

	samplingOn      bool
	samplingTimeout time.Duration
	samplingPrefs   SamplingPreferences
	callBudget      time.Duration
	sealer          *state.Sealer

	catalog      *flights.Catalog
	exportDir    string
	rootsTimeout time.Duration
	roots        *rootsCache

	elicitationTimeout time.Duration
	progressEvery      time.Duration
	refKey             []byte // signs booking references
	now                func() time.Time

	serverLLM      *ranking.ServerLLM // nil when not configured
	badCredentials sync.Once          // logs a refused key once, not per call
	fallback       ranking.Tier
}

const instructions = `flightserver finds flights. Call findBestFlight with origin, destination (IATA codes) and date (YYYY-MM-DD); if the user has not said one of them, the server asks them when your client can show a form, or tells you what to ask; bookFlight holds one (a simulation); saveItinerary writes one to a file.
Every result says which ranking method was used and why the others were not, so tell the user how the choice was made.`

// NewServer builds the MCP server with every tool registered.
func NewServer(cfg Config, opts ...server.ServerOption) (*server.MCPServer, error) {
	if cfg.Catalog == nil {
		return nil, fmt.Errorf("tools: config has no catalog")
	}
	ts := &Toolset{
		catalog:      cfg.Catalog,
		rootsTimeout: orDefault(cfg.RootsTimeout, DefaultRootsTimeout),
		roots:        newRootsCache(),
		provider:     cfg.Provider,
		validator:    flights.Validator{Catalog: cfg.Catalog, Now: cfg.Now},
		weights:      ranking.DefaultWeights,
		shortlist:    cfg.Shortlist,
		log:          cfg.Logger,
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
	ts.samplingOn = !cfg.DisableSampling
	ts.samplingTimeout = orDefault(cfg.SamplingTimeout, DefaultSamplingTimeout)
	ts.callBudget = orDefault(cfg.CallBudget, DefaultCallBudget)
	ts.samplingPrefs = DefaultSamplingPreferences
	if cfg.SamplingPreferences != nil {
		ts.samplingPrefs = *cfg.SamplingPreferences
	}
	key := cfg.StateKey
	if key == nil {
		var err error
		if key, err = state.RandomKey(); err != nil {
			return nil, fmt.Errorf("tools: state key: %w", err)
		}
		cfg.Logger.Warn().Msg("no state key configured (--state-key): using a random one, so a modern call's retry must reach this same process; set one shared key on every replica")
	}
	sealer, err := state.New(key, cfg.Now, orDefault(cfg.StateTTL, DefaultStateTTL), maxStateBytes, cfg.PreviousStateKeys...)
	if err != nil {
		return nil, fmt.Errorf("tools: state key: %w", err)
	}
	ts.sealer = sealer
	ts.refKey = key
	ts.now = time.Now
	if cfg.Now != nil {
		ts.now = cfg.Now
	}
	ts.elicitationTimeout = orDefault(cfg.ElicitationTimeout, DefaultElicitationTimeout)
	ts.progressEvery = orDefault(cfg.ProgressInterval, 5*time.Second)
	if cfg.LLM.Configured() {
		ts.serverLLM = ranking.NewServerLLM(cfg.LLM)
	}
	switch ts.fallback = cfg.Fallback; ts.fallback {
	case "":
		ts.fallback = ranking.Deterministic
	case ranking.Deterministic, ranking.Candidates:
	default:
		return nil, fmt.Errorf("tools: fallback %q: use deterministic or candidates", cfg.Fallback)
	}
	if cfg.ExportDir != "" {
		dir, err := filepath.Abs(cfg.ExportDir)
		if err != nil {
			return nil, fmt.Errorf("tools: export directory: %w", err)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("tools: export directory %s does not exist or is not a directory", dir)
		}
		ts.exportDir = dir
	}
	find, err := ts.findBestFlightTool()
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	save, err := ts.saveItineraryTool()
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	book, err := ts.bookFlightTool()
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	hooks := &server.Hooks{}
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
		server.WithHooks(hooks),
	}, opts...)...)
	s.AddTool(find, ts.findBestFlight)
	s.AddTool(save, ts.saveItinerary)
	s.AddTool(book, ts.bookFlight)
	ts.roots.watch(s, hooks)
	return s, nil
}

// SlogLogger adapts the zerolog logger for mcp-go's slog hooks, so the
// library's own messages are structured and on stderr like ours.
func SlogLogger(l zerolog.Logger) *slog.Logger {
	return slog.New(zerolog.NewSlogHandler(l.With().Str("component", "mcp-go").Logger()))
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// StdLogger adapts the zerolog logger for libraries that want a *log.Logger
// (mcp-go's stdio transport), so their lines land on stderr as structured
// JSON like everything else.
func StdLogger(l zerolog.Logger) *log.Logger {
	return log.New(l.With().Str("component", "mcp-go").Logger(), "", 0)
}
