package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/export"
	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/mcptest"
	"github.com/flightserver/flightserver/internal/unprivileged"
)

// rootsClient is a client's roots handler whose roots can change, and that
// can stay silent or answer with an error.
type rootsClient struct {
	mu     sync.Mutex
	dirs   []string
	calls  int
	silent bool
	fails  bool
}

func (r *rootsClient) set(dirs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirs = dirs
}

func (r *rootsClient) asked() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

func (r *rootsClient) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	r.mu.Lock()
	r.calls++
	dirs, silent, fails := r.dirs, r.silent, r.fails
	r.mu.Unlock()
	if silent {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if fails {
		return nil, errors.New("the host's workspace is not open")
	}
	res := &mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, d := range dirs {
		uri := d
		if !strings.Contains(d, "://") {
			uri = fileURI(d)
		}
		res.Roots = append(res.Roots, mcp.Root{URI: uri, Name: filepath.Base(d)})
	}
	return res, nil
}

// aFlight is an id findBestFlight returns for JFK-LHR on 2026-12-15.
func aFlight(t *testing.T) string {
	t.Helper()
	var r FindResult
	decode(t, callTool(t, connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125), FindBestFlightName, jfkLHR), &r)
	return r.Flights[0].ID
}

func save(t *testing.T, c *client.Client, args map[string]any) (SaveResult, *mcp.CallToolResult) {
	t.Helper()
	res := callTool(t, c, SaveItineraryName, args)
	var r SaveResult
	if !res.IsError {
		decodeInto(t, res, &r)
	}
	return r, res
}

func TestSaveWhereToWrite(t *testing.T) {
	id := aFlight(t)
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			exportDir, rootA, rootB := t.TempDir(), t.TempDir(), t.TempDir()
			if err := os.Mkdir(filepath.Join(rootB, "trips"), 0o755); err != nil {
				t.Fatal(err)
			}

			// No roots, no export directory: a refusal that says how to fix it.
			c := connect(t, newServer(t), "inprocess", era.Version)
			_, res := save(t, c, map[string]any{"flightId": id})
			if !res.IsError || !strings.Contains(text(res), "--export-dir") || !strings.Contains(text(res), "client did not declare roots") {
				t.Errorf("no roots, no export dir: %s", text(res))
			}

			// No roots, an export directory: written there.
			withExport := newServer(t, func(c *Config) { c.ExportDir = exportDir })
			c = connect(t, withExport, "inprocess", era.Version)
			r, res := save(t, c, map[string]any{"flightId": id})
			if res.IsError || usedStep(r.Attempts) != stepExportDir || filepath.Dir(r.Path) != exportDir || !strings.HasPrefix(r.URI, "file://") {
				t.Fatalf("export dir: %+v %s", r, text(res))
			}
			if b, err := os.ReadFile(r.Path); err != nil || !strings.HasPrefix(string(b), "BEGIN:VCALENDAR\r\n") || int64(len(b)) != r.Bytes {
				t.Errorf("file %s: %v %.40q", r.Path, err, b)
			}
			if _, res := save(t, c, map[string]any{"flightId": id, "directory": rootA}); !res.IsError || !strings.Contains(text(res), "not inside an allowed directory") {
				t.Errorf("directory outside the export dir: %s", text(res))
			}

			// Roots declared: the first root, or the one the directory names.
			roots := &rootsClient{}
			roots.set(rootA, rootB)
			c = connect(t, withExport, "inprocess", era.Version, client.WithRootsHandler(roots))
			r, res = save(t, c, map[string]any{"flightId": id, "format": "markdown"})
			if res.IsError || usedStep(r.Attempts) != stepRoots || filepath.Dir(r.Path) != rootA || filepath.Ext(r.Path) != ".md" {
				t.Fatalf("first root: %+v %s", r, text(res))
			}
			r, res = save(t, c, map[string]any{"flightId": id, "directory": filepath.Join(rootB, "trips")})
			if res.IsError || filepath.Dir(r.Path) != filepath.Join(rootB, "trips") {
				t.Errorf("directory inside the second root: %+v %s", r, text(res))
			}
			r, res = save(t, c, map[string]any{"flightId": id, "directory": "trips", "filename": "holiday"})
			if res.IsError || r.Path != filepath.Join(rootB, "trips", "holiday.ics") {
				t.Errorf("relative directory found under a root: %+v %s", r, text(res))
			}
			if _, res := save(t, c, map[string]any{"flightId": id, "directory": exportDir}); !res.IsError {
				t.Error("with roots declared, the export directory is not a root and must be refused")
			}

			// A host with no folder open shares no roots: not usable, and
			// the export directory takes over.
			empty := &rootsClient{}
			c = connect(t, withExport, "inprocess", era.Version, client.WithRootsHandler(empty))
			r, res = save(t, c, map[string]any{"flightId": id, "filename": "no-roots"})
			if a, _ := attemptAt(r.Attempts, stepRoots); res.IsError || usedStep(r.Attempts) != stepExportDir || a.Outcome != "failed" || a.Why != "not_usable" ||
				!strings.Contains(a.Reason, "client shared no roots") {
				t.Errorf("no roots shared: %+v %s", r, text(res))
			}
		})
	}
}

