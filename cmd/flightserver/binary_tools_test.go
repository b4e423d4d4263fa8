package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/tools"
)

// Each tool through the built binary, the way desktop hosts run it (a
// subprocess over stdio), in both eras, for the client behaviours that
// change its path. Package tools runs the same paths in-process and over
// HTTP; these show the binary's flags and environment reach them.

// ladder is how a findBestFlight result says it was ranked.
type ladder struct {
	Method   string
	Attempts []struct{ Step, Outcome, Why, Reason string }
}

// searchJFKLHR searches from JFK to LHR through c, waiting at most wait,
// and returns how the result was ranked and its JSON. err is the call's
// own (a client that gave up); an isError result fails the test.
func searchJFKLHR(t *testing.T, c *client.Client, wait time.Duration) (ladder, []byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	res, err := call(ctx, c, "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()})
	if err != nil {
		return ladder{}, nil, err
	}
	if res.IsError {
		t.Fatalf("call: %+v", res)
	}
	var l ladder
	return l, structured(t, res, &l), nil
}

// withAndWithout runs f in each era, once from a client that declares the
// capability a tool would use (the subtest era/with) and once from one
// that does not (era/without).
func withAndWithout(t *testing.T, with, without string, f func(t *testing.T, version string, declared bool)) {
	for _, era := range eras {
		for _, declared := range []bool{true, false} {
			name := era.name + "/" + without
			if declared {
				name = era.name + "/" + with
			}
			t.Run(name, func(t *testing.T) { f(t, era.version, declared) })
		}
	}
}

// The sampling ladder for every client behaviour in both eras. (tools runs
// the same matrix in-process and over HTTP.)
func TestStdioSamplingMatrix(t *testing.T) {
	type want struct{ method, outcome, why, reason, callErr string }
	for _, tc := range []struct {
		behaviour      fakeclient.Behaviour
		legacy, modern want
	}{
		{fakemodel.Answers, want{"client_sampling", "used", "", "scripted-llm-1", ""}, want{"client_sampling", "used", "", "scripted-llm-1", ""}},
		{fakemodel.UnknownIDs, want{"deterministic", "failed", "unusable_answer", "unknown flight ids", ""}, want{"deterministic", "failed", "unusable_answer", "unknown flight ids", ""}},
		{fakemodel.Garbage, want{"deterministic", "failed", "unusable_answer", "not the JSON object", ""}, want{"deterministic", "failed", "unusable_answer", "not the JSON object", ""}},
		{fakeclient.Rejects, want{"deterministic", "failed", "user_rejected", "the user rejected the request", ""}, want{callErr: fakeclient.RejectMessage}},
		{fakeclient.Fails, want{"deterministic", "failed", "client_error", fakeclient.FailMessage, ""}, want{callErr: fakeclient.FailMessage}},
		{fakeclient.Silent, want{"deterministic", "failed", "no_answer", "no answer within 300ms", ""}, want{callErr: "context deadline exceeded"}},
		{"", want{"deterministic", "skipped", "client_cannot_ask", "client did not declare sampling", ""}, want{"deterministic", "skipped", "client_cannot_ask", "client did not declare sampling", ""}},
	} {
		for _, era := range eras {
			name := string(tc.behaviour)
			if name == "" {
				name = "undeclared"
			}
			t.Run(name+"/"+era.name, func(t *testing.T) {
				w := tc.legacy
				if era.name == "modern" {
					w = tc.modern
				}
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				if tc.behaviour != "" {
					opts = append(opts, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: tc.behaviour}))
				}
				// Short only for the silent client, so an answer on a slow
				// machine is never mistaken for a timeout.
				timeout := "20s"
				if tc.behaviour == fakeclient.Silent {
					timeout = "300ms"
				}
				c := startStdio(t, nil, []string{"--sampling-timeout", timeout, "--log-level", "warn"}, nil, opts...)
				r, b, err := searchJFKLHR(t, c, 3*time.Second)
				if w.callErr != "" {
					if err == nil || !strings.Contains(err.Error(), w.callErr) {
						t.Fatalf("call error %v, want one containing %q", err, w.callErr)
					}
					return
				}
				if err != nil || len(r.Attempts) == 0 {
					t.Fatalf("call: %v, result %s", err, b)
				}
				if a := r.Attempts[0]; r.Method != w.method || a.Step != "client_sampling" || a.Outcome != w.outcome || a.Why != w.why || !strings.Contains(a.Reason, w.reason) {
					t.Errorf("method %s, attempts %+v; want %s with sampling %s (%q)", r.Method, r.Attempts, w.method, w.outcome, w.reason)
				}
			})
		}
	}
}

