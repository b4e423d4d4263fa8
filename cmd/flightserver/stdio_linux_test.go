package main

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/flightserver/flightserver/internal/serverbin"
)

// peakRSS is an exited process's peak resident set, and true: Linux's
// rusage gives it in kilobytes.
func peakRSS(t *testing.T, cmd *exec.Cmd) (int64, bool) {
	t.Helper()
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage")
	}
	return ru.Maxrss * 1024, true
}

// On a terminal, the server says once, in plain words, what it is waiting
// for; with a host on the other end (a pipe) it says nothing of the sort.
func TestStdioTerminalNotice(t *testing.T) {
	ptm, pts := openPTY(t)
	cmd := exec.Command(binary)
	logs := &serverbin.Log{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	defer ptm.Close()
	go func() { _, _ = io.Copy(io.Discard, ptm) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), `"message":"starting"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	waitExit(t, cmd, logs)
	out := logs.String()
	if strings.Count(out, "speaks MCP") != 1 || !strings.Contains(out, "go run ./cmd/flightdemo") || !strings.Contains(out, "Ctrl-C") {
		t.Errorf("stderr on a terminal:\n%s", out)
	}
	if strings.Contains(out, "no state key configured") {
		t.Errorf("a terminal user was warned about the state key:\n%s", out)
	}
	_, _, _, piped := rawStdio(t)
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(piped.String(), "speaks MCP") {
		t.Errorf("the notice went to a host:\n%s", piped.String())
	}
}

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx).
func openPTY(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptm.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlock pty: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptm.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("pty number: %v", errno)
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pts: %v", err)
	}
	return ptm, pts
}
