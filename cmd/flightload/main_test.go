package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"

	"github.com/mark3labs/mcp-go/mcp"
)

// serverBin is the flightserver binary, built once for all tests.
var serverBin string

func TestMain(m *testing.M) { serverbin.Main(m, &serverBin) }

func TestRunAgainstRealServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"--server", serverBin, "--calls", "300", "--warmup", "30", "--concurrency", "6", "--json"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var rep report
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decode the JSON report: %v\n%s", err, stdout.String())
	}

	if rep.Overall.Errors != 0 || rep.Overall.WarmupErrors != 0 {
		t.Errorf("errors: %d measured, %d warm-up; pairs: %+v", rep.Overall.Errors, rep.Overall.WarmupErrors, rep.Pairs)
	}
	if rep.Overall.StoppedBy != "calls" {
		t.Errorf("stopped by %q, want calls", rep.Overall.StoppedBy)
	}
	want := map[string]bool{}
	for _, k := range allKinds {
		for _, e := range []string{eraLegacy, eraModern} {
			want[k+"/"+e] = true
		}
	}
	sum := 0
	for _, p := range rep.Pairs {
		name := p.Kind + "/" + p.Era
		if !want[name] {
			t.Errorf("unexpected or repeated pair %s", name)
		}
		delete(want, name)
		if p.Workers != 1 {
			t.Errorf("%s: %d workers, want 1 (6 workers over 6 pairs)", name, p.Workers)
		}
		if p.Calls <= 0 {
			t.Errorf("%s: %d calls", name, p.Calls)
		}
		if p.WarmupCalls <= 0 {
			t.Errorf("%s: %d warm-up calls", name, p.WarmupCalls)
		}
		// Every call was checked: a sampling call ranked by any other
		// method than client_sampling (or a deterministic one by anything
		// but deterministic) would be an error.
		if p.Errors != 0 || len(p.FirstErrors) != 0 {
			t.Errorf("%s: %d errors: %+v", name, p.Errors, p.FirstErrors)
		}
		if p.P50Ms <= 0 || p.P50Ms > p.P99Ms {
			t.Errorf("%s: p50 %.3f ms, p99 %.3f ms", name, p.P50Ms, p.P99Ms)
		}
		if p.CallsPerSec <= 0 {
			t.Errorf("%s: %.1f calls/s", name, p.CallsPerSec)
		}
		switch {
		case p.P50VsNoop == nil:
			t.Errorf("%s: no ratio to noop", name)
		case p.Kind == kindNoop && *p.P50VsNoop != 1:
			t.Errorf("%s: ratio %.3f to itself", name, *p.P50VsNoop)
		}
		sum += p.Calls
	}
	if len(want) != 0 {
		t.Errorf("pairs missing from the report: %v", want)
	}
	if sum != 300 || rep.Overall.Calls != 300 {
		t.Errorf("calls: pairs sum to %d, overall %d; want 300", sum, rep.Overall.Calls)
	}
	if rep.Overall.WarmupCalls != 30 {
		t.Errorf("warm-up calls: %d, want 30", rep.Overall.WarmupCalls)
	}
	if rep.Overall.P50Ms <= 0 || rep.Overall.P50Ms > rep.Overall.P99Ms || rep.Overall.WallSeconds <= 0 {
		t.Errorf("overall: %+v", rep.Overall)
	}

	s := rep.Server
	if s.PID == 0 || s.Died {
		t.Errorf("server: pid %d, died %v (%s)", s.PID, s.Died, s.Exit)
	}
	for name, m := range map[string]*memSample{"idle": s.Idle, "warm": s.Warm, "end": s.End, "closed": s.Closed} {
		if m == nil {
			t.Errorf("no %s sample; notes: %v", name, s.Notes)
			continue
		}
		if !m.HasHeap || !m.HasRSS || m.Goroutines <= 0 || m.RSS == 0 || m.PeakRSS == 0 || m.HeapInuse == 0 {
			t.Errorf("%s sample: %+v; notes: %v", name, *m, s.Notes)
		}
	}
	if s.PeakRSS == 0 || s.PeakGoroutines <= 0 || s.RunSamples == 0 {
		t.Errorf("server peaks: RSS %d, goroutines %d, %d samples during the run", s.PeakRSS, s.PeakGoroutines, s.RunSamples)
	}
	if s.End != nil && s.PeakGoroutines < s.End.Goroutines {
		t.Errorf("peak goroutines %d below the end sample's %d", s.PeakGoroutines, s.End.Goroutines)
	}
	if len(s.Notes) != 0 {
		t.Errorf("notes: %v", s.Notes)
	}

	// The same data reads as the human report.
	var text strings.Builder
	if err := rep.writeText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"sampling / legacy", "deterministic / modern", "1.00x", "RSS", "heapInuse", "goroutines", "300 calls, 0 errors"} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text report lacks %q:\n%s", line, text.String())
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown kind", []string{"--server", "x", "--kinds", "noop,teleport"}, `unknown "teleport"`},
		{"unknown era", []string{"--server", "x", "--eras", "legacy,future"}, `unknown "future"`},
		{"kind twice", []string{"--server", "x", "--kinds", "noop,noop"}, "twice"},
		{"concurrency below pairs", []string{"--server", "x", "--concurrency", "5"}, "at least one worker for each of the 6"},
		{"concurrency below fewer pairs", []string{"--server", "x", "--kinds", "noop", "--concurrency", "1"}, "each of the 2"},
		{"no server or url", []string{"--calls", "10"}, "--server"},
		{"server and url", []string{"--server", "x", "--url", "http://127.0.0.1:1/mcp"}, "not both"},
		{"no calls", []string{"--server", "x", "--calls", "0"}, "--calls"},
		{"bad duration", []string{"--server", "x", "--duration", "0s"}, "--duration"},
		{"unknown flag", []string{"--server", "x", "--turbo"}, "turbo"},
		{"argument", []string{"--server", "x", "extra"}, "extra"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(context.Background(), tc.args, &stdout, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run %v: %v, want an error containing %q", tc.args, err, tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed a report for bad flags:\n%s", stdout.String())
			}
		})
	}
}

