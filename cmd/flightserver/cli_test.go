package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/serverbin"
)

// runBinary runs the built server with args to its end and returns its
// exit code, stdout and stderr.
func runBinary(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("run %v: %v", args, err)
	return 0, "", ""
}

// --help is a newcomer's first look: it exits 0, lists every flag in --flag
// form with its environment variable, in groups, in the order of
// helpGroups, and says how durations are written.
func TestHelpIsGroupedAndExitsZero(t *testing.T) {
	code, stdout, help := runBinary(t, nil, "--help")
	if code != 0 || stdout != "" {
		t.Fatalf("--help exited %d, stdout %q", code, stdout)
	}
	last := -1
	for _, g := range helpGroups {
		at := strings.Index(help, "\n"+g.title+":\n")
		if at < 0 || at < last {
			t.Errorf("group %q missing or out of order", g.title)
		}
		last = at
		for _, f := range g.flags {
			want := "\n  --" + f + " "
			if f == "version" || f == "load-test-tools" || f == "shared-filesystem" || f == "allow-unauthenticated" || f == "limit-loopback" {
				want = "\n  --" + f // booleans take no value
			}
			if !strings.Contains(help, want) {
				t.Errorf("--%s is not listed in --flag form", f)
			}
		}
	}
	for _, want := range []string{
		"(FLIGHTSERVER_EXPORT_DIR)", "(FLIGHTSERVER_LOG_FORMAT)", "Durations are written like 500ms, 20s, 1m30s",
		"--sampling-timeout duration", "(default 20s)", "synthetic sample data",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not say %q", want)
		}
	}
	if strings.Contains(help, "\nOther:\n") {
		t.Errorf("a flag belongs to no group of helpGroups:\n%s", help[strings.Index(help, "\nOther:\n"):])
	}
	if single := regexp.MustCompile(`(?m)^\s+-[a-z]`).FindString(help); single != "" {
		t.Errorf("a flag in -flag form: %q", single)
	}
	if strings.Contains(help, "(FLIGHTSERVER_VERSION)") {
		t.Error("--version is listed with a variable it does not read")
	}
}

// A mistake on the command line exits 2 with one line that says what to do;
// a failure of the server itself exits 1.
func TestExitCodes(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		env  []string
		args []string
		code int
		says string
	}{
		{nil, []string{"--bogus"}, 2, "flightserver: unknown flag --bogus: flightserver --help lists the flags\n"},
		{nil, []string{"--transport", "sse"}, 2, `flightserver: --transport "sse": use stdio or http` + "\n"},
		{[]string{"FLIGHTSERVER_SAMPLING_TIMEOUT=20"}, nil, 2, `flightserver: FLIGHTSERVER_SAMPLING_TIMEOUT="20": not a duration: write it like 20s, 1m30s or 500ms` + "\n"},
		{nil, []string{"--transport", "http", "--addr", busy.Addr().String()}, 1, "address already in use"},
		{nil, []string{"--version"}, 0, ""},
	} {
		t.Run(strings.Join(append(tc.env, tc.args...), " "), func(t *testing.T) {
			code, _, stderr := runBinary(t, tc.env, tc.args...)
			lastLine := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
			if code != tc.code || !strings.Contains(lastLine, tc.says) || (tc.code == 2 && stderr != tc.says) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.says)
			}
		})
	}
}

// A person who runs the server in a terminal reads console lines; a host,
// a container runtime or a collector (stderr a pipe or a file) gets JSON,
// one object a line. --log-format json or console overrides.
func TestConsoleLogsOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		console bool
	}{{nil, true}, {[]string{"--log-format", "json"}, false}} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			// CI (CI=true, set by .ci/run) runs on Linux, where /dev/ptmx
			// is always there: a skip there would hide a broken test.
			if os.Getenv("CI") != "" {
				t.Fatalf("no pseudo-terminal, and CI needs this test to run: %v", err)
			}
			t.Skipf("no pseudo-terminal on this machine: %v", err)
		}
		cmd := exec.Command(binary, append([]string{"--transport", "http", "--addr", "127.0.0.1:0"}, tc.args...)...)
		cmd.Stderr = tty
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		lines := make(chan string, 16)
		go func() {
			sc := bufio.NewScanner(ptmx)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		var seen []string
		deadline := time.After(15 * time.Second)
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				seen = append(seen, l)
				if strings.Contains(l, "listening") {
					break read
				}
			case <-deadline:
				break read
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		ptmx.Close()
		i := slices.IndexFunc(seen, func(l string) bool { return strings.Contains(l, "listening") })
		if i < 0 {
			t.Fatalf("%v: no listening line on the terminal: %q", tc.args, seen)
		}
		// Console: "20:04:05 INF listening addr=127.0.0.1:… endpoint=…".
		isConsole := regexp.MustCompile(`^\S+ INF listening addr=127\.0\.0\.1:\d+`).MatchString(seen[i])
		if isConsole != tc.console || (!tc.console && !strings.HasPrefix(seen[i], "{")) {
			t.Errorf("%v: %q, want console %v", tc.args, seen[i], tc.console)
		}
	}
}

