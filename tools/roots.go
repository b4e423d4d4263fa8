package tools

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Roots tell a server which directories the user is working in. They are
// coordination, not a security boundary (the export package keeps writes
// inside the chosen directory), and they can change while the user works.

// DefaultRootsTimeout bounds a legacy roots/list request.
const DefaultRootsTimeout = 5 * time.Second

// rootsCache keeps each legacy session's roots until the client says they
// changed (notifications/roots/list_changed) or the session ends, so a
// session that saves ten files asks once.
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

// legacyRoots asks a legacy client for its roots (or reuses the session's
// cached answer) under the roots timeout and the call budget. The string
// says why there are none when there are none.
func (t *Toolset) legacyRoots(ctx context.Context) ([]mcp.Root, string) {
	session := server.ClientSessionFromContext(ctx)
	if session == nil {
		return nil, "no session to ask for roots"
	}
	if roots, ok := t.roots.get(session.SessionID()); ok {
		return roots, ""
	}
	if legacyHTTPWithoutGETStream(ctx) {
		return nil, "client has no GET stream open (waited " + getStreamGrace.String() + "), the only way mcp-go can deliver roots/list on legacy streamable HTTP"
	}
	timeout := min(t.rootsTimeout, remaining(ctx)-deterministicReserve)
	if timeout <= 0 {
		return nil, "no time left in the call budget to ask for roots"
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := server.ServerFromContext(ctx).RequestRoots(rctx, mcp.ListRootsRequest{})
	if err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Sprintf("client did not answer roots/list within %s", timeout)
		}
		return nil, "client answered roots/list with an error: " + clean(err.Error(), 120)
	}
	t.roots.put(session.SessionID(), res.Roots)
	return res.Roots, ""
}

// usableRoot is a root this server can write under.
type usableRoot struct {
	uri, dir string
}

// skippedRoot is a root it cannot, with the reason.
type skippedRoot struct {
	URI    string `json:"uri"`
	Reason string `json:"reason"`
}

// maxRoots bounds how many roots one answer may list: more than anyone
// works in, few enough to check each on disk.
const maxRoots = 64

// checkRoots keeps the roots that are existing local directories given as
// file:// URIs, and says why each other one was skipped. Roots come from the
// client: untrusted, so each is parsed and checked on disk, never guessed at.
func checkRoots(roots []mcp.Root) ([]usableRoot, []skippedRoot) {
	var ok []usableRoot
	var skipped []skippedRoot
	for i, r := range roots {
		uri := clean(r.URI, 200)
		if i == maxRoots {
			skipped = append(skipped, skippedRoot{URI: "…", Reason: fmt.Sprintf("only the first %d roots are considered", maxRoots)})
			break
		}
		u, err := url.Parse(r.URI)
		switch {
		case err != nil || u.Scheme != "file":
			skipped = append(skipped, skippedRoot{uri, "not a file:// URI"})
			continue
		case u.Host != "" && u.Host != "localhost":
			skipped = append(skipped, skippedRoot{uri, "names another host"})
			continue
		case !filepath.IsAbs(u.Path):
			skipped = append(skipped, skippedRoot{uri, "not an absolute path"})
			continue
		}
		fi, err := os.Stat(u.Path)
		switch {
		case err != nil:
			skipped = append(skipped, skippedRoot{uri, "does not exist on this server"})
		case !fi.IsDir():
			skipped = append(skipped, skippedRoot{uri, "is not a directory"})
		default:
			ok = append(ok, usableRoot{uri: r.URI, dir: filepath.Clean(u.Path)})
		}
	}
	return ok, skipped
}
