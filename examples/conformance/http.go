package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/httpguard"
)

// Bounds of the HTTP endpoint: what one request may send, and how many
// 2025-11-25 sessions and GET streams the process holds.
const (
	maxBody     = 1 << 20
	readBody    = 10 * time.Second
	maxSessions = 1000
	maxStreams  = 1000
	// heartbeat keeps a quiet GET stream open through proxies.
	heartbeat = 30 * time.Second
)

// handler routes /mcp through the layers the engine and the transport need,
// from the outside in: a foreign Host or Origin (DNS rebinding), a body too
// large or too slow, the two refusals 2026-07-28 wants as JSON-RPC errors
// (fallback.Engine.ProtocolErrors), the 2025-11-25 sessions and their GET
// streams (which the engine needs to send sampling and roots requests), and
// the subscriptions/listen acknowledgement, then mcp-go.
func (f *fixtures) handler(log zerolog.Logger) (http.Handler, func(context.Context) error, error) {
	var streams *fallback.GETStreams
	sess, err := httpguard.NewSessions(httpguard.SessionLimits{Max: maxSessions, MaxStreams: maxStreams}, log,
		func(b httpguard.StreamBounds) httpguard.Streams {
			streams = fallback.NewGETStreams(fallback.StreamLimits{Max: maxStreams, Live: b.Live, Full: b.Full})
			return streams
		})
	if err != nil {
		return nil, nil, fmt.Errorf("sessions: %w", err)
	}
	mcpHTTP := server.NewStreamableHTTPServer(f.mcp,
		server.WithEndpointPath("/mcp"),
		server.WithSessionIdManager(sess),
		server.WithHeartbeatInterval(heartbeat),
		server.WithStreamableHTTPLogger(slog.New(zerolog.NewSlogHandler(log.With().Str("component", "mcp-go").Logger()))),
	)
	refusals := httpguard.RefusalLog(log)
	h := sess.Handler(refusals, streams.Handler(httpguard.AcknowledgedFirst(withAckSignal, mcpHTTP)))
	h = f.engine.ProtocolErrors(f.required, h)
	h = httpguard.ReadBody(maxBody, readBody, refusals, h)
	h = httpguard.CheckHostOrigin(httpguard.Allowed{Unauthenticated: true}, refusals, h)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return httpguard.BoundBodies(readBody, refusals, mux), mcpHTTP.Shutdown, nil
}

// withAckSignal hands the HTTP layer's acknowledgement signal to the
// engine's subscriptions/listen hook.
func withAckSignal(ctx context.Context, written func(id any) <-chan struct{}) context.Context {
	return fallback.WithAckSignal(ctx, written)
}

// serve listens on addr and serves until ctx ends.
func serve(ctx context.Context, addr string, f *fixtures, log zerolog.Logger) error {
	h, shutdown, err := f.handler(log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	if !httpguard.Loopback(ln.Addr().String()) {
		log.Warn().Str("addr", ln.Addr().String()).Msg("listening beyond loopback: these are test fixtures, with no authentication")
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	log.Info().Str("addr", ln.Addr().String()).Str("endpoint", "http://"+ln.Addr().String()+"/mcp").Msg("listening")
	select {
	case err := <-done:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = shutdown(stop)
	if err := srv.Shutdown(stop); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info().Msg("stopped")
	return nil
}