// A server that will not start is an error, with its own words.
func TestServerThatDoesNotStart(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "flightserver")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'cannot start: no flights today' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"--server", bin, "--calls", "10", "--concurrency", "6"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no flights today") {
		t.Errorf("got %v, want the server's last words", err)
	}
}

// The result checks are what make the error count honest: a sampling call
// must have been ranked by the client's model.
func TestCheck(t *testing.T) {
	ranked := func(method string) *mcp.CallToolResult {
		return &mcp.CallToolResult{StructuredContent: map[string]any{"method": method, "summary": "why"}}
	}
	sampling := &worker{pair: pair{kindSampling, eraModern}}
	deterministic := &worker{pair: pair{kindDeterministic, eraLegacy}}
	noop := &worker{pair: pair{kindNoop, eraLegacy}}
	for _, tc := range []struct {
		name string
		w    *worker
		res  *mcp.CallToolResult
		ok   bool
	}{
		{"sampling ranked by the client", sampling, ranked("client_sampling"), true},
		{"sampling fell back", sampling, ranked("deterministic"), false},
		{"sampling without structured content", sampling, &mcp.CallToolResult{}, false},
		{"deterministic", deterministic, ranked("deterministic"), true},
		{"deterministic ranked otherwise", deterministic, ranked("candidates"), false},
		{"isError", deterministic, &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent("bad date")}}, false},
		{"noop ok", noop, mcp.NewToolResultText("ok"), true},
		{"noop other", noop, mcp.NewToolResultText("nope"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.w.check(tc.res); (err == nil) != tc.ok {
				t.Errorf("check: %v, want ok %v", err, tc.ok)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}, {0, 1}} {
		if got := percentile(d, tc.p); got != tc.want {
			t.Errorf("p%v of 1..100: %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := percentile([]time.Duration{7}, 99); got != 7 {
		t.Errorf("p99 of one: %v", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none: %v", got)
	}
}
