package tools

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/export"
	"github.com/flightserver/flightserver/fallback"
)

// Roots tell a server which directories the user is working in. They are
// coordination, not a security boundary (the export package keeps writes
// inside the chosen directory), and they can change while the user works.
// Asking for them, and caching a legacy session's answer, is the engine's
// (fallback/roots.go); which of them this server may write under is here.

// DefaultRootsTimeout bounds a legacy roots/list request.
const DefaultRootsTimeout = 5 * time.Second

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
		uri := fallback.Clean(r.URI, 200)
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