func TestSaveRootsChangeAndSkips(t *testing.T) {
	id := aFlight(t)
	rootA, rootB, exportDir := t.TempDir(), t.TempDir(), t.TempDir()
	file := filepath.Join(rootA, "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Legacy: roots are cached per session until the client says they changed.
	roots := &rootsClient{}
	roots.set(rootA)
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
	if r, _ := save(t, c, map[string]any{"flightId": id}); filepath.Dir(r.Path) != rootA {
		t.Fatalf("first save in %s", r.Path)
	}
	roots.set(rootB)
	if r, _ := save(t, c, map[string]any{"flightId": id, "overwrite": true}); filepath.Dir(r.Path) != rootA || roots.asked() != 1 {
		t.Errorf("before list_changed: saved in %s after %d roots/list", r.Path, roots.asked())
	}
	if err := c.RootListChanges(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The notification is handled asynchronously: wait until it lands.
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, _ := save(t, c, map[string]any{"flightId": id, "overwrite": true})
		if filepath.Dir(r.Path) == rootB {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after list_changed still saving in %s", r.Path)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Modern: roots belong to each request; every save asks.
	modern := &rootsClient{}
	modern.set(rootA)
	c = connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728, client.WithRootsHandler(modern))
	save(t, c, map[string]any{"flightId": id, "overwrite": true})
	modern.set(rootB)
	if r, _ := save(t, c, map[string]any{"flightId": id, "overwrite": true}); filepath.Dir(r.Path) != rootB || modern.asked() != 2 {
		t.Errorf("modern: saved in %s after %d asks", r.Path, modern.asked())
	}

	// Unusable roots are skipped with a reason; with none left, the export
	// directory serves, and says why: in either era.
	for _, era := range eras {
		bad := &rootsClient{}
		bad.set("https://example.com/docs", filepath.Join(rootA, "missing"), file)
		c = connect(t, newServer(t, func(c *Config) { c.ExportDir = exportDir }), "inprocess", era.Version, client.WithRootsHandler(bad))
		r, res := save(t, c, map[string]any{"flightId": id, "overwrite": true})
		ra, _ := attemptAt(r.Attempts, stepRoots)
		if res.IsError || usedStep(r.Attempts) != stepExportDir || ra.Outcome != "failed" || ra.Why != "not_usable" || filepath.Dir(r.Path) != exportDir {
			t.Fatalf("%s, bad roots: %+v %s", era.Name, r, text(res))
		}
		for _, want := range []string{"https://example.com/docs: not a file:// URI", "missing: does not exist", ": is not a directory"} {
			if !strings.Contains(ra.Reason, want) || !strings.Contains(r.Summary, want) {
				t.Errorf("%s: the roots attempt %q or the summary %q does not say %q", era.Name, ra.Reason, r.Summary, want)
			}
		}
	}
}

// A legacy client's roots are kept for its session only when it declared
// roots.listChanged, a promise to say when they change; one that did not
// will never say, so each save asks again and follows the roots it lists
// now.
func TestSaveRootsCachedOnlyForClientsThatNotify(t *testing.T) {
	id := aFlight(t)
	for _, tc := range []struct {
		name        string
		listChanged bool
		asked       int  // roots/list requests for two saves
		follows     bool // the second save writes in the roots listed now
	}{
		{"declares listChanged", true, 1, false},
		{"does not declare listChanged", false, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rootA, rootB := t.TempDir(), t.TempDir()
			roots := &rootsClient{}
			roots.set(rootA)
			declared := mcp.ClientCapabilities{Roots: &struct {
				ListChanged bool `json:"listChanged,omitempty"`
			}{ListChanged: tc.listChanged}}
			c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(roots), client.WithClientCapabilities(declared))
			if r, res := save(t, c, map[string]any{"flightId": id}); filepath.Dir(r.Path) != rootA {
				t.Fatalf("first save in %q: %s", r.Path, text(res))
			}
			roots.set(rootB) // the user closed rootA's folder
			r, res := save(t, c, map[string]any{"flightId": id, "overwrite": true})
			want := rootA
			if tc.follows {
				want = rootB
			}
			if filepath.Dir(r.Path) != want || roots.asked() != tc.asked {
				t.Errorf("second save in %q after %d roots/list (%s), want in %q after %d", r.Path, roots.asked(), text(res), want, tc.asked)
			}
		})
	}
}