// The server-side LLM tier configured the way an operator does (flags and
// FLIGHTSERVER_LLM_API_KEY, the key for an endpoint other than OpenAI's),
// against a stand-in OpenAI-compatible endpoint, in both eras. The key must
// not reach stderr.
func TestStdioServerLLM(t *testing.T) {
	const key = "sk-test-SECRET-456"
	for _, tc := range fakeendpoint.Outcomes {
		for _, era := range eras {
			t.Run(string(tc.Behaviour)+"/"+era.name, func(t *testing.T) {
				endpoint := &fakeendpoint.Endpoint{Behaviour: tc.Behaviour}
				ts := httptest.NewServer(endpoint)
				defer ts.Close()
				var stderr serverbin.Log
				timeout := "10s" // short only where the endpoint hangs
				if tc.Behaviour == fakeendpoint.Silent {
					timeout = "300ms"
				}
				c := startStdio(t, []string{"FLIGHTSERVER_LLM_API_KEY=" + key},
					[]string{"--llm-base-url", ts.URL + "/v1", "--llm-timeout", timeout, "--log-level", "debug"}, &stderr,
					client.WithProtocolVersion(era.version))
				r, b, err := searchJFKLHR(t, c, 5*time.Second)
				if err != nil || len(r.Attempts) < 2 {
					t.Fatalf("call: %v, result %s", err, b)
				}
				if a := r.Attempts[1]; r.Method != tc.Method || a.Step != "server_llm" || a.Outcome != tc.Outcome || a.Why != tc.Why || !strings.Contains(a.Reason, tc.Reason) {
					t.Errorf("method %s attempts %+v; want %s with server_llm %s/%s (%q)", r.Method, r.Attempts, tc.Method, tc.Outcome, tc.Why, tc.Reason)
				}
				if auth := endpoint.Authorizations(); len(auth) == 0 || auth[0] != "Bearer "+key {
					t.Errorf("the key from FLIGHTSERVER_LLM_API_KEY did not reach the endpoint: %q", auth)
				}
				_ = c.Close()
				for _, out := range []string{stderr.String(), string(b)} {
					if strings.Contains(out, "SECRET") {
						t.Errorf("the API key leaked:\n%s", out)
					}
				}
			})
		}
	}
}

// findBestFlight without an origin and a date: the user fills them in (at
// once or at the second try), or the call ends saying why it could not
// search.
func TestStdioAsksForMissingTripDetails(t *testing.T) {
	good := map[string]any{"origin": "FRA", "date": travelDate()}
	bad := map[string]any{"origin": "QQX", "date": "2020-01-01"}
	for _, tc := range []struct {
		name  string
		form  *fakeclient.Form // nil: no form elicitation declared
		caps  *mcp.ClientCapabilities
		forms int
		why   string // "" when the search runs
	}{
		{name: "accepts valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: good}, forms: 1},
		{name: "invalid then valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Contents: []map[string]any{bad, good}}, forms: 2},
		{name: "invalid twice", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: bad}, forms: 2, why: string(fallback.StillInvalid)},
		{name: "declines", form: &fakeclient.Form{Behaviour: fakeclient.Declines}, forms: 1, why: string(fallback.UserDeclined)},
		{name: "cancels", form: &fakeclient.Form{Behaviour: fakeclient.Cancels}, forms: 1, why: string(fallback.UserCancelled)},
		{name: "never answers", form: &fakeclient.Form{Behaviour: fakeclient.Silent}, forms: 1, why: string(fallback.NoAnswer)},
		{name: "not declared", why: string(fallback.ClientCannotAsk)},
		{name: "url mode only", caps: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}}, why: string(fallback.URLModeOnly)},
	} {
		for _, era := range eras {
			if tc.form != nil && tc.form.Behaviour == fakeclient.Silent && era.name == "modern" {
				// A modern host that never answers never retries: nothing
				// reaches the server to time out (tested in package tools).
				continue
			}
			t.Run(tc.name+"/"+era.name, func(t *testing.T) {
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				var form *fakeclient.Form
				if tc.form != nil {
					form = &fakeclient.Form{Behaviour: tc.form.Behaviour, Content: tc.form.Content, Contents: tc.form.Contents}
					opts = append(opts, client.WithElicitationHandler(form))
				}
				if tc.caps != nil {
					opts = append(opts, client.WithClientCapabilities(*tc.caps))
				}
				c := startStdio(t, nil, []string{"--log-level", "warn", "--elicitation-timeout", "300ms"}, nil, opts...)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := call(ctx, c, "findBestFlight", map[string]any{"destination": "SIN"})
				if err != nil {
					t.Fatal(err)
				}
				if form != nil && len(form.Requests()) != tc.forms {
					t.Errorf("%d forms shown, want %d", len(form.Requests()), tc.forms)
				}
				if tc.why == "" {
					var r struct {
						Trip    struct{ Origin, Destination, Date string }
						Flights []struct{ ID string }
					}
					b := structured(t, res, &r)
					if res.IsError || r.Trip.Origin != "FRA" || r.Trip.Destination != "SIN" || r.Trip.Date != travelDate() || len(r.Flights) == 0 {
						t.Errorf("result %s", b)
					}
					return
				}
				d := errorDetails(t, res)
				if d.Error != tools.ErrorTripDetailsNeeded || d.Why != tc.why || d.AskedUser == nil || *d.AskedUser != (tc.forms > 0) || len(d.Fields) != 2 {
					t.Errorf("want %s, got %+v", tc.why, d)
				}
				if txt := res.Content[0].(mcp.TextContent).Text; !strings.Contains(txt, "- origin:") || !strings.Contains(txt, "- date:") {
					t.Errorf("text does not name the fields: %s", txt)
				}
			})
		}
	}
}

