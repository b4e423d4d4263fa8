// Package serverbin builds and starts the flightserver binary for the tests
// that run it as a real process (the server's own, the demo, the load
// driver, the deployment): one way to do it, so they all test the same
// thing. It is imported only by tests.
package serverbin

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Main builds the server into a temporary directory, sets *bin to its path,
// runs the package's tests and exits with their status. Call it from
// TestMain.
func Main(m *testing.M, bin *string) {
	os.Exit(run(m, bin))
}

func run(m *testing.M, bin *string) int {
	dir, err := os.MkdirTemp("", "flightserver-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "serverbin:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	*bin = filepath.Join(dir, "flightserver")
	build := exec.Command("go", "build", "-o", *bin, "github.com/flightserver/flightserver/cmd/flightserver")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "serverbin: build flightserver:", err)
		return 1
	}
	return m.Run()
}

// Log collects a process's output for a test to read while it still runs.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// FreeAddr is a loopback address with a port nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// StartHTTP runs bin over HTTP on a free loopback port, with env added to
// the environment and args after the transport flags, and returns its
// address once it logs that it listens, the command (for signals) and its
// log. The process is killed when the test ends, unless the test has
// already waited for it.
func StartHTTP(t testing.TB, bin string, env []string, args ...string) (string, *exec.Cmd, *Log) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--transport", "http", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	addr := make(chan string, 1)
	logs := &Log{}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			_, _ = logs.Write(append(sc.Bytes(), '\n'))
			var line struct{ Message, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Message == "listening" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		return a, cmd, logs
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not start listening:\n%s", bin, logs.String())
		return "", nil, nil
	}
}
