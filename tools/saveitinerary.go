package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/export"
	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/itinerary"
)

// SaveItineraryName is the tool's name as clients call it.
const SaveItineraryName = "saveItinerary"

// The formats saveItinerary writes.
const (
	FormatICS      = "ics"
	FormatMarkdown = "markdown"
)

// SaveArgs are saveItinerary's arguments.
type SaveArgs struct {
	FlightID   string `json:"flightId,omitempty" jsonschema:"a flight or round-trip id from findBestFlight, e.g. JFK-LHR-261215-K3M9P (or give bookingRef); a round trip writes both flights"`
	BookingRef string `json:"bookingRef,omitempty" jsonschema:"a booking reference from bookFlight, instead of flightId: the file then also holds the reference, the passenger and the seat"`
	Cabin      string `json:"cabin,omitempty" jsonschema:"with flightId: the cabin findBestFlight searched (default economy), which the file names with its fare; a bookingRef carries its own"`
	Format     string `json:"format,omitempty" jsonschema:"ics (calendar, the default) or markdown"`
	Directory  string `json:"directory,omitempty" jsonschema:"where to write: must lie inside one of the client's roots or the server's export directory; relative paths are taken from there (default: the first root, or the export directory)"`
	Filename   string `json:"filename,omitempty" jsonschema:"file name without directories (default: from the flight id); the extension is set from the format"`
	Overwrite  bool   `json:"overwrite,omitempty" jsonschema:"replace an existing itinerary of that name that this server wrote (default false: an existing file is kept and the call fails); any other file is never replaced"`
}

// SaveResult is saveItinerary's structuredContent.
type SaveResult struct {
	URI      string `json:"uri" jsonschema:"file:// URI of the file written"`
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
	Format   string `json:"format"`
	FlightID string `json:"flightId"`
	// Attempts say which rule chose the directory, and why the others did not.
	Attempts []AttemptOut `json:"attempts" jsonschema:"how the directory was chosen: client_roots (inside one of the client's roots) or export_dir (the server's configured directory), and why the other was not used"`
	Summary  string       `json:"summary"`
}

const saveDescription = `Save a flight found by findBestFlight (by flightId) or booked with bookFlight (by bookingRef) as a calendar file (ics) or a readable itinerary (markdown).
With a flightId, pass the cabin the search used (findBestFlight's trip.cabin), so that the file names that cabin and its fare; a bookingRef carries the booking's cabin.
It writes only inside a directory the client shares as a root (over HTTP: only where that root lies inside the server's export directory, unless the operator says client and server share a filesystem), or the server's configured export directory; it never picks a directory itself.
An existing file is kept unless overwrite is true, and overwrite replaces only an itinerary this server wrote, never another file of that name. The result gives the file's URI and, in attempts, which rule chose the directory.`

func saveItineraryTool() (mcp.Tool, error) {
	// It writes a file (not read-only) but never deletes or changes one
	// unless asked to overwrite; the same call twice fails the second time
	// without overwrite, so it is not idempotent; local only.
	return fallback.DefineTool[SaveArgs, SaveResult](fallback.Definition{Name: SaveItineraryName, Title: "Save an itinerary", Description: saveDescription,
		Refine: map[string]func(*jsonschema.Schema){
			"flightId":   fallback.Pattern(optionIDPattern),
			"bookingRef": fallback.Pattern(`^BK-` + optionIDPattern[1:len(optionIDPattern)-1] + `-[A-Z2-7]+-[A-Z2-7]{6}$`),
			"cabin":      fallback.Enum(flights.Cabins...),
			"format":     fallback.Enum(FormatICS, FormatMarkdown),
		},
		RefineOutput: withAttempts})
}

// The save-location ladder's steps, and the roots question's key.
const (
	stepRoots     = "client_roots"
	stepExportDir = "export_dir"
	rootsKey      = "roots"
)

// saveItinerarySpec declares the tool: it may ask one thing, the roots.
func (t *Toolset) saveItinerarySpec() fallback.Spec[struct{}] {
	return fallback.Spec[struct{}]{Name: SaveItineraryName, Steps: []string{stepRoots}, Handle: t.saveItinerary}
}

