package fallback

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// A 2026-07-28 client opens a notification stream with subscriptions/listen,
// and the server MUST send notifications/subscriptions/acknowledged as the
// first message carrying the stream's id: the client (the official
// TypeScript client's listen(), for one) waits for it, and a stream that
// ends first is a failed subscription.
//
// mcp-go v1.2.1 queues the acknowledgement for a separate writer goroutine
// and returns the result as soon as the stream has nothing to hold open,
// which on flightserver is always (its tool list never changes and its
// resource is not subscribable). The two then race to the client:
//
//   - over stdio the result was written before the acknowledgement, every
//     time;
//   - over HTTP, a writer running on another core could take the
//     acknowledgement off its queue and then lose the stream's lock to the
//     response, and drop it (upstream: mark3labs/mcp-go#969): 39 listens
//     in 200 from curl, one after another, on this 2-core machine. How
//     often depends on the load; the official conformance suite caught it
//     one run in five.
//
// Only the transport knows when the acknowledgement has gone out, so each
// puts an AckSignal in the context it serves requests with, and a hook
// after subscriptions/listen (which runs before mcp-go hands the result to
// the transport) waits for it, for at most ackWait.

// AckSignal returns a channel that is closed once the acknowledgement of
// the subscriptions/listen request with this JSON-RPC id has been written
// to the client, or nil when the transport is not tracking that request
// (the hook then does not wait).
type AckSignal func(id any) <-chan struct{}

type ackSignalKey struct{}

// WithAckSignal returns ctx carrying the transport's AckSignal.
func WithAckSignal(ctx context.Context, signal AckSignal) context.Context {
	return context.WithValue(ctx, ackSignalKey{}, signal)
}

// AckSignalFrom is the AckSignal in ctx, if a transport put one there.
func AckSignalFrom(ctx context.Context) (AckSignal, bool) {
	signal, ok := ctx.Value(ackSignalKey{}).(AckSignal)
	return signal, ok
}

// ackWait bounds how long a result waits for its acknowledgement. A
// writer that has not sent it by then is stuck on a client that does not
// read (the result would wait behind it anyway), or the client reused an
// id still in flight, so the transport lost track of which acknowledgement
// is whose. Either way the result goes out, and a warning says so.
const ackWait = 2 * time.Second

// acknowledgeFirst holds every subscriptions/listen result until its
// acknowledgement has been written, for at most wait.
func acknowledgeFirst(hooks *server.Hooks, wait time.Duration, log zerolog.Logger) {
	hooks.AddAfterSubscriptionsListen(func(ctx context.Context, id any, _ *mcp.SubscriptionsListenRequest, _ *mcp.SubscriptionsListenResult) {
		signal, ok := AckSignalFrom(ctx)
		if !ok {
			return
		}
		written := signal(id)
		if written == nil {
			return
		}
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-written:
		case <-ctx.Done(): // the stream is gone; nothing more reaches it
		case <-timer.C:
			log.Warn().Dur("waited_ms", wait).Msg("subscriptions/listen: the acknowledgement was not written in time; sending the result without waiting longer")
		}
	})
}
