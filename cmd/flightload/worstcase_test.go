package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/serverproc"
)

// The costliest searches a client can ask for, many at once, against the
// real binary under the shipped memory limit: 96 distinct round trips
// between two metro areas with both dates flexible by three days, apart (49
// date pairs each; no two share a date, so no cache helps), from 8 clients
// at once. The process's peak RSS (VmHWM) must stay under 200 MiB, inside
// the shipped pod's 320 MiB (docs/BENCHMARKS.md#the-worst-case-of-one-call).
// A call the search gate refuses must
// say when to call again, and is called again then; every call must end
// with flights.
func TestWorstCaseRoundTripsStayUnderThePeak(t *testing.T) {
	if testing.Short() {
		t.Skip("drives 96 worst-case searches against the real binary")
	}
	const (
		calls       = 96
		concurrency = 8
		peakLimit   = 200 << 20
	)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	ports, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
	proc, err := serverproc.Start(ctx, serverproc.Options{
		Bin:  serverBin,
		Args: []string{"--rate-limit", "0", "--log-level", "warn"},
		// The shipped pod's limit (deploy/kubernetes/statefulset.yaml).
		Env:  []string{"GOMEMLIMIT=335544320"}, // 320 MiB
		Addr: addr,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = proc.Stop(stopWait) }()

	var mu sync.Mutex
	var retried int
	jobs := make(chan int)
	errs := make(chan error, calls)
	var wg sync.WaitGroup
	for range concurrency {
		w := &worker{pair: pair{kindDeterministic, eraModern}, version: eraVersions[eraModern]}
		if err := w.connect(ctx, proc.URL+"/mcp", time.Minute, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
			t.Fatal(err)
		}
		defer w.close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				date := time.Now().UTC().AddDate(0, 0, 30+i)
				args := map[string]any{"origin": "LON", "destination": "NYC", "date": date.Format("2006-01-02"),
					"returnDate": date.AddDate(0, 0, 7).Format("2006-01-02"), "flexDays": 3, "flexIndependently": true, "strategy": "deterministic"}
				for attempt := 0; ; attempt++ {
					res, err := w.c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight", Arguments: args}})
					if err != nil {
						errs <- fmt.Errorf("call %d: %w", i, err)
						break
					}
					var r struct {
						Flights  []json.RawMessage `json:"flights"`
						Provider struct{ Synthetic bool }
					}
					b, _ := json.Marshal(res.StructuredContent)
					_ = json.Unmarshal(b, &r)
					if !res.IsError && len(r.Flights) > 0 && r.Provider.Synthetic {
						break
					}
					meta, _ := json.Marshal(res.Meta)
					if res.IsError && strings.Contains(string(meta), `"retryAfterSeconds"`) && attempt < 5 {
						mu.Lock()
						retried++
						mu.Unlock()
						time.Sleep(time.Second)
						continue
					}
					errs <- fmt.Errorf("call %d: isError %v, %d flights: %v %s", i, res.IsError, len(r.Flights), res.Content, meta)
					break
				}
			}
		}()
	}
	start := time.Now()
	for i := range calls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var m memSample
	if err := readProcStatus(proc.Cmd.Process.Pid, &m); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d worst-case calls at concurrency %d in %s (%d refused by the gate and called again): peak RSS %.1f MiB, RSS now %.1f MiB",
		calls, concurrency, time.Since(start).Round(time.Millisecond), retried, float64(m.PeakRSS)/(1<<20), float64(m.RSS)/(1<<20))
	if m.PeakRSS >= peakLimit {
		t.Errorf("peak RSS %.1f MiB, over the %d MiB the worst case must stay under", float64(m.PeakRSS)/(1<<20), peakLimit>>20)
	}
}
