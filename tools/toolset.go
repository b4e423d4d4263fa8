// Package tools is the flight tools on the fallback engine: their
// definitions and schemas, the ladder that picks a ranking tier per request,
// and result rendering. How a call asks the client, in both protocol eras,
// and records why is the engine's (package fallback).
//
// With the engine and cmd, it is the only package that imports mcp-go; the
// domain (flights) and the choosing (ranking) know nothing of the protocol.
package tools

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/export"
	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/llm"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/telemetry"
)

// ServerName is the name the server reports to clients.
const ServerName = "flightserver"

// DefaultShortlist is how many flights the candidates strategy returns.
const DefaultShortlist = 10

// Config is what the tools need from the binary. Zero values get defaults,
// except the catalog: Catalog or LoadCatalog is required.
type Config struct {
	Catalog *flights.Catalog
	// LoadCatalog, when Catalog is nil, builds the catalog when the first
	// tool call needs it, so that start-up and the handshake (initialize,
	// tools/list) do not wait for it: that call, and any that arrive
	// meanwhile, wait until it is built (within their budget), and answer
	// with an error saying so if it could not be.
	LoadCatalog func() (*flights.Catalog, error)
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
	// share it; nil means a random key for this process only (whether that
	// is worth a warning depends on who reaches the server: cmd decides).
	StateKey []byte
	// PreviousStateKeys still open states they sealed (never sign): during a
	// key rotation, the keys other replicas may still sign with, so calls in
	// flight survive a rolling update.
	PreviousStateKeys [][]byte
	// StateTTL is how long a client has to answer a modern round (default 10 min).
	StateTTL time.Duration
	// LLM configures the server-side LLM rung; unconfigured, it is skipped.
	LLM llm.Config
	// ServerLLMFirst puts the server-LLM rung before client sampling:
	// ServerLLMFirstNever (the zero value's default), ServerLLMFirstModern
	// or ServerLLMFirstAlways.
	ServerLLMFirst string
	// Fallback is the last tier under strategy auto: ranking.Deterministic
	// (the zero value's default) or ranking.Candidates.
	Fallback ranking.Tier
	// ExportDir is where saveItinerary writes when the client shares no
	// roots; empty means nowhere (saving then needs roots, on stdio). A
	// directory that does not exist is no error here: saveItinerary
	// refuses, saying what to create, until it does.
	ExportDir string
	// ExportMaxBytes bounds what the files under ExportDir may hold in all
	// (export.Quota) when clients write there over HTTP: a save that would
	// pass it is refused. Over stdio nothing is counted. 0: no bound.
	ExportMaxBytes int64
	// Transport is how clients reach this server: TransportStdio (the zero
	// value's default: a client on this machine) or TransportHTTP (clients
	// usually elsewhere, whose roots name their own disks).
	Transport string
	// SharedFilesystem says HTTP clients and this server see the same
	// files (--shared-filesystem), so their roots may be written to.
	SharedFilesystem bool
	// RootsTimeout bounds a legacy roots/list request (default 5 s).
	RootsTimeout time.Duration
	// ElicitationTimeout bounds a legacy elicitation (default 40 s, and
	// never more than the call budget left).
	ElicitationTimeout time.Duration
	// ProgressInterval is how often a waiting call reports progress when
	// the request carried a progress token (default 5 s).
	ProgressInterval time.Duration

	// Metrics, when set, records the fallback decisions and the calls;
	// traces go to the global OpenTelemetry provider (telemetry.SetupTracing).
	Metrics *telemetry.Metrics

	Logger  zerolog.Logger
	Version string
}

