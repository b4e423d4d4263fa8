package tools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/export"
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
	FlightID   string `json:"flightId,omitempty" jsonschema:"a flight id from findBestFlight, e.g. JFK-LHR-261215-K3M9P (or give bookingRef)"`
	BookingRef string `json:"bookingRef,omitempty" jsonschema:"a booking reference from bookFlight, instead of flightId"`
	Format     string `json:"format,omitempty" jsonschema:"ics (calendar, the default) or markdown"`
	Directory  string `json:"directory,omitempty" jsonschema:"where to write: must lie inside one of the client's roots or the server's export directory; relative paths are taken from there (default: the first root, or the export directory)"`
	Filename   string `json:"filename,omitempty" jsonschema:"file name without directories (default: from the flight id); the extension is set from the format"`
	Overwrite  bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file of that name (default false: an existing file is kept and the call fails)"`
}

func (a *SaveArgs) fields() map[string]argField {
	return map[string]argField{
		"flightId": stringArg(&a.FlightID), "bookingRef": stringArg(&a.BookingRef), "format": stringArg(&a.Format), "directory": stringArg(&a.Directory),
		"filename": stringArg(&a.Filename), "overwrite": boolArg(&a.Overwrite),
	}
}

// SaveResult is saveItinerary's structuredContent.
type SaveResult struct {
	URI      string `json:"uri" jsonschema:"file:// URI of the file written"`
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
	Format   string `json:"format"`
	FlightID string `json:"flightId"`
	// Rule says which rule chose the directory: "roots" or "export-dir".
	Rule         string        `json:"rule" jsonschema:"which rule chose the directory: roots (the client's) or export-dir (the server's configuration)"`
	SkippedRoots []skippedRoot `json:"skippedRoots,omitempty" jsonschema:"roots the client shared that could not be used, with why"`
	Summary      string        `json:"summary"`
}

const saveDescription = `Save a flight found by findBestFlight (by flightId) or booked with bookFlight (by bookingRef) as a calendar file (ics) or a readable itinerary (markdown).
It writes only inside a directory the client shares as a root, or the server's configured export directory; it never picks a directory itself.
An existing file is kept unless overwrite is true. The result gives the file's URI and which rule chose the directory.`

func (t *Toolset) saveItineraryTool() (mcp.Tool, error) {
	// It writes a file (not read-only) but never deletes or changes one
	// unless asked to overwrite; the same call twice fails the second time
	// without overwrite, so it is not idempotent; local only.
	return defineTool[SaveArgs, SaveResult](SaveItineraryName, "Save an itinerary", saveDescription, map[string]func(*jsonschema.Schema){
		"flightId":   pattern(flightIDPattern),
		"bookingRef": pattern(`^BK-` + flightIDPattern[1:len(flightIDPattern)-1] + `-[A-Z2-7]{6}$`),
		"format":     enum(FormatICS, FormatMarkdown),
	}, hints{})
}

// rootsKey and rootsStep name the roots question of a modern round.
const (
	rootsKey  = "roots"
	rootsStep = "roots"
)

