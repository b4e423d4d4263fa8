package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverproc"
	"github.com/flightserver/flightserver/tools"
)

// runResult is what one profile did, for the table, --json and the tests.
type runResult struct {
	Profile   string     `json:"profile"`
	Like      string     `json:"like"`
	Shows     string     `json:"shows"`
	Era       string     `json:"era"`
	Transport string     `json:"transport"`
	AskedFor  askedFor   `json:"askedFor"`
	Calls     []callDone `json:"calls"`
	ElapsedMs int64      `json:"elapsedMs"`
	// Error is set when the demo itself could not run the profile.
	Error      string  `json:"error,omitempty"`
	Transcript []event `json:"transcript,omitempty"`
}

// askedFor counts what the server asked the host for, in either era.
type askedFor struct {
	Sampling int `json:"sampling"`
	Forms    int `json:"forms"`
	Roots    int `json:"roots"`
}

func (a askedFor) String() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{a.Forms, "form"}, {a.Sampling, "sampling"}, {a.Roots, "roots"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", p.what, p.n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ")
}

// callDone is one tool call and what the server said about its path.
type callDone struct {
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"arguments"`
	IsError bool           `json:"isError"`
	// findBestFlight: the method that ranked
	Method string `json:"method,omitempty"`
	// every tool: its decisions, in the server's words
	Attempts []attemptDone `json:"attempts,omitempty"`
	// Used is the step of the attempt marked used (saveItinerary's
	// directory, bookFlight's confirmation, the ranking method)
	Used string `json:"used,omitempty"`
	// an isError's machine-readable cause (e.g. trip_details_needed's why)
	Why string `json:"why,omitempty"`
	// HostEnded is set when the host itself ended the call (a 2026-07-28
	// host whose user rejects sampling does not retry): its error.
	HostEnded string `json:"hostEnded,omitempty"`
	Summary   string `json:"summary"`
	ElapsedMs int64  `json:"elapsedMs"`
}

type attemptDone struct {
	Step    string `json:"step"`
	Outcome string `json:"outcome"`
	Why     string `json:"why,omitempty"`
	Reason  string `json:"reason"`
}

// options say how to reach the server.
type options struct {
	server    string // the flightserver binary
	transport string // stdio or http (started here)
	url       string // an already running HTTP server; overrides transport
	explain   bool
}

// play runs one profile against a fresh server and returns what happened.
func play(ctx context.Context, p profile, o options) runResult {
	res := runResult{Profile: p.Name, Like: p.Like, Shows: p.Shows, Era: p.Era, Transport: o.transport}
	if o.url != "" {
		res.Transport = "http (" + o.url + ")"
	}
	start := time.Now()
	tr := newTranscript()
	err := playSteps(ctx, p, o, tr, &res)
	res.ElapsedMs = time.Since(start).Milliseconds()
	if err != nil {
		res.Error = err.Error()
	}
	if o.explain {
		res.Transcript = tr.Events()
	}
	return res
}

func playSteps(ctx context.Context, p profile, o options, tr *transcript, res *runResult) error {
	tmp, err := os.MkdirTemp("", "flightdemo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// A key of its own, as every deployment should have (the server would
	// otherwise make one up and say so in its log), passed in the
	// environment, where other users' ps cannot see it.
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	env := []string{"FLIGHTSERVER_STATE_KEY=" + hex.EncodeToString(key)}
	// At debug, the server logs each decision as it makes it: the
	// transcript's "server log" lines.
	args := []string{"--log-level", "debug"}
	if p.ServerLLM {
		endpoint := httptest.NewServer(&fakeendpoint.Endpoint{Behaviour: fakemodel.Answers})
		defer endpoint.Close()
		args = append(args, "--llm-base-url", endpoint.URL+"/v1")
		env = append(env, "FLIGHTSERVER_LLM_API_KEY=demo-key-not-secret")
		tr.add("demo", "", "started a stand-in OpenAI-compatible endpoint at "+endpoint.URL+" (no network, no real key)")
	}
	args = append(args, p.ServerArgs...)

	// The host side: a scripted model, user and workspace.
	u := &user{tr: tr, behaviour: p.Form}
	m := &model{tr: tr, sampler: &fakeclient.Sampler{Behaviour: p.Sampling}}
	w := &workspace{tr: tr, dir: filepath.Join(tmp, "workspace")}
	opts := []client.ClientOption{client.WithProtocolVersion(p.Era)}
	if p.Sampling != "" {
		opts = append(opts, client.WithSamplingHandler(m))
	}
	if p.Form != "" {
		opts = append(opts, client.WithElicitationHandler(u))
	}
	if p.Roots {
		if err := os.MkdirAll(w.dir, 0o755); err != nil {
			return err
		}
		opts = append(opts, client.WithRootsHandler(w))
	}
	switch {
	case p.URLOnly:
		opts = append(opts, client.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}}))
	case p.Apps:
		opts = append(opts, client.WithClientCapabilities(mcp.ClientCapabilities{Extensions: map[string]any{
			tools.UIExtension: map[string]any{"mimeTypes": []any{tools.ViewMIME}}}}))
	}

	inner, stop, err := connectTransport(ctx, o, p.Era, env, args, tr)
	if err != nil {
		return err
	}
	defer stop()
	c := client.NewClient(transport.NewLogging(inner, slog.New(tr)), opts...)
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("start the client: %w", err)
	}
	defer c.Close()
	ictx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := c.Initialize(ictx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "flightdemo/" + p.Name, Version: "1"}}}); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}

	vars := map[string]string{"{date}": time.Now().AddDate(0, 1, 0).Format("2006-01-02")}
	for _, s := range p.Steps {
		done, err := callStep(ctx, c, s, vars)
		if err != nil {
			return err
		}
		res.Calls = append(res.Calls, done)
	}
	res.AskedFor = askedFor{Sampling: len(m.sampler.Requests()), Forms: int(u.forms.Load()), Roots: int(w.asked.Load())}
	return nil
}

// connectTransport starts the server as the options say and returns the
// client transport to it.
func connectTransport(ctx context.Context, o options, era string, env, args []string, tr *transcript) (transport.Interface, func(), error) {
	logs, logw := io.Pipe()
	go tr.readServerLog(logs)
	switch {
	case o.url != "":
		logw.Close()
		t, err := streamable(o.url, era)
		return t, func() {}, err
	case o.transport == "http":
		// The demo's host and server share this machine, so the host's
		// roots name directories the server can see: the operator says so,
		// or over HTTP roots would only narrow --export-dir.
		args = append(args, "--shared-filesystem")
		url, stop, err := startHTTPServer(ctx, o.server, env, args, logw)
		if err != nil {
			logw.Close()
			return nil, nil, err
		}
		tr.add("demo", "", "started "+o.server+" --transport http --shared-filesystem (host and server share this machine), listening at "+url)
		t, err := streamable(url+"/mcp", era)
		return t, func() { stop(); logw.Close() }, err
	default:
		tr.add("demo", "", "started "+o.server+" over stdio")
		t := transport.NewStdioWithOptions(o.server, env, args, transport.WithCommandStderrWriter(logw))
		return t, func() { logw.Close() }, nil
	}
}

func streamable(url, era string) (transport.Interface, error) {
	var topts []transport.StreamableHTTPCOption
	if era == legacy {
		//lint:ignore SA1019 the legacy GET stream is what 2025-11-25 hosts open, and what legacy sampling and roots need.
		topts = append(topts, transport.WithContinuousListening())
	}
	return transport.NewStreamableHTTP(url, topts...)
}

// startHTTPServer runs the server over HTTP on a free port (through
// serverproc, as the tests and the load driver do) and returns its URL and
// how to stop it; its log lines go to logs.
func startHTTPServer(ctx context.Context, bin string, env, args []string, logs io.Writer) (string, func(), error) {
	p, err := serverproc.Start(ctx, serverproc.Options{Bin: bin, Args: args, Env: env, Log: logs})
	if err != nil {
		return "", nil, err
	}
	return p.URL, func() { _ = p.Stop(5 * time.Second) }, nil
}

// callStep makes one tool call and reads the path the server took from
// its result.
func callStep(ctx context.Context, c *client.Client, s step, vars map[string]string) (callDone, error) {
	args := map[string]any{}
	for k, v := range s.Args {
		if str, ok := v.(string); ok {
			if val, ok := vars[str]; ok {
				v = val
			}
		}
		args[k] = v
	}
	done := callDone{Tool: s.Tool, Args: args}
	cctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	start := time.Now()
	res, err := c.CallTool(cctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: s.Tool, Arguments: args}})
	done.ElapsedMs = time.Since(start).Milliseconds()
	if err != nil {
		// The host gave up on its side, as a 2026-07-28 host does when its
		// user rejects sampling: part of the story, not a failure of the demo.
		done.HostEnded = err.Error()
		return done, nil
	}
	done.IsError = res.IsError
	var sc struct {
		Method   string        `json:"method"`
		Attempts []attemptDone `json:"attempts"`
		Flights  []struct {
			ID string `json:"id"`
		} `json:"flights"`
		Reference string `json:"reference"`
		Summary   string `json:"summary"`
		Why       string `json:"why"` // in an isError's details
	}
	// A result's decisions are in its structuredContent; an isError's in
	// its _meta, where validating clients do not check them against the
	// output schema.
	body := res.StructuredContent
	if res.IsError && res.Meta != nil {
		body = res.Meta.AdditionalFields[tools.ErrorMetaKey]
	}
	if b, err := json.Marshal(body); err == nil {
		_ = json.Unmarshal(b, &sc)
	}
	done.Method, done.Attempts, done.Why = sc.Method, sc.Attempts, sc.Why
	for _, a := range sc.Attempts {
		if a.Outcome == "used" {
			done.Used = a.Step
		}
	}
	done.Summary = sc.Summary
	if done.Summary == "" {
		for _, c := range res.Content {
			if t, ok := c.(mcp.TextContent); ok {
				done.Summary = strings.SplitN(t.Text, "\n", 2)[0]
				break
			}
		}
	}
	if len(sc.Flights) > 0 {
		vars["{flight}"] = sc.Flights[0].ID
	}
	if sc.Reference != "" {
		vars["{booking}"] = sc.Reference
	}
	return done, nil
}

// user fills the forms the server sends, as the profile's user would: the
// trip form with a sensible trip, the booking form with a confirmation.
type user struct {
	tr        *transcript
	behaviour fakeclient.Behaviour
	forms     atomic.Int32 // forms the server sent
}

func (u *user) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.forms.Add(1)
	form := &fakeclient.Form{Behaviour: u.behaviour, Content: fill(req.Params.RequestedSchema)}
	switch u.behaviour {
	case fakeclient.Accepts:
		b, _ := json.Marshal(form.Content)
		u.tr.add("host", "", "shows the form; the user fills it in and submits "+string(b))
	case fakeclient.Declines:
		u.tr.add("host", "", "shows the form; the user clicks Decline")
	case fakeclient.Cancels:
		u.tr.add("host", "", "shows the form; the user closes it")
	default:
		u.tr.add("host", "", "receives the form and never shows it")
	}
	return form.Elicit(ctx, req)
}

// fill answers a form: every field's default, and for required fields
// without one, what this demo's traveller wants.
func fill(schema any) map[string]any {
	wants := map[string]any{
		"origin": "JFK", "destination": "LHR", "date": time.Now().AddDate(0, 1, 0).Format("2006-01-02"),
		"confirm": true, "passengerName": "Ada Lovelace", "seat": "window",
	}
	b, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(b, &s)
	out := map[string]any{}
	for name, prop := range s.Properties {
		if prop.Default != nil {
			out[name] = prop.Default
		}
		if want, ok := wants[name]; ok && (prop.Default == nil || name == "confirm") {
			out[name] = want
		}
	}
	return out
}

// model is the host's LLM: the scripted stand-in that reads the flights in
// the prompt and picks, or a host whose user rejects or never answers.
type model struct {
	tr      *transcript
	sampler *fakeclient.Sampler
}

func (m *model) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	switch m.sampler.Behaviour {
	case fakemodel.Answers:
		ids := fakemodel.Choose(fakeclient.PromptIDs(req))
		m.tr.add("host", "", fmt.Sprintf("the user approves; the host's model (%s, a stand-in) reads %d flights and picks %v", fakemodel.Model, len(fakeclient.PromptIDs(req)), ids))
	case fakeclient.Rejects:
		m.tr.add("host", "", "shows the sampling request; the user clicks Deny")
	case fakeclient.Silent:
		m.tr.add("host", "", "receives the sampling request and never answers")
	default:
		m.tr.add("host", "", "the host's model answers: "+string(m.sampler.Behaviour))
	}
	return m.sampler.CreateMessage(ctx, req)
}

// workspace is the host's open folder, shared as its only root.
type workspace struct {
	tr    *transcript
	dir   string
	asked atomic.Int32 // roots requests the server sent
}

func (w *workspace) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	w.asked.Add(1)
	uri := "file://" + filepath.ToSlash(w.dir)
	w.tr.add("host", "", "shares its workspace as the only root: "+uri)
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: uri, Name: "workspace"}}}, nil
}