// The transports of Config.Transport.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// Defaults for the zero values of Config.
const (
	DefaultSamplingTimeout = 20 * time.Second
	DefaultCallBudget      = fallback.DefaultCallBudget
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
	// engine runs every call: its budget, the sealed state, the
	// questions to the client, the metrics of the decisions.
	engine *fallback.Engine

	catalog *flights.Catalog
	// buildCatalog starts building the catalog, once (LoadCatalog);
	// catalogBuilt is closed once catalog, validator and provider are set
	// (or catalogErr, when LoadCatalog failed). Every handler calls the
	// first and waits on the second (awaitCatalog).
	buildCatalog func()
	catalogBuilt chan struct{}
	catalogErr   error
	exportDir    string
	exportQuota  *export.Quota // nil: no bound
	rootsTimeout time.Duration

	elicitationTimeout time.Duration
	refKey             []byte // signs booking references
	now                func() time.Time

	llm            *llm.Client // nil when not configured
	serverLLMFirst string
	badCredentials sync.Once // logs a refused key once, not per call
	fallback       ranking.Tier

	transport string
	sharedFS  bool
	metrics   *telemetry.Metrics

	// definitions are the tools' full definitions (toolDefinitions; a test
	// gives a failing one), and badDefinitions logs, once, that they could
	// not be built (listing.go).
	definitions    func() (definitions, error)
	badDefinitions sync.Once
	// searches are the recent searches (search.go).
	searches *searchCache
}

// instructions are what a host's model reads first, often before any tool
// schema (a host that defers tools behind a search shows it only the names
// and these lines): what each tool is for, that the flights are sample
// data, and where each result says how it was made.
var instructions = `flightserver searches synthetic sample flights: realistic, deterministic schedules and fares over real airports and airlines, generated on the server, not live data. Nothing is ever booked, charged or sent.
- findBestFlight: the best three flights for a trip. origin and destination are airport codes, metro codes or city names; date is YYYY-MM-DD; returnDate makes a round trip. If the user has not given origin, destination or date, the server asks them in a form when your client can show one, else the error names what to ask. Never guess them.
- findAirports: look up airport codes by city, code or airport name.
- bookFlight: hold a flight or round trip by its id (a simulation). The server asks the user to confirm in a form; when it cannot, or the user closed the form, ask the user in the conversation and call again with confirm: true and passengerName as on their ID.
- saveItinerary: write a flight (flightId) or booking (bookingRef) to an .ics or markdown file, inside the client's roots or the server's export directory.
Every result says how it was made: "method" is what ranked the flights (` + instructedMethods() + `), and "attempts" lists each way tried, used, skipped or failed, and why. Tell the user which it was. An error says what to fix or whom to ask.`

// NewServer builds the MCP server with every tool registered.
func NewServer(cfg Config, opts ...server.ServerOption) (*server.MCPServer, error) {
	ts, err := newToolset(cfg)
	if err != nil {
		return nil, err
	}
	return ts.server(cfg, opts...)
}

