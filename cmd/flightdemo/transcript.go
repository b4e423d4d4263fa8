package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"
)

// event is one line of a run's story: a message between host and server,
// something the host's user or model did, or a line the server logged.
type event struct {
	AtMs   int64  `json:"atMs"`
	Who    string `json:"who"` // "host → server", "server → host", "host", "server log"
	Method string `json:"method,omitempty"`
	Text   string `json:"text"`
}

// transcript collects events from three sources: the mcp-go client's
// logging transport (every JSON-RPC message, through slog), the scripted
// user and model, and the server's own log on stderr.
type transcript struct {
	start time.Time

	mu     sync.Mutex
	events []event
}

func newTranscript() *transcript { return &transcript{start: time.Now()} }

func (t *transcript) add(who, method, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, event{AtMs: time.Since(t.start).Milliseconds(), Who: who, Method: method, Text: text})
}

// Events returns the events in the order they happened.
func (t *transcript) Events() []event {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]event(nil), t.events...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].AtMs < out[j].AtMs })
	return out
}

// The transcript is an slog.Handler so that mcp-go's transport.NewLogging
// can feed it every message with its payload.

func (t *transcript) Enabled(context.Context, slog.Level) bool { return true }
func (t *transcript) WithAttrs([]slog.Attr) slog.Handler       { return t }
func (t *transcript) WithGroup(string) slog.Handler            { return t }

func (t *transcript) Handle(_ context.Context, r slog.Record) error {
	attrs := map[string]any{}
	r.Attrs(func(a slog.Attr) bool {
		attrs[a.Key] = a.Value.Any()
		return true
	})
	method, _ := attrs["method"].(string)
	switch r.Message {
	case "→ request":
		t.add("host → server", method, narrateRequest(method, attrs["params"]))
	case "← response":
		t.add("server → host", method, narrateResponse(method, attrs["result"]))
	case "← response error", "→ response error":
		who := "server → host"
		if strings.HasPrefix(r.Message, "→") {
			who = "host → server"
		}
		t.add(who, method, fmt.Sprintf("error answering %s: %v", method, attrs["error"]))
	case "← request":
		t.add("server → host", method, narrateServerRequest(method, attrs["params"]))
	case "→ response":
		t.add("host → server", method, fmt.Sprintf("answers %s: %s", method, clip(fmt.Sprint(attrs["result"]), 160)))
	case "← notification":
		t.add("server → host", method, fmt.Sprintf("notification %s %s", method, clip(fmt.Sprint(attrs["params"]), 120)))
	case "→ notification":
		t.add("host → server", method, "notification "+method)
	}
	return nil
}

// readServerLog turns the server's JSON log lines into events; the lines
// that say which rung ran and why are the server's side of the story.
func (t *transcript) readServerLog(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		msg, _ := line["message"].(string)
		if strings.HasPrefix(msg, "mcp.") || msg == "starting" {
			continue // per-request bookkeeping; the tool's own lines tell the story
		}
		var parts []string
		for _, k := range []string{"tool", "step", "outcome", "why", "reason", "method", "need", "form"} {
			// A field the server left empty ("why" of a rung that was
			// used) says nothing: left out, not shown as why=.
			if v, ok := line[k]; ok && v != nil && v != "" {
				parts = append(parts, fmt.Sprintf("%s=%v", k, v))
			}
		}
		t.add("server log", "", clip(strings.TrimSpace(msg+" "+strings.Join(parts, " ")), 200))
	}
	// A line over the scanner's limit stops it: read on, or the server
	// blocks writing stderr.
	_, _ = io.Copy(io.Discard, r)
}

// narrateRequest describes a host's request to the server.
func narrateRequest(method string, params any) string {
	b, _ := json.Marshal(params)
	switch method {
	case "tools/call":
		var p struct {
			Name           string                     `json:"name"`
			Arguments      json.RawMessage            `json:"arguments"`
			RequestState   string                     `json:"requestState"`
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
		}
		_ = json.Unmarshal(b, &p)
		s := fmt.Sprintf("calls %s %s", p.Name, clip(string(p.Arguments), 140))
		if p.RequestState != "" {
			s += fmt.Sprintf(", again, with answers to %v and the server's signed requestState (%d bytes)", keys(p.InputResponses), len(p.RequestState))
		}
		return s
	case "initialize":
		var p struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Capabilities    map[string]any `json:"capabilities"`
		}
		_ = json.Unmarshal(b, &p)
		return fmt.Sprintf("initialize: protocol %s, declares %v", p.ProtocolVersion, keys(p.Capabilities))
	case "server/discover":
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(b, &p)
		var caps map[string]any
		_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/clientCapabilities"], &caps)
		return fmt.Sprintf("server/discover (no session: every later request carries the protocol version and these capabilities in _meta): declares %v", keys(caps))
	}
	return fmt.Sprintf("%s %s", method, clip(string(b), 120))
}

// narrateResponse describes the server's answer to a host's request.
func narrateResponse(method string, result any) string {
	raw, _ := result.(string)
	switch method {
	case "tools/call":
		var r struct {
			ResultType        string                     `json:"resultType"`
			InputRequests     map[string]json.RawMessage `json:"inputRequests"`
			IsError           bool                       `json:"isError"`
			Content           []struct{ Text string }    `json:"content"`
			StructuredContent map[string]any             `json:"structuredContent"`
		}
		_ = json.Unmarshal([]byte(raw), &r)
		if r.ResultType == "input_required" {
			var asks []string
			for _, k := range keys(r.InputRequests) {
				asks = append(asks, fmt.Sprintf("%q: %s", k, narrateInputRequest(r.InputRequests[k])))
			}
			return "input_required: the server needs the host first, " + strings.Join(asks, "; ")
		}
		text := ""
		if len(r.Content) > 0 {
			text = strings.SplitN(r.Content[0].Text, "\n", 2)[0]
		}
		if s, ok := r.StructuredContent["summary"].(string); ok {
			text = s
		}
		if r.IsError {
			return "isError: " + clip(text, 200)
		}
		return "result: " + clip(text, 200)
	case "initialize":
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal([]byte(raw), &r)
		return "initialized: protocol " + r.ProtocolVersion
	case "server/discover":
		return "discovered: " + clip(raw, 120)
	}
	return clip(raw, 120)
}

// narrateInputRequest describes one question in an input_required result,
// which the host answers with the same handlers it uses for a legacy
// server's direct request.
func narrateInputRequest(raw json.RawMessage) string {
	var r struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	_ = json.Unmarshal(raw, &r)
	b, _ := json.Marshal(r.Params)
	return narrateServerRequest(r.Method, json.RawMessage(b))
}

// narrateServerRequest describes a request from the server to the host.
func narrateServerRequest(method string, params any) string {
	b, _ := json.Marshal(params)
	switch method {
	case "elicitation/create":
		var p struct {
			Message         string `json:"message"`
			RequestedSchema struct {
				Properties map[string]any `json:"properties"`
				Required   []string       `json:"required"`
			} `json:"requestedSchema"`
		}
		_ = json.Unmarshal(b, &p)
		return fmt.Sprintf("form (elicitation) with fields %v, requiring %v: %q", keys(p.RequestedSchema.Properties), p.RequestedSchema.Required, clip(p.Message, 120))
	case "sampling/createMessage":
		return fmt.Sprintf("sampling: asks the host's model to rank (a %d-byte request)", len(b))
	case "roots/list":
		return "roots/list: which directories may files be written to?"
	}
	return fmt.Sprintf("%s %s", method, clip(string(b), 120))
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
