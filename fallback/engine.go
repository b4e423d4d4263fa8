package fallback

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/telemetry"
)

// Engine is what every call of every tool on one server shares: the sealer
// of modern rounds' state, the metrics, the call budget, how often a
// waiting call reports progress, and what it keeps per legacy session (the
// roots a client listed, the questions waiting for its answers). Build one
// with New, install it on the server with Attach, and turn each tool's Spec
// into a handler with Serve. It is safe for concurrent calls.
type Engine struct {
	sealer        *state.Sealer
	metrics       *telemetry.Metrics
	log           zerolog.Logger
	callBudget    time.Duration
	progressEvery time.Duration
	transport     string
	errorMetaKey  string

	roots   *rootsCache
	waiting waitingTable // legacy questions waiting per session (ask.go)
	inits   inits        // calls that overtook their session's initialize (initialize.go)
}

// Config is what an Engine needs from its server. Sealer is required;
// zero durations get the defaults.
type Config struct {
	// Sealer signs and opens the requestState of modern rounds.
	Sealer *state.Sealer
	// Metrics records the calls and the decisions; nil records nothing.
	// Traces go to the global OpenTelemetry provider.
	Metrics *telemetry.Metrics
	Logger  zerolog.Logger
	// CallBudget bounds a whole call, every question and rung included
	// (default DefaultCallBudget).
	CallBudget time.Duration
	// ProgressInterval is how often a waiting legacy call reports progress
	// when the request carried a progress token (default
	// DefaultProgressInterval).
	ProgressInterval time.Duration
	// Transport is how clients reach the server ("stdio", "http"): the
	// transport label of the call metrics.
	Transport string
	// ErrorMetaKey is the _meta key under which an isError result carries
	// its ToolError (default DefaultErrorMetaKey). A server names it with
	// its own prefix ("io.github.example/error"), so a client reading
	// several servers' errors knows whose vocabulary it holds; it must be
	// a valid _meta key (see validMetaKey) outside MCP's reserved prefixes.
	ErrorMetaKey string
}

// Defaults for the zero values of Config.
const (
	// DefaultCallBudget is well inside the 60 s hosts allow a call.
	DefaultCallBudget       = 45 * time.Second
	DefaultProgressInterval = 5 * time.Second
	// DefaultErrorMetaKey names the engine, not any server built on it.
	DefaultErrorMetaKey = "fallback/error"
)

// New checks cfg and builds the engine.
func New(cfg Config) (*Engine, error) {
	if cfg.Sealer == nil {
		return nil, errors.New("fallback: config has no sealer")
	}
	e := &Engine{
		sealer: cfg.Sealer, metrics: cfg.Metrics, log: cfg.Logger,
		callBudget: cfg.CallBudget, progressEvery: cfg.ProgressInterval, transport: cfg.Transport,
		errorMetaKey: cfg.ErrorMetaKey,
		roots:        newRootsCache(),
	}
	if e.errorMetaKey == "" {
		e.errorMetaKey = DefaultErrorMetaKey
	}
	if err := validMetaKey(e.errorMetaKey); err != nil {
		return nil, fmt.Errorf("fallback: error meta key %q: %w", e.errorMetaKey, err)
	}
	if e.callBudget <= 0 {
		e.callBudget = DefaultCallBudget
	}
	if e.progressEvery <= 0 {
		e.progressEvery = DefaultProgressInterval
	}
	return e, nil
}

// Attach installs on s (built with hooks) what the engine needs of the
// server: forgetting a session's roots when its client says they changed
// or the session ends; holding each subscriptions/listen result until its
// acknowledgement is written (listen.go); and waking the calls that
// overtook their session's initialize (initialize.go).
func (e *Engine) Attach(s *server.MCPServer, hooks *server.Hooks) {
	e.roots.watch(s, hooks)
	e.inits.watch(hooks)
	acknowledgeFirst(hooks, ackWait, e.log)
}

// ErrorMetaKey is the _meta key under which this engine's isError results
// carry their ToolError (Config.ErrorMetaKey).
func (e *Engine) ErrorMetaKey() string { return e.errorMetaKey }

// metaKeyRE is a _meta key as the MCP specification defines it (General
// fields, _meta): an optional prefix of dot-separated labels and a slash,
// then a name that starts and ends with a letter or digit.
var metaKeyRE = regexp.MustCompile(`^(?:[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*/)?[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$`)

// validMetaKey says what is wrong with key as a server's _meta key: not in
// the specification's shape, or under a prefix the specification reserves
// for MCP itself (a label modelcontextprotocol or mcp, after any labels).
func validMetaKey(key string) error {
	if !metaKeyRE.MatchString(key) {
		return errors.New("not a _meta key: use an optional prefix of dot-separated labels and a slash, then a name (e.g. io.github.example/error)")
	}
	prefix, _, found := strings.Cut(key, "/")
	if !found {
		return nil
	}
	labels := strings.Split(prefix, ".")
	for _, l := range labels[:len(labels)-1] {
		if l == "modelcontextprotocol" || l == "mcp" {
			return errors.New("its prefix is reserved for MCP itself")
		}
	}
	return nil
}
