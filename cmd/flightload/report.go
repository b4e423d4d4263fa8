package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// report is everything a run found; --json prints it as is.
type report struct {
	Config  configJSON    `json:"config"`
	Started string        `json:"started"`
	Pairs   []pairReport  `json:"pairs"`
	Overall overallReport `json:"overall"`
	Server  serverReport  `json:"server"`
}

type configJSON struct {
	Server      string   `json:"server,omitempty"`
	URL         string   `json:"url"`
	DebugURL    string   `json:"debugURL,omitempty"`
	Kinds       []string `json:"kinds"`
	Eras        []string `json:"eras"`
	Concurrency int      `json:"concurrency"`
	Calls       int      `json:"calls"`
	Warmup      int      `json:"warmup"`
	Duration    string   `json:"duration"`
	CallTimeout string   `json:"callTimeout"`
	GOOS        string   `json:"goos"`
	GOARCH      string   `json:"goarch"`
	CPUs        int      `json:"cpus"`
	GoVersion   string   `json:"goVersion"`
}

// pairReport is one (kind, era) row. Latencies are of its successful
// measured calls; calls/s is its calls over the whole measured phase.
type pairReport struct {
	Kind         string       `json:"kind"`
	Era          string       `json:"era"`
	Workers      int          `json:"workers"`
	Calls        int          `json:"calls"`
	Errors       int          `json:"errors"`
	WarmupCalls  int          `json:"warmupCalls"`
	WarmupErrors int          `json:"warmupErrors"`
	CallsPerSec  float64      `json:"callsPerSec"`
	P50Ms        float64      `json:"p50Ms"`
	P99Ms        float64      `json:"p99Ms"`
	P50VsNoop    *float64     `json:"p50VsNoop"` // null without a noop row of the same era
	FirstErrors  []errorCount `json:"firstErrors"`
	OtherErrors  int          `json:"otherErrors"` // failures with messages beyond the first few
}

type overallReport struct {
	Calls        int     `json:"calls"`
	Errors       int     `json:"errors"`
	WarmupCalls  int     `json:"warmupCalls"`
	WarmupErrors int     `json:"warmupErrors"`
	WallSeconds  float64 `json:"wallSeconds"` // of the measured phase
	CallsPerSec  float64 `json:"callsPerSec"`
	P50Ms        float64 `json:"p50Ms"`
	P99Ms        float64 `json:"p99Ms"`
	// StoppedBy is what ended the measured phase: calls (all made),
	// duration, interrupted or server died.
	StoppedBy string `json:"stoppedBy"`
	// Interrupted calls were cut off by an interrupt and are in no other
	// count.
	Interrupted int `json:"interruptedCalls"`
}

// serverReport is the server's side. A sample is null when nothing could
// be read; see notes.
type serverReport struct {
	PID    int        `json:"pid,omitempty"`
	Idle   *memSample `json:"idle"`   // before the clients connected
	Warm   *memSample `json:"warm"`   // after the warm-up
	End    *memSample `json:"end"`    // after the measured calls, clients still connected
	Closed *memSample `json:"closed"` // after the clients closed their sessions
	// ClosedAfter is how long after the clients closed the closed sample
	// was taken (at most 3 s: as soon as goroutines were back to idle).
	ClosedAfter    float64  `json:"closedAfterSeconds"`
	PeakRSS        uint64   `json:"peakRSSBytes"` // VmHWM: the whole process lifetime's peak
	PeakGoroutines int64    `json:"peakGoroutines"`
	RunSamples     int      `json:"runSamples"` // samples taken during the measured phase
	Died           bool     `json:"died"`
	Exit           string   `json:"exit,omitempty"`
	LogLines       int      `json:"logLines"` // lines the server wrote to stderr (--log-level warn)
	LogTail        []string `json:"logTail"`
	Notes          []string `json:"notes"`
}

