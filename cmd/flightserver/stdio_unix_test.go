//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
)

// SIGINT (Ctrl-C in a terminal) ends the server and is logged as what it
// is, not as stdin closing.
func TestStdioSIGINT(t *testing.T) {
	cmd, stdin, lines, logs := rawStdio(t)
	defer stdin.Close()
	handshake(t, stdin, lines, `{}`)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitExit(t, cmd, logs)
	if !strings.Contains(logs.String(), "interrupted by a signal") || strings.Contains(logs.String(), "stdin closed") {
		t.Errorf("log after SIGINT:\n%s", logs.String())
	}
}