// saveItinerary decides where to write, per request: inside the client's
// roots when it declares them (over HTTP, only where they lie inside
// --export-dir), else --export-dir, else a refusal that says how to enable
// saving. Then it renders the flight and writes it safely.
func (t *Toolset) saveItinerary(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
	var args SaveArgs
	ps := fallback.DecodeArguments(c.Request().Params.Arguments, &args)
	format := strings.ToLower(strings.TrimSpace(args.Format))
	if format == "" {
		format = FormatICS
	}
	if format != FormatICS && format != FormatMarkdown {
		ps = append(ps, flights.Problem{Field: "format", Problem: fmt.Sprintf("%s is not a format", flights.Quote(args.Format)), Accepted: "ics or markdown"})
	}
	cabin, ok := flights.ParseCabin(args.Cabin)
	if !ok {
		ps = append(ps, flights.Problem{Field: "cabin", Problem: fmt.Sprintf("%s is not a cabin", flights.Quote(args.Cabin)), Accepted: flights.OneOf(flights.Cabins)})
	}
	id, ref := strings.TrimSpace(args.FlightID), strings.TrimSpace(args.BookingRef)
	var held *itinerary.Booking // saved by bookingRef: written into the file
	switch {
	case slices.ContainsFunc(ps, func(p flights.Problem) bool { return p.Field == "flightId" || p.Field == "bookingRef" }):
	case id == "" && ref == "":
		ps = append(ps, flights.Problem{Field: "flightId", Problem: "is missing", Accepted: "a flight id from findBestFlight, or bookingRef from bookFlight"})
	case id != "" && ref != "":
		ps = append(ps, flights.Problem{Field: "bookingRef", Problem: "is given together with flightId", Accepted: "one of flightId or bookingRef"})
	case ref != "":
		if b, err := t.bookingFromRef(ref); err != nil {
			ps = append(ps, flights.Problem{Field: "bookingRef", Problem: err.Error(), Accepted: "a reference bookFlight returned"})
		} else if strings.TrimSpace(args.Cabin) != "" && cabin != b.cabin {
			// The booking held one cabin's fare: a file naming another
			// would misstate it.
			ps = append(ps, flights.Problem{Field: "cabin", Problem: fmt.Sprintf("is %s, but the booking %s is in %s", cabin, flights.Quote(ref), b.cabin),
				Accepted: "the booking's cabin, or none (a bookingRef carries its own)"})
		} else {
			id, cabin, held = b.flightID, b.cabin, &itinerary.Booking{Reference: ref, Passenger: b.passenger, Seat: b.seat}
		}
	}
	if len(ps) > 0 {
		return invalidArguments(c, ps)
	}
	// The file names the cabin and its fare: the booking's, or the one the
	// search used.
	ch, res := t.findChosen(ctx, c, id, cabin)
	if res != nil {
		return res
	}

	// Where may we write? The client's roots first, then the operator's
	// directory.
	bases, pending := t.rootsToWrite(ctx, c)
	if pending != nil {
		return pending
	}
	// Over HTTP a write into the operator's directory counts against its
	// quota, so that clients elsewhere cannot fill the server's disk one
	// file name at a time; without --shared-filesystem even the client's
	// roots lie inside it. Over stdio the one client is the user's own
	// host, writing where the user chose on their own disk (a Documents
	// folder may hold more than any quota): nothing is counted.
	var quota *export.Quota
	if t.transport == TransportHTTP && !t.sharedFS {
		quota = t.exportQuota
	}
	if len(bases) == 0 {
		if t.exportDir == "" {
			c.Record(fallback.SkippedFor(stepExportDir, fallback.NotConfigured, "the server has no export directory (--export-dir)"))
			return c.Fail(ErrorNotSaved, fmt.Sprintf("saveItinerary has nowhere to write: %s, and the server has no export directory. "+
				"To enable saving, start the server with --export-dir (or FLIGHTSERVER_EXPORT_DIR)%s. "+
				"The server does not pick a directory itself.", rootsDecision(c).Reason, t.rootsAdvice()), &ToolError{Why: string(fallback.NotConfigured)})
		}
		if err := usableDir(t.exportDir); err != nil {
			// Configured but not there (a host's snippet naming a folder
			// never made): the server started all the same, and says here
			// what to create.
			c.Record(fallback.FailedFor(stepExportDir, fallback.NotUsable, err.Error(), 0))
			return c.Fail(ErrorNotSaved, fmt.Sprintf("saveItinerary has nowhere to write: %s, and the server's export directory %s. "+
				"Create that folder (or point --export-dir, FLIGHTSERVER_EXPORT_DIR, at one that exists), then call saveItinerary again; "+
				"the server does not create or pick a directory itself.", rootsDecision(c).Reason, err), &ToolError{Why: string(fallback.NotUsable), Reason: err.Error()})
		}
		c.Record(fallback.UsedBy(stepExportDir, "the server's configured export directory", 0))
		bases = []usableRoot{{uri: fileURI(t.exportDir), dir: t.exportDir}}
		if t.transport == TransportHTTP {
			quota = t.exportQuota
		}
	}
	at, err := chooseDir(args.Directory, bases)
	if err != nil {
		return invalidArguments(c, flights.Problems{{Field: "directory", Problem: err.Error(), Accepted: "a directory inside " + baseList(bases) + ", or none"}})
	}

	ext, data := ".ics", itinerary.ICSTrip(t.catalog, ch.legs, time.Now(), held)
	if format == FormatMarkdown {
		ext, data = ".md", itinerary.MarkdownTrip(t.catalog, ch.legs, held)
	}
	name, err := export.Filename(args.Filename, ch.id, ext)
	if err != nil {
		return invalidArguments(c, flights.Problems{{Field: "filename", Problem: err.Error(), Accepted: "a plain file name without directories"}})
	}
	// overwrite is the host's model's word, not the user's: it may replace
	// an itinerary, never a file of the user's that happens to have the
	// name (a README.md in the folder the host shares). Checked without
	// overwrite too, so that the refusal does not tell the model to pass
	// overwrite, which would not replace that file either.
	dir, err := at.open()
	if err != nil {
		c.Log().Warn().Err(err).Msg("opening the directory failed")
		return c.Fail(ErrorNotSaved, fmt.Sprintf("Could not save the itinerary: %v.", err), nil)
	}
	defer dir.Close()
	if err := replaceable(dir, name); err != nil {
		return c.Fail(ErrorNotSaved, fmt.Sprintf("Could not save the itinerary: %v. Pass another filename, or ask the user to move or delete that file.", err), nil)
	}
	if err := quota.Take(int64(len(data))); err != nil {
		c.Log().Warn().Err(err).Msg("export directory full")
		return c.Fail(ErrorNotSaved, fmt.Sprintf("Could not save the itinerary: %v.", err), nil)
	}
	path, size, err := dir.Write(name, data, args.Overwrite)
	if err != nil {
		quota.Give(int64(len(data)))
		c.Log().Warn().Err(err).Msg("write failed")
		return c.Fail(ErrorNotSaved, fmt.Sprintf("Could not save the itinerary: %v.", err), nil)
	}
	out := SaveResult{URI: fileURI(path), Path: path, Bytes: size, Format: format, FlightID: ch.id, Attempts: fallback.AttemptsOut(c.Attempts())}
	used := c.Attempts()[len(c.Attempts())-1]
	where := used.Reason // "inside the client's roots", "the server's configured export directory"
	if roots := rootsDecision(c); roots.Step == stepRoots && roots.Outcome != fallback.Used {
		where += " (not the client's roots: " + roots.Reason + ")"
	}
	out.Summary = fmt.Sprintf("Saved %s (%d bytes) in %s: %s.", filepath.Base(path), size, filepath.Dir(path), where)
	c.Log().Info().Str("step", used.Step).Int64("bytes", size).Msg("saved")
	return mcp.NewToolResultStructured(out, out.Summary+"\n"+out.URI)
}

