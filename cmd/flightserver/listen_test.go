package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/serverbin"
)

// listenRequest is a 2026-07-28 subscriptions/listen for the tool list.
func listenRequest(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"toolsListChanged":true}}}`, id)
}

// streamMessage is what a listen stream carries: the acknowledgement (a
// method, the subscription id in _meta) and the result (the request's id).
type streamMessage struct {
	ID     *int   `json:"id"`
	Method string `json:"method"`
	Params struct {
		Meta struct {
			SubscriptionID *int `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
		Notifications map[string]any `json:"notifications"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
}

// checkAcknowledgedFirst fails unless the messages for listen id are its
// acknowledgement, of an empty filter (flightserver has nothing to
// subscribe to), and then its result.
func checkAcknowledgedFirst(t *testing.T, id int, msgs []streamMessage) {
	t.Helper()
	var got []string
	for _, m := range msgs {
		switch {
		case m.Method == "notifications/subscriptions/acknowledged" && m.Params.Meta.SubscriptionID != nil && *m.Params.Meta.SubscriptionID == id:
			got = append(got, fmt.Sprintf("ack%v", m.Params.Notifications))
		case m.ID != nil && *m.ID == id && m.Result != nil:
			got = append(got, "result")
		}
	}
	if want := []string{"ackmap[]", "result"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("listen %d: the stream carried %v, want %v", id, got, want)
	}
}

// Every subscriptions/listen is acknowledged before its result, over both
// transports, through the binary. mcp-go alone wrote the result first over
// stdio every time. Over HTTP it lost the acknowledgement when its writer
// ran on another core and lost the lock (fallback/listen.go): one time in
// five for curl, about one in a hundred for this client, so two hundred
// listens caught it in four runs of six. What pins the HTTP side every
// run: TestAcknowledgedFirstSignalsTheAcknowledgement (the writer),
// TestHTTPListenGetsTheSignal (its place in the handler) and tools'
// TestListenResultWaitsForItsAcknowledgement (the hook).
func TestListenIsAcknowledgedFirst(t *testing.T) {
	const listens = 200
	t.Run("stdio", func(t *testing.T) {
		_, stdin, lines, logs := rawStdio(t)
		for id := 1; id <= listens; id++ {
			_, _ = io.WriteString(stdin, listenRequest(id)+"\n")
			var msgs []streamMessage
			for done := false; !done; {
				select {
				case line, ok := <-lines:
					if !ok {
						t.Fatalf("stdout closed\n%s", logs.String())
					}
					var m streamMessage
					if err := json.Unmarshal([]byte(line), &m); err != nil {
						t.Fatalf("not JSON-RPC: %.200q", line)
					}
					msgs = append(msgs, m)
					done = m.ID != nil && *m.ID == id
				case <-time.After(10 * time.Second):
					t.Fatalf("listen %d: no result; saw %+v", id, msgs)
				}
			}
			checkAcknowledgedFirst(t, id, msgs)
		}
	})
	t.Run("http", func(t *testing.T) {
		addr, _, _ := serverbin.StartHTTP(t, binary, nil)
		fresh := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}} // a new connection each time, as curl opens
		headers := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"}
		for id := 1; id <= listens; id++ {
			r := sendOn(t, fresh, "http://"+addr+"/mcp", headers, listenRequest(id))
			if r.status != 200 {
				t.Fatalf("listen %d: status %d: %s", id, r.status, r.body)
			}
			var msgs []streamMessage
			for _, line := range strings.Split(r.body, "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok {
					var m streamMessage
					if err := json.Unmarshal([]byte(data), &m); err != nil {
						t.Fatalf("listen %d: not JSON-RPC: %.200q", id, data)
					}
					msgs = append(msgs, m)
				}
			}
			checkAcknowledgedFirst(t, id, msgs)
		}
	})
}

// The HTTP handler that run serves puts the signal in a listen request's
// context, and it reaches mcp-go's hooks: what TestListenIsAcknowledgedFirst
// shows over HTTP only when the race happens.
func TestHTTPListenGetsTheSignal(t *testing.T) {
	cfg, err := parseConfig([]string{"--transport", "http"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	signalled := make(chan bool, 1)
	hooks := &server.Hooks{}
	hooks.AddAfterSubscriptionsListen(func(ctx context.Context, _ any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		_, ok := fallback.AckSignalFrom(ctx)
		signalled <- ok
	})
	srv := server.NewMCPServer("t", "1", server.WithHooks(hooks), server.WithToolCapabilities(false))
	ts := httptest.NewServer(shippedHandler(t, cfg, srv, zerolog.Nop()))
	defer ts.Close()
	r := sendOn(t, &http.Client{Timeout: 10 * time.Second}, ts.URL+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"}, listenRequest(1))
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	select {
	case ok := <-signalled:
		if !ok {
			t.Error("the listen request reached mcp-go without an AckSignal")
		}
	default:
		t.Error("the listen hook did not run")
	}
}
