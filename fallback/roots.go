package fallback

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// rootsCache keeps each legacy session's roots until the client says they
// changed (notifications/roots/list_changed) or the session ends, so a
// session that saves ten files asks once. It holds only the roots of
// clients that declared roots.listChanged: a client that did not will
// never say, and is asked each time.
type rootsCache struct {
	mu    sync.Mutex
	roots map[string][]mcp.Root
}

func newRootsCache() *rootsCache { return &rootsCache{roots: map[string][]mcp.Root{}} }

func (c *rootsCache) get(session string) ([]mcp.Root, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.roots[session]
	return r, ok
}

func (c *rootsCache) put(session string, roots []mcp.Root) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.roots[session] = roots
}

func (c *rootsCache) drop(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.roots, session)
}

// watch drops a session's cached roots when its client announces a change
// and when the session ends.
func (c *rootsCache) watch(s *server.MCPServer, hooks *server.Hooks) {
	s.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, func(ctx context.Context, _ mcp.JSONRPCNotification) {
		if session := server.ClientSessionFromContext(ctx); session != nil {
			c.drop(session.SessionID())
			return
		}
		// mcp-go's in-process transport delivers notifications without the
		// session: forget every session's roots rather than keep one stale.
		// The cost is one more roots/list for the others.
		c.mu.Lock()
		clear(c.roots)
		c.mu.Unlock()
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) { c.drop(session.SessionID()) })
}
