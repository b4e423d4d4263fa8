// Command flightload drives mixed MCP traffic against the real flightserver
// binary over streamable HTTP and reports what it cost: throughput, latency,
// errors, and the server's memory and goroutines. It produces the load
// figures in docs/BENCHMARKS.md (see scripts/load.sh).
//
// # What it does
//
// flightload starts the server itself (--server PATH) on free loopback ports
// with the noop baseline tool registered (--load-test-tools), no rate or
// in-flight limits, and /debug/vars on a second loopback port; or it drives
// a server that is already running (--url, memory only through --debug-url).
//
// It then runs a fixed number of workers (--concurrency). Each worker is one
// MCP client, with its own HTTP connection pool as a separate host would
// have, for one traffic kind in one protocol era, and makes one call at a
// time, back to back, without think time. Workers are dealt to the
// (kind, era) pairs round-robin, so each pair gets concurrency/pairs workers
// (the first pairs one more when it does not divide evenly). The kinds:
//
//   - noop: tools/call noop, which answers "ok": the protocol path with no
//     work, the baseline every other row is compared with.
//   - deterministic: findBestFlight with strategy deterministic over a
//     rotation of 8 routes and 21 dates (20..40 days ahead), so the server's
//     schedule cache is reused as it would be in service.
//   - sampling: findBestFlight under strategy auto from a client that
//     declares sampling and answers at once with the scripted stand-in model
//     (internal/fakeclient). A result not ranked by client_sampling is an error.
//
// The eras: legacy (2025-11-25: the client opens the standalone GET stream,
// and the server sends sampling requests down it) and modern (2026-07-28:
// sampling rides extra rounds of the call itself).
//
// First --warmup calls are made and thrown away (connections, caches, the
// server's heap settle); then --calls calls are measured, shared by all
// workers, with --duration as a hard stop on starting new calls (a call in
// flight then still finishes, within --call-timeout).
//
// # How to read the report
//
//   - calls/s of a pair is its calls divided by the wall time of the whole
//     measured phase; the pairs run at the same time and share the machine,
//     so they add up to the overall rate. It is the throughput of the mix,
//     not of each kind alone.
//   - p50 and p99 are nearest-rank percentiles of every successful measured
//     call's latency, as the client sees it: from CallTool to its result,
//     every round of a modern sampling call and the client's own (instant)
//     answer to a legacy sampling request included.
//   - "vs noop" is a pair's p50 over the noop p50 of the same era in the
//     same run. Absolute numbers move with the machine, and the driver
//     shares the machine with the server; compare the ratios.
//   - Server memory is sampled before the clients connect (idle), right
//     after the warm-up (warm), about every tenth of the measured calls, at
//     the end with the clients still connected (end), and again once the
//     clients have closed their sessions (closed: as soon as goroutines are
//     back to idle, at most 3 s later). RSS and peak RSS are VmRSS and VmHWM from /proc (VmHWM is the
//     whole process lifetime's peak); heap and goroutines come from the
//     server's /debug/vars. Goroutines or heap that keep growing from warm to
//     end, or that stay up after the clients close, point to a leak.
//
// Any failed call (an error from the client, a result with isError, a
// ranking by the wrong method) is counted, the first messages of each pair
// are printed, and flightload exits non-zero after printing the report; so
// does a server that dies during the run.
//
// Usage:
//
//	flightload --server ./flightserver [--calls 10000] [--warmup 500] [--concurrency 16] [--json]
//	flightload --url http://127.0.0.1:8080/mcp [--debug-url http://127.0.0.1:6060/debug/vars]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The traffic kinds.
const (
	kindNoop          = "noop"
	kindDeterministic = "deterministic"
	kindSampling      = "sampling"
)

// The protocol eras, by the names the flags use.
const (
	eraLegacy = "legacy"
	eraModern = "modern"
)

var (
	allKinds    = []string{kindNoop, kindDeterministic, kindSampling}
	eraVersions = map[string]string{
		eraLegacy: mcp.ProtocolVersion20251125,
		eraModern: mcp.ProtocolVersion20260728,
	}
)

// options are the parsed flags.
type options struct {
	server      string
	url         string
	debugURL    string
	kinds       []string
	eras        []string
	concurrency int
	calls       int
	warmup      int
	duration    time.Duration
	callTimeout time.Duration
	json        bool
}

