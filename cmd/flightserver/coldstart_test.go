package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// releaseBuild builds the package in dir (relative to this one) like the
// release and the container image (stripped, without paths), once per test
// binary, so that the servers compared start from binaries made alike.
func releaseBuild(dir, name string, tags ...string) func() (string, error) {
	return sync.OnceValues(func() (string, error) {
		bin := filepath.Join(filepath.Dir(binary), name)
		args := []string{"build", "-trimpath", "-ldflags", "-s -w", "-o", bin}
		if len(tags) > 0 {
			args = append(args, "-tags", strings.Join(tags, ","))
		}
		out, err := exec.Command("go", append(args, dir)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", dir, err, out)
		}
		return bin, nil
	})
}

var (
	noopServer    = releaseBuild("./testdata/noopserver", "noopserver")
	floorServer   = releaseBuild("./testdata/noopserver", "floorserver", "floor")
	releaseServer = releaseBuild(".", "flightserver-release")
)

// BenchmarkColdStart is the time from exec to the first answer over stdio
// (the initialize result), the wait a desktop host sees when it starts the
// server, and the memory resident then (MiB-rss), beside the smallest Go
// MCP server (testdata/noopserver) and the same built with the libraries
// flightserver must ship linked in (-tags floor): floor against
// noop is what linking them costs, flightserver against floor what its own
// code does at start.
func BenchmarkColdStart(b *testing.B) {
	noop, err := noopServer()
	if err != nil {
		b.Fatalf("build noopserver: %v", err)
	}
	floor, err := floorServer()
	if err != nil {
		b.Fatalf("build floorserver: %v", err)
	}
	flightserver, err := releaseServer()
	if err != nil {
		b.Fatalf("build flightserver: %v", err)
	}
	for _, tc := range []struct{ name, bin string }{{"noop", noop}, {"floor", floor}, {"flightserver", flightserver}} {
		b.Run(tc.name, func(b *testing.B) {
			var rss float64
			for b.Loop() {
				rss = max(rss, firstAnswer(b, tc.bin))
			}
			b.ReportMetric(rss, "MiB-rss")
		})
	}
}

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// firstAnswer starts bin, sends initialize and waits for its answer, and
// returns the process's peak RSS then, in MiB; reading it and stopping the
// process are outside the timed part.
func firstAnswer(b *testing.B, bin string) float64 {
	cmd := exec.Command(bin)
	if strings.Contains(filepath.Base(bin), "flightserver") {
		cmd = exec.Command(bin, "--log-level", "error")
	}
	stdin, stdout := startPiped(b, cmd)
	if _, err := io.WriteString(stdin, initializeLine); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, `"protocolVersion"`) {
		b.Fatalf("first answer %q: %v", line, err)
	}
	b.StopTimer()
	rss := float64(highWaterKB(b, cmd.Process.Pid)) / 1024
	stdin.Close()
	_ = cmd.Wait()
	b.StartTimer()
	return rss
}

// highWaterKB is a running process's peak resident memory (VmHWM), in KB.
func highWaterKB(tb testing.TB, pid int) int64 {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				tb.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb
		}
	}
	tb.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}
