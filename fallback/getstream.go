package fallback

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// On legacy streamable HTTP, mcp-go delivers a server's sampling and roots
// requests only on the session's standalone GET stream (elicitation rides
// the POST's own SSE response). A client that never opened one never sees
// the request, and the server would wait out its whole timeout for an
// answer that cannot come. Nothing in mcp-go says whether a session has
// that stream, so GETStreams watches for it at the HTTP layer and tells
// each request's handler.
//
// mcp-go also bounds nothing about those streams: it accepts any number on
// one session (each holds a connection and four goroutines), hands each of
// the session's messages to whichever of them reads first, and leaves them
// open when the session is deleted or swept (it only forgets the session).
// GETStreams is where they are bounded and ended:
//
//   - One stream per session. The 2025-11-25 transport expects one (the
//     official TypeScript server refuses a second with 409). A client opens
//     another when it reconnects, often before the server has noticed that
//     the old connection is dead, so a new stream replaces the old one,
//     which is closed, instead of being refused: a reconnect always works,
//     and no sampling or roots request is handed to a dead stream, where it
//     would be lost and its rung would wait out its timeout for nothing.
//     Streams per client are then bounded by the client's sessions
//     (--max-sessions-per-client).
//   - At most Max streams in all (a replacement does not count as one
//     more); a new stream beyond is refused with a clear error, and the
//     session is served without one: sampling and roots are skipped with
//     why no_stream, elicitation still works.
//   - A session's stream is closed when the session ends (DELETE, the idle
//     sweep, shutdown): CloseSession.

// getStreamKey marks a request context with a function that says whether
// its legacy session has a GET stream open now.
type getStreamKey struct{}

// StreamLimits bound the legacy GET streams GETStreams admits.
type StreamLimits struct {
	// Max is the most streams open at once, in all (0: no limit).
	Max int
	// Full answers a new stream beyond Max; nil: 503 in plain text.
	Full http.HandlerFunc
	// Live reports whether a session is still live: a stream that opens
	// while its session ends is closed at once. nil: every session is.
	Live func(sessionID string) bool
}

// GETStreams tracks the open GET stream of each legacy session (by
// Mcp-Session-Id), bounds them (see above), and tells every other request's
// handler whether its session holds one. Serve the MCP endpoint through
// Handler so that the sampling tier can skip a client that could never
// receive the request, instead of timing out.
type GETStreams struct {
	limits StreamLimits

	mu   sync.Mutex
	open map[string]*getStream // by session
}

// getStream is one open GET stream; end closes it.
type getStream struct{ end context.CancelFunc }

// NewGETStreams returns an empty tracker with the given limits.
func NewGETStreams(limits StreamLimits) *GETStreams {
	return &GETStreams{limits: limits, open: map[string]*getStream{}}
}

// Has reports whether the session has a GET stream open now.
func (g *GETStreams) Has(sessionID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open[sessionID] != nil
}

// Count is how many GET streams are open.
func (g *GETStreams) Count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.open)
}

// CloseSession closes the session's GET stream, if it has one: call it when
// the session ends. The stream's response ends at once, as a stream the
// server closed.
func (g *GETStreams) CloseSession(sessionID string) {
	g.mu.Lock()
	s := g.open[sessionID]
	delete(g.open, sessionID)
	g.mu.Unlock()
	if s != nil {
		s.end()
	}
}

// Handler wraps the streamable HTTP handler with the tracking and the
// bounds.
func (g *GETStreams) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(server.HeaderKeySessionID)
		switch {
		case id == "":
			next.ServeHTTP(w, r)
		case r.Method == http.MethodGet:
			g.serveStream(id, w, r, next)
		default:
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), getStreamKey{}, func() bool { return g.Has(id) })))
		}
	})
}

// serveStream admits a GET stream for session id (replacing the session's
// open one, or refused beyond Max) and serves it until the client leaves or
// the stream is closed.
func (g *GETStreams) serveStream(id string, w http.ResponseWriter, r *http.Request, next http.Handler) {
	ctx, end := context.WithCancel(r.Context())
	defer end()
	s := &getStream{end: end}
	g.mu.Lock()
	old := g.open[id]
	if old == nil && g.limits.Max > 0 && len(g.open) >= g.limits.Max {
		g.mu.Unlock()
		if g.limits.Full != nil {
			g.limits.Full(w, r)
		} else {
			http.Error(w, "too many GET streams open", http.StatusServiceUnavailable)
		}
		return
	}
	g.open[id] = s
	g.mu.Unlock()
	if old != nil {
		old.end() // the client reconnected: the old stream is stale
	}
	defer func() {
		g.mu.Lock()
		if g.open[id] == s {
			delete(g.open, id)
		}
		g.mu.Unlock()
	}()
	// Checked after registering, so that a session ending meanwhile is
	// seen either here or by its CloseSession.
	if g.limits.Live != nil && !g.limits.Live(id) {
		return
	}
	next.ServeHTTP(w, r.WithContext(ctx))
}

// getStreamGrace is how long a request waits for its session's GET stream
// to open. Clients open it in the background after initialize (the official
// SDKs do not await it), so a tool called at once can arrive first; a short
// wait saves that call its best rung, and costs a client that never opens
// one only this much.
const getStreamGrace = 500 * time.Millisecond

// legacyHTTPWithoutGETStream reports whether this is a legacy streamable
// HTTP request whose session is known (through GETStreams) to have no GET
// stream open, even after getStreamGrace, so a sampling or roots request
// could not reach it.
func legacyHTTPWithoutGETStream(ctx context.Context) bool {
	if _, isHTTP := server.ClientSessionFromContext(ctx).(server.SessionWithStreamableHTTPConfig); !isHTTP {
		return false
	}
	open, tracked := ctx.Value(getStreamKey{}).(func() bool)
	if !tracked {
		return false
	}
	return !waitFor(ctx, open, getStreamGrace)
}

// waitFor polls cond until it holds, the grace runs out or ctx ends.
func waitFor(ctx context.Context, cond func() bool, grace time.Duration) bool {
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return cond()
		case <-tick.C:
		}
	}
	return true
}
