package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/internal/logsink"
	"github.com/flightserver/flightserver/telemetry"
	"github.com/flightserver/flightserver/tools"
)

// newLogger logs to stderr only: on stdio, stdout belongs to the protocol.
// Over HTTP, where many clients' calls each log a line, JSON lines go
// through a logsink.Sink: the lines below warn are written at most
// logInterval after they are logged, many in one write (a write a call was
// about 5% of findBestFlight's CPU under load: docs/BENCHMARKS.md), and
// close flushes it. Over stdio the one host's calls come at a person's
// pace, and each line is written before the answer it belongs to (a host
// may close stderr as soon as it has its answer); the console format is
// for a person at a terminal. Both write line by line.
func newLogger(cfg config, stderr io.Writer) (log zerolog.Logger, close func()) {
	w, close := stderr, func() {}
	switch {
	case cfg.logFormat == "console":
		w = zerolog.ConsoleWriter{Out: stderr, NoColor: true}
	case cfg.transport == "http":
		sink := logsink.New(stderr, logInterval)
		w, close = sink, func() { _ = sink.Close() }
	}
	return zerolog.New(w).Level(cfg.logLevel).With().Timestamp().Logger(), close
}

// logInterval is the longest a log line below warn waits to be written.
const logInterval = 20 * time.Millisecond