// newToolset checks the configuration and builds the tools' shared state.
func newToolset(cfg Config) (*Toolset, error) {
	if cfg.Catalog == nil && cfg.LoadCatalog == nil {
		return nil, fmt.Errorf("tools: config has no catalog")
	}
	ts := &Toolset{
		rootsTimeout: orDefault(cfg.RootsTimeout, DefaultRootsTimeout),
		weights:      ranking.DefaultWeights,
		shortlist:    cfg.Shortlist,
		log:          cfg.Logger,
		catalogBuilt: make(chan struct{}),
	}
	if cfg.Weights != nil {
		ts.weights = *cfg.Weights
	}
	if ts.shortlist <= 0 {
		ts.shortlist = DefaultShortlist
	}
	ts.samplingOn = !cfg.DisableSampling
	ts.samplingTimeout = orDefault(cfg.SamplingTimeout, DefaultSamplingTimeout)
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
	}
	sealer, err := state.New(key, cfg.Now, orDefault(cfg.StateTTL, DefaultStateTTL), maxStateBytes, cfg.PreviousStateKeys...)
	if err != nil {
		return nil, fmt.Errorf("tools: state key: %w", err)
	}
	ts.refKey = key
	ts.now = time.Now
	if cfg.Now != nil {
		ts.now = cfg.Now
	}
	ts.searches = newSearchCache(ts.now)
	ts.elicitationTimeout = orDefault(cfg.ElicitationTimeout, DefaultElicitationTimeout)
	if cfg.LLM.Configured() {
		ts.llm = llm.New(cfg.LLM)
	}
	switch ts.serverLLMFirst = cfg.ServerLLMFirst; ts.serverLLMFirst {
	case "":
		ts.serverLLMFirst = ServerLLMFirstNever
	case ServerLLMFirstNever, ServerLLMFirstModern, ServerLLMFirstAlways:
	default:
		return nil, fmt.Errorf("tools: server-LLM-first %q: use never, modern or always", cfg.ServerLLMFirst)
	}
	switch ts.transport = cfg.Transport; ts.transport {
	case "":
		ts.transport = TransportStdio
	case TransportStdio, TransportHTTP:
	default:
		return nil, fmt.Errorf("tools: transport %q: use stdio or http", cfg.Transport)
	}
	ts.sharedFS = cfg.SharedFilesystem
	ts.metrics = cfg.Metrics
	if ts.engine, err = fallback.New(fallback.Config{Sealer: sealer, Metrics: cfg.Metrics, Logger: cfg.Logger,
		CallBudget: cfg.CallBudget, ProgressInterval: cfg.ProgressInterval, Transport: ts.transport,
		ErrorMetaKey: ErrorMetaKey}); err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	switch ts.fallback = cfg.Fallback; ts.fallback {
	case "":
		ts.fallback = ranking.Deterministic
	case ranking.Deterministic, ranking.Candidates:
	default:
		return nil, fmt.Errorf("tools: fallback %q: use deterministic or candidates", cfg.Fallback)
	}
	if cfg.ExportDir != "" {
		// It need not exist yet: saveItinerary checks on every call and
		// says what to create, so a missing folder costs the one tool
		// that needs it, not the whole server (cmd logs it at start).
		dir, err := filepath.Abs(cfg.ExportDir)
		if err != nil {
			return nil, fmt.Errorf("tools: export directory: %w", err)
		}
		ts.exportDir = dir
		ts.exportQuota = export.NewQuota(dir, cfg.ExportMaxBytes)
	}
	// Built by the first request that needs them, which reads any error
	// (listing.go).
	ts.definitions = toolDefinitions
	ts.buildCatalog = func() {}
	if cfg.Catalog != nil {
		ts.useCatalog(cfg, cfg.Catalog)
	} else {
		ts.buildCatalog = sync.OnceFunc(func() {
			go func() {
				c, err := cfg.LoadCatalog()
				if err != nil {
					ts.catalogErr = err
					close(ts.catalogBuilt)
					return
				}
				ts.useCatalog(cfg, c)
			}()
		})
	}
	return ts, nil
}

// useCatalog sets what the tools read of the catalog, and lets every
// handler waiting for it run.
func (ts *Toolset) useCatalog(cfg Config, c *flights.Catalog) {
	ts.catalog = c
	ts.validator = flights.Validator{Catalog: c, Now: cfg.Now, PlaceHint: placeHint}
	ts.provider = cfg.Provider
	if ts.provider == nil {
		ts.provider = flights.NewSynthetic(c, cfg.Now, 0)
	}
	close(ts.catalogBuilt)
}

// awaitCatalog has the catalog built if it is not yet, and waits, within
// the call's budget, until it is: nil then, or the isError to answer when
// the call ended first or the catalog could not be built.
func (ts *Toolset) awaitCatalog(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
	ts.buildCatalog()
	select {
	case <-ts.catalogBuilt:
	case <-ctx.Done():
		return c.Fail(fallback.ErrorCancelled, "The call ended while the server was still loading its flight data: it was cancelled, or ran out of its time budget. Call again.", nil)
	}
	if ts.catalogErr != nil {
		return c.Fail(ErrorSearchFailed, "The server could not load its flight data, so it cannot search or look anything up: "+
			ts.catalogErr.Error()+". This build is broken: report it with the server's version.", &ToolError{Reason: ts.catalogErr.Error()})
	}
	return nil
}

