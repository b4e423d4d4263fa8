// Command benchreport turns `go test -bench -benchmem -count N` output into
// the tables of docs/BENCHMARKS.md: the median of each benchmark, and every
// figure as a ratio against the baseline measured in the same run (the
// no-op tool, called the same way), so the numbers compare across machines.
//
//	go test -run '^$' -bench . -benchmem -count 5 ./flights ./ranking/... ./tools | go run ./scripts/benchreport
//
// scripts/bench.sh runs exactly that.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A result line: name, iterations, then value/unit pairs.
var line = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)$`)

type samples struct{ ns, cpu, bytes, allocs []float64 }

// floors are the benchmarks measured against the peer kit's floor in
// process (BenchmarkHandler's peer stack), with the most time each may take
// against it: issue 26's throughput goals (0.85x and 0.9x) as time.
var floors = map[string]struct {
	base string
	most float64
}{
	"Handler/full/findBestFlight":        {"Handler/peer/replay", 1 / 0.85},
	"Handler/full/noop":                  {"Handler/peer/noop", 1 / 0.9},
	"Handler/full/findBestFlight/legacy": {"Handler/peer/replay/legacy", 1 / 0.85},
	"Handler/full/noop/legacy":           {"Handler/peer/noop/legacy", 1 / 0.9},
}

func main() {
	if err := report(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func report(in io.Reader, out io.Writer) error {
	runs := map[string]*samples{}
	var order []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := strings.TrimPrefix(m[1], "Benchmark")
		s, ok := runs[name]
		if !ok {
			s = &samples{}
			runs[name] = s
			order = append(order, name)
		}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return fmt.Errorf("%s: %q is not a number", name, f[i])
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "cpu-ns/op":
				s.cpu = append(s.cpu, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no benchmark results in the input")
	}

	fmt.Fprintln(out, "| benchmark | runs | median time/op | B/op | allocs/op |")
	fmt.Fprintln(out, "|---|---|---|---|---|")
	for _, name := range order {
		s := runs[name]
		fmt.Fprintf(out, "| %s | %d | %s | %.0f | %.0f |\n", name, len(s.ns), duration(median(s.ns)), median(s.bytes), median(s.allocs))
	}

	// Ratios: each call against its baseline in the same group (the no-op
	// tool called the same way, or the deterministic call for the sampling
	// rounds); the provider and the ranker against the in-process no-op call,
	// to show their share of one.
	// A model's answer is read against the answer in the shape asked for
	// (the hostile shapes show what bounds their cost); a measurement of
	// memory has no time baseline.
	baseline := func(name string) string {
		if f, ok := floors[name]; ok && runs[f.base] != nil {
			return f.base
		}
		switch {
		case strings.HasPrefix(name, "ParseAnswer/"):
			return "ParseAnswer/asked_for"
		case strings.HasPrefix(name, "IdleSessionMemory"):
			return ""
		}
		if i := strings.LastIndex(name, "/"); i > 0 {
			for _, b := range []string{"/noop", "/deterministic"} {
				if runs[name[:i]+b] != nil {
					return name[:i] + b
				}
			}
			// A group with a baseline=<what> member: the same work done
			// another way (DecodeArguments against encoding/json).
			for _, other := range order {
				if strings.HasPrefix(other, name[:i]+"/baseline=") {
					return other
				}
			}
		}
		return "RoundTrip/inprocess/legacy/noop"
	}
	fmt.Fprintln(out)
	// The CPU ratio is there when both report cpu-ns/op (the process's CPU
	// time a call: on a shared machine it moves less than the wall time).
	fmt.Fprintln(out, "| benchmark | baseline (same run) | time ratio | CPU ratio | added time/op | target |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	for _, name := range order {
		base := baseline(name)
		_, isFloor := floors[name]
		if name == base || runs[base] == nil || (!isFloor && (strings.HasSuffix(name, "/noop") || strings.HasSuffix(name, "/deterministic"))) {
			continue
		}
		t, b := median(runs[name].ns), median(runs[base].ns)
		cpu := ""
		if len(runs[name].cpu) > 0 && len(runs[base].cpu) > 0 && median(runs[base].cpu) > 0 {
			cpu = fmt.Sprintf("%.2fx", median(runs[name].cpu)/median(runs[base].cpu))
		}
		target := ""
		switch f, ok := floors[name]; {
		case ok:
			target = fmt.Sprintf("≤ %.2fx: %s", f.most, met(t/b <= f.most))
		case strings.HasSuffix(name, "/findBestFlight"):
			target = "≤ 1.5x: " + met(t/b <= 1.5)
		case strings.HasPrefix(name, "SamplingRounds/"):
			target = "added < 1 ms: " + met(t-b < 1e6)
		}
		fmt.Fprintf(out, "| %s | %s | %.2fx | %s | %s | %s |\n", name, base, t/b, cpu, duration(t-b), target)
	}
	return nil
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func duration(ns float64) string {
	if ns < 0 {
		return "-" + duration(-ns)
	}
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