// fill computes the rows, the overall line and the server's peaks.
func (r *report) fill(workers []*worker, pairs []pair, wall time.Duration, stoppedBy string, samples []*memSample, runSamples int, pr *probe) {
	secs := wall.Seconds()
	var all []time.Duration
	noopP50 := map[string]float64{}
	for _, p := range pairs {
		row := pairReport{Kind: p.kind, Era: p.era, FirstErrors: []errorCount{}}
		var lat []time.Duration
		var el errorLog
		for _, w := range workers {
			if w.pair != p {
				continue
			}
			row.Workers++
			row.Calls += w.calls
			row.Errors += w.errs
			row.WarmupCalls += w.warmCalls
			row.WarmupErrors += w.warmErrs
			r.Overall.Interrupted += w.interrupted
			lat = append(lat, w.latencies...)
			for _, e := range w.errorLog.first {
				el.add(e.Message, e.Count)
			}
			el.other += w.errorLog.other
		}
		if el.first != nil {
			row.FirstErrors = el.first
		}
		row.OtherErrors = el.other
		slices.Sort(lat)
		row.P50Ms, row.P99Ms = ms(percentile(lat, 50)), ms(percentile(lat, 99))
		if secs > 0 {
			row.CallsPerSec = float64(row.Calls) / secs
		}
		if p.kind == kindNoop && len(lat) > 0 {
			noopP50[p.era] = row.P50Ms
		}
		all = append(all, lat...)
		r.Pairs = append(r.Pairs, row)
		r.Overall.Calls += row.Calls
		r.Overall.Errors += row.Errors
		r.Overall.WarmupCalls += row.WarmupCalls
		r.Overall.WarmupErrors += row.WarmupErrors
	}
	for i := range r.Pairs {
		row := &r.Pairs[i]
		if base, ok := noopP50[row.Era]; ok && base > 0 && row.Calls > row.Errors {
			ratio := row.P50Ms / base
			row.P50VsNoop = &ratio
		}
	}
	slices.Sort(all)
	r.Overall.P50Ms, r.Overall.P99Ms = ms(percentile(all, 50)), ms(percentile(all, 99))
	r.Overall.WallSeconds = secs
	if secs > 0 {
		r.Overall.CallsPerSec = float64(r.Overall.Calls) / secs
	}
	r.Overall.StoppedBy = stoppedBy

	for _, s := range samples {
		if s == nil {
			continue
		}
		r.Server.PeakRSS = max(r.Server.PeakRSS, s.PeakRSS)
		r.Server.PeakGoroutines = max(r.Server.PeakGoroutines, s.Goroutines)
	}
	r.Server.RunSamples = runSamples
	r.Server.Notes = pr.allNotes()
	if r.Server.Notes == nil {
		r.Server.Notes = []string{}
	}
	if r.Server.LogTail == nil {
		r.Server.LogTail = []string{}
	}
}

