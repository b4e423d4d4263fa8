package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"
)

// How long, after the clients close, the server is given to let go of
// their sessions before the "closed" sample is taken.
const (
	settleWait = 3 * time.Second
	settlePoll = 100 * time.Millisecond
)

// drive runs the whole load test: the server, the clients, the warm-up, the
// measured calls, the samples, the report.
func drive(ctx context.Context, o options, stdout, stderr io.Writer) error {
	// The transport logs what goes wrong in its background work (the
	// legacy GET stream); warnings and worse are worth seeing.
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	rep := &report{Config: configReport(o), Started: time.Now().UTC().Format(time.RFC3339)}
	endpoint := o.url
	var (
		srv *managedServer
		pr  *probe
	)
	if o.server != "" {
		var err error
		if srv, err = startServer(ctx, o.server); err != nil {
			return err
		}
		defer srv.stop() // a no-op once stopped below
		endpoint = srv.url
		pr = newProbe(srv.debugURL, srv.pid())
		rep.Server.PID = srv.pid()
	} else {
		debugURL, err := debugVarsURL(o.debugURL)
		if err != nil {
			return err
		}
		pr = newProbe(debugURL, 0)
		if debugURL == "" {
			pr.note("server memory unavailable: driving --url without --debug-url")
		} else {
			pr.note("RSS unavailable: the server was not started by flightload (--url)")
		}
	}
	rep.Config.URL = endpoint

	// Calls end early when the caller interrupts or the server dies.
	callCtx, cancelCalls := context.WithCancel(ctx)
	defer cancelCalls()
	if srv != nil {
		go func() {
			select {
			case <-srv.proc.Exited():
				cancelCalls()
			case <-callCtx.Done():
			}
		}()
	}

	// Samples are taken even after an interrupt: the report still shows
	// what the server did until then.
	sampleCtx := context.WithoutCancel(ctx)
	rep.Server.Idle = pr.sample(sampleCtx)

	t := &traffic{dates: tripDates(time.Now()), callTimeout: o.callTimeout, interrupt: ctx, callCtx: callCtx}
	pairs := o.pairs()
	for i := range o.concurrency {
		p := pairs[i%len(pairs)]
		t.workers = append(t.workers, &worker{
			pair: p, version: eraVersions[p.era],
			latencies: make([]time.Duration, 0, o.calls/o.concurrency+16),
		})
	}
	closeClients := sync.OnceFunc(func() {
		for _, w := range t.workers {
			w.close()
		}
	})
	defer closeClients()
	if err := connectAll(callCtx, t.workers, endpoint, o.callTimeout, logger); err != nil {
		if srv != nil && srv.died() {
			return fmt.Errorf("%w; the server exited (%v), its last output:\n%s", err, srv.exitErr(), srv.proc.Output())
		}
		return err
	}
	if containsEra(pairs, eraLegacy) {
		select {
		case <-time.After(legacyStreamWait):
		case <-callCtx.Done():
		}
	}

	stopAt := time.Now().Add(o.duration)
	warm := &phase{total: int64(o.warmup), stopAt: stopAt}
	t.run(warm)
	rep.Server.Warm = pr.sample(sampleCtx)

	ticks := make(chan struct{}, 1)
	var (
		samplerDone = make(chan struct{})
		during      []*memSample
	)
	go func() {
		defer close(samplerDone)
		for range ticks {
			if s := pr.sample(sampleCtx); s != nil {
				during = append(during, s)
			}
		}
	}()
	measured := &phase{total: int64(o.calls), measured: true, stopAt: stopAt, every: max(1, int64(o.calls)/10), sample: ticks}
	began := time.Now()
	t.run(measured)
	wall := time.Since(began)
	close(ticks)
	<-samplerDone
	rep.Server.End = pr.sample(sampleCtx)

	closeClients()
	if rep.Server.Idle != nil && rep.Server.End != nil {
		rep.Server.Closed, rep.Server.ClosedAfter = settle(sampleCtx, pr, rep.Server.Idle.Goroutines)
	}

	// An interrupt from a terminal reaches the server too, and it exits as
	// asked: that is not dying.
	died := srv != nil && srv.died() && ctx.Err() == nil
	if srv != nil {
		srv.stop()
		rep.Server.LogTail, rep.Server.LogLines = srv.proc.Tail()
		rep.Server.Died = died
		if died {
			rep.Server.Exit = fmt.Sprint(srv.exitErr())
		}
		if srv.stopNote != "" {
			pr.note(srv.stopNote)
		}
	}

	stoppedBy := "calls"
	switch {
	case ctx.Err() != nil:
		stoppedBy = "interrupted"
	case died:
		stoppedBy = "server died"
	case warm.hitDeadline.Load() || measured.hitDeadline.Load():
		stoppedBy = "duration"
	}
	samples := append([]*memSample{rep.Server.Idle, rep.Server.Warm}, during...)
	samples = append(samples, rep.Server.End, rep.Server.Closed)
	rep.fill(t.workers, pairs, wall, stoppedBy, samples, len(during), pr)

	if o.json {
		if err := rep.writeJSON(stdout); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else if err := rep.writeText(stdout); err != nil {
		return fmt.Errorf("write report: %w", err)
	}

	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted after %d of %d measured calls: %w", rep.Overall.Calls, o.calls, ctx.Err())
	case died:
		return fmt.Errorf("the server died during the run (%v); its last output:\n%s", srv.exitErr(), srv.proc.Output())
	case rep.Overall.Errors > 0 || rep.Overall.WarmupErrors > 0:
		return fmt.Errorf("%d of %d measured calls failed, and %d of %d warm-up calls",
			rep.Overall.Errors, rep.Overall.Calls, rep.Overall.WarmupErrors, rep.Overall.WarmupCalls)
	}
	return nil
}

// connectAll connects every worker's client, all at once.
func connectAll(ctx context.Context, workers []*worker, endpoint string, timeout time.Duration, logger *slog.Logger) error {
	errs := make([]error, len(workers))
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Go(func() {
			if err := w.connect(ctx, endpoint, timeout, logger); err != nil {
				errs[i] = fmt.Errorf("worker %d (%s) connecting to %s: %w", i, w.pair, endpoint, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func containsEra(pairs []pair, era string) bool {
	for _, p := range pairs {
		if p.era == era {
			return true
		}
	}
	return false
}

// settle waits, after the clients closed, until the server's goroutines are
// back to their idle count or settleWait passes, and returns the last
// sample and how long that took.
func settle(ctx context.Context, pr *probe, idleGoroutines int64) (*memSample, float64) {
	began := time.Now()
	for {
		s := pr.sample(ctx)
		if s == nil || s.Goroutines <= idleGoroutines || time.Since(began) >= settleWait {
			return s, time.Since(began).Seconds()
		}
		select {
		case <-ctx.Done():
			return s, time.Since(began).Seconds()
		case <-time.After(settlePoll):
		}
	}
}

// debugVarsURL accepts --debug-url as the /debug/vars address or just the
// debug listener's base.
func debugVarsURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--debug-url %q: want an http URL such as http://127.0.0.1:6060/debug/vars", raw)
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/debug/vars"
	}
	return u.String(), nil
}

// configReport is the run's configuration as the report gives it.
func configReport(o options) configJSON {
	return configJSON{
		Server: o.server, URL: o.url, DebugURL: o.debugURL,
		Kinds: o.kinds, Eras: o.eras,
		Concurrency: o.concurrency, Calls: o.calls, Warmup: o.warmup,
		Duration: o.duration.String(), CallTimeout: o.callTimeout.String(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version(),
	}
}