// bookFlight: confirmed in a form by a client that can show one, or by
// arguments from one that cannot.
func TestStdioBookFlight(t *testing.T) {
	withAndWithout(t, "form", "arguments", func(t *testing.T, version string, withForm bool) {
		opts := []client.ClientOption{client.WithProtocolVersion(version)}
		if withForm {
			opts = append(opts, client.WithElicitationHandler(&fakeclient.Form{Behaviour: fakeclient.Accepts,
				Content: map[string]any{"confirm": true, "passengerName": "Ada Lovelace", "seat": "aisle"}}))
		}
		c := startStdio(t, nil, []string{"--log-level", "warn"}, nil, opts...)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		id := firstFlightID(t, ctx, c, "FRA", "SIN")
		args := map[string]any{"flightId": id}
		if !withForm {
			res, err := call(ctx, c, "bookFlight", args)
			if err != nil || !res.IsError {
				t.Fatalf("booking without approval: %v %+v", err, res)
			}
			args["confirm"], args["passengerName"] = true, "Ada Lovelace"
		}
		res, err := call(ctx, c, "bookFlight", args)
		if err != nil || res.IsError {
			t.Fatalf("book: %v %+v", err, res)
		}
		var r struct {
			Reference, PassengerName string
			Simulated                bool
			Attempts                 []struct{ Step, Outcome string }
		}
		b := structured(t, res, &r)
		by := "confirm_arguments"
		if withForm {
			by = "confirm_form"
		}
		if !r.Simulated || r.PassengerName != "Ada Lovelace" || usedStep(r.Attempts) != by || !strings.HasPrefix(r.Reference, "BK-"+id) {
			t.Errorf("booking %s", b)
		}
	})
}

type oneRoot string

func (r oneRoot) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: (&url.URL{Scheme: "file", Path: string(r)}).String(), Name: "work"}}}, nil
}

// saveFirstFlight saves the best flight from SFO to NRT through c and
// returns the file's path and the step that chose its directory.
func saveFirstFlight(t *testing.T, c *client.Client) (path, by string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := call(ctx, c, "saveItinerary", map[string]any{"flightId": firstFlightID(t, ctx, c, "SFO", "NRT")})
	if err != nil || res.IsError {
		t.Fatalf("save: %v %+v", err, res)
	}
	var r struct {
		Path     string
		Attempts []struct{ Step, Outcome string }
	}
	structured(t, res, &r)
	return r.Path, usedStep(r.Attempts)
}