func newMCPServer(cfg config, metrics *telemetry.Metrics, log zerolog.Logger, opts ...server.ServerOption) (*server.MCPServer, error) {
	srv, err := tools.NewServer(tools.Config{
		// Built when the first tool call needs it: the handshake needs
		// none of it (docs/BENCHMARKS.md, cold start: it was most of what
		// start-up did beyond the libraries' own initialisation).
		LoadCatalog: func() (*flights.Catalog, error) {
			c, err := flights.Embedded()
			if err != nil {
				// A broken build: every tool call says so too.
				log.Error().Err(err).Msg("cannot load the embedded flight data")
				return nil, fmt.Errorf("load embedded data: %w", err)
			}
			return c, nil
		},
		Weights: &cfg.weights, DisableSampling: !cfg.sampling, SamplingTimeout: cfg.samplingTimeout, SamplingPreferences: &cfg.samplingPrefs,
		CallBudget: cfg.callBudget, StateKey: cfg.stateKey, PreviousStateKeys: cfg.previousKeys,
		LLM: cfg.llm, Fallback: cfg.fallback, Shortlist: cfg.shortlist,
		ExportDir: cfg.exportDir, ExportMaxBytes: cfg.exportMaxBytes, RootsTimeout: cfg.rootsTimeout, ElicitationTimeout: cfg.elicitationTimeout,
		Transport: cfg.transport, SharedFilesystem: cfg.sharedFilesystem, ServerLLMFirst: cfg.serverLLMFirst,
		Metrics: metrics, Logger: log, Version: buildVersion(),
	}, opts...)
	if err != nil {
		return nil, err
	}
	if cfg.loadTestTools {
		// The same protocol path as a real tool with none of the work: the
		// baseline a load test compares findBestFlight against.
		srv.AddTool(mcp.NewTool(noopTool, mcp.WithDescription("Load testing only: does nothing and answers ok."),
			mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false), mcp.WithOpenWorldHintAnnotation(false)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
	}
	return srv, nil
}

// noopTool is registered by --load-test-tools.
const noopTool = "noop"

// getStreamHeartbeat is how often a quiet 2025-11-25 GET stream carries a
// ping. Proxies close a response that says nothing for a while (the shipped
// router and ingress after 120 s); a sampling or roots request sent while
// the client reconnects would be lost and its rung fall through for
// nothing. TestHeartbeatBeatsTheProxies keeps it under their timeouts.
const getStreamHeartbeat = 30 * time.Second

// mcpTransport is mcp-go's streamable HTTP transport of srv as serveHTTP
// serves it (the endpoint, our session ids and their idle expiry, the GET
// stream's heartbeat, mcp-go's log in ours), with opts after. The tests'
// shipped handler is built with it too, so that what they measure and
// check is the transport the server runs. Its Shutdown stops the idle
// sessions' sweeper it starts.
func mcpTransport(cfg config, srv *server.MCPServer, sess *httpguard.Sessions, log zerolog.Logger, opts ...server.StreamableHTTPOption) *server.StreamableHTTPServer {
	return server.NewStreamableHTTPServer(srv, append([]server.StreamableHTTPOption{
		server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPLogger(tools.SlogLogger(log)),
		server.WithSessionIdManager(sess),
		server.WithSessionIdleTTL(cfg.sessionIdleTTL),
		server.WithHeartbeatInterval(getStreamHeartbeat),
	}, opts...)...)
}

// serveHTTP listens on cfg.addr and serves until ctx ends, then drains
// (see serveUntilDone).
func serveHTTP(ctx context.Context, cfg config, srv *server.MCPServer, metrics *telemetry.Metrics, log zerolog.Logger) error {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	if cfg.debugAddr != "" {
		if err := serveDebug(ctx, cfg.debugAddr, log); err != nil {
			ln.Close()
			return fmt.Errorf("listen on --debug-addr %s: %w", cfg.debugAddr, err)
		}
	}
	httpSrv := &http.Server{
		// Slow-loris protection for the headers; httpguard.ReadBody bounds the body.
		// There is deliberately no ReadTimeout or WriteTimeout: they would
		// cut off the SSE streams that long calls answer on.
		ReadHeaderTimeout: cfg.readHeader,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          tools.StdLogger(log),
	}
	sess, streams, err := newSessions(cfg, log)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	metrics.ObserveSessions(sess.Live)
	metrics.ObserveStreams(streams.Count)
	mcpHTTP := mcpTransport(cfg, srv, sess, log, server.WithStreamableHTTPServer(httpSrv))
	calls := httpguard.NewInflight(cfg.maxInflight, cfg.maxInflightPerClient, cfg.clients())
	if httpSrv.Handler, err = newHandler(mcpHTTP, cfg, sess, streams, calls, metrics, log); err != nil {
		return err
	}
	switch {
	case cfg.authToken != "":
		log.Info().Msg("bearer token required on /mcp")
	case !httpguard.Loopback(cfg.addr):
		log.Warn().Str("addr", cfg.addr).Msg("listening beyond loopback WITHOUT authentication (--allow-unauthenticated): anyone who can reach this port can call the tools; put an authenticating proxy in front or set --auth-token. Requests must call the server by an IP address, localhost or a name in --allowed-hosts (DNS rebinding protection)")
	}
	log.Info().Str("addr", ln.Addr().String()).Str("endpoint", "http://"+ln.Addr().String()+"/mcp").Msg("listening")
	return serveUntilDone(ctx, httpSrv, ln, mcpHTTP.Shutdown, calls, cfg, log)
}

// serveUntilDone serves on ln until ctx ends (SIGTERM, SIGINT), then drains
// in the order a load balancer needs:
//
//  1. /readyz answers 503 at once, so the balancer takes this replica out;
//     /healthz (liveness) stays 200 until the process exits, so nothing
//     restarts a replica that is only finishing its work;
//  2. for --drain-delay everything else is served as before, for a
//     balancer that learns of the change late (in Kubernetes a preStop
//     sleep plays this part, before the signal);
//  3. new JSON-RPC requests get 503 ("retry: another replica will
//     answer"), while calls in flight finish, for up to --shutdown-grace;
//     the listener stays open so that a client's answer to the server's own
//     question (a legacy form or sampling answer, a new POST) still reaches
//     the call waiting for it;
//  4. then the listener closes and the process ends.
func serveUntilDone(ctx context.Context, httpSrv *http.Server, ln net.Listener, shutdown func(context.Context) error, calls *httpguard.Inflight, cfg config, log zerolog.Logger) error {
	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	calls.Drain()
	log.Info().Dur("drainDelay_ms", cfg.drainDelay).Dur("grace_ms", cfg.shutdownGrace).Msg("draining: /readyz answers 503")
	time.Sleep(cfg.drainDelay)
	graceCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownGrace)
	defer cancel()
	log.Info().Int("inflight", calls.Count()).Msg("refusing new requests; letting in-flight calls finish")
	left := calls.Stop(graceCtx)
	if left > 0 {
		log.Warn().Int("inflight", left).Dur("grace_ms", cfg.shutdownGrace).Msg("calls still in flight at the end of the grace are cut off")
	}
	// What is left to close: GET streams, idle keep-alive connections.
	closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancelClose()
	if err := shutdown(closeCtx); err != nil {
		_ = httpSrv.Close()
		if left == 0 {
			log.Warn().Err(err).Msg("closing the remaining connections took too long; closed them")
		}
	}
	<-serveErr // http.ErrServerClosed, now that Shutdown or Close ran
	if left > 0 {
		return fmt.Errorf("shutdown: %d calls were still in flight after --shutdown-grace %s", left, cfg.shutdownGrace)
	}
	log.Info().Msg("stopped")
	return nil
}

