package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/telemetry"
	"github.com/flightserver/flightserver/tools"
)

// newLogger logs to stderr only: on stdio, stdout belongs to the protocol.
func newLogger(cfg config, stderr io.Writer) zerolog.Logger {
	var w io.Writer = stderr
	if cfg.logFormat == "console" {
		w = zerolog.ConsoleWriter{Out: stderr, NoColor: true}
	}
	return zerolog.New(w).Level(cfg.logLevel).With().Timestamp().Logger()
}

func newMCPServer(cfg config, metrics *telemetry.Metrics, log zerolog.Logger, opts ...server.ServerOption) (*server.MCPServer, error) {
	catalog, err := flights.Embedded()
	if err != nil {
		return nil, fmt.Errorf("load embedded data: %w", err)
	}
	srv, err := tools.NewServer(tools.Config{
		Catalog: catalog, Weights: &cfg.weights,
		DisableSampling: !cfg.sampling, SamplingTimeout: cfg.samplingTimeout, SamplingPreferences: &cfg.samplingPrefs,
		CallBudget: cfg.callBudget, StateKey: cfg.stateKey, PreviousStateKeys: cfg.previousKeys,
		LLM: cfg.llm, Fallback: cfg.fallback, Shortlist: cfg.shortlist,
		ExportDir: cfg.exportDir, RootsTimeout: cfg.rootsTimeout, ElicitationTimeout: cfg.elicitationTimeout,
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

// refusalLogBurst is how many refusal lines a second reach the log.
const refusalLogBurst = 20

// getStreamHeartbeat is how often a quiet 2025-11-25 GET stream carries a
// ping. Proxies close a response that says nothing for a while (the shipped
// router and ingress after 120 s); a sampling or roots request sent while
// the client reconnects would be lost and its rung fall through for
// nothing. TestHeartbeatBeatsTheProxies keeps it under their timeouts.
const getStreamHeartbeat = 30 * time.Second

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
		// Slow-loris protection for the headers; readBody bounds the body.
		// There is deliberately no ReadTimeout or WriteTimeout: they would
		// cut off the SSE streams that long calls answer on.
		ReadHeaderTimeout: cfg.readHeader,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          tools.StdLogger(log),
	}
	sess, err := newSessions(cfg, log)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	metrics.ObserveSessions(sess.Live)
	metrics.ObserveStreams(sess.streams.Count)
	mcpHTTP := server.NewStreamableHTTPServer(srv,
		server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPServer(httpSrv),
		server.WithStreamableHTTPLogger(tools.SlogLogger(log)),
		server.WithSessionIdManager(sess),
		server.WithSessionIdleTTL(cfg.sessionIdleTTL),
		server.WithHeartbeatInterval(getStreamHeartbeat),
	)
	calls := newInflight(cfg)
	if httpSrv.Handler, err = newHandler(mcpHTTP, cfg, sess, calls, metrics, log); err != nil {
		return err
	}
	switch {
	case cfg.authToken != "":
		log.Info().Msg("bearer token required on /mcp")
	case !loopback(cfg.addr):
		log.Warn().Str("addr", cfg.addr).Msg("listening beyond loopback WITHOUT authentication (--allow-unauthenticated): anyone who can reach this port can call the tools; put an authenticating proxy in front or set --auth-token")
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
func serveUntilDone(ctx context.Context, httpSrv *http.Server, ln net.Listener, shutdown func(context.Context) error, calls *inflight, cfg config, log zerolog.Logger) error {
	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	calls.drain()
	log.Info().Dur("drainDelay_ms", cfg.drainDelay).Dur("grace_ms", cfg.shutdownGrace).Msg("draining: /readyz answers 503")
	time.Sleep(cfg.drainDelay)
	graceCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownGrace)
	defer cancel()
	log.Info().Int("inflight", calls.count()).Msg("refusing new requests; letting in-flight calls finish")
	left := calls.stop(graceCtx)
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

// newHandler routes /mcp through the protections and serves /healthz and
// /readyz (open: probes carry no token). From the outside in, each layer
// refuses as cheaply as it can before the next does more work: a foreign
// Host or Origin, a client over its rate (which also slows token guessing),
// a missing token (all three before reading the body), a body too large or
// too slow, a full house or a draining one, a session that lives elsewhere
// or one too many, a GET stream beyond the limit.
func newHandler(mcpHTTP http.Handler, cfg config, sess *sessions, calls *inflight, metrics *telemetry.Metrics, log zerolog.Logger) (http.Handler, error) {
	// The layers in front of mcp-go log only what they refuse, which
	// flightserver_http_refusals_total counts anyway: their lines are
	// sampled, so a client sending bad requests cannot decide how much the
	// server logs.
	log = log.Sample(&zerolog.BurstSampler{Burst: refusalLogBurst, Period: time.Second})
	h := sess.handler(log, sess.streams.Handler(acknowledgedFirst(mcpHTTP)))
	h = calls.wrap(log, h)
	h = readBody(cfg.maxBodyBytes, cfg.readBody, log, h)
	if cfg.authToken != "" {
		h = requireToken(cfg.authToken, log, h)
	}
	if cfg.rateLimit > 0 {
		limiter, err := newRateLimiter(cfg.rateLimit, cfg.rateBurst, sess.who) // one idea of who a client is, for every per-client limit
		if err != nil {
			return nil, err
		}
		h = limiter.wrap(log, h)
	}
	h = checkHostOrigin(cfg.allowedOrigins, log, h)
	h = countRefusals(metrics, h)

	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if calls.draining() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"draining"}`)
			return
		}
		_, _ = io.WriteString(w, `{"status":"ready"}`)
	})
	if cfg.servedBy != "" {
		return servedBy(cfg.servedBy, mux), nil
	}
	return mux, nil
}

// checkHostOrigin refuses what a browser page on another site could send
// (DNS rebinding, a hostile page posting to a local server), as the MCP
// transport spec requires, on every method, the GET stream included
// (net/http's CrossOriginProtection checks only unsafe methods):
//
//   - Host: a request that reached a loopback address must name a loopback
//     host (localhost, 127.0.0.1, [::1]); a page whose own name was rebound
//     to 127.0.0.1 sends its own name. (mcp-go checks the same, with a
//     plain-text 403; this answers first, in JSON-RPC.)
//   - Origin: a request without one is not from a browser page and passes;
//     one whose Origin is the server's own host, or listed in
//     --allowed-origins, passes; any other gets 403.
func checkHostOrigin(allowed []string, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && loopback(local.String()) && !loopbackHost(r.Host) {
			log.Warn().Str("host", truncate(r.Host, 100)).Str("remote", r.RemoteAddr).Msg("refused a request for a foreign Host on loopback")
			writeError(w, r, refusedHost, "forbidden Host: on loopback this server answers only requests for localhost, 127.0.0.1 or [::1] (DNS rebinding protection)")
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" || slices.Contains(allowed, strings.TrimSuffix(origin, "/")) {
			next.ServeHTTP(w, r)
			return
		}
		if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		log.Warn().Str("origin", truncate(origin, 100)).Str("remote", r.RemoteAddr).Msg("refused cross-origin request")
		writeError(w, r, refusedOrigin, "forbidden origin: this server accepts browser requests only from its own origin or from --allowed-origins")
	})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
