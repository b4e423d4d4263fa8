package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
)

// routes are the trips the findBestFlight kinds rotate through, with every
// date of dates: 168 trips, well inside the server's schedule cache, so
// most calls reuse a schedule as repeat searches do in service.
var routes = [][2]string{
	{"JFK", "LHR"}, {"LHR", "SIN"}, {"CDG", "NRT"}, {"FRA", "SFO"},
	{"SIN", "SYD"}, {"NRT", "SFO"}, {"DXB", "LHR"}, {"GRU", "JFK"},
}

// tripDates are the departure dates: 20 to 40 days from today.
func tripDates(now time.Time) []string {
	var ds []string
	for d := 20; d <= 40; d++ {
		ds = append(ds, now.AddDate(0, 0, d).Format(time.DateOnly))
	}
	return ds
}

// legacyStreamWait is how long a legacy client is given after Initialize
// to open its standalone GET stream, without which the server cannot send it
// a sampling request.
const legacyStreamWait = 200 * time.Millisecond

// maxErrorMessages is how many distinct error messages are kept per pair.
const maxErrorMessages = 3

// errorCount is one distinct error message and how many calls failed with
// it.
type errorCount struct {
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// errorLog keeps the first few distinct messages and counts the rest.
type errorLog struct {
	first []errorCount
	other int // failures whose message was not among the first
}

func (l *errorLog) add(msg string, n int) {
	for i := range l.first {
		if l.first[i].Message == msg {
			l.first[i].Count += n
			return
		}
	}
	if len(l.first) < maxErrorMessages {
		l.first = append(l.first, errorCount{msg, n})
		return
	}
	l.other += n
}

// worker is one MCP client making one call at a time for one pair. Its
// counters are its own, read only after its phase is over.
type worker struct {
	pair    pair
	version string
	c       *client.Client
	httpTr  *http.Transport

	latencies   []time.Duration // successful measured calls
	calls       int             // measured calls made
	errs        int             // of which failed
	warmCalls   int
	warmErrs    int
	errorLog    errorLog
	interrupted int // calls cut off by an interrupt: neither counted nor timed
}

// samplingStandIn answers sampling requests with the scripted stand-in
// model, a fresh one each time: fakeclient.Sampler keeps every request it
// sees, which over a long run would grow the driver's heap for nothing.
type samplingStandIn struct{}

func (samplingStandIn) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return (&fakeclient.Sampler{Behaviour: fakemodel.Answers}).CreateMessage(ctx, req)
}

// connect starts the worker's client and initializes its session. Each
// client has its own connection pool, as separate hosts would: a shared
// pool keeps two idle connections per host, and 16 busy clients would open
// a new connection for most calls.
func (w *worker) connect(ctx context.Context, url string, timeout time.Duration, logger *slog.Logger) error {
	w.httpTr = &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        8,
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     90 * time.Second,
	}
	topts := []transport.StreamableHTTPCOption{
		transport.WithHTTPBasicClient(&http.Client{Transport: w.httpTr}),
		transport.WithHTTPLogger(logger),
	}
	if w.pair.era == eraLegacy {
		//lint:ignore SA1019 the legacy GET stream is what 2025-11-25 hosts open, and the only way legacy sampling reaches the client.
		topts = append(topts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		return fmt.Errorf("transport for %s: %w", url, err)
	}
	opts := []client.ClientOption{client.WithProtocolVersion(w.version)}
	if w.pair.kind == kindSampling {
		opts = append(opts, client.WithSamplingHandler(samplingStandIn{}))
	}
	w.c = client.NewClient(tr, opts...)
	// Start's context runs the client's background work (the GET stream)
	// for as long as the client lives.
	if err := w.c.Start(context.Background()); err != nil {
		return fmt.Errorf("start client: %w", err)
	}
	initCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := w.c.Initialize(initCtx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "flightload", Version: "1"},
	}}); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if got := w.c.ProtocolVersion(); got != w.version {
		return fmt.Errorf("negotiated protocol %s, want %s", got, w.version)
	}
	return nil
}

func (w *worker) close() {
	if w.c != nil {
		_ = w.c.Close()
	}
	if w.httpTr != nil {
		w.httpTr.CloseIdleConnections()
	}
}