// A 2025-11-25 host that answers roots/list with an error (client_error),
// or never answers (no_answer, over HTTP too, where the question travels
// on the GET stream), costs the save nothing it cannot recover: the export
// directory answers, and says why the roots were not used. Without an
// export directory the save is refused (not_configured), and its text and
// attempts name what the roots did.
func TestSaveRootsThatFailOrStaySilent(t *testing.T) {
	id := aFlight(t)
	short := func(c *Config) { c.RootsTimeout = 300 * time.Millisecond }
	for _, tc := range []struct {
		name, why, says string
		roots           *rootsClient
	}{
		{"error", "client_error", "the host's workspace is not open", &rootsClient{fails: true}},
		{"silent", "no_answer", "no answer within 300ms", &rootsClient{silent: true}},
	} {
		for _, via := range transports {
			t.Run(tc.name+"/"+via, func(t *testing.T) {
				roots := &rootsClient{fails: tc.roots.fails, silent: tc.roots.silent}
				exportDir := t.TempDir()
				cfg := []func(*Config){short}
				if via == "http" {
					// Where the roots would count: a shared filesystem.
					cfg = append(cfg, func(c *Config) { c.Transport, c.SharedFilesystem = TransportHTTP, true })
				}
				withExport := append(cfg[:len(cfg):len(cfg)], func(c *Config) { c.ExportDir = exportDir })
				c := connect(t, newServer(t, withExport...), via, mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
				r, res := save(t, c, map[string]any{"flightId": id})
				ra, _ := attemptAt(r.Attempts, stepRoots)
				if res.IsError || usedStep(r.Attempts) != stepExportDir || ra.Outcome != "failed" || ra.Why != tc.why ||
					!strings.Contains(ra.Reason, tc.says) || filepath.Dir(r.Path) != exportDir || roots.asked() != 1 {
					t.Errorf("with an export directory: %+v %s (asked %d times)", r, text(res), roots.asked())
				}
				c = connect(t, newServer(t, cfg...), via, mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
				_, res = save(t, c, map[string]any{"flightId": id})
				d := errorDetails(t, res)
				ra, _ = attemptAt(d.Attempts, stepRoots)
				if !res.IsError || d.Why != "not_configured" || ra.Why != tc.why || !strings.Contains(text(res), tc.says) {
					t.Errorf("without an export directory: %s %+v", text(res), d)
				}
			})
		}
	}
}

// A client that never answers roots/list costs the roots timeout, then the
// export directory (or a clear refusal) answers.
func TestSaveSilentRootsClient(t *testing.T) {
	id := aFlight(t)
	exportDir := t.TempDir()
	silent := &rootsClient{silent: true}
	short := func(c *Config) { c.RootsTimeout = 200 * time.Millisecond }
	c := connect(t, newServer(t, short, func(c *Config) { c.ExportDir = exportDir }), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(silent))
	r, res := save(t, c, map[string]any{"flightId": id})
	if roots, _ := attemptAt(r.Attempts, stepRoots); res.IsError || usedStep(r.Attempts) != stepExportDir || roots.Why != "no_answer" ||
		!strings.Contains(r.Summary, "no answer within 200ms") {
		t.Errorf("silent client with export dir: %+v %s", r, text(res))
	}
	c = connect(t, newServer(t, short), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(&rootsClient{silent: true}))
	if _, res := save(t, c, map[string]any{"flightId": id}); !res.IsError || !strings.Contains(text(res), "no answer within 200ms") {
		t.Errorf("silent client without export dir: %s", text(res))
	}
}

func TestSaveRefusesEscapes(t *testing.T) {
	id := aFlight(t)
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	roots := &rootsClient{}
	roots.set(root)
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
	for _, args := range []map[string]any{
		{"flightId": id, "directory": "../"},
		{"flightId": id, "directory": outside},
		{"flightId": id, "directory": "link"},
		{"flightId": id, "directory": filepath.Join(root, "..", filepath.Base(outside))},
		{"flightId": id, "filename": "../escape"},
		{"flightId": id, "filename": "a/b"},
		{"flightId": id, "filename": "nul\x00byte"},
	} {
		if _, res := save(t, c, args); !res.IsError {
			t.Errorf("%v: saved", args)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside the root: %v", entries)
	}
}

func TestSaveOverwriteAndBadIDs(t *testing.T) {
	id := aFlight(t)
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = t.TempDir() }), "inprocess", mcp.ProtocolVersion20251125)
	first, _ := save(t, c, map[string]any{"flightId": id, "filename": "trip"})
	if _, res := save(t, c, map[string]any{"flightId": id, "filename": "trip"}); !res.IsError || !strings.Contains(text(res), "overwrite") {
		t.Errorf("second save without overwrite: %s", text(res))
	}
	if again, res := save(t, c, map[string]any{"flightId": id, "filename": "trip", "overwrite": true}); res.IsError || again.Path != first.Path {
		t.Errorf("overwrite: %+v %s", again, text(res))
	}
	for _, bad := range []string{"", "JFK-LHR", "JFK-LHR-261215-ZZZZZ", "ZZZ-LHR-261215-K3M9P"} {
		if _, res := save(t, c, map[string]any{"flightId": bad}); !res.IsError || !strings.Contains(text(res), "flightId") {
			t.Errorf("flightId %q: %s", bad, text(res))
		}
	}
}