// server registers every tool on a new MCP server.
func (ts *Toolset) server(cfg Config, opts ...server.ServerOption) (*server.MCPServer, error) {
	var defined []server.ServerTool
	for _, d := range registry {
		defined = append(defined, server.ServerTool{Tool: registered(d.name), Handler: d.handler(ts)})
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
		// input. Checking it again would cost every call
		// (docs/BENCHMARKS.md#beside-the-peers).
		server.WithLogger(requestLogger(cfg.Logger)),
		server.WithHooks(hooks),
		// Who may see and call the view's own tools (view.go). mcp-go
		// runs a filter on every tools/call too, so what only the
		// listing needs is not one (below).
		server.WithToolFilter(viewTools(viewOnly, ts.engine.Client)),
		server.WithMethodCacheHints(mcp.MethodToolsList, 0, mcp.CacheScopePrivate),
		server.WithMethodCacheHints(mcp.MethodResourcesList, 0, mcp.CacheScopePrivate),
		// The results view (view.go), for hosts that declare MCP Apps.
		server.WithResourceCapabilities(false, false),
		server.WithExtensions(map[string]any{UIExtension: map[string]any{}}),
	}, opts...)...)
	s.AddTools(defined...)
	// The listing shows each client its variant of the tools (listing.go).
	hooks.AddAfterListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		res.Tools = ts.listFor(ctx, res.Tools)
	})
	ts.engine.Attach(s, hooks)
	offerView(s, hooks, ts.engine.Client)
	return s, nil
}

// SlogLogger adapts the zerolog logger for mcp-go's slog hooks, so the
// library's own messages are structured and on stderr like ours. mcp-go
// logs two lines at info for every request ("mcp.request", "mcp.tool");
// each call already gets one summary line of ours ("call": what it decided
// and how it ended), so the library's informational lines move to debug,
// and its warnings and errors stay as they are.
//
// mcp-go also writes a 2025-11-25 session's id into its lines (the
// mcp.session.id of every request line, and the text of errors such as an
// answer to a question nobody waits for any more). The id is the session's
// handle, so each one becomes telemetry.SessionRef of it, the digest the
// spans carry, which still ties a session's lines together.
func SlogLogger(l zerolog.Logger) *slog.Logger {
	return slog.New(quieter{zerolog.NewSlogHandler(l.With().Str("component", "mcp-go").Logger())})
}

// requestLogger is the logger mcp-go writes its per-request lines with
// ("mcp.request", "mcp.tool", which SlogLogger moves to debug), or nil when
// l does not log at debug: mcp-go builds each line's attributes before it
// asks whether the line is wanted, and every call would pay for two lines
// nobody sees.
func requestLogger(l zerolog.Logger) *slog.Logger {
	if l.GetLevel() > zerolog.DebugLevel || zerolog.GlobalLevel() > zerolog.DebugLevel {
		return nil
	}
	return SlogLogger(l)
}

// quieter lowers records below warning to debug, and puts a digest in
// place of every session id they hold.
type quieter struct{ slog.Handler }

func (q quieter) Enabled(ctx context.Context, level slog.Level) bool {
	return q.Handler.Enabled(ctx, demote(level))
}

func (q quieter) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, demote(r.Level), telemetry.RedactSessionIDs(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return q.Handler.Handle(ctx, out)
}

func (q quieter) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = redactAttr(a)
	}
	return quieter{q.Handler.WithAttrs(clean)}
}
func (q quieter) WithGroup(name string) slog.Handler { return quieter{q.Handler.WithGroup(name)} }

// redactAttr is a with every session id in its value (an error's or a
// Stringer's text too, and inside groups) replaced by its digest. Any
// other value (a struct, a slice, bytes: the log would write it as JSON)
// is read as its %s text, and one that holds an id is written as that
// text, redacted: its shape is lost, never the id kept.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, telemetry.RedactSessionIDs(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]any, len(group))
		for i, g := range group {
			clean[i] = redactAttr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		var text string
		switch x := v.Any().(type) {
		case error:
			text = x.Error()
		case fmt.Stringer:
			text = x.String()
		default:
			text = fmt.Sprintf("%s", x)
		}
		if telemetry.MayHoldSessionID(text) {
			return slog.String(a.Key, telemetry.RedactSessionIDs(text))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func demote(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return slog.LevelDebug
	}
	return l
}

// StdLogger adapts the zerolog logger for libraries that want a *log.Logger
// (mcp-go's stdio transport), so their lines land on stderr as structured
// JSON like everything else.
func StdLogger(l zerolog.Logger) *log.Logger {
	return log.New(l.With().Str("component", "mcp-go").Logger(), "", 0)
}

// orDefault is d, or def when d is not set.
func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
