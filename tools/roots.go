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

	"github.com/flightserver/flightserver/export"
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

// usableRoot is a root this server can write under.
type usableRoot struct {
	uri, dir string
}

// maxRoots bounds how many roots one answer may list: more than anyone
// works in, few enough to check each on disk.
const maxRoots = 64

// checkRoots keeps the roots that are existing local directories given as
// file:// URIs, inside within when it is set, and says why each other one
// was skipped ("<uri>: <why>"). Roots come from the client: untrusted, so
// each is parsed and checked on disk, never guessed at.
func checkRoots(roots []mcp.Root, within string) ([]usableRoot, []string) {
	var ok []usableRoot
	var skipped []string
	skip := func(uri, why string) { skipped = append(skipped, uri+": "+why) }
	for i, r := range roots {
		uri := clean(r.URI, 200)
		if i == maxRoots {
			skipped = append(skipped, fmt.Sprintf("only the first %d roots are considered", maxRoots))
			break
		}
		u, err := url.Parse(r.URI)
		switch {
		case err != nil || u.Scheme != "file":
			skip(uri, "not a file:// URI")
			continue
		case u.Host != "" && u.Host != "localhost":
			skip(uri, "names another host")
			continue
		case !filepath.IsAbs(u.Path):
			skip(uri, "not an absolute path")
			continue
		}
		fi, err := os.Stat(u.Path)
		switch {
		case err != nil:
			skip(uri, "does not exist on this server")
			continue
		case !fi.IsDir():
			skip(uri, "is not a directory")
			continue
		}
		dir := filepath.Clean(u.Path)
		if within != "" {
			resolved, inside, err := export.Inside(within, dir)
			if err != nil || !inside {
				skip(uri, "is outside the server's export directory")
				continue
			}
			dir = resolved
		}
		ok = append(ok, usableRoot{uri: r.URI, dir: dir})
	}
	return ok, skipped
}
