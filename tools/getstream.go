package tools

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
// that stream, so TrackGETStreams watches for it at the HTTP layer and tells
// each request's handler.

// getStreamKey marks a request context with a function that says whether
// its legacy session has a GET stream open now.
type getStreamKey struct{}

// GETStreams counts the open GET streams of each legacy session (by
// Mcp-Session-Id) and tells every other request's handler whether its
// session holds one. Serve the MCP endpoint through Handler so that the
// sampling tier can skip a client that could never receive the request,
// instead of timing out.
type GETStreams struct {
	mu   sync.Mutex
	open map[string]int
}

// NewGETStreams returns an empty tracker.
func NewGETStreams() *GETStreams { return &GETStreams{open: map[string]int{}} }

// Open reports whether the session has a GET stream open now.
func (g *GETStreams) Open(sessionID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open[sessionID] > 0
}

// Handler wraps the streamable HTTP handler with the tracking.
func (g *GETStreams) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(server.HeaderKeySessionID)
		if id == "" {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodGet {
			g.mu.Lock()
			g.open[id]++
			g.mu.Unlock()
			defer func() {
				g.mu.Lock()
				if g.open[id]--; g.open[id] <= 0 {
					delete(g.open, id)
				}
				g.mu.Unlock()
			}()
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), getStreamKey{}, func() bool { return g.Open(id) })))
	})
}

// TrackGETStreams is NewGETStreams().Handler(next), for callers that need
// no other access to the tracker.
func TrackGETStreams(next http.Handler) http.Handler { return NewGETStreams().Handler(next) }

// getStreamGrace is how long a request waits for its session's GET stream
// to open. Clients open it in the background after initialize (the official
// SDKs do not await it), so a tool called at once can arrive first; a short
// wait saves that call its best rung, and costs a client that never opens
// one only this much.
const getStreamGrace = 500 * time.Millisecond

// legacyHTTPWithoutGETStream reports whether this is a legacy streamable
// HTTP request whose session is known (through TrackGETStreams) to have no
// GET stream open, even after getStreamGrace, so a sampling or roots
// request could not reach it.
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
