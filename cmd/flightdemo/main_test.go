package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/flightserver/flightserver/internal/serverbin"
)

var serverBin string

// TestMain builds the real server once; every profile runs against it.
// Started with FLIGHTDEMO_MAIN=1, the test binary is flightdemo itself
// (runMain), so a test can see main's exit code.
func TestMain(m *testing.M) {
	if os.Getenv("FLIGHTDEMO_MAIN") == "1" {
		os.Args = append([]string{"flightdemo"}, strings.Fields(os.Getenv("FLIGHTDEMO_ARGS"))...)
		main()
		os.Exit(0)
	}
	serverbin.Main(m, &serverBin)
}

// runMain runs flightdemo's main with args in a process of its own and
// returns its exit code and what it wrote.
func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FLIGHTDEMO_MAIN=1", "FLIGHTDEMO_ARGS="+strings.Join(args, " "))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// --help is for a newcomer: it says what the demo is, lists the flags in
// --flag form, and exits 0; a mistake exits 2 and says what it was.
func TestHelp(t *testing.T) {
	code, _, help := runMain(t, "--help")
	for _, want := range []string{"flightdemo is a scripted MCP host", "needs no network and no key", "\n  --profile string\n", "\n  --explain\n"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not say %q", want)
		}
	}
	if code != 0 {
		t.Errorf("--help exited %d", code)
	}
	if code, _, errs := runMain(t, "--no-such-flag"); code != 2 || !strings.Contains(errs, "flag provided but not defined: -no-such-flag") {
		t.Errorf("a bad flag: exit %d, %q", code, errs)
	}
}

// path is what a profile implies the server does: what it asks the host
// for and, call by call, how each ends. Timings are ignored.
type path struct {
	asked askedFor
	calls []string // per call: "method step:outcome/why,..." for searches, else the outcome words
}

// all is a search that asked nobody: what a host that declares nothing sees.
var all = "client_sampling:skipped/client_cannot_ask,server_llm:skipped/not_configured,deterministic:used,view:skipped/client_cannot_ask"

// noView is the view's attempt for a host without MCP Apps.
const noView = "view:skipped/client_cannot_ask"

// paths holds every profile; a profile without one fails the test, so a
// new profile comes with what it must show.
var paths = map[string]path{
	"plain-desktop":              {askedFor{}, []string{"deterministic " + all}},
	"plain-desktop-server-llm":   {askedFor{}, []string{"server_llm client_sampling:skipped/client_cannot_ask,server_llm:used," + noView}},
	"plain-desktop-missing-date": {askedFor{}, []string{"error client_cannot_ask"}},
	"form-user-fills":            {askedFor{Forms: 1}, []string{"deterministic trip_details:used," + all}},
	"form-user-declines":         {askedFor{Forms: 1}, []string{"error user_declined"}},
	"sampling-approves":          {askedFor{Sampling: 1}, []string{"client_sampling client_sampling:used," + noView}},
	"sampling-rejects":           {askedFor{Sampling: 1}, []string{"deterministic client_sampling:failed/user_rejected,server_llm:skipped/not_configured,deterministic:used," + noView}},
	"sampling-never-answers":     {askedFor{Sampling: 1}, []string{"deterministic client_sampling:failed/no_answer,server_llm:skipped/not_configured,deterministic:used," + noView}},
	"shares-roots":               {askedFor{Roots: 1}, []string{"deterministic " + all, "saved client_roots"}},
	"modern-everything":          {askedFor{Forms: 2, Sampling: 1, Roots: 1}, []string{"client_sampling trip_details:used,client_sampling:used," + noView, "booked confirm_form", "saved client_roots"}},
	"modern-sampling-rejects":    {askedFor{Sampling: 1}, []string{"host ended"}},
	"modern-server-llm-first":    {askedFor{}, []string{"server_llm server_llm:used," + noView}},
	"apps-host":                  {askedFor{}, []string{"deterministic client_sampling:skipped/client_cannot_ask,server_llm:skipped/not_configured,deterministic:used,view:used"}},
	"modern-nothing":             {askedFor{}, []string{"deterministic " + all, "error not_configured"}},
	"url-elicitation-only":       {askedFor{}, []string{"error url_mode_only"}},
}

// describe reduces a call to the words paths uses.
func describe(c callDone) string {
	switch {
	case c.HostEnded != "":
		return "host ended"
	case c.Method != "":
		var as []string
		for _, a := range c.Attempts {
			d := a.Step + ":" + a.Outcome
			if a.Why != "" {
				d += "/" + a.Why
			}
			as = append(as, d)
		}
		return c.Method + " " + strings.Join(as, ",")
	case c.Why != "":
		return "error " + c.Why
	case c.IsError:
		return "error"
	case c.Tool == "saveItinerary":
		return "saved " + c.Used
	case c.Tool == "bookFlight":
		return "booked " + c.Used
	}
	return "ok"
}

func playJSON(t *testing.T, args ...string) []runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out, errs bytes.Buffer
	if err := run(ctx, append([]string{"--server", serverBin, "--json"}, args...), &out, &errs); err != nil {
		t.Fatalf("flightdemo %v: %v\n%s\n%s", args, err, errs.String(), out.String())
	}
	var results []runResult
	if err := json.Unmarshal(out.Bytes(), &results); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out.String())
	}
	return results
}

