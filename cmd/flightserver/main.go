// Command flightserver is an MCP server that finds flights, and the
// reference for designing fallbacks around what an MCP client may or may not
// offer. It serves stdio (for desktop hosts) or streamable HTTP (for
// containers), both protocol eras on either.
//
//	flightserver                          # stdio
//	flightserver --transport http         # http://127.0.0.1:8080/mcp
//
// Every flag has an environment fallback (FLIGHTSERVER_<FLAG>); see --help.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/gcpace"
	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/telemetry"
)

func main() {
	// The packages' initialisation leaves the heap near the runtime's
	// first goal of 4 MB, and building the server can pass it: a garbage
	// collection then frees nothing worth having and delays the first
	// answer (docs/BENCHMARKS.md#beside-the-peers). Collection is off until
	// the server is built (startupDone), then back at the GOGC the
	// environment asked for, after a first cycle at twice it. With GOGC
	// unset, each cycle then leaves the heap at least gcHeadroom to grow
	// before the next (gcpace); a GOGC that is set is kept as it is. (The
	// catalog is built later, for the first tool call:
	// tools.Config.LoadCatalog.)
	gcPercent := debug.SetGCPercent(-1)
	headroom := uint64(gcHeadroom)
	if os.Getenv("GOGC") != "" {
		headroom = 0
	}
	startupDone = func() { gcpace.Resume(gcPercent, headroom) }
	profileMemory = func(on bool) {
		if !on {
			runtime.MemProfileRate = 0
		}
	}
	// A host that closes our stderr (or stdout) before we exit must not
	// kill us with SIGPIPE mid-write: ignored, the write just fails, and the
	// stdio loop ends cleanly on its own error.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := interruptible(os.Stderr)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	var usage usageError
	switch {
	case errors.Is(err, errHelp):
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "flightserver:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "flightserver:", err)
		os.Exit(1)
	}
}

// interruptible is a context that ends at the first SIGINT or SIGTERM, so
// the server shuts down gracefully (calls in flight finish, within
// --shutdown-grace). A second signal means the person at the terminal will
// not wait: the process exits at once, 130 (or 143 for SIGTERM), saying so.
func interruptible(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		cancel()
		s, ok := <-sigs
		if !ok {
			return
		}
		fmt.Fprintf(stderr, "flightserver: a second %s: exiting now, without waiting for the calls in flight\n", signalName(s))
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(sigs)
		cancel()
	}
}

func signalName(s os.Signal) string {
	if s == os.Interrupt {
		return "interrupt (Ctrl-C)"
	}
	return s.String()
}