// The first Ctrl-C drains (calls in flight may finish); a second one, from a
// person who will not wait, exits at once, 130, saying so.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	_, p, logs := serverbin.StartHTTP(t, binary, nil, "--drain-delay", "1h")
	if err := p.Cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if !logs.Await(`"message":"draining: /readyz answers 503"`, 10*time.Second) {
		t.Fatalf("no drain after the first interrupt:\n%s", logs.String())
	}
	if err := p.Cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("still running after a second interrupt, an hour's drain delay ahead of it")
	}
	var exit *exec.ExitError
	if !errors.As(p.ExitErr(), &exit) || exit.ExitCode() != 130 || !strings.Contains(logs.String(), "flightserver: a second interrupt (Ctrl-C): exiting now") {
		t.Errorf("exit %v, log:\n%s", p.ExitErr(), logs.String())
	}
	if !strings.Contains(logs.String(), `"drainDelay_ms":3600000`) {
		t.Errorf("the drain line does not give its delay in ms:\n%s", logs.String())
	}
}

// A random state key is worth a warning only where a retry could reach
// another process: an HTTP server reachable from other machines. On loopback
// (a desktop host's own server) and over stdio it is not (stdio_test.go).
func TestStateKeyWarningOnlyBeyondLoopback(t *testing.T) {
	_, _, logs := serverbin.StartHTTP(t, binary, nil)
	if strings.Contains(logs.String(), "no state key configured") {
		t.Errorf("a loopback server warned about its random state key:\n%s", logs.String())
	}
	// Beyond loopback: run in-process, and stop it before it listens there
	// (its metrics port is taken), once the warning is out.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	var out bytes.Buffer
	err = run(context.Background(), []string{"--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated", "--metrics-addr", busy.Addr().String()},
		env(nil), nil, io.Discard, &out)
	if err == nil || !strings.Contains(err.Error(), "--metrics-addr") {
		t.Fatalf("run: %v", err)
	}
	if !regexp.MustCompile(`\{"level":"warn",[^\n]*"message":"no state key configured \(--state-key\)`).MatchString(out.String()) {
		t.Errorf("no warning about the random state key beyond loopback:\n%s", out.String())
	}
	out.Reset()
	_ = run(context.Background(), []string{"--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated", "--metrics-addr", busy.Addr().String(),
		"--state-key", newKey}, env(nil), nil, io.Discard, &out)
	if strings.Contains(out.String(), "no state key configured") {
		t.Errorf("warned with a state key set:\n%s", out.String())
	}
}

// The documented Claude Desktop snippet names an export folder that may not
// exist yet: the server starts all the same (a host would only show
// "failed"), logs it, and saveItinerary says what to create. A leading ~ is
// the user's home, since hosts start servers without a shell.
func TestMissingExportDirIsNoStartupFailure(t *testing.T) {
	home := t.TempDir()
	var stderr serverbin.Log
	c := startStdio(t, []string{"HOME=" + home, "FLIGHTSERVER_EXPORT_DIR=~/Documents/Trips"}, nil, &stderr, client.WithProtocolVersion(eras[0].version))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	found, err := call(ctx, c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()})
	if err != nil || found.IsError {
		t.Fatalf("search: %v", err)
	}
	var r struct {
		Flights []struct {
			ID string `json:"id"`
		} `json:"flights"`
	}
	structured(t, found, &r)
	want := filepath.Join(home, "Documents", "Trips")
	res, err := call(ctx, c, "saveItinerary", map[string]any{"flightId": r.Flights[0].ID})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), want+" does not exist") || !strings.Contains(toolText(res), "Create that folder") {
		t.Fatalf("save into a missing folder: %v %s", err, toolText(res))
	}
	if !stderr.Await(`"exportDir":"`+want+`"`, 5*time.Second) {
		t.Errorf("no warning at start about the missing folder:\n%s", stderr.String())
	}
	if err := os.MkdirAll(want, 0o755); err != nil {
		t.Fatal(err)
	}
	res, err = call(ctx, c, "saveItinerary", map[string]any{"flightId": r.Flights[0].ID})
	if err != nil || res.IsError {
		t.Fatalf("once the folder exists: %v %s", err, toolText(res))
	}
}

// toolText is a result's text content.
func toolText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