// A booking reference from bookFlight works in place of a flight id, and the
// file then holds the booking: its reference, the passenger and the seat, in
// both formats, read back from the reference alone (so on any replica with
// the same key). One this server did not issue, or whose passenger was
// changed, is refused.
func TestSaveByBookingRef(t *testing.T) {
	id := aFlight(t)
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = t.TempDir() }), "inprocess", mcp.ProtocolVersion20251125)
	var b BookResult
	decodeWith(t, bookOutputSchema, callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Zoë O'Brien", "seat": "aisle"}), &b)
	// Another replica with the same key reads the reference back.
	other := connect(t, newServer(t, func(c *Config) { c.ExportDir = t.TempDir() }), "inprocess", mcp.ProtocolVersion20251125)
	for _, format := range []string{FormatICS, FormatMarkdown} {
		for name, replica := range map[string]*client.Client{"this replica": c, "another replica": other} {
			r, res := save(t, replica, map[string]any{"bookingRef": b.Reference, "format": format})
			if res.IsError || r.FlightID != id {
				t.Fatalf("%s, %s: save by reference: %+v %s", name, format, r, text(res))
			}
			file, err := os.ReadFile(r.Path)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(file), "\r\n ", "") // unfold ICS lines
			for _, want := range []string{b.Reference, "Passenger: Zoë O'Brien", "Seat preference: aisle"} {
				if format == FormatMarkdown && want == b.Reference {
					want = "`" + want + "`"
				}
				if !strings.Contains(got, want) {
					t.Errorf("%s, %s: the file does not hold %q:\n%s", name, format, want, got)
				}
			}
		}
	}
	// Saved by flight id, the file names no booking.
	r, _ := save(t, c, map[string]any{"flightId": id, "format": FormatMarkdown, "filename": "unbooked"})
	if file, _ := os.ReadFile(r.Path); len(file) == 0 || strings.Contains(string(file), "Passenger") {
		t.Errorf("a flight saved by its id names a passenger:\n%s", file)
	}

	var other2 BookResult
	decodeWith(t, bookOutputSchema, callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Alan Turing", "seat": "aisle"}), &other2)
	if other2.Reference == b.Reference {
		t.Errorf("two passengers got one reference %s", b.Reference)
	}
	prefix, _, _ := cutLast(b.Reference, "-")
	_, otherTag, _ := cutLast(other2.Reference, "-")
	forged := b.Reference[:len(b.Reference)-1] + "A"
	if forged == b.Reference {
		forged = b.Reference[:len(b.Reference)-1] + "B"
	}
	for _, args := range []map[string]any{
		{"bookingRef": forged},
		{"bookingRef": prefix + "-" + otherTag}, // Zoë's booking with Alan's tag
		{"bookingRef": "BK-" + id + "-" + bookingEncoding.EncodeToString([]byte("wMallory")) + "-AAAAAA"},
		{"bookingRef": "BK-nonsense"},
		{"bookingRef": b.Reference, "flightId": id},
	} {
		if _, res := save(t, c, args); !res.IsError || !strings.Contains(text(res), "bookingRef") {
			t.Errorf("%v: %s", args, text(res))
		}
	}
}

// A configured export directory that does not exist (a host's snippet
// naming a folder nobody made) is no start-up failure: the server runs,
// and saveItinerary refuses, saying what to create; once it exists, saving
// works.
func TestSaveIntoMissingExportDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Trips")
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			c := connect(t, newServer(t, func(c *Config) { c.ExportDir = dir }), "inprocess", era.Version)
			_, res := save(t, c, map[string]any{"flightId": aFlight(t)})
			d := errorDetails(t, res)
			a, _ := attemptAt(d.Attempts, stepExportDir)
			if !res.IsError || d.Error != ErrorNotSaved || d.Why != "not_usable" || a.Outcome != "failed" ||
				!strings.Contains(text(res), dir+" does not exist") || !strings.Contains(text(res), "Create that folder") {
				t.Errorf("%s %+v", text(res), d)
			}
			checkErrorShape(t, res)
		})
	}
	if err := os.WriteFile(dir, []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = dir }), "inprocess", mcp.ProtocolVersion20251125)
	if _, res := save(t, c, map[string]any{"flightId": aFlight(t)}); !res.IsError || !strings.Contains(text(res), "is not a directory") {
		t.Errorf("export dir is a file: %s", text(res))
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if r, res := save(t, c, map[string]any{"flightId": aFlight(t)}); res.IsError || filepath.Dir(r.Path) != dir {
		t.Errorf("once the folder exists: %s", text(res))
	}
}

// The summary says where the file went and what chose it, in words.
func TestSaveSummary(t *testing.T) {
	id := aFlight(t)
	root, exportDir := t.TempDir(), t.TempDir()
	roots := &rootsClient{dirs: []string{root}}
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
	r, res := save(t, c, map[string]any{"flightId": id})
	if want := fmt.Sprintf("Saved %s (%d bytes) in %s: inside the client's roots.", filepath.Base(r.Path), r.Bytes, root); res.IsError || r.Summary != want {
		t.Errorf("summary %q, want %q", r.Summary, want)
	}
	c = connect(t, newServer(t, func(c *Config) { c.ExportDir = exportDir }), "inprocess", mcp.ProtocolVersion20251125)
	r, res = save(t, c, map[string]any{"flightId": id})
	if want := fmt.Sprintf("Saved %s (%d bytes) in %s: the server's configured export directory (not the client's roots: client did not declare roots).", filepath.Base(r.Path), r.Bytes, exportDir); res.IsError || r.Summary != want {
		t.Errorf("summary %q, want %q", r.Summary, want)
	}
}