// run is the whole program with its environment passed in, so tests drive it
// in-process exactly as main does. stdout belongs to the protocol on stdio:
// nothing else is ever written there.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	// The heap profile is read only at --debug-addr. Linking net/http/pprof
	// keeps the runtime sampling allocations for it all the same (a stack
	// walk every 512 KiB allocated, and its table of stacks held for good),
	// which a server without a debug address pays on every call for
	// nothing (docs/BENCHMARKS.md#against-the-floors-issue-26).
	profileMemory(cfg.debugAddr != "")
	if cfg.showVersion {
		_, err := fmt.Fprintln(stdout, "flightserver", buildVersion())
		return err
	}
	if cfg.transport == "stdio" && isTerminal(stdin) {
		_, _ = io.WriteString(stderr, terminalNotice)
	}
	log, closeLog := newLogger(cfg, stderr)
	defer closeLog() // last: after the lines of the shutdown
	if cfg.transport == "http" && cfg.stateKey == nil && !httpguard.Loopback(cfg.addr) {
		// Over stdio, or on loopback, one process serves the clients of
		// this machine and every round of a call comes back to it: a key
		// of its own is right. Reachable from elsewhere, it may be one of
		// several replicas, and a retry that reaches another (or this one
		// after a restart) cannot open the state.
		log.Warn().Msg("no state key configured (--state-key): using a random one, so a modern call's retry must reach this same process; set one shared key on every replica")
	}
	if cfg.exportDir != "" {
		if fi, err := os.Stat(cfg.exportDir); err != nil || !fi.IsDir() {
			log.Warn().Str("exportDir", cfg.exportDir).Msg("the export directory does not exist or is not a directory: saveItinerary refuses, saying so, until it is created")
		}
	}
	if len(cfg.httpOnlyIgnored) > 0 {
		log.Warn().Strs("flags", cfg.httpOnlyIgnored).Msg("these flags shape only the HTTP server (--transport http) and are ignored over stdio")
	}
	if cfg.openAIKeyWithheld {
		log.Warn().Msg("OPENAI_API_KEY is set but not sent to --llm-base-url, which is not OpenAI's API: give that endpoint's own key with --llm-api-key (FLIGHTSERVER_LLM_API_KEY), or none if it needs none")
	}
	if len(cfg.trimmedSecrets) > 0 {
		log.Warn().Strs("secrets", cfg.trimmedSecrets).Msg("white space around these secrets (a newline from a file?) was trimmed: the server uses them without it")
	}
	// One failed export a batch (every 5 s, or sooner under load) while a
	// collector is away: the first of each 10 s is enough to see it.
	traceErrors := log.Sample(&zerolog.BurstSampler{Burst: 1, Period: 10 * time.Second})
	shutdownTracing, err := telemetry.SetupTracing(ctx, getenv, buildVersion(), func(err error) {
		traceErrors.Warn().Err(err).Msg("tracing: could not export spans")
	})
	if err != nil {
		return err
	}
	defer func() {
		flush, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := shutdownTracing(flush); err != nil {
			log.Warn().Err(err).Msg("could not flush the last traces")
		}
	}()
	if on, why := telemetry.TracingEnabled(getenv); on {
		log.Info().Msg("tracing: exporting spans over OTLP as the OTEL_* variables say")
	} else if exp := getenv("OTEL_TRACES_EXPORTER"); exp != "" && exp != "none" {
		// The operator asked for traces this server cannot send: say so
		// where they will look, rather than only at debug.
		log.Warn().Str("why", why).Msg("tracing off")
	} else {
		log.Debug().Str("why", why).Msg("tracing off")
	}
	var metrics *telemetry.Metrics
	if cfg.metricsAddr != "" {
		metrics = telemetry.NewMetrics()
		stop, err := serveMetrics(cfg.metricsAddr, metrics, log)
		if err != nil {
			return fmt.Errorf("listen on --metrics-addr %s: %w", cfg.metricsAddr, err)
		}
		if !httpguard.Loopback(cfg.metricsAddr) {
			// As --addr warns: /metrics has no authentication.
			log.Warn().Str("addr", cfg.metricsAddr).Msg("metrics listen beyond loopback WITHOUT authentication: anyone who can reach this port can read them " +
				"(call and refusal rates, the runtime's figures); let only the scraper reach it (the shipped NetworkPolicy admits the monitoring namespace alone)")
		}
		// Stopped last, so a scrape during the drain still sees the calls
		// finish.
		defer stop()
	}
	srv, err := newMCPServer(cfg, metrics, log)
	if err != nil {
		return err
	}
	startupDone()
	log.Info().Str("version", buildVersion()).Str("transport", cfg.transport).Msg("starting")
	switch cfg.transport {
	case "http":
		return serveHTTP(ctx, cfg, srv, metrics, log)
	default:
		return serveStdio(ctx, cfg, srv, log, stdin, stdout)
	}
}

// gcHeadroom is how far the heap may grow past what a cycle found live
// before the next cycle, at least, when GOGC is unset: the runtime's own
// goal at GOGC=100 leaves a live heap of a few megabytes (the network
// model, the timetable, the libraries' state) about as much again, so a
// call's garbage started a cycle every hundred calls or so. 8 MiB costs at
// most that much more at the peak, whatever the load
// (docs/BENCHMARKS.md, "The eleventh round").
const gcHeadroom = 8 << 20

// startupDone is called once, when the server is built and about to
// serve: main turns garbage collection back on there.
var startupDone = func() {}

// profileMemory is called once, with whether the heap profile is served
// (--debug-addr): main turns the runtime's allocation sampling off when it
// is not. (Tests run in one process and keep it as it is.)
var profileMemory = func(on bool) {}

// isTerminal reports whether f (stdin or stderr) is a terminal: a person,
// not a host.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