// pair is one (kind, era) combination of traffic.
type pair struct {
	kind string
	era  string
}

func (p pair) String() string { return p.kind + "/" + p.era }

// pairs lists every (kind, era) combination, kinds first, in flag order.
func (o options) pairs() []pair {
	var ps []pair
	for _, k := range o.kinds {
		for _, e := range o.eras {
			ps = append(ps, pair{k, e})
		}
	}
	return ps
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "flightload:", err)
		os.Exit(1)
	}
}

// run parses args, drives the traffic and writes the report to stdout. It
// returns an error for bad flags, for a server that could not be started or
// reached, and, after the report, when any call failed or the server died.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	return drive(ctx, o, stdout, stderr)
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	var (
		o     options
		kinds string
		eras  string
	)
	fs := flag.NewFlagSet("flightload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.server, "server", "", "the flightserver binary to start and drive (required unless --url is given)")
	fs.StringVar(&o.url, "url", "", "drive an already running server at this MCP endpoint instead, e.g. http://127.0.0.1:8080/mcp")
	fs.StringVar(&o.debugURL, "debug-url", "", "with --url: the server's /debug/vars, e.g. http://127.0.0.1:6060/debug/vars (without it memory is not reported)")
	fs.StringVar(&kinds, "kinds", strings.Join(allKinds, ","), "comma-separated traffic kinds: noop, deterministic, sampling")
	fs.StringVar(&eras, "eras", eraLegacy+","+eraModern, "comma-separated protocol eras: legacy (2025-11-25), modern (2026-07-28)")
	fs.IntVar(&o.concurrency, "concurrency", 16, "workers, each one client making one call at a time; at least one per (kind, era) pair")
	fs.IntVar(&o.calls, "calls", 10000, "measured calls, shared by all workers")
	fs.IntVar(&o.warmup, "warmup", 500, "calls made first and not measured")
	fs.DurationVar(&o.duration, "duration", 2*time.Minute, "hard stop: no call starts after this long (warm-up included)")
	fs.DurationVar(&o.callTimeout, "call-timeout", 30*time.Second, "the most one call may take before it counts as an error")
	fs.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, "Usage: flightload --server PATH | --url URL [flags]\n\nDrives mixed MCP traffic against flightserver and reports throughput, latency, errors and server memory.\n\n")
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: flightload takes only flags (see --help)", fs.Arg(0))
	}
	switch {
	case o.server == "" && o.url == "":
		return o, errors.New("give --server PATH (the flightserver binary to start) or --url URL (a running server's MCP endpoint)")
	case o.server != "" && o.url != "":
		return o, errors.New("give either --server or --url, not both")
	case o.debugURL != "" && o.url == "":
		return o, errors.New("--debug-url goes with --url; with --server flightload reads the server's numbers itself")
	}
	var err error
	if o.kinds, err = parseList("--kinds", kinds, allKinds); err != nil {
		return o, err
	}
	if o.eras, err = parseList("--eras", eras, []string{eraLegacy, eraModern}); err != nil {
		return o, err
	}
	if n := len(o.kinds) * len(o.eras); o.concurrency < n {
		return o, fmt.Errorf("--concurrency %d: need at least one worker for each of the %d (kind, era) pairs", o.concurrency, n)
	}
	if o.calls < 1 || o.warmup < 0 {
		return o, fmt.Errorf("--calls %d, --warmup %d: want at least 1 measured call and no negative warm-up", o.calls, o.warmup)
	}
	if o.duration <= 0 || o.callTimeout <= 0 {
		return o, errors.New("--duration and --call-timeout must be positive durations, e.g. 2m and 30s")
	}
	return o, nil
}

// parseList splits a comma-separated flag value and checks every item is
// one of valid, once.
func parseList(flagName, value string, valid []string) ([]string, error) {
	var out []string
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
			continue
		case !slices.Contains(valid, item):
			return nil, fmt.Errorf("%s: unknown %q; use %s", flagName, item, strings.Join(valid, ", "))
		case slices.Contains(out, item):
			return nil, fmt.Errorf("%s: %q given twice", flagName, item)
		}
		out = append(out, item)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: empty; use some of %s", flagName, strings.Join(valid, ", "))
	}
	return out, nil
}