// A legacy save carrying a modern round's state (not read: its attempts say
// so first) still reads its own roots decision: the summary names where it
// wrote, and the ignored state is not mistaken for the roots' reason.
func TestSaveSummaryAfterAnIgnoredState(t *testing.T) {
	id := aFlight(t)
	root := t.TempDir()
	roots := &rootsClient{dirs: []string{root}}
	s := newServer(t)
	caps := map[string]any{"roots": map[string]any{"listChanged": true}}
	args := map[string]any{"flightId": id}
	first := rawCallTool(t, s, SaveItineraryName, caps, args, "", nil)
	if first.ResultType != "input_required" {
		t.Fatalf("first round: %+v %s", first, first.text())
	}
	raw := mcptest.LegacyCall(t, mcptest.LegacySession(t, s, caps, nil, nil, roots), s, SaveItineraryName, args, first.RequestState, nil)
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
	var r SaveResult
	decodeInto(t, &res, &r)
	if want := fmt.Sprintf("Saved %s (%d bytes) in %s: inside the client's roots.", filepath.Base(r.Path), r.Bytes, root); res.IsError || r.Summary != want {
		t.Errorf("summary %q, want %q", r.Summary, want)
	}
	if len(r.Attempts) != 2 || r.Attempts[0].Why != string(fallback.NotUsable) || r.Attempts[1].Outcome != "used" {
		t.Errorf("attempts %+v: want the ignored state, then the roots used", r.Attempts)
	}
}

// Legacy streamable HTTP delivers roots/list only on the GET stream: a
// client without one is not asked (and not waited for); the export
// directory answers and the summary says why.
func TestSaveLegacyHTTPWithoutGETStream(t *testing.T) {
	id := aFlight(t)
	roots := &rootsClient{}
	roots.set(t.TempDir())
	s := newServer(t, func(c *Config) { c.ExportDir = t.TempDir(); c.RootsTimeout = 30 * time.Second })
	c := connectWith(t, s, "http", mcp.ProtocolVersion20251125, false, client.WithRootsHandler(roots))
	r, res := save(t, c, map[string]any{"flightId": id})
	if a, _ := attemptAt(r.Attempts, stepRoots); res.IsError || usedStep(r.Attempts) != stepExportDir || a.Why != "no_stream" ||
		!strings.Contains(r.Summary, "no GET stream") || roots.asked() != 0 {
		t.Errorf("%+v %s (asked %d times)", r, text(res), roots.asked())
	}
}

// Over HTTP a client's roots name directories on the client's machine, not
// this server's: any caller could name any directory the process can write.
// So there a root counts only inside --export-dir (roots narrow it, never
// widen it), unless the operator says client and server share a filesystem.
func TestSaveOverHTTPRootsOnlyNarrowTheExportDir(t *testing.T) {
	id := aFlight(t)
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			exportDir, elsewhere := t.TempDir(), t.TempDir()
			inside := filepath.Join(exportDir, "team")
			if err := os.Mkdir(inside, 0o755); err != nil {
				t.Fatal(err)
			}
			httpServer := func(more ...func(*Config)) *client.Client {
				roots := &rootsClient{}
				roots.set(elsewhere, inside)
				s := newServer(t, append([]func(*Config){func(c *Config) { c.Transport = TransportHTTP }}, more...)...)
				return connect(t, s, "http", era.Version, client.WithRootsHandler(roots))
			}

			// No export directory: roots are not even asked for, and
			// nothing is written anywhere.
			_, res := save(t, httpServer(), map[string]any{"flightId": id})
			d := errorDetails(t, res)
			if a, _ := attemptAt(d.Attempts, stepRoots); !res.IsError || a.Outcome != "skipped" || a.Why != "not_trusted" {
				t.Errorf("HTTP without --export-dir: %s %+v", text(res), d)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Fatalf("written in a root outside the export directory: %v", entries)
			}
			// A client that declares no roots is told that first: trust
			// is moot when nothing was offered.
			_, res = save(t, connect(t, newServer(t, func(c *Config) { c.Transport = TransportHTTP }), "http", era.Version), map[string]any{"flightId": id})
			if a, _ := attemptAt(errorDetails(t, res).Attempts, stepRoots); !res.IsError || a.Why != "client_cannot_ask" {
				t.Errorf("HTTP, no roots declared, no --export-dir: %s %+v", text(res), a)
			}

			// Nor can a requestState sealed at client_roots elsewhere (a
			// stdio replica, one with --export-dir, this one before a
			// restart) carry roots past the rule: the rule is this
			// replica's, and a state cannot prove it.
			if era.Name == "modern" {
				declaresRoots := map[string]any{"roots": map[string]any{}}
				first := rawCallTool(t, newServer(t), SaveItineraryName, declaresRoots, map[string]any{"flightId": id}, "", nil)
				if first.ResultType != "input_required" {
					t.Fatalf("a stdio server asks for roots first: %+v", first)
				}
				replayed := rawCallTool(t, newServer(t, func(c *Config) { c.Transport = TransportHTTP }), SaveItineraryName, declaresRoots,
					map[string]any{"flightId": id}, first.RequestState, map[string]any{rootsKey: map[string]any{"roots": []any{map[string]any{"uri": fileURI(elsewhere)}}}})
				if !replayed.IsError {
					t.Errorf("HTTP without --export-dir, roots from a replayed state: %s", replayed.text())
				}
				if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
					t.Fatalf("written through a replayed state in a root outside any export directory: %v", entries)
				}
			}

			// With one: the root outside it is skipped, the one inside
			// narrows where the file goes.
			withExport := func(c *Config) { c.ExportDir = exportDir }
			r, res := save(t, httpServer(withExport), map[string]any{"flightId": id})
			a, _ := attemptAt(r.Attempts, stepRoots)
			if res.IsError || filepath.Dir(r.Path) != inside || a.Outcome != "used" || !strings.Contains(a.Reason, "is outside the server's export directory") {
				t.Errorf("HTTP with --export-dir: %+v %s", r, text(res))
			}
			// The directory argument cannot widen it either.
			if _, res := save(t, httpServer(withExport), map[string]any{"flightId": id, "directory": elsewhere}); !res.IsError {
				t.Errorf("directory outside the export dir over HTTP: %s", text(res))
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Fatalf("written in a root outside the export directory: %v", entries)
			}

			// The operator says both sides see one filesystem: roots as on stdio.
			r, res = save(t, httpServer(func(c *Config) { c.SharedFilesystem = true }), map[string]any{"flightId": id})
			if res.IsError || filepath.Dir(r.Path) != elsewhere || usedStep(r.Attempts) != stepRoots {
				t.Errorf("HTTP with a shared filesystem: %+v %s", r, text(res))
			}
		})
	}
}