func checkPaths(t *testing.T, results []runResult) {
	t.Helper()
	for _, r := range results {
		want, ok := paths[r.Profile]
		if !ok {
			t.Errorf("profile %s has no expected path in this test", r.Profile)
			continue
		}
		if r.Error != "" {
			t.Errorf("%s: %s", r.Profile, r.Error)
			continue
		}
		if r.AskedFor != want.asked {
			t.Errorf("%s over %s: asked for %+v, want %+v", r.Profile, r.Transport, r.AskedFor, want.asked)
		}
		var got []string
		for _, c := range r.Calls {
			got = append(got, describe(c))
		}
		if strings.Join(got, " | ") != strings.Join(want.calls, " | ") {
			t.Errorf("%s over %s:\n got  %s\n want %s", r.Profile, r.Transport, strings.Join(got, " | "), strings.Join(want.calls, " | "))
		}
	}
}

func TestEveryProfileTakesItsPath(t *testing.T) {
	results := playJSON(t)
	if len(results) != len(profiles) {
		t.Fatalf("%d results for %d profiles", len(results), len(profiles))
	}
	checkPaths(t, results)
	// The table of them all, the README's first demo, fits a terminal of
	// 120 columns, every reason included.
	var out bytes.Buffer
	if err := table(&out, results); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > tableWidth {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
		}
	}
	for _, want := range []string{"are the whole result", "    attempts  client_sampling:skipped → server_llm:skipped → deterministic:used", "    outcome   findBestFlight: ok; bookFlight: booked (confirm_form)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// Over streamable HTTP the paths are the same; the profiles that need the
// server to reach the host mid-call (legacy sampling and roots through the
// GET stream, modern rounds) are the ones worth repeating.
func TestProfilesOverHTTP(t *testing.T) {
	results := playJSON(t, "--transport", "http", "--profile", "sampling-approves,form-user-fills,shares-roots,modern-everything,plain-desktop-server-llm")
	if len(results) != 5 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.Transport != "http" {
			t.Errorf("%s ran over %s", r.Profile, r.Transport)
		}
	}
	checkPaths(t, results)
}

// --url plays against a server someone else started.
func TestAgainstARunningServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Started as an operator would for hosts on the same machine.
	url, stop, err := startHTTPServer(ctx, serverBin, nil, []string{"--shared-filesystem"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	results := playJSON(t, "--url", url+"/mcp", "--profile", "plain-desktop,modern-everything")
	checkPaths(t, results)
}

func TestExplainTellsTheStory(t *testing.T) {
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, []string{"--server", serverBin, "--profile", "form-user-declines,modern-everything,modern-sampling-rejects", "--explain"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	story := out.String()
	for _, want := range []string{
		"── form-user-declines ── 2025-11-25, stdio",
		"initialize: protocol 2025-11-25, declares [elicitation]",
		"form (elicitation) with fields [cabin date destination origin passengers], requiring [date]",
		"the user clicks Decline",
		"isError: findBestFlight did not search: it needs the departure date",
		"── modern-everything ── 2026-07-28, stdio",
		"server/discover",
		`input_required: the server needs the host first, "trip": form`,
		`"rank": sampling`,
		"with answers to [rank] and the server's signed requestState",
		"shares its workspace as the only root",
		"step=client_sampling outcome=used",
		"client_sampling    used",
		// A 2026-07-28 host whose user rejects sampling ends the call
		// itself: the story says so rather than an empty summary.
		"findBestFlight → the host ended the call: ",
	} {
		if !strings.Contains(story, want) {
			t.Errorf("the story lacks %q", want)
		}
	}
	// A field the server leaves empty (the why of a rung that was used)
	// is left out of the story, not shown as "why=".
	if empty := regexp.MustCompile(`\b\w+=( |$)`).FindString(story); empty != "" {
		t.Errorf("the story shows an empty field: %q", empty)
	}
	if t.Failed() {
		t.Log(story)
	}
}

func TestTableAndFlags(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	if err := run(ctx, []string{"--server", serverBin, "--profile", "plain-desktop, sampling-approves"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "PROFILE") || !strings.HasPrefix(lines[1], "plain-desktop ") || !strings.HasPrefix(lines[4], "sampling-approves ") ||
		!strings.Contains(lines[4], "client_sampling") || lines[5] != "    attempts  client_sampling:used → view:skipped" {
		t.Errorf("table:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "WHY") || !strings.Contains(out.String(), "client did not declare sampling") {
		t.Errorf("the table does not give the server's reasons:\n%s", out.String())
	}

	out.Reset()
	if err := run(ctx, []string{"--list"}, &out, &bytes.Buffer{}); err != nil || strings.Count(out.String(), "\n") != len(profiles) {
		t.Errorf("--list: %v\n%s", err, out.String())
	}
	for _, bad := range [][]string{{"--profile", "nope"}, {"--transport", "carrier-pigeon"}, {"extra"}, {"--no-such-flag"}} {
		if err := run(ctx, append([]string{"--server", serverBin}, bad...), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	// A server binary that does not exist is a clear error, not a hang.
	err := run(ctx, []string{"--server", filepath.Join(t.TempDir(), "missing"), "--profile", "plain-desktop"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "plain-desktop did not complete") {
		t.Errorf("missing server: %v", err)
	}
}

// The form the demo's user submits keeps the server's defaults and fills
// only what the server needs.
func TestFill(t *testing.T) {
	got := fill(map[string]any{"type": "object", "properties": map[string]any{
		"origin": map[string]any{"type": "string", "default": "BOS"}, "date": map[string]any{"type": "string"},
		"passengers": map[string]any{"type": "integer", "default": 2}, "confirm": map[string]any{"type": "boolean", "default": false},
	}})
	if got["origin"] != "BOS" || got["passengers"] != float64(2) || got["confirm"] != true || got["date"] == nil {
		t.Errorf("filled %v", got)
	}
}