// newSessions is the table of 2025-11-25 sessions for cfg's limits
// (--max-sessions, --max-sessions-per-client, --served-by), and the
// tracker of their GET streams (--max-streams) it ends with each session.
func newSessions(cfg config, log zerolog.Logger) (*httpguard.Sessions, *fallback.GETStreams, error) {
	var streams *fallback.GETStreams
	sess, err := httpguard.NewSessions(httpguard.SessionLimits{
		Max: cfg.maxSessions, MaxPerClient: cfg.maxSessionsPerClient, MaxStreams: cfg.maxStreams,
		ServedBy: cfg.servedBy, Who: cfg.clients(),
	}, log, func(b httpguard.StreamBounds) httpguard.Streams {
		streams = fallback.NewGETStreams(fallback.StreamLimits{Max: cfg.maxStreams, Live: b.Live, Full: b.Full})
		return streams
	})
	return sess, streams, err
}

// clients is who cfg says a request is from: one idea of it for every
// per-client limit.
func (c config) clients() httpguard.Clients {
	return httpguard.Clients{IPHeader: c.clientIPHeader, LimitLoopback: c.limitLoopback}
}

// withAckSignal hands the HTTP layer's acknowledgement signal to tools'
// subscriptions/listen hook.
func withAckSignal(ctx context.Context, written func(id any) <-chan struct{}) context.Context {
	return fallback.WithAckSignal(ctx, written)
}

// newHandler routes /mcp through the protections (package httpguard) and
// serves /healthz and /readyz (open: probes carry no token). From the
// outside in, each layer refuses as cheaply as it can before the next does
// more work: a foreign Host or Origin, a client over its rate (which also
// slows token guessing), a missing token (all three before reading the
// body), a body too large or too slow, a full house or a draining one, a
// session that lives elsewhere or one too many, a GET stream beyond the
// limit.
func newHandler(mcpHTTP http.Handler, cfg config, sess *httpguard.Sessions, streams *fallback.GETStreams, calls *httpguard.Inflight, metrics *telemetry.Metrics, log zerolog.Logger) (http.Handler, error) {
	// The layers in front of mcp-go log only what they refuse, which
	// flightserver_http_refusals_total counts anyway: their lines are
	// sampled, so a client sending bad requests cannot decide how much the
	// server logs.
	log = httpguard.RefusalLog(log)
	h := sess.Handler(log, streams.Handler(httpguard.AcknowledgedFirst(withAckSignal, telemetry.TraceHeaders(mcpHTTP))))
	h = calls.Wrap(log, h)
	h = httpguard.ReadBody(cfg.maxBodyBytes, cfg.readBody, log, h)
	if cfg.authToken != "" {
		h = httpguard.RequireToken(cfg.authToken, log, h)
	}
	if cfg.rateLimit > 0 {
		limiter, err := httpguard.NewRateLimiter(cfg.rateLimit, cfg.rateBurst, cfg.clients())
		if err != nil {
			return nil, err
		}
		h = limiter.Wrap(log, h)
	}
	h = httpguard.CheckHostOrigin(httpguard.Allowed{Origins: cfg.allowedOrigins, Hosts: cfg.allowedHosts, Unauthenticated: cfg.authToken == ""}, log, h)
	h = httpguard.CountRefusals(metrics, h)

	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if calls.Draining() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"draining"}`)
			return
		}
		_, _ = io.WriteString(w, `{"status":"ready"}`)
	})
	// Outside the mux: a probe, a 404 or a 405 is bounded like /mcp.
	all := httpguard.BoundBodies(cfg.readBody, log, mux)
	if cfg.servedBy != "" {
		return httpguard.ServedBy(cfg.servedBy, all), nil
	}
	return all, nil
}