// Over HTTP a remote client cannot use its roots to learn what exists on
// the server outside --export-dir: a file, a directory and a missing path
// there are skipped for one reason, in the attempts and the summary alike,
// and the root inside it is used.
func TestSaveOverHTTPRootsOutsideTheExportDirRevealNothing(t *testing.T) {
	id := aFlight(t)
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			exportDir, secret := t.TempDir(), t.TempDir()
			key := filepath.Join(secret, "id_ed25519")
			if err := os.WriteFile(key, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			outside := []string{key, filepath.Join(secret, "nope"), secret}
			roots := &rootsClient{}
			roots.set(append(outside, exportDir)...)
			s := newServer(t, func(c *Config) { c.Transport = TransportHTTP; c.ExportDir = exportDir })
			r, res := save(t, connect(t, s, "http", era.Version, client.WithRootsHandler(roots)), map[string]any{"flightId": id})
			a, _ := attemptAt(r.Attempts, stepRoots)
			if res.IsError || a.Outcome != "used" || filepath.Dir(r.Path) != exportDir {
				t.Fatalf("%+v %s", r, text(res))
			}
			for _, p := range outside {
				if want := fileURI(p) + ": " + outsideExportDir; !strings.Contains(a.Reason, want) || !strings.Contains(r.Summary, want) {
					t.Errorf("the roots attempt %q or the summary %q does not say %q", a.Reason, r.Summary, want)
				}
			}
			for _, leak := range []string{"does not exist", "is not a directory"} {
				if strings.Contains(text(res), leak) {
					t.Errorf("the result says %q about a path outside the export directory: %s", leak, text(res))
				}
			}
		})
	}
}

// A booking holds one cabin's fare, and the saved file names that cabin and
// fare: saved by its reference, whose cabin is signed into it, or by the
// flight id and the cabin the search used. (It once looked every flight up
// in economy, so a business booking's itinerary said "Cabin: economy" at
// the economy fare, and a business and an economy booking of one passenger
// had one reference.)
func TestSaveInTheCabinBooked(t *testing.T) {
	id := aFlight(t)
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = t.TempDir() }), "inprocess", mcp.ProtocolVersion20251125)
	book := func(cabin string) BookResult {
		t.Helper()
		var b BookResult
		decodeWith(t, bookOutputSchema, callTool(t, c, BookFlightName, map[string]any{"flightId": id, "cabin": cabin, "confirm": true, "passengerName": "Ada Lovelace"}), &b)
		return b
	}
	business, economy := book("business"), book("economy")
	if business.Reference == economy.Reference || business.PriceUSD <= economy.PriceUSD {
		t.Fatalf("business %s $%d, economy %s $%d", business.Reference, business.PriceUSD, economy.Reference, economy.PriceUSD)
	}
	// An economy booking's reference is what every reference was before
	// the cabin was carried: those issued earlier still read back.
	payload := bookingEncoding.EncodeToString([]byte("nAda Lovelace"))
	if want := "BK-" + id + "-" + payload + "-"; !strings.HasPrefix(economy.Reference, want) {
		t.Errorf("economy reference %s, want it to start %s", economy.Reference, want)
	}
	dollars := func(n int) string { // as the itinerary writes a fare: "$488", "$2,205"
		if n < 1000 {
			return fmt.Sprintf("$%d", n)
		}
		return fmt.Sprintf("$%d,%03d", n/1000, n%1000)
	}
	for i, tc := range []struct {
		args  map[string]any
		cabin string
		fare  int
	}{
		{map[string]any{"bookingRef": business.Reference}, "business", business.PriceUSD},
		{map[string]any{"bookingRef": business.Reference, "cabin": "business"}, "business", business.PriceUSD},
		{map[string]any{"bookingRef": economy.Reference}, "economy", economy.PriceUSD},
		{map[string]any{"flightId": id, "cabin": "business"}, "business", business.PriceUSD},
		{map[string]any{"flightId": id}, "economy", economy.PriceUSD},
	} {
		for _, format := range []string{FormatMarkdown, FormatICS} {
			args := map[string]any{"format": format, "filename": fmt.Sprintf("trip-%d", i)}
			for k, v := range tc.args {
				args[k] = v
			}
			r, res := save(t, c, args)
			if res.IsError {
				t.Fatalf("%v: %s", args, text(res))
			}
			file, err := os.ReadFile(r.Path)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(file), "\r\n ", "")
			want := []string{"(" + tc.cabin + ")"} // the ICS description: "British Airways BA27 (business)"
			if format == FormatMarkdown {
				want = []string{"- Cabin: " + tc.cabin + "\n", "- Fare: " + dollars(tc.fare) + " per passenger"}
			}
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%v: the file does not hold %q:\n%s", args, w, got)
				}
			}
		}
	}
	// A cabin that is not the booking's would misstate it.
	if _, res := save(t, c, map[string]any{"bookingRef": business.Reference, "cabin": "economy"}); !res.IsError ||
		!strings.Contains(text(res), "the booking") || !strings.Contains(text(res), "is in business") {
		t.Errorf("a bookingRef with another cabin: %s", text(res))
	}
	// A cabin smuggled into a name cannot be signed in: names hold no "|".
	if _, err := checkName("Ada|first"); err == nil {
		t.Error(`a name with "|" passed checkName`)
	}
}