// saveItinerary decides where to write, per request: the client's roots when
// it declares them, else --export-dir, else a refusal that says how to
// enable saving. Then it renders the flight and writes it safely.
func (t *Toolset) saveItinerary(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(ctx, t.callBudget)
	defer cancel()
	client := ClientFrom(ctx)
	log := t.log.With().Str("tool", SaveItineraryName).Str("era", string(client.Era)).Str("client", clean(client.Name, 60)).Logger()

	var args SaveArgs
	ps := decodeArgs(req.Params.Arguments, args.fields())
	format := strings.ToLower(strings.TrimSpace(args.Format))
	if format == "" {
		format = FormatICS
	}
	if format != FormatICS && format != FormatMarkdown {
		ps = append(ps, flights.Problem{Field: "format", Problem: fmt.Sprintf("%s is not a format", flights.Quote(args.Format)), Accepted: "ics or markdown"})
	}
	id, ref := strings.TrimSpace(args.FlightID), strings.TrimSpace(args.BookingRef)
	switch {
	case slices.ContainsFunc(ps, func(p flights.Problem) bool { return p.Field == "flightId" || p.Field == "bookingRef" }):
	case id == "" && ref == "":
		ps = append(ps, flights.Problem{Field: "flightId", Problem: "is missing", Accepted: "a flight id from findBestFlight, or bookingRef from bookFlight"})
	case id != "" && ref != "":
		ps = append(ps, flights.Problem{Field: "bookingRef", Problem: "is given together with flightId", Accepted: "one of flightId or bookingRef"})
	case ref != "":
		var err error
		if id, err = t.flightFromRef(ref); err != nil {
			ps = append(ps, flights.Problem{Field: "bookingRef", Problem: err.Error(), Accepted: "a reference bookFlight returned"})
		}
	}
	if len(ps) > 0 {
		return invalidArguments(SaveItineraryName, ps), nil
	}
	f, err := t.lookupFlight(ctx, id)
	if err != nil {
		return invalidArguments(SaveItineraryName, flights.Problems{{Field: "flightId", Problem: err.Error(), Accepted: "an id findBestFlight returned"}}), nil
	}

	// Where may we write? Roots first, then the operator's directory.
	var roots []mcp.Root
	var why string // why no roots were used
	switch {
	case !client.Known:
		why = "cannot tell whether this client shares roots (a legacy request without an initialized session)"
	case !client.CanListRoots():
		why = "client did not declare roots"
	case client.Era == Modern:
		if req.Params.RequestState == "" {
			token, err := t.seal(req, rootsStep, nil)
			if err != nil {
				return nil, err
			}
			log.Info().Msg("asked the client for its roots")
			return server.NewInputRequestBuilder(token).Roots(rootsKey).ToolResult(), nil
		}
		if _, refused, err := t.reopen(req, rootsStep); refused != nil || err != nil {
			return refused, err
		}
		if res := server.RootsResponse(req.Params.InputResponses, rootsKey); res != nil {
			roots = res.Roots
		} else {
			why = "the retry carried no roots answer"
		}
	default:
		roots, why = t.legacyRoots(ctx)
	}
	usable, skipped := checkRoots(roots)
	if len(roots) > 0 && len(usable) == 0 {
		why = "none of the client's roots is a local directory this server can write to"
	} else if len(roots) == 0 && why == "" {
		why = "client shared no roots"
	}

	var dir, rule string
	switch {
	case len(usable) > 0:
		rule = "roots"
		dir, err = chooseDir(args.Directory, usable)
	case t.exportDir != "":
		rule = "export-dir"
		dir, err = chooseDir(args.Directory, []usableRoot{{uri: fileURI(t.exportDir), dir: t.exportDir}})
	default:
		log.Info().Str("why", why).Msg("nowhere to write")
		return mcp.NewToolResultError(fmt.Sprintf("saveItinerary has nowhere to write: %s, and the server has no export directory. "+
			"To enable saving, start the server with --export-dir (or FLIGHTSERVER_EXPORT_DIR), or use a client that shares roots. "+
			"The server does not pick a directory itself.", why)), nil
	}
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}

	ext, data := ".ics", itinerary.ICS(t.catalog, f, time.Now())
	if format == FormatMarkdown {
		ext, data = ".md", itinerary.Markdown(t.catalog, f)
	}
	name, err := export.Filename(args.Filename, f.ID, ext)
	if err != nil {
		return invalidArguments(SaveItineraryName, flights.Problems{{Field: "filename", Problem: err.Error(), Accepted: "a plain file name without directories"}}), nil
	}
	path, size, err := export.Write(dir, name, data, args.Overwrite)
	if err != nil {
		log.Warn().Err(err).Str("rule", rule).Msg("write failed")
		return mcp.NewToolResultError(fmt.Sprintf("Could not save the itinerary: %v.", err)), nil
	}
	res := SaveResult{URI: fileURI(path), Path: path, Bytes: size, Format: format, FlightID: f.ID, Rule: rule, SkippedRoots: skipped}
	res.Summary = fmt.Sprintf("Saved %s (%d bytes) in %s, chosen by %s.", filepath.Base(path), size, filepath.Dir(path), ruleText(rule, why))
	log.Info().Str("rule", rule).Int64("bytes", size).Msg("saved")
	text := res.Summary + "\n" + res.URI
	for _, s := range skipped {
		text += fmt.Sprintf("\nskipped root %s: %s", s.URI, s.Reason)
	}
	return mcp.NewToolResultStructured(res, text), nil
}

func ruleText(rule, why string) string {
	if rule == "roots" {
		return "the client's roots"
	}
	return "the server's export directory (" + why + ")"
}

// chooseDir resolves the directory argument against the allowed bases: an
// absolute one must lie inside one of them, a relative one is taken from
// the first; none means the first base itself.
func chooseDir(arg string, bases []usableRoot) (string, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return bases[0].dir, nil
	}
	if strings.ContainsRune(arg, 0) {
		return "", errors.New("the directory argument contains a NUL character")
	}
	if strings.HasPrefix(arg, "file://") {
		if u, err := url.Parse(arg); err == nil {
			arg = u.Path
		}
	}
	// A relative directory is looked for under each base in turn and must
	// exist there; an absolute one is checked against every base.
	candidates := []string{arg}
	if !filepath.IsAbs(arg) {
		candidates = nil
		for _, b := range bases {
			if fi, err := os.Stat(filepath.Join(b.dir, arg)); err == nil && fi.IsDir() {
				candidates = append(candidates, filepath.Join(b.dir, arg))
			}
		}
	}
	for _, c := range candidates {
		for _, b := range bases {
			resolved, ok, err := export.Inside(b.dir, c)
			if err == nil && ok {
				return resolved, nil
			}
		}
	}
	allowed := make([]string, len(bases))
	for i, b := range bases {
		allowed[i] = b.dir
	}
	return "", fmt.Errorf("the directory %s is not inside an allowed directory (%s); choose one inside them, or leave directory out",
		flights.Quote(arg), strings.Join(allowed, ", "))
}

func fileURI(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }

// lookupFlight finds a flight by the id findBestFlight gave: the id names the
// route and date, and the provider is deterministic, so searching again
// finds the same flight on any replica.
func (t *Toolset) lookupFlight(ctx context.Context, id string) (flights.Flight, error) {
	o, d, date, err := flights.ParseID(id)
	if err != nil {
		return flights.Flight{}, errors.New(clean(err.Error(), 120))
	}
	found, err := t.provider.Search(ctx, flights.Trip{Origin: o, Destination: d, Date: date, Passengers: 1, Cabin: flights.Economy, MaxStops: flights.MaxStopsLimit})
	if err != nil {
		return flights.Flight{}, fmt.Errorf("no flights from %s to %s: unknown airports in the id", o, d)
	}
	for _, f := range found {
		if f.ID == id {
			return f, nil
		}
	}
	return flights.Flight{}, fmt.Errorf("%s is not a flight on %s to %s on %s", flights.Quote(id), o, d, date.Format(flights.DateLayout))
}
