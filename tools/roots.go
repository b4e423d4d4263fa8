package tools

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
//
// When within is set (over HTTP) a root names the client's disk, and what
// the answer says must not tell the client anything about the server's disk
// outside within: a root that is not inside it is skipped for one reason,
// whatever lies at that path, and only a root inside it is looked at on disk
// and skipped, if it must be, for its precise reason.
func checkRoots(roots []mcp.Root, within string) ([]usableRoot, []string) {
	var ok []usableRoot
	var skipped []string
	skip := func(uri, why string) { skipped = append(skipped, uri+": "+why) }
	var inside func(string) (string, bool)
	if within != "" {
		inside = containedIn(within)
	}
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
		dir := u.Path
		if inside != nil {
			resolved, in := inside(dir)
			if !in {
				skip(uri, outsideExportDir)
				continue
			}
			dir = resolved
		}
		fi, err := os.Stat(dir)
		switch {
		case err != nil:
			skip(uri, "does not exist on this server")
			continue
		case !fi.IsDir():
			skip(uri, "is not a directory")
			continue
		}
		ok = append(ok, usableRoot{uri: r.URI, dir: filepath.Clean(dir)})
	}
	return ok, skipped
}

// outsideExportDir is the one reason given for every root outside the
// export directory, so that the reason says nothing about what is there.
const outsideExportDir = "is outside the server's export directory"

// containedIn returns a check that a directory lies inside base, for paths
// an untrusted client names. It answers every directory outside base alike,
// and touches the file system only for one that lies inside base by its
// name (cleaned, against base as given or with its links followed); only
// then does it call [export.Inside], whose resolved path it returns. So its
// answer for a directory outside base does not depend on what exists there,
// and ".." is applied to the name before anything is looked up
// (/etc/passwd/../../srv is /srv whatever /etc/passwd is).
//
// A directory outside base by name that a link elsewhere makes inside it is
// outside: telling the two apart would mean looking.
func containedIn(base string) func(dir string) (resolved string, ok bool) {
	bases := []string{filepath.Clean(base)}
	if r, err := filepath.EvalSymlinks(base); err == nil && r != bases[0] {
		bases = append(bases, r)
	}
	return func(dir string) (string, bool) {
		if !filepath.IsAbs(dir) {
			return "", false
		}
		dir = filepath.Clean(dir)
		if !slices.ContainsFunc(bases, func(b string) bool { return insideByName(b, dir) }) {
			return "", false
		}
		resolved, ok, err := export.Inside(base, dir)
		return resolved, err == nil && ok
	}
}

// insideByName reports whether the clean path dir is base or below it by
// the names alone: on the same volume, and without leaving base through "..".
func insideByName(base, dir string) bool {
	if !strings.EqualFold(filepath.VolumeName(base), filepath.VolumeName(dir)) {
		return false
	}
	rel, err := filepath.Rel(base, dir)
	return err == nil && filepath.IsLocal(rel)
}
