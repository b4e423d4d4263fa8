// Package serverbin builds the flightserver binary for the tests of the
// commands and files that run it as a real process (the demo, the load
// driver, the deployment): one way to do it, so they all test the same
// thing. It is imported only by tests.
package serverbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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
