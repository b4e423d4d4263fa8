package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Hosts show a form's fields in the order its schema's properties arrive
// (Claude Code does: docs/HOSTS.md#claude-code), so the server sends them in the
// order a person fills them in, in both eras. This reads the raw bytes a
// client receives over streamable HTTP: mcp-go's own client decodes the
// schema into a map and would hide the order.
func TestFormsGoOutInFillingOrder(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(newServer(t)))
	t.Cleanup(ts.Close)
	for _, tc := range []struct {
		form     string
		tool     string
		args     string
		want     []string
		required []string
	}{
		{"trip", FindBestFlightName, `{"destination":"LHR"}`, []string{"origin", "destination", "date", "passengers", "cabin"}, []string{"origin", "date"}},
		{"confirmation", BookFlightName, `{"flightId":"` + aFlight(t) + `"}`, []string{"passengerName", "seat", "confirm"}, []string{"confirm", "passengerName"}},
	} {
		for _, era := range []string{"legacy", "modern"} {
			t.Run(tc.form+"/"+era, func(t *testing.T) {
				var raw json.RawMessage
				if era == "modern" {
					raw = modernFormOnTheWire(t, ts.URL, tc.tool, tc.args)
				} else {
					raw = legacyFormOnTheWire(t, ts.URL, tc.tool, tc.args)
				}
				if got := propertyOrder(t, raw); !slices.Equal(got, tc.want) {
					t.Errorf("fields on the wire %v, want %v", got, tc.want)
				}
				var schema struct {
					Type     string   `json:"type"`
					Required []string `json:"required"`
				}
				if err := json.Unmarshal(raw, &schema); err != nil || schema.Type != "object" || !slices.Equal(schema.Required, tc.required) {
					t.Errorf("schema %s: %v", raw, err)
				}
			})
		}
	}
}

// modernFormOnTheWire calls tool as a 2026-07-28 client that declares form
// elicitation and returns the requestedSchema of the form in the
// input_required result, as sent.
func modernFormOnTheWire(t *testing.T, url, tool, args string) json.RawMessage {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}}`
	resp := post(t, url, body, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool})
	defer resp.Body.Close()
	for msg := range messages(t, resp) {
		var m struct {
			Result struct {
				ResultType    string `json:"resultType"`
				InputRequests map[string]struct {
					Method string `json:"method"`
					Params struct {
						RequestedSchema json.RawMessage `json:"requestedSchema"`
					} `json:"params"`
				} `json:"inputRequests"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &m) != nil || m.Result.ResultType != "input_required" {
			continue
		}
		for _, r := range m.Result.InputRequests {
			if r.Method == "elicitation/create" {
				return r.Params.RequestedSchema
			}
		}
	}
	t.Fatal("no input_required result with a form")
	return nil
}

// legacyFormOnTheWire initializes a 2025-11-25 session that declares
// elicitation, calls tool, and returns the requestedSchema of the
// elicitation/create request the server sends on the call's stream, as
// sent. The form is never answered: the call ends with the test.
func legacyFormOnTheWire(t *testing.T, url, tool, args string) json.RawMessage {
	t.Helper()
	init := post(t, url, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"wire-test","version":"1"}}}`, nil)
	_, _ = io.Copy(io.Discard, init.Body)
	init.Body.Close()
	session := init.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session id")
	}
	h := map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
	done := post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
	done.Body.Close()
	resp := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`, h)
	defer resp.Body.Close()
	for msg := range messages(t, resp) {
		var m struct {
			Method string `json:"method"`
			Params struct {
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"params"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Method == "elicitation/create" {
			return m.Params.RequestedSchema
		}
	}
	t.Fatal("no elicitation/create request on the call's stream")
	return nil
}

// post sends one JSON-RPC message; the response stays open for the caller
// to read (an SSE stream stays open while the server waits for the form).
func post(t *testing.T, url, body string, headers map[string]string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return resp
}

// messages yields the JSON-RPC messages of a response: its body, or each
// data line of an event stream.
func messages(t *testing.T, resp *http.Response) func(func(json.RawMessage) bool) {
	return func(yield func(json.RawMessage) bool) {
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			yield(b)
			return
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && !yield(json.RawMessage(strings.TrimSpace(data))) {
				return
			}
		}
	}
}