// saveItinerary: with the client's root, and with only the operator's
// --export-dir.
func TestStdioSaveItinerary(t *testing.T) {
	withAndWithout(t, "roots", "export-dir", func(t *testing.T, version string, withRoots bool) {
		root, exportDir := t.TempDir(), t.TempDir()
		opts := []client.ClientOption{client.WithProtocolVersion(version)}
		if withRoots {
			opts = append(opts, client.WithRootsHandler(oneRoot(root)))
		}
		c := startStdio(t, nil, []string{"--export-dir", exportDir, "--log-level", "warn"}, nil, opts...)
		path, by := saveFirstFlight(t, c)
		want, rule := root, "client_roots"
		if !withRoots {
			want, rule = exportDir, "export_dir"
		}
		if filepath.Dir(path) != want || by != rule {
			t.Errorf("saved %s by %s, want in %s by %s", path, by, want, rule)
		}
		if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "BEGIN:VEVENT") {
			t.Errorf("file: %v", err)
		}
	})
}

// Over HTTP (the server's own transport flag, not a test setting) a
// modern client that answers the roots request with a directory of its
// choosing cannot make the server write there: roots only narrow
// --export-dir, unless --shared-filesystem says both sides share one disk.
func TestHTTPSaveRootsDoNotWidenTheExportDir(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared-filesystem=%v", shared), func(t *testing.T) {
			exportDir, clientDir := t.TempDir(), t.TempDir()
			args := []string{"--export-dir", exportDir}
			if shared {
				args = append(args, "--shared-filesystem")
			}
			h := startHTTP(t, args...)
			c := startHTTPClient(t, h.url+"/mcp", mcp.ProtocolVersion20260728, client.WithRootsHandler(oneRoot(clientDir)))
			path, by := saveFirstFlight(t, c)
			want, rule := exportDir, "export_dir"
			if shared {
				want, rule = clientDir, "client_roots"
			}
			if filepath.Dir(path) != want || by != rule {
				t.Errorf("saved %s by %s, want in %s by %s", path, by, want, rule)
			}
		})
	}
}

// A traveller's search over stdio and HTTP, in both eras: a city and a
// metro code, a round trip over flexible dates (every pick with its return
// flight, a calendar of five days), and the airport lookup.
func TestTravellerSearchThroughTheBinary(t *testing.T) {
	h := startHTTP(t)
	date, back := time.Now().AddDate(0, 1, 0), time.Now().AddDate(0, 1, 7)
	for _, via := range []string{"stdio", "http"} {
		for _, era := range eras {
			t.Run(via+"/"+era.name, func(t *testing.T) {
				var c *client.Client
				if via == "stdio" {
					c = startStdio(t, nil, []string{"--log-level", "warn"}, nil, client.WithProtocolVersion(era.version))
				} else {
					c = startHTTPClient(t, h.url+"/mcp", era.version)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res, err := call(ctx, c, "findBestFlight", map[string]any{
					"origin": "New York", "destination": "LON", "date": date.Format("2006-01-02"), "returnDate": back.Format("2006-01-02"), "flexDays": 2})
				if err != nil || res.IsError {
					t.Fatalf("%v %+v", err, res)
				}
				var r struct {
					Trip struct {
						OriginAirports []string
						ReturnDate     string
					}
					Flights []struct {
						ID     string
						Return *struct{ FlightID, Depart string }
					}
					Calendar []struct{ Date, BestID string }
				}
				structured(t, res, &r)
				if len(r.Trip.OriginAirports) < 3 || len(r.Flights) != 3 || len(r.Calendar) != 5 {
					t.Fatalf("airports %v, %d picks, %d days", r.Trip.OriginAirports, len(r.Flights), len(r.Calendar))
				}
				for _, f := range r.Flights {
					if f.Return == nil || !strings.HasSuffix(f.ID, "_"+f.Return.FlightID) {
						t.Errorf("pick %s has no return flight", f.ID)
					}
				}
				res, err = call(ctx, c, "findAirports", map[string]any{"query": "new york"})
				if err != nil || res.IsError {
					t.Fatalf("%v %+v", err, res)
				}
				var a struct{ Airports []struct{ Code string } }
				structured(t, res, &a)
				var codes []string
				for _, x := range a.Airports {
					codes = append(codes, x.Code)
				}
				for _, want := range []string{"EWR", "JFK", "LGA"} {
					if !slices.Contains(codes, want) {
						t.Errorf("findAirports new york: %v lacks %s", codes, want)
					}
				}
			})
		}
	}
}
