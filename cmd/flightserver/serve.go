package main

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/flightserver/flightserver/tools"
	"github.com/flightserver/flightserver/tools/state"
)

// newLogger logs to stderr only: on stdio, stdout belongs to the protocol.
func newLogger(cfg config, stderr io.Writer) zerolog.Logger {
	var w io.Writer = stderr
	if cfg.logFormat == "console" {
		w = zerolog.ConsoleWriter{Out: stderr, NoColor: true}
	}
	return zerolog.New(w).Level(cfg.logLevel).With().Timestamp().Logger()
}

func newMCPServer(cfg config, log zerolog.Logger, opts ...server.ServerOption) (*server.MCPServer, error) {
	catalog, err := flights.Embedded()
	if err != nil {
		return nil, fmt.Errorf("load embedded data: %w", err)
	}
	key := cfg.stateKey
	if key == nil {
		// Over stdio there is one client and one process, and every round of
		// a call comes back to it: a key of the process's own is right, and
		// not worth a warning. Over HTTP a retry may reach another replica
		// (or this one after a restart), which then cannot open the state.
		if key, err = state.RandomKey(); err != nil {
			return nil, fmt.Errorf("state key: %w", err)
		}
		if cfg.transport == "http" {
			log.Warn().Msg("no state key configured (--state-key): using a random one, so a modern call's retry must reach this same process; set one shared key on every replica")
		}
	}
	srv, err := tools.NewServer(tools.Config{
		Catalog: catalog, Weights: &cfg.weights,
		DisableSampling: !cfg.sampling, SamplingTimeout: cfg.samplingTimeout, SamplingPreferences: &cfg.samplingPrefs,
		CallBudget: cfg.callBudget, StateKey: key, PreviousStateKeys: cfg.previousKeys,
		LLM: cfg.llm, Fallback: cfg.fallback, Shortlist: cfg.shortlist,
		ExportDir: cfg.exportDir, RootsTimeout: cfg.rootsTimeout, ElicitationTimeout: cfg.elicitationTimeout,
		Logger: log, Version: buildVersion(),
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

// serveStdio speaks MCP on stdin/stdout until stdin closes or ctx ends.
func serveStdio(ctx context.Context, srv *server.MCPServer, log zerolog.Logger, stdin io.Reader, stdout io.Writer) error {
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(tools.StdLogger(log))
	err := stdio.Listen(ctx, stdin, stdout)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		log.Info().Msg("stdio closed; exiting")
		return nil
	}
	return fmt.Errorf("stdio: %w", err)
}

// serveHTTP listens on cfg.addr and serves until ctx ends, then shuts down
// gracefully.
func serveHTTP(ctx context.Context, cfg config, srv *server.MCPServer, log zerolog.Logger) error {
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
		// Slow-loris protection. There is deliberately no WriteTimeout: it
		// would cut off the SSE streams that long calls answer on.
		ReadHeaderTimeout: cfg.readHeader,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          tools.StdLogger(log),
	}
	sess, err := newSessions()
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	mcpHTTP := server.NewStreamableHTTPServer(srv,
		server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPServer(httpSrv),
		server.WithStreamableHTTPLogger(tools.SlogLogger(log)),
		server.WithSessionIdManager(sess),
		server.WithSessionIdleTTL(cfg.sessionIdleTTL),
	)
	if httpSrv.Handler, err = newHandler(mcpHTTP, cfg, sess, log); err != nil {
		return err
	}
	switch {
	case cfg.authToken != "":
		log.Info().Msg("bearer token required on /mcp")
	case !loopback(cfg.addr):
		log.Warn().Str("addr", cfg.addr).Msg("listening beyond loopback WITHOUT authentication (--allow-unauthenticated): anyone who can reach this port can call the tools; put an authenticating proxy in front or set --auth-token")
	}
	log.Info().Str("addr", ln.Addr().String()).Str("endpoint", "http://"+ln.Addr().String()+"/mcp").Msg("listening")
	return serveUntilDone(ctx, httpSrv, ln, mcpHTTP.Shutdown, cfg, log)
}

// serveUntilDone serves on ln until ctx ends, then stops accepting and lets
// in-flight calls finish for up to cfg.shutdownGrace.
func serveUntilDone(ctx context.Context, httpSrv *http.Server, ln net.Listener, shutdown func(context.Context) error, cfg config, log zerolog.Logger) error {
	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	log.Info().Dur("grace", cfg.shutdownGrace).Msg("shutting down; letting in-flight calls finish")
	graceCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownGrace)
	defer cancel()
	if err := shutdown(graceCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("http: %w", err)
	}
	log.Info().Msg("stopped")
	return nil
}

// newHandler routes /mcp through the protections and serves /healthz
// (open: probes carry no token). From the outside in, each layer refuses as
// cheaply as it can before the next does more work: a foreign origin, a
// client over its rate (which also slows token guessing), a missing token,
// an oversized body, a full house, a session that lives elsewhere.
func newHandler(mcpHTTP http.Handler, cfg config, sess *sessions, log zerolog.Logger) (http.Handler, error) {
	h := sess.requireKnownSession(log, tools.TrackGETStreams(mcpHTTP))
	if cfg.maxInflight > 0 {
		h = limitInflight(cfg.maxInflight, log, h)
	}
	h = limitBody(cfg.maxBodyBytes, h)
	if cfg.authToken != "" {
		h = requireToken(cfg.authToken, log, h)
	}
	if cfg.rateLimit > 0 {
		limiter, err := newRateLimiter(cfg.rateLimit, cfg.rateBurst, cfg.clientIPHeader)
		if err != nil {
			return nil, err
		}
		h = limiter.wrap(log, h)
	}
	h = checkOrigin(cfg.allowedOrigins, log, h)

	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	if cfg.servedBy != "" {
		return servedBy(cfg.servedBy, mux), nil
	}
	return mux, nil
}

// checkOrigin refuses browser requests from other sites (DNS rebinding, a
// hostile page posting to a local server), as the MCP transport spec
// requires. A request without Origin is not from a browser page and passes;
// one whose Origin is the server's own host, or listed in
// --allowed-origins, passes; anything else gets 403 on every method,
// including the GET stream (net/http's CrossOriginProtection checks only
// unsafe methods).
func checkOrigin(allowed []string, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		writeError(w, http.StatusForbidden, "forbidden origin: this server accepts browser requests only from its own origin or from --allowed-origins")
	})
}

// limitBody refuses a request body over max bytes: at once with 413 when
// the client announced its length, and by cutting the read short (which
// mcp-go reports as a parse error) when it did not.
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body of %d bytes is over the limit of %d (--max-body-bytes)", r.ContentLength, max))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// writeError answers with a JSON-RPC error body, so MCP clients show the
// message instead of a bare status code.
func writeError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32600, "message": message},
	})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
