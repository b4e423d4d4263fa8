// Package telemetry is what an operator watches: Prometheus metrics with the
// fallback ladder's rates (how often each rung answers, and why the ones
// above it did not), and OpenTelemetry traces that follow the MCP semantic
// conventions.
//
// Every label value comes from a fixed list in this server's code (tool
// names, rung steps, outcomes, eras, transports, refusal reasons), never
// from what a client sends, so the number of series is bounded.
package telemetry

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Refusal reasons of flightserver_http_refusals_total.
const (
	RefusedAuth     = "auth"
	RefusedOrigin   = "origin"
	RefusedRate     = "rate"
	RefusedInflight = "inflight"
	RefusedBodySize = "body_size"
	RefusedSessions = "sessions"
	RefusedStreams  = "streams"
	// A 2025-11-25 session this process does not hold (404): after a
	// rollout, its clients start again; for long, a balancer that does not
	// send a session back to the replica that holds it.
	RefusedUnknownSession = "unknown_session"
	// A request that came while the server drains (503), to retry elsewhere.
	RefusedDraining = "draining"
)

// Metrics holds the server's collectors on a registry of its own. A nil
// *Metrics records nothing, so code that runs without metrics (tests, a
// server started without --metrics-addr) needs no checks.
type Metrics struct {
	reg         *prometheus.Registry
	attempts    *prometheus.CounterVec
	calls       *prometheus.HistogramVec
	serverTime  *prometheus.HistogramVec // calls less the user's time
	llmDuration *prometheus.HistogramVec
	llmTokens   *prometheus.CounterVec
	inflight    prometheus.Gauge
	refusals    *prometheus.CounterVec
}

// callBuckets suit calls that take a millisecond when ranked by formula and
// tens of seconds when a person answers a form; the last bucket is the
// default call budget.
var callBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20, 30, 45}

// NewMetrics registers every collector, with the Go runtime's and the
// process's own.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flightserver_rung_attempts_total",
			Help: "Fallback decisions by tool, rung and outcome (used, skipped, failed): the ladder's rates.",
		}, []string{"tool", "rung", "outcome"}),
		calls: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "flightserver_call_duration_seconds",
			Help:    "Tool calls by tool, era (legacy, modern), transport (stdio, http) and outcome (ok, error, input_required).",
			Buckets: callBuckets,
		}, []string{"tool", "era", "transport", "outcome"}),
		serverTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "flightserver_call_server_seconds",
			Help:    "Tool calls' time less what they spent waiting on the user to answer a form, by tool, era, transport and outcome.",
			Buckets: callBuckets,
		}, []string{"tool", "era", "transport", "outcome"}),
		llmDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "flightserver_llm_request_duration_seconds",
			Help:    "Requests to the server-side LLM endpoint by outcome (ok, or the failure kind).",
			Buckets: []float64{.1, .25, .5, 1, 2, 4, 8, 15, 30},
		}, []string{"outcome"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flightserver_llm_tokens_total",
			Help: "Tokens the server-side LLM endpoint reported, by kind (prompt, completion).",
		}, []string{"kind"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "flightserver_inflight_calls",
			Help: "Tool calls being handled now.",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flightserver_http_refusals_total",
			Help: "HTTP requests refused before reaching MCP, by reason (auth, origin, rate, inflight, body_size, sessions, streams).",
		}, []string{"reason"}),
	}
	m.reg.MustRegister(m.attempts, m.calls, m.serverTime, m.llmDuration, m.llmTokens, m.inflight, m.refusals,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Attempt counts one fallback decision.
func (m *Metrics) Attempt(tool, rung, outcome string) {
	if m == nil {
		return
	}
	m.attempts.WithLabelValues(tool, rung, outcome).Inc()
}

// CallStarted counts a call in flight; the returned function ends it with
// its era, transport and outcome, and how much of it was spent waiting on
// the user (a form they had open): flightserver_call_duration_seconds
// counts the whole call, flightserver_call_server_seconds the rest, so
// that a user slow to answer a form does not look like a slow server.
func (m *Metrics) CallStarted(tool string) func(era, transport, outcome string, userWait time.Duration) {
	if m == nil {
		return func(string, string, string, time.Duration) {}
	}
	start := time.Now()
	m.inflight.Inc()
	return func(era, transport, outcome string, userWait time.Duration) {
		m.inflight.Dec()
		took := time.Since(start)
		m.calls.WithLabelValues(tool, era, transport, outcome).Observe(took.Seconds())
		m.serverTime.WithLabelValues(tool, era, transport, outcome).Observe(max(0, took-userWait).Seconds())
	}
}

// LLM records one request to the server-side LLM endpoint.
func (m *Metrics) LLM(outcome string, d time.Duration, promptTokens, completionTokens int64) {
	if m == nil {
		return
	}
	m.llmDuration.WithLabelValues(outcome).Observe(d.Seconds())
	if promptTokens > 0 {
		m.llmTokens.WithLabelValues("prompt").Add(float64(promptTokens))
	}
	if completionTokens > 0 {
		m.llmTokens.WithLabelValues("completion").Add(float64(completionTokens))
	}
}

// Refused counts a request refused at the HTTP layer, for one of the
// Refused* reasons.
func (m *Metrics) Refused(reason string) {
	if m == nil {
		return
	}
	m.refusals.WithLabelValues(reason).Inc()
}

// ObserveSessions reports live, the number of live 2025-11-25 sessions, as
// flightserver_legacy_sessions at every scrape.
func (m *Metrics) ObserveSessions(live func() int) {
	if m == nil {
		return
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "flightserver_legacy_sessions",
		Help: "Live 2025-11-25 sessions (each holds memory until DELETE or --session-idle-ttl).",
	}, func() float64 { return float64(live()) }))
}

// ObserveStreams exports the number of open 2025-11-25 GET streams, read
// from open at each scrape.
func (m *Metrics) ObserveStreams(open func() int) {
	if m == nil {
		return
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "flightserver_get_streams",
		Help: "Open 2025-11-25 GET streams (one per session at most; each holds a connection until the client leaves or the session ends).",
	}, func() float64 { return float64(open()) }))
}
