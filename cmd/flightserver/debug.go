package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/telemetry"
)

// serveDebug serves /debug/vars on a separate, loopback-only address: the
// numbers a load test or an operator watches for leaks (goroutines, heap).
// It is our own handler, not expvar's, because expvar publishes the command
// line, and a command line may hold --auth-token. ?gc=1 collects garbage
// first, so the heap figures count only what is live: what a measurement of
// memory per session or per call needs.
//
// It also serves the Go profiles (go tool pprof
// http://127.0.0.1:6060/debug/pprof/profile?seconds=10, .../heap,
// .../goroutine, ...), each registered by name, never pprof's index or
// /debug/pprof/cmdline, for the same reason. net/http/pprof also registers
// itself on http.DefaultServeMux, which nothing here serves.
func serveDebug(ctx context.Context, addr string, log zerolog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/vars", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC()
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		// The GOGC in effect (-1: collection off), read rather than
		// assumed: start-up turns it off for a moment (main).
		gc := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
		metrics.Read(gc)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"goroutines": runtime.NumGoroutine(),
			"heapAlloc":  m.HeapAlloc, "heapInuse": m.HeapInuse, "heapObjects": m.HeapObjects,
			"sys": m.Sys, "numGC": m.NumGC, "gogc": int64(gc[0].Value.Uint64()),
			// What the last cycle found live, and the next one's goal.
			"heapLive": gc[1].Value.Uint64(), "heapGoal": gc[2].Value.Uint64(),
			// 0 would leave the heap profile below empty (main).
			"memProfileRate": runtime.MemProfileRate,
		})
	})
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	for _, name := range []string{"heap", "allocs", "goroutine", "block", "mutex", "threadcreate"} {
		mux.Handle("GET /debug/pprof/"+name, pprof.Handler(name))
	}
	// The same Host and Origin rules as /mcp: only numbers here, but a page
	// on another site has no business reading even those.
	srv := &http.Server{Handler: guardedDebug(mux, log), ReadHeaderTimeout: debugReadTimeout}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	log.Info().Str("addr", ln.Addr().String()).Msg("debug vars at /debug/vars, profiles at /debug/pprof/{profile,heap,goroutine,...}")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("debug server stopped")
		}
	}()
	return nil
}

// serveMetrics serves Prometheus metrics at /metrics on their own address,
// never the MCP listener's, with the same Host and Origin rules. It returns
// the function that stops it.
func serveMetrics(addr string, m *telemetry.Metrics, log zerolog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: guardedDebug(mux, log), ReadHeaderTimeout: debugReadTimeout}
	log.Info().Str("addr", ln.Addr().String()).Msg("metrics at /metrics")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("metrics server stopped")
		}
	}()
	return func() { _ = srv.Close() }, nil
}

// debugReadTimeout bounds the headers, and any body, of a request to the
// debug and metrics listeners.
const debugReadTimeout = 5 * time.Second

// guardedDebug is mux behind what guards the debug and metrics listeners:
// the Host and Origin rules of /mcp, and bounded bodies. Their refusals are
// logged as /mcp's are, sampled, so that a client cannot decide how much
// the server logs.
func guardedDebug(mux http.Handler, log zerolog.Logger) http.Handler {
	log = httpguard.RefusalLog(log)
	return httpguard.BoundBodies(debugReadTimeout, log, httpguard.CheckHostOrigin(httpguard.Allowed{}, log, mux))
}