// overwrite is the host's model's word, not the user's: it replaces an
// itinerary this server wrote, and never the user's own file that has the
// name (a README.md in the folder the host shares, a calendar exported from
// elsewhere, a link), which once it replaced without a word to anyone.
func TestSaveOverwriteReplacesOnlyItineraries(t *testing.T) {
	id := aFlight(t)
	dir := t.TempDir()
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = dir }), "inprocess", mcp.ProtocolVersion20251125)
	mine := map[string]string{
		"README.md":  "# My project\n\nNotes I would hate to lose.\n",
		"family.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nEND:VCALENDAR\r\n",
		"empty.md":   "",
		"pinned.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-NOTE:PRODID:-//flightserver//itinerary//EN\r\nEND:VCALENDAR\r\n",
		"notice.md":  "*Simulated itinerary from flightserver: not a real booking or schedule.*\n\nmy notes after it\n",
		"target.md":  "the target of a link\n",
	}
	for name, content := range mine {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linked := os.Symlink("target.md", filepath.Join(dir, "link.md")) == nil
	for _, tc := range []struct{ filename, format string }{
		{"README", FormatMarkdown}, {"family", FormatICS}, {"empty", FormatMarkdown}, {"pinned", FormatICS}, {"notice", FormatMarkdown}, {"link", FormatMarkdown},
	} {
		if tc.filename == "link" && !linked {
			continue
		}
		_, res := save(t, c, map[string]any{"flightId": id, "filename": tc.filename, "format": tc.format, "overwrite": true})
		if d := errorDetails(t, res); !res.IsError || d.Error != ErrorNotSaved || !strings.Contains(text(res), "is not an itinerary this server wrote") ||
			!strings.Contains(text(res), "Pass another filename") {
			t.Errorf("%s: %s", tc.filename, text(res))
		}
	}
	// Without overwrite, the refusal does not send the model to pass it:
	// overwrite would not replace the user's file either.
	for _, tc := range []struct{ filename, format string }{{"README", FormatMarkdown}, {"family", FormatICS}} {
		_, res := save(t, c, map[string]any{"flightId": id, "filename": tc.filename, "format": tc.format})
		if !res.IsError || strings.Contains(text(res), "overwrite true") || !strings.Contains(text(res), "Pass another filename") {
			t.Errorf("%s without overwrite: %s", tc.filename, text(res))
		}
	}
	for name, content := range mine {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != content {
			t.Errorf("%s was changed: %q, %v", name, b, err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.md")); linked && (err != nil || fi.Mode()&os.ModeSymlink == 0) {
		t.Errorf("link.md was replaced: %v %v", fi, err)
	}
	// An itinerary this server wrote, in either format, is replaced.
	for _, format := range []string{FormatMarkdown, FormatICS} {
		first, res := save(t, c, map[string]any{"flightId": id, "filename": "trip", "format": format})
		if res.IsError {
			t.Fatal(text(res))
		}
		again, res := save(t, c, map[string]any{"flightId": id, "filename": "trip", "format": format, "cabin": "business", "overwrite": true})
		if b, _ := os.ReadFile(again.Path); res.IsError || again.Path != first.Path || !strings.Contains(string(b), "business") {
			t.Errorf("%s: overwriting an itinerary: %s", format, text(res))
		}
	}
}

// The file overwrite checks is the file it reads: a name that was an
// ordinary file when looked at and is a link to an itinerary when opened
// (swapped in between) is refused, and the link is left alone.
func TestSaveOverwriteChecksTheFileItLookedAt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	id := aFlight(t)
	dir := t.TempDir()
	c := connect(t, newServer(t, func(c *Config) { c.ExportDir = dir }), "inprocess", mcp.ProtocolVersion20251125)
	if _, res := save(t, c, map[string]any{"flightId": id, "filename": "ours", "format": FormatMarkdown}); res.IsError {
		t.Fatal(text(res))
	}
	swap := filepath.Join(dir, "swap.md")
	if err := os.WriteFile(swap, []byte("the user's notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	looked := 0
	replaceableLooked = func(_ *export.Dir, name string) {
		if name != "swap.md" {
			return
		}
		looked++
		if err := os.Remove(swap); err != nil {
			t.Error(err)
		}
		if err := os.Symlink("ours.md", swap); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { replaceableLooked = func(*export.Dir, string) {} })
	_, res := save(t, c, map[string]any{"flightId": id, "filename": "swap", "format": FormatMarkdown, "overwrite": true})
	if looked != 1 || !res.IsError || !strings.Contains(text(res), "changed while it was being checked") {
		t.Errorf("looked %d times: %s", looked, text(res))
	}
	if fi, err := os.Lstat(swap); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("swap.md was replaced: %v %v", fi, err)
	}
}

// What the server writes into its --export-dir for clients over HTTP is
// bounded in all (ExportMaxBytes), the client's roots inside it included;
// over stdio, where the one client is the user's own host, nothing is.
func TestSaveIntoTheExportDirIsBounded(t *testing.T) {
	id := aFlight(t)
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			exportDir, ownRoot := t.TempDir(), t.TempDir()
			inside := filepath.Join(exportDir, "team")
			if err := os.Mkdir(inside, 0o755); err != nil {
				t.Fatal(err)
			}
			// Room for one itinerary (under 1 KB), not two.
			if err := os.WriteFile(filepath.Join(exportDir, "earlier.ics"), make([]byte, 11000), 0o644); err != nil {
				t.Fatal(err)
			}
			bounded := func(c *Config) { c.ExportDir, c.ExportMaxBytes = exportDir, 12000 }

			roots := &rootsClient{}
			roots.set(inside)
			overHTTP := connect(t, newServer(t, bounded, func(c *Config) { c.Transport = TransportHTTP }), "http", era.Version, client.WithRootsHandler(roots))
			first, res := save(t, overHTTP, map[string]any{"flightId": id, "filename": "first"})
			if res.IsError || filepath.Dir(first.Path) != inside {
				t.Fatalf("the first save over HTTP: %s (%+v)", text(res), first)
			}
			_, res = save(t, overHTTP, map[string]any{"flightId": id, "filename": "second"})
			if !res.IsError || !strings.Contains(text(res), "is full") || !strings.Contains(text(res), "--export-max-bytes") {
				t.Errorf("a save past the bound over HTTP: %s", text(res))
			}
			if _, err := os.Stat(filepath.Join(inside, "second.ics")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the refused save left a file: %v", err)
			}

			// Over HTTP with --shared-filesystem and no roots: the export
			// directory, bounded.
			_, res = save(t, connect(t, newServer(t, bounded, func(c *Config) { c.Transport, c.SharedFilesystem = TransportHTTP, true }), "http", era.Version), map[string]any{"flightId": id, "filename": "third"})
			if !res.IsError || !strings.Contains(text(res), "is full") {
				t.Errorf("a save past the bound into the export directory over HTTP with a shared filesystem: %s", text(res))
			}
			// Over stdio the export directory is the user's own choice on
			// their own disk (a Documents folder past any quota): not bounded.
			local, res := save(t, connect(t, newServer(t, bounded), "inprocess", era.Version), map[string]any{"flightId": id, "filename": "local"})
			if res.IsError || filepath.Dir(local.Path) != exportDir {
				t.Errorf("a save into a full export directory over stdio: %s (%+v)", text(res), local)
			}
			// Over stdio, into the client's own root: not the operator's disk.
			own := &rootsClient{}
			own.set(ownRoot)
			mine, res := save(t, connect(t, newServer(t, bounded), "inprocess", era.Version, client.WithRootsHandler(own)), map[string]any{"flightId": id, "filename": "mine"})
			if res.IsError || filepath.Dir(mine.Path) != ownRoot {
				t.Errorf("a save into the client's own root over stdio: %s (%+v)", text(res), mine)
			}
		})
	}
}

