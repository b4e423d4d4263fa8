package fallback

import (
	"errors"
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

	roots   *rootsCache
	waiting waitingTable // legacy questions waiting per session (ask.go)
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
}

// Defaults for the zero values of Config.
const (
	// DefaultCallBudget is well inside the 60 s hosts allow a call.
	DefaultCallBudget       = 45 * time.Second
	DefaultProgressInterval = 5 * time.Second
)

// New checks cfg and builds the engine.
func New(cfg Config) (*Engine, error) {
	if cfg.Sealer == nil {
		return nil, errors.New("fallback: config has no sealer")
	}
	e := &Engine{
		sealer: cfg.Sealer, metrics: cfg.Metrics, log: cfg.Logger,
		callBudget: cfg.CallBudget, progressEvery: cfg.ProgressInterval, transport: cfg.Transport,
		roots: newRootsCache(),
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
// or the session ends, and holding each subscriptions/listen result until
// its acknowledgement is written (listen.go).
func (e *Engine) Attach(s *server.MCPServer, hooks *server.Hooks) {
	e.roots.watch(s, hooks)
	acknowledgeFirst(hooks, ackWait, e.log)
}
