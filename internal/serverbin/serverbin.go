// Package serverbin builds and starts the flightserver binary for the tests
// that run it as a real process (the server's own, the demo, the load
// driver, the deployment): one way to do it, so they all test the same
// thing. It is imported only by tests.
package serverbin

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverproc"
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

// Log collects what a process (or a logger in the test's own process)
// writes, for a test to read while it still writes.
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

// Await waits up to d for the output to contain s, and says whether it
// does. A process's output is copied by a goroutine that may lag behind
// the protocol, so a test that reads the log after a call waits for it
// rather than racing it.
func (l *Log) Await(s string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if strings.Contains(l.String(), s) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
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

// StartHTTP runs bin over HTTP on a free loopback port (through
// serverproc, as the demo and the load driver do), with env added to the
// environment and args after the transport flags, and returns its address
// once it logs that it listens, the process (for signals and its exit) and
// its log. The process is killed when the test ends, unless it has exited.
func StartHTTP(t testing.TB, bin string, env []string, args ...string) (string, *serverproc.Process, *Log) {
	t.Helper()
	logs := &Log{}
	p, err := serverproc.Start(context.Background(), serverproc.Options{Bin: bin, Args: args, Env: env, Log: logs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-p.Exited():
		default:
			_ = p.Cmd.Process.Kill()
			<-p.Exited()
		}
	})
	return p.Addr, p, logs
}
