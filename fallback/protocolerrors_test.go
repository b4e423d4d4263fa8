package fallback_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
)

// ProtocolErrors answers the two refusals 2026-07-28 wants as JSON-RPC
// errors, and passes everything else on with its body as it came.
func TestProtocolErrors(t *testing.T) {
	sealer := sealerFor(t, testKey)
	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	seal := func(key []byte, tool string) string {
		token, err := sealerFor(t, key).Seal(state.Payload{Tool: tool, Step: "s", Data: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	ours, foreign := seal(testKey, "ask"), seal(otherKey, "ask")
	modern := func(caps string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	}
	call := func(tool, extra string) string {
		return `{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"name":"` + tool + `","arguments":{}` + extra + `}}`
	}
	for _, tc := range []struct {
		name   string
		body   string
		code   int // 0: passed on
		detail string
	}{
		{"a modern call without the capability the tool needs", call("ask", ","+modern(`{}`)), mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, `"requiredCapabilities":{"sampling":{}}`},
		{"a modern call declaring only URL elicitation, for a form", call("form", ","+modern(`{"elicitation":{"url":{}}}`)), mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, `"requiredCapabilities":{"elicitation":{"form":{}}}`},
		{"a modern call that declares it", call("ask", ","+modern(`{"sampling":{}}`)), 0, ""},
		{"a tool that needs nothing", call("other", ","+modern(`{}`)), 0, ""},
		{"a legacy call (its session declared what it can)", call("ask", ""), 0, ""},
		{"a forged state", call("ask", `,"requestState":"`+foreign+`",`+modern(`{"sampling":{}}`)), mcp.INVALID_PARAMS, "integrity"},
		{"an altered state", call("ask", `,"requestState":"`+ours+`x",`+modern(`{"sampling":{}}`)), mcp.INVALID_PARAMS, "integrity"},
		{"not a state", call("ask", `,"requestState":"hello",`+modern(`{"sampling":{}}`)), mcp.INVALID_PARAMS, "integrity"},
		{"a state of ours, for another tool (the call refuses it)", call("other", `,"requestState":"`+ours+`",`+modern(`{}`)), 0, ""},
		{"a state of ours", call("ask", `,"requestState":"`+ours+`",`+modern(`{"sampling":{}}`)), 0, ""},
		{"not a tool call", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modern(`{}`) + `}}`, 0, ""},
		{"a notification", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"ask",` + modern(`{}`) + `}}`, 0, ""},
		{"not JSON", `{"jsonrpc":`, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var passed string
			next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				passed = string(b)
				w.WriteHeader(http.StatusTeapot)
			})
			h := engine.ProtocolErrors(fallback.Requirements{"ask": {fallback.AskSampling}, "form": {fallback.AskForm}}, next)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body)))
			if tc.code == 0 {
				if rec.Code != http.StatusTeapot || passed != tc.body {
					t.Fatalf("HTTP %d, next got %q: want it passed on, body intact", rec.Code, passed)
				}
				return
			}
			var res struct {
				ID    any
				Error struct {
					Code    int
					Message string
					Data    json.RawMessage
				}
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
				t.Fatal(err)
			}
			if rec.Code != http.StatusBadRequest || res.Error.Code != tc.code || res.ID != "r-1" || passed != "" {
				t.Fatalf("HTTP %d %s: want 400, code %d and the request's id, not passed on", rec.Code, rec.Body, tc.code)
			}
			if !strings.Contains(string(res.Error.Data)+res.Error.Message, tc.detail) {
				t.Errorf("%s: want it to say %s", rec.Body, tc.detail)
			}
		})
	}
}