// rootsDecision is the client_roots rung's decision on this call, recorded
// by rootsToWrite: the last attempt at its step (a legacy call that carried
// a requestState has one before it, saying the state was not read).
func rootsDecision(c *fallback.Call) fallback.Attempt {
	as := c.Attempts()
	for i := len(as) - 1; i >= 0; i-- {
		if as[i].Step == stepRoots {
			return as[i]
		}
	}
	return fallback.Attempt{}
}

// rootsToWrite is the client_roots rung: the client's roots this server may
// write under on this call, none (with the attempt recorded), or the pending
// roots question (modern).
//
// Roots name directories on the client's machine. Over stdio that is this
// machine; over HTTP it usually is not, and any caller could name any
// directory the process can write. So over HTTP a root counts only where it
// lies inside --export-dir (roots may narrow the operator's directory, never
// widen it), unless the operator said client and server share a filesystem
// (--shared-filesystem).
func (t *Toolset) rootsToWrite(ctx context.Context, c *fallback.Call) ([]usableRoot, *mcp.CallToolResult) {
	within := ""
	if t.transport == TransportHTTP && !t.sharedFS {
		if t.exportDir == "" {
			// Not asked: no root could be used. Nor is a retry's answer
			// read: its state may come from a replica with other rules,
			// and the rule is this one's. A client that could not have
			// shared roots anyway is told that first.
			why, reason := c.Client().CannotAsk(fallback.AskRoots)
			if why == "" {
				why, reason = fallback.NotTrusted, "over HTTP a client's roots name directories on its own machine, so they can only narrow --export-dir"
			}
			c.Record(fallback.SkippedFor(stepRoots, why, reason))
			return nil, nil
		}
		within = t.exportDir
	}
	a := c.Ask(ctx, fallback.Question{Step: stepRoots, Key: rootsKey, Roots: true, Limit: t.rootsTimeout})
	switch {
	case a.Pending != nil:
		return nil, a.Pending
	case a.Failed():
		c.Record(a.Attempt(stepRoots))
		return nil, nil
	}
	usable, skipped := checkRoots(a.Answer.Roots, within)
	if len(usable) == 0 {
		reason := "client shared no roots"
		if len(skipped) > 0 {
			reason = "none of the client's roots can be used: " + strings.Join(skipped, "; ")
		}
		c.Record(fallback.FailedFor(stepRoots, fallback.NotUsable, reason, a.Elapsed))
		return nil, nil
	}
	reason := "inside the client's roots"
	if within != "" {
		reason = "inside the client's roots, within the server's export directory"
	}
	if len(skipped) > 0 {
		reason += " (skipped " + strings.Join(skipped, "; ") + ")"
	}
	c.Record(fallback.UsedBy(stepRoots, reason, a.Elapsed))
	return usable, nil
}

