package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// FuzzHTTPHandler sends the whole HTTP handler (every protection layer and
// mcp-go's streamable HTTP server, as run serves it) arbitrary bodies with
// arbitrary protocol headers. Whatever arrives, the answer is a status
// from the protocol's set, a JSON body is valid JSON, nothing panics, and
// the handler returns once the client has gone.
func FuzzHTTPHandler(f *testing.F) {
	cfg, err := parseConfig([]string{"--transport", "http", "--rate-limit", "0", "--max-body-bytes", "65536"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		f.Fatal(err)
	}
	log := zerolog.Nop()
	srv, err := newMCPServer(cfg, nil, log)
	if err != nil {
		f.Fatal(err)
	}
	h := shippedHandler(f, cfg, srv, log)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}}}`
	for _, seed := range []struct{ body, version, session, method string }{
		{initialize, "", "", ""},
		{discover, "2026-07-28", "", "server/discover"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"destination":"LHR"},` + meta + `}}`, "2026-07-28", "", "tools/call"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"JFK","destination":"LHR","date":"2026-12-24"},"requestState":"v1.AAAA.BBBB","inputResponses":{"rank":{"content":7}},` + meta + `}}`, "2026-07-28", "", "tools/call"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bookFlight","arguments":{"flightId":"JFK-LHR-261224-AAAAA"},` + meta + `}}`, "2026-07-28", "", "tools/call"},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "2025-11-25", "fs-00000000000000000000000000000000", ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, "", "", ""},
		{`{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"date":"2026-12-24"}}}`, "2025-11-25", "", ""},
		{`{"jsonrpc":"1.0","id":{"a":1},"method":42}`, "", "", ""},
		{`{"jsonrpc":"2.0","id":1e999,"method":"tools/call","params":null}`, "2026-07-28", "", "tools/call"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"findBestFlight","arguments":"JFK"}}`, "2026-07-28", "", "tools/call"},
		{strings.Repeat("[", 10000), "", "", ""},
		{"\xff\xfe\x00garbage", "2026-07-28", "x", "tools/call"},
		{"", "", "", ""},
	} {
		f.Add([]byte(seed.body), seed.version, seed.session, seed.method)
	}
	f.Fuzz(func(t *testing.T, body []byte, version, session, method string) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range map[string]string{"MCP-Protocol-Version": version, "Mcp-Session-Id": session, "Mcp-Method": method} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		// A client that waits at most two seconds; a stream (a listen, a
		// question to a client that never answers) must end when it goes.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, req.WithContext(ctx))
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the handler did not return 8 s after its client left (body %.200q)", body)
		}
		switch rec.Code {
		case 200, 202, 400, 404, 405, 406, 413, 415, 422, 429, 503:
		default:
			t.Fatalf("status %d for body %.200q: %.300s", rec.Code, body, rec.Body.String())
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && rec.Body.Len() > 0 && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON answer %.300q for body %.200q", rec.Body.String(), body)
		}
	})
}