// request is the seq'th call of the worker's kind.
func (w *worker) request(seq int64, dates []string) mcp.CallToolRequest {
	if w.pair.kind == kindNoop {
		return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "noop"}}
	}
	r := routes[seq%int64(len(routes))]
	args := map[string]any{
		"origin":      r[0],
		"destination": r[1],
		"date":        dates[(seq/int64(len(routes)))%int64(len(dates))],
	}
	if w.pair.kind == kindDeterministic {
		args["strategy"] = "deterministic"
	}
	return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight", Arguments: args}}
}

// check says what is wrong with a result, if anything: an isError result,
// a noop that did not say ok, a ranking by another method than the kind
// asks for.
func (w *worker) check(res *mcp.CallToolResult) error {
	if res == nil {
		return errors.New("no result")
	}
	if res.IsError {
		return fmt.Errorf("isError result: %s", clip(resultText(res)))
	}
	if w.pair.kind == kindNoop {
		if got := resultText(res); got != "ok" {
			return fmt.Errorf("noop answered %q, want \"ok\"", clip(got))
		}
		return nil
	}
	want := "deterministic"
	if w.pair.kind == kindSampling {
		want = "client_sampling"
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return fmt.Errorf("structuredContent: %w", err)
	}
	var out struct {
		Method  string `json:"method"`
		Summary string `json:"summary"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("structuredContent %s: %w", clip(string(b)), err)
	}
	if out.Method != want {
		return fmt.Errorf("ranked by method %q, want %q: %s", out.Method, want, clip(out.Summary))
	}
	return nil
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// clip shortens a message for the report.
func clip(s string) string {
	const n = 300
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// phase is one stretch of calls shared by all workers: the warm-up or the
// measured run.
type phase struct {
	total    int64     // calls to make
	measured bool      // record latencies and count as measured
	stopAt   time.Time // no call starts after this
	// every is how often (in calls) a memory sample is asked for on sample;
	// 0 means never.
	every  int64
	sample chan<- struct{}

	claimed     atomic.Int64
	hitDeadline atomic.Bool
}

// traffic is everything the workers share.
type traffic struct {
	workers     []*worker
	dates       []string
	callTimeout time.Duration
	seq         atomic.Int64 // rotates the trips across all calls
	// interrupt is the caller's context: a call that fails because it
	// ended is not counted. Calls run under callCtx, which also ends when
	// the server dies, and those failures are counted.
	interrupt context.Context
	callCtx   context.Context
}

// run has every worker make calls until the phase's total is claimed, its
// deadline passes or the traffic is cancelled.
func (t *traffic) run(p *phase) {
	var wg sync.WaitGroup
	for _, w := range t.workers {
		wg.Go(func() {
			for t.callCtx.Err() == nil {
				if time.Now().After(p.stopAt) {
					p.hitDeadline.Store(true)
					return
				}
				n := p.claimed.Add(1)
				if n > p.total {
					return
				}
				if p.every > 0 && n%p.every == 0 && n < p.total {
					select {
					case p.sample <- struct{}{}:
					default: // a sample is already being taken
					}
				}
				t.call(w, p.measured)
			}
		})
	}
	wg.Wait()
}

// call makes one call and records it.
func (t *traffic) call(w *worker, measured bool) {
	req := w.request(t.seq.Add(1)-1, t.dates)
	ctx, cancel := context.WithTimeout(t.callCtx, t.callTimeout)
	start := time.Now()
	res, err := w.c.CallTool(ctx, req)
	took := time.Since(start)
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	cancel()
	if err != nil && t.interrupt.Err() != nil {
		w.interrupted++
		return
	}
	switch {
	case err == nil:
		err = w.check(res)
	case timedOut:
		err = fmt.Errorf("no answer within --call-timeout %v: %w", t.callTimeout, err)
	}
	switch {
	case !measured:
		w.warmCalls++
		if err != nil {
			w.warmErrs++
			w.errorLog.add("warm-up: "+clip(err.Error()), 1)
		}
	case err != nil:
		w.calls++
		w.errs++
		w.errorLog.add(clip(err.Error()), 1)
	default:
		w.calls++
		w.latencies = append(w.latencies, took)
	}
}
