package httpguard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// signalKey carries the signal AcknowledgedFirst hands withSignal, as the
// engine's own context key does in the server.
type signalKey struct{}

func withSignal(ctx context.Context, written func(id any) <-chan struct{}) context.Context {
	return context.WithValue(ctx, signalKey{}, written)
}

// AcknowledgedFirst signals once the acknowledgement, and nothing before
// it, has been written; the stream still flushes; other requests get no
// signal.
func TestAcknowledgedFirstSignalsTheAcknowledgement(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   string
		signal bool
	}{
		{"a listen request", `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`, true},
		{"a tool call", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"findAirports"}}`, false},
		{"a listen notification (no id)", `{"jsonrpc":"2.0","method":"subscriptions/listen"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var steps []string
			h := AcknowledgedFirst(withSignal, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				signal, ok := r.Context().Value(signalKey{}).(func(any) <-chan struct{})
				if ok != tc.signal {
					t.Fatalf("signal given: %v, want %v", ok, tc.signal)
				}
				if !ok {
					return
				}
				written := signal(3)
				state := func() string {
					select {
					case <-written:
						return "signalled"
					default:
						return "waiting"
					}
				}
				_, _ = io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
				steps = append(steps, state())
				_, _ = io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\"}\n\n")
				steps = append(steps, state())
				w.(http.Flusher).Flush()
			}))
			rec := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body))
			h.ServeHTTP(rec, withBody(r, []byte(tc.body)))
			if !tc.signal {
				return
			}
			if want := "waiting signalled"; strings.Join(steps, " ") != want {
				t.Errorf("signal after each write: %v, want %s", steps, want)
			}
			if !rec.Flushed {
				t.Error("the stream was not flushed through the writer")
			}
		})
	}
}
