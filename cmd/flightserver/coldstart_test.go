package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var noopServer = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(filepath.Dir(binary), "noopserver")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/noopserver").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// BenchmarkColdStart is the time from exec to the first answer over stdio
// (the initialize result), the wait a desktop host sees when it starts the
// server, beside the smallest Go MCP server's (testdata/noopserver): loading
// the embedded airports and airlines and building the tools is the difference.
func BenchmarkColdStart(b *testing.B) {
	noop, err := noopServer()
	if err != nil {
		b.Fatalf("build noopserver: %v", err)
	}
	for _, tc := range []struct{ name, bin string }{{"noop", noop}, {"flightserver", binary}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				firstAnswer(b, tc.bin)
			}
		})
	}
}

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// firstAnswer starts bin, sends initialize and waits for its answer; the
// process is stopped outside the timed part.
func firstAnswer(b *testing.B, bin string) {
	cmd := exec.Command(bin, "--log-level", "error")
	if !strings.HasSuffix(bin, "flightserver") {
		cmd = exec.Command(bin)
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
	stdin.Close()
	_ = cmd.Wait()
	b.StartTimer()
}