// usableDir says why dir cannot be written into, or nil: it must exist and
// be a directory.
func usableDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", dir)
	case err != nil:
		return fmt.Errorf("%s cannot be read: %v", dir, errors.Unwrap(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// rootsAdvice completes the refusal with what roots could do here.
func (t *Toolset) rootsAdvice() string {
	if t.transport == TransportHTTP && !t.sharedFS {
		return "; client roots then narrow where inside it files go"
	}
	return ", or use a client that shares roots"
}

func baseList(bases []usableRoot) string {
	dirs := make([]string, len(bases))
	for i, b := range bases {
		dirs[i] = b.dir
	}
	return strings.Join(dirs, ", ")
}

// maxReplaceable bounds how much of an existing file replaceable reads: an
// itinerary is a few kilobytes, so a larger file is not one.
const maxReplaceable = 1 << 20

// saveDir is where a file is written: the directory sub inside the allowed
// base (a client's root or the export directory, with its links followed),
// as chooseDir found it. open holds it inside base whatever happens to the
// names on the way after chooseDir looked: if sub is swapped for a link
// that leads out, the save is refused, not made out there (export.OpenDir).
type saveDir struct {
	base, sub string // sub: "." or a local path
}

// open opens the directory for one save: the check that it exists, what
// is there already and the write all go through the one handle.
func (p saveDir) open() (*export.Dir, error) { return export.OpenDir(p.base, p.sub) }

// replaceable says why the file name in dir must not be replaced by an
// itinerary, or nil: nothing is there, a directory is (the write says so),
// or the file is an itinerary this server wrote (itinerary.Rendered). A
// link, a device or any other file is the user's. It reads through dir's
// handle, without following a link at the name and without blocking on a
// named pipe, and only the file it looked at: one swapped in between the
// look and the read (a link to an itinerary) is refused. What it cannot
// see is a file the user writes at the name after the check and before the
// save's rename, a window of a few system calls.
func replaceable(dir *export.Dir, name string) error {
	fi, err := dir.Root().Lstat(name)
	replaceableLooked(dir, name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir():
		return nil
	case err != nil:
		return fmt.Errorf("%s in %s cannot be looked at to check that it is an itinerary this server wrote: %v", name, dir.Path(), errors.Unwrap(err))
	case !fi.Mode().IsRegular() || fi.Size() > maxReplaceable:
		return fmt.Errorf("%s in %s is not an itinerary this server wrote, so overwrite does not replace it", name, dir.Path())
	}
	f, err := dir.Root().OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("%s in %s cannot be read to check that it is an itinerary this server wrote: %v", name, dir.Path(), errors.Unwrap(err))
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(fi, opened) {
		return fmt.Errorf("%s in %s changed while it was being checked, so overwrite does not replace it; save again", name, dir.Path())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReplaceable+1))
	if err != nil || len(b) > maxReplaceable || !itinerary.Rendered(b) {
		return fmt.Errorf("%s in %s is not an itinerary this server wrote, so overwrite does not replace it", name, dir.Path())
	}
	return nil
}

// replaceableLooked is called by replaceable between looking at the name
// and opening it: a test's way into that window.
var replaceableLooked = func(dir *export.Dir, name string) {}

// isDirIn reports whether the relative name is a directory inside dir, and
// the error that says why not: opened with export.OpenDir, it refuses a
// name that leads outside dir, and a name missing inside dir wraps
// fs.ErrNotExist.
func isDirIn(dir, name string) error {
	d, err := export.OpenDir(dir, name)
	if err != nil {
		return err
	}
	return d.Close()
}

// chooseDir resolves the directory argument against the allowed bases: an
// absolute one must lie inside one of them, a relative one is taken from
// the first base it exists under; none means the first base itself.
func chooseDir(arg string, bases []usableRoot) (saveDir, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return saveDir{base: bases[0].dir, sub: "."}, nil
	}
	if strings.ContainsRune(arg, 0) {
		return saveDir{}, errors.New("the directory argument contains a NUL character")
	}
	if len(arg) >= len("file://") && strings.EqualFold(arg[:len("file://")], "file://") {
		p, err := localPath(arg)
		if err != nil {
			return saveDir{}, fmt.Errorf("the directory %s is a file:// URI this server cannot use: %v", flights.Quote(arg), err)
		}
		arg = p
	}
	// A relative directory is looked for under each base in turn and must
	// exist there; an absolute one is checked against every base on its
	// volume. Either is cleaned first, so ".." applies to the name: whether
	// the call succeeds cannot depend on what a name outside the bases turns
	// out to be (/etc/passwd/../../srv is /srv, file or not), and a path on
	// another volume (a UNC share) is not looked up at all.
	candidates := []string{filepath.Clean(arg)}
	if !filepath.IsAbs(arg) {
		// Opened with export.OpenDir on each base, so a name that leaves
		// them (by "..", or a link inside that points out) finds nothing,
		// whatever is out there; only a directory that is simply missing
		// inside is said to be missing.
		candidates = nil
		missing := filepath.IsLocal(arg)
		for _, b := range bases {
			err := isDirIn(b.dir, arg)
			if err == nil {
				candidates = append(candidates, filepath.Join(b.dir, arg))
			}
			missing = missing && errors.Is(err, fs.ErrNotExist)
		}
		if missing {
			return saveDir{}, fmt.Errorf("the directory %s does not exist in %s: create it first, or pass a directory that exists (or none, for %s)",
				flights.Quote(arg), baseList(bases), bases[0].dir)
		}
	}
	for _, c := range candidates {
		for _, b := range bases {
			if !strings.EqualFold(filepath.VolumeName(b.dir), filepath.VolumeName(c)) {
				continue
			}
			resolved, ok, err := export.Inside(b.dir, c)
			if err != nil || !ok {
				continue
			}
			// The place is kept as the base and the way down from it, so
			// that the write is held inside the base again when it is made.
			base, err := filepath.EvalSymlinks(b.dir)
			if err != nil {
				continue
			}
			if sub, err := filepath.Rel(base, resolved); err == nil && (sub == "." || filepath.IsLocal(sub)) {
				return saveDir{base: base, sub: sub}, nil
			}
		}
	}
	return saveDir{}, fmt.Errorf("the directory %s is not inside an allowed directory (%s)", flights.Quote(arg), baseList(bases))
}