// percentile is the nearest-rank percentile of sorted durations: the
// smallest value at least p percent of them are at or below.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *report) writeText(out io.Writer) error {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "flightload %s: %d measured calls after %d warm-up, concurrency %d, against %s\n",
		r.Started, c.Calls, c.Warmup, c.Concurrency, c.URL)
	fmt.Fprintf(&b, "machine: %s/%s, %d CPUs, %s (driver and server share it)\n\n", c.GOOS, c.GOARCH, c.CPUs, c.GoVersion)

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	// The first cell is padded by hand: tabwriter aligns every column
	// right, and names read better aligned left.
	fmt.Fprintf(tw, "%-20s\tworkers\tcalls\terrors\tcalls/s\tp50 ms\tp99 ms\tp50 vs noop\t\n", "kind / era")
	for _, p := range r.Pairs {
		ratio := "n/a"
		if p.P50VsNoop != nil {
			ratio = fmt.Sprintf("%.2fx", *p.P50VsNoop)
		}
		p50, p99 := "-", "-" // no successful call to time
		if p.Calls > p.Errors {
			p50, p99 = fmt.Sprintf("%.2f", p.P50Ms), fmt.Sprintf("%.2f", p.P99Ms)
		}
		fmt.Fprintf(tw, "%-20s\t%d\t%d\t%d\t%.1f\t%s\t%s\t%s\t\n",
			p.Kind+" / "+p.Era, p.Workers, p.Calls, p.Errors, p.CallsPerSec, p50, p99, ratio)
	}
	o := r.Overall
	fmt.Fprintf(tw, "%-20s\t%d\t%d\t%d\t%.1f\t%.2f\t%.2f\t\t\n", "all", c.Concurrency, o.Calls, o.Errors, o.CallsPerSec, o.P50Ms, o.P99Ms)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\nrun: %d calls, %d errors in %.2f s of wall time (stopped by %s), concurrency %d; warm-up: %d calls, %d errors\n",
		o.Calls, o.Errors, o.WallSeconds, o.StoppedBy, c.Concurrency, o.WarmupCalls, o.WarmupErrors)
	if o.Interrupted > 0 {
		fmt.Fprintf(&b, "     %d calls cut off by the interrupt are in no count\n", o.Interrupted)
	}
	if o.StoppedBy == "duration" {
		fmt.Fprintf(&b, "     --duration %s ran out before all %d calls were made\n", c.Duration, c.Calls)
	}

	s := r.Server
	if s.PID != 0 {
		fmt.Fprintf(&b, "\nserver (pid %d):\n", s.PID)
	} else {
		b.WriteString("\nserver:\n")
	}
	if s.Idle == nil && s.Warm == nil && s.End == nil && s.Closed == nil {
		b.WriteString("  memory: unavailable\n")
	} else {
		if s.PeakRSS > 0 {
			fmt.Fprintf(&b, "  RSS         %s warm -> %s end, peak %s (VmHWM, process lifetime)\n", s.Warm.rss(), s.End.rss(), mib(s.PeakRSS))
		} else {
			b.WriteString("  RSS         unavailable\n")
		}
		fmt.Fprintf(&b, "  heapInuse   %s warm -> %s end\n", s.Warm.heapInuse(), s.End.heapInuse())
		fmt.Fprintf(&b, "  goroutines  %s warm -> %s end, peak %d (the most in any sample; %d taken during the run)\n",
			s.Warm.goroutines(), s.End.goroutines(), s.PeakGoroutines, s.RunSamples)
		if s.Closed != nil {
			fmt.Fprintf(&b, "  after the clients closed (%.1f s): %s goroutines (%s before they connected), heapInuse %s, RSS %s\n",
				s.ClosedAfter, s.Closed.goroutines(), s.Idle.goroutines(), s.Closed.heapInuse(), s.Closed.rss())
		}
		for _, m := range []*memSample{s.Idle, s.Warm, s.End, s.Closed} {
			if m == nil || !m.HasHeap || !m.HasRSS {
				b.WriteString("  (?: not readable at that moment; see the notes)\n")
				break
			}
		}
	}
	if s.PID != 0 {
		fmt.Fprintf(&b, "  log: %d lines at warn or above\n", s.LogLines)
		if s.LogLines > 0 {
			tail := s.LogTail[max(0, len(s.LogTail)-10):]
			b.WriteString("    " + strings.Join(tail, "\n    ") + "\n")
		}
	}
	if s.Died {
		fmt.Fprintf(&b, "  DIED during the run: %s\n", s.Exit)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}

	var errs strings.Builder
	for _, p := range r.Pairs {
		for _, e := range p.FirstErrors {
			fmt.Fprintf(&errs, "  %s/%s: %d x %s\n", p.Kind, p.Era, e.Count, e.Message)
		}
		if p.OtherErrors > 0 {
			fmt.Fprintf(&errs, "  %s/%s: %d x other messages\n", p.Kind, p.Era, p.OtherErrors)
		}
	}
	if errs.Len() > 0 {
		b.WriteString("\nfirst errors:\n" + errs.String())
	}
	_, err := io.WriteString(out, b.String())
	return err
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// The sample's numbers for the text report, "?" when unread.

func (m *memSample) rss() string {
	if m == nil || !m.HasRSS {
		return "?"
	}
	return mib(m.RSS)
}

func (m *memSample) heapInuse() string {
	if m == nil || !m.HasHeap {
		return "?"
	}
	return mib(m.HeapInuse)
}

func (m *memSample) goroutines() string {
	if m == nil || !m.HasHeap {
		return "?"
	}
	return fmt.Sprint(m.Goroutines)
}
