package fallback

import (
	"context"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A 2025-11-25 client over stdio may send its first call right behind
// initialize, without waiting for the answer: the specification says it
// SHOULD NOT, and some do. mcp-go serves initialize off its read loop and
// the call on a worker of its own, so the call can run first, find its
// session with nothing negotiated, and skip every rung that asks the
// client (unknown_client) though the client declared them. So a call that
// finds its session not yet initialized waits for an initialize to finish,
// up to initGrace and within its own budget, and reads the client again
// (Engine.Client).
//
// Only a session that can still be initialized waits: one that is not
// streamable HTTP's. Over HTTP a 2025-11-25 session's id comes in
// initialize's answer, so no request of it can overtake initialize, and a
// request without one (stateless) has an ephemeral session that never will
// be. A stdio client that never initializes pays initGrace on each request
// that reads its client this way, and is then told its client is unknown,
// as before.

// initGrace is the longest a call waits for its session's initialize.
const initGrace = 250 * time.Millisecond

// inits wakes the calls waiting for an initialize each time one finishes:
// they read their client again, and wait on for their own if it was
// another session's.
type inits struct {
	mu       sync.Mutex
	finished chan struct{} // closed when the next initialize finishes; nil until a call waits
	attached bool          // Attach installed the hook that closes it
}

// next is the channel the next finished initialize closes.
func (w *inits) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished == nil {
		w.finished = make(chan struct{})
	}
	return w.finished
}

// done wakes every call waiting now.
func (w *inits) done() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished != nil {
		close(w.finished)
		w.finished = nil
	}
}

// watch installs the hook that says an initialize finished. mcp-go runs
// it once the session holds what the client declared and the negotiated
// version.
func (w *inits) watch(hooks *server.Hooks) {
	w.mu.Lock()
	w.attached = true
	w.mu.Unlock()
	hooks.AddAfterInitialize(func(context.Context, any, *mcp.InitializeRequest, *mcp.InitializeResult) { w.done() })
}

// Client is ClientFrom(ctx), once the request's session has been
// initialized if it is one that still can be (see above). Every call reads
// its client through it; a server's other decisions about the client (the
// tools it lists, a resource it serves) should too, so that a request that
// overtook initialize is answered as the client declared itself there as
// well.
func (e *Engine) Client(ctx context.Context) Client {
	c := ClientFrom(ctx)
	if c.Known || c.Era != Legacy || !awaitsInitialize(ctx) {
		return c
	}
	e.inits.mu.Lock()
	attached := e.inits.attached
	e.inits.mu.Unlock()
	if !attached {
		return c // nothing would say when one finishes
	}
	grace := time.NewTimer(initGrace)
	defer grace.Stop()
	for {
		// The channel is taken before the client is read, so that an
		// initialize finishing in between closes it.
		finished := e.inits.next()
		if c = ClientFrom(ctx); c.Known {
			return c
		}
		select {
		case <-finished:
		case <-grace.C:
			return ClientFrom(ctx)
		case <-ctx.Done():
			return c
		}
	}
}

// awaitsInitialize reports whether the request's session may still be
// initialized: it has one, not streamable HTTP's.
func awaitsInitialize(ctx context.Context) bool {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return false
	}
	_, isHTTP := s.(server.SessionWithStreamableHTTPConfig)
	return !isHTTP
}
