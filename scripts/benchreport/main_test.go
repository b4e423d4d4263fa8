package main

import (
	"strings"
	"testing"
)

func TestReportMediansAndRatios(t *testing.T) {
	in := `goos: linux
BenchmarkRank-2   	   20000	     30000 ns/op	    9913 B/op	      42 allocs/op
BenchmarkRank-2   	   20000	     10000 ns/op	    9913 B/op	      42 allocs/op
BenchmarkRank-2   	   20000	     20000 ns/op	    9913 B/op	      42 allocs/op
BenchmarkRoundTrip/inprocess/legacy/noop-2    2000   40000 ns/op   7000 B/op   140 allocs/op
BenchmarkRoundTrip/inprocess/legacy/findBestFlight-2    2000   50000 ns/op   90000 B/op   1300 allocs/op
BenchmarkRoundTrip/http/modern/noop-2    2000   100000 ns/op   7000 B/op   140 allocs/op
BenchmarkRoundTrip/http/modern/findBestFlight-2    2000   200000 ns/op   90000 B/op   1300 allocs/op
BenchmarkWire/http/modern/noop-2    2000   100000 ns/op   7000 B/op   140 allocs/op
BenchmarkWire/http/modern/canned-2    2000   110000 ns/op   7000 B/op   140 allocs/op
BenchmarkSamplingRounds/deterministic-2    2000   200000 ns/op   7000 B/op   140 allocs/op
BenchmarkSamplingRounds/ask-2    2000   300000 ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/peer/noop-2    2000   20000 ns/op   40000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/peer/replay-2    2000   50000 ns/op   100000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/full/noop-2    2000   21000 ns/op   44000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/full/findBestFlight-2    2000   70000 ns/op   120000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/peer/replay/legacy-2    2000   40000 ns/op   80000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkHandler/full/findBestFlight/legacy-2    2000   60000 ns/op   100000 cpu-ns/op   7000 B/op   140 allocs/op
BenchmarkDecodeArguments/baseline=encoding_json-2    2000   10000 ns/op   1000 B/op   30 allocs/op
BenchmarkDecodeArguments/DecodeArguments-2    2000   2000 ns/op   176 B/op   4 allocs/op
PASS
`
	var out strings.Builder
	if err := report(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Rank | 3 | 20.0 µs | 9913 | 42 |",
		"| Rank | RoundTrip/inprocess/legacy/noop | 0.50x |  | -20.0 µs |  |",
		"| RoundTrip/inprocess/legacy/findBestFlight | RoundTrip/inprocess/legacy/noop | 1.25x |  | 10.0 µs | ≤ 1.5x: met |",
		"| RoundTrip/http/modern/findBestFlight | RoundTrip/http/modern/noop | 2.00x |  | 100.0 µs | ≤ 1.5x: not met |",
		"| Wire/http/modern/canned | Wire/http/modern/noop | 1.10x |  | 10.0 µs |  |",
		"| SamplingRounds/ask | SamplingRounds/deterministic | 1.50x |  | 100.0 µs | added < 1 ms: met |",
		"| Handler/full/noop | Handler/peer/noop | 1.05x | 1.10x | 1.0 µs | ≤ 1.11x: met |",
		"| Handler/full/findBestFlight | Handler/peer/replay | 1.40x | 1.20x | 20.0 µs | ≤ 1.18x: not met |",
		"| Handler/full/findBestFlight/legacy | Handler/peer/replay/legacy | 1.50x | 1.25x | 20.0 µs | ≤ 1.18x: not met |",
		"| DecodeArguments/DecodeArguments | DecodeArguments/baseline=encoding_json | 0.20x |  | -8.0 µs |  |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if err := report(strings.NewReader("PASS\n"), &out); err == nil {
		t.Error("no results: no error")
	}
}