// A folder on the way to the directory that the server may pass through
// but not list (a home directory shared as 0711, when the server runs as
// another user) does not stop a save on Linux: the directory is found,
// what is there is checked, and the file is written, for a relative
// directory and an absolute one. Permission bits bind only a user without
// privileges, so as root this runs as nobody.
func TestSaveThroughAFolderItMayOnlyEnter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("folder permission bits do not stop listing on Windows")
	}
	if unprivileged.Rerun(t) {
		return
	}
	id := aFlight(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, "trips"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o100); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(home, 0o755) })
	if _, err := os.ReadDir(home); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("listing the folder: %v, want permission denied (is this test running with privileges?)", err)
	}
	roots := &rootsClient{}
	roots.set(root)
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithRootsHandler(roots))
	for _, dir := range []string{filepath.Join("home", "trips"), filepath.Join(home, "trips")} {
		r, res := save(t, c, map[string]any{"flightId": id, "directory": dir, "filename": "trip", "overwrite": true})
		if runtime.GOOS != "linux" {
			if !res.IsError || !strings.Contains(text(res), "permission denied") {
				t.Errorf("directory %s: %s; want it refused as permission denied", dir, text(res))
			}
			continue
		}
		if want := filepath.Join(home, "trips", "trip.ics"); res.IsError || r.Path != want {
			t.Errorf("directory %s: %+v %s; want it saved as %s", dir, r, text(res), want)
		}
	}
	if runtime.GOOS == "linux" {
		if b, err := os.ReadFile(filepath.Join(home, "trips", "trip.ics")); err != nil || !strings.HasPrefix(string(b), "BEGIN:VCALENDAR\r\n") {
			t.Errorf("the saved file: %v %.40q", err, b)
		}
	}
}
