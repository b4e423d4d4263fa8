package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/telemetry"
)

// The listing's full schemas may stay out of mcp-go's registered tools
// only while none of them binds a parameter to an HTTP header: mcp-go checks
// those bindings against the registered schema. If a schema ever gains an
// x-mcp-header, this fails, and the tool must be registered whole.
func TestRegisteredSchemasHideNoHeaderBindings(t *testing.T) {
	ts := newToolsetForTest(t)
	if _, err := ts.server(testConfig(t)); err != nil {
		t.Fatal(err)
	}
	defs, err := toolDefinitions()
	if err != nil {
		t.Fatal(err)
	}
	if len(defs.byName) != 5 {
		t.Fatalf("%d tools listed", len(defs.byName))
	}
	for name, tool := range defs.byName {
		if strings.Contains(string(tool.RawInputSchema), "x-mcp-header") {
			t.Errorf("%s binds a parameter to a header: register it with its full schema", name)
		}
		if len(tool.RawInputSchema) < 100 {
			t.Errorf("%s: the listed schema is not the full one: %s", name, tool.RawInputSchema)
		}
	}
}

// Every tool registered with mcp-go (by name only) has its full
// definition, built without error: the server cannot find out at start any
// more (they are built in the background), so this is where a broken
// definition fails.
func TestToolDefinitions(t *testing.T) {
	defs, err := toolDefinitions()
	if err != nil {
		t.Fatal(err)
	}
	registered := newServer(t).ListTools()
	if len(registered) != len(defs.byName) {
		t.Errorf("%d tools registered, %d defined", len(registered), len(defs.byName))
	}
	for name := range registered {
		if d, ok := defs.byName[name]; !ok || d.Name != name || d.Description == "" || len(d.RawOutputSchema) == 0 {
			t.Errorf("registered tool %s has no full definition: %+v", name, d)
		}
	}
	if defs.findRequired.Name != FindBestFlightName || !strings.Contains(string(defs.findRequired.RawInputSchema), `"required"`) {
		t.Errorf("findBestFlight for clients that cannot ask: %s", defs.findRequired.RawInputSchema)
	}
}

// If the definitions could not be built, the server still lists every tool
// by name and answers calls to them, and says so in the log once, not on
// every request.
func TestBrokenDefinitionsStillList(t *testing.T) {
	var logs serverbin.Log
	cfg := testConfig(t, func(c *Config) { c.Logger = zerolog.New(&logs) })
	ts, err := newToolset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.definitions = func() (definitions, error) { return definitions{}, errors.New("a schema that cannot be derived") }
	s, err := ts.server(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125)
	for range 2 {
		res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		slices.Sort(names)
		if want := []string{BookFlightName, FindAirportsName, FindBestFlightName, SaveItineraryName}; !slices.Equal(names, want) {
			t.Errorf("listed %v, want %v", names, want)
		}
	}
	if res := callTool(t, c, FindBestFlightName, jfkLHR); res.IsError {
		t.Errorf("a call without definitions: %s", text(res))
	}
	if n := strings.Count(logs.String(), "tool definitions could not be built"); n != 1 {
		t.Errorf("said %d times, want once:\n%s", n, logs.String())
	}
}

// One line per call at info: mcp-go's own per-request lines are at debug;
// its warnings stay warnings.
func TestOneLogLinePerCallAtInfo(t *testing.T) {
	var logs serverbin.Log
	s := newServer(t, func(c *Config) { c.Logger = zerolog.New(&logs).Level(zerolog.InfoLevel) })
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125)
	before := strings.Count(logs.String(), "\n")
	callTool(t, c, FindBestFlightName, jfkLHR)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")[before:]
	if len(lines) != 1 || !strings.Contains(lines[0], `"message":"call"`) {
		t.Errorf("%d lines at info for one call:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	SlogLogger(zerolog.New(&logs)).Warn("a warning")
	if !strings.Contains(logs.String(), `"level":"warn","component":"mcp-go"`) {
		t.Errorf("mcp-go's warning was lost or lowered: %s", logs.String())
	}
}

// At debug, mcp-go's own lines for each request and each tool call are
// there too; above it, mcp-go is given no request logger at all, so that
// no call builds lines nobody sees (requestLogger).
func TestMCPGoRequestLinesAtDebug(t *testing.T) {
	for _, tc := range []struct {
		level zerolog.Level
		want  bool
	}{{zerolog.DebugLevel, true}, {zerolog.InfoLevel, false}} {
		t.Run(tc.level.String(), func(t *testing.T) {
			var logs serverbin.Log
			s := newServer(t, func(c *Config) { c.Logger = zerolog.New(&logs).Level(tc.level) })
			callTool(t, connect(t, s, "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName, jfkLHR)
			got := logs.String()
			if !strings.Contains(got, `"message":"call"`) {
				t.Fatalf("no call line at %s:\n%s", tc.level, got)
			}
			for _, line := range []string{`"message":"mcp.request"`, `"message":"mcp.tool"`} {
				if strings.Contains(got, line) != tc.want {
					t.Errorf("at %s, %s logged: %v, want %v:\n%s", tc.level, line, !tc.want, tc.want, got)
				}
			}
			if l := requestLogger(zerolog.New(&logs).Level(tc.level)); (l != nil) != tc.want {
				t.Errorf("requestLogger at %s: %v", tc.level, l)
			}
		})
	}
}

// sessionText is a Stringer and sessionValue a LogValuer holding an id.
type sessionText struct{ id string }

func (s sessionText) String() string { return "session " + s.id }

type sessionValue struct{ id string }

func (s sessionValue) LogValue() slog.Value { return slog.StringValue(s.id) }

// A session id is its handle, so none reaches the log through mcp-go's
// logger, whatever shape the attribute holding it has: a string, an
// error's or a Stringer's text, a LogValuer, inside a group, added with
// With, or any other value (a struct, a slice, bytes), each of which
// becomes the id's digest. A replica's ids carry its name; both forms go.
func TestSlogLoggerRedactsSessionIDsInEveryShape(t *testing.T) {
	for _, id := range []string{"fs-0123456789abcdef0123456789abcdef", "fs-flightserver-2-fedcba9876543210fedcba9876543210"} {
		var logs bytes.Buffer
		l := SlogLogger(zerolog.New(&logs))
		l.With("with", id).Warn("message "+id,
			"string", id, "err", errors.New("no pending request found for session "+id), "stringer", sessionText{id}, "valuer", sessionValue{id},
			slog.Group("group", "inner", id, slog.Group("deeper", "err", fmt.Errorf("wrapped: %w", errors.New(id)))),
			"struct", struct{ Session string }{id}, "slice", []string{"a", id}, "bytes", []byte(`{"session":"`+id+`"}`), "raw", json.RawMessage(`"`+id+`"`),
			"number", 42)
		line := logs.String()
		if strings.Contains(line, id[len(id)-32:len(id)-16]) {
			t.Errorf("the line holds the id %s:\n%s", id, line)
		}
		ref := telemetry.SessionRef(id)
		for _, key := range []string{"with", "string", "err", "stringer", "valuer", "group.inner", "group.deeper.err", "struct", "slice", "bytes", "raw", "message"} {
			if !regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `":"(?:[^"\\]|\\.)*` + ref).MatchString(line) {
				t.Errorf("%s: no digest %s in its place:\n%s", key, ref, line)
			}
		}
		if !strings.Contains(line, `"number":42`) {
			t.Errorf("a value with no id was changed:\n%s", line)
		}
	}
}
