package httpguard

import (
	"bytes"
	"context"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// AckContext returns ctx carrying written, the signal the engine's
// subscriptions/listen hook waits on before mcp-go writes the result
// (fallback.WithAckSignal in the server; see fallback/listen.go for the race it
// closes).
type AckContext func(ctx context.Context, written func(id any) <-chan struct{}) context.Context

// AcknowledgedFirst gives a subscriptions/listen request the signal that
// the engine's hook waits on, through withSignal. A 2026-07-28 HTTP
// request is its own stream, so the acknowledgement is written on this
// response, in one Write of its own (mcp-go writes each SSE event whole):
// the signal fires after that Write returns. Other requests pass through
// untouched. It reads what ReadBody found in the body, so it serves behind
// ReadBody.
func AcknowledgedFirst(withSignal AckContext, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !messageOf(r).listen {
			next.ServeHTTP(w, r)
			return
		}
		aw := &ackWriter{ResponseWriter: w, written: make(chan struct{})}
		signal := func(any) <-chan struct{} { return aw.written }
		next.ServeHTTP(aw, r.WithContext(withSignal(r.Context(), signal)))
	})
}

// ackWriter closes written once the acknowledgement has gone through it.
type ackWriter struct {
	http.ResponseWriter
	written chan struct{}
	once    sync.Once
}

var ackMethod = []byte(`"` + mcp.MethodNotificationSubscriptionsAcknowledged + `"`)

func (w *ackWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if bytes.Contains(b, ackMethod) {
		w.once.Do(func() { close(w.written) })
	}
	return n, err
}

// Flush keeps the stream a stream: mcp-go streams only through a writer
// that flushes.
func (w *ackWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *ackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
