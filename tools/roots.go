package tools

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
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
// file:// URIs (read by [localPath]), inside within when it is set, and
// says why each other one was skipped ("<uri>: <why>"). Roots come from the
// client: untrusted, so each is parsed and checked on disk, never guessed
// at.
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
		dir, err := localPath(r.URI)
		if err != nil {
			skip(uri, err.Error())
			continue
		}
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

// localPath is the absolute path on this machine that a file:// URI names,
// or why it names none (see [pathFromURI]).
func localPath(uri string) (string, error) { return pathFromURI(uri, runtime.GOOS == "windows") }

// fileURI is the file:// URI of an absolute path on this machine (see
// [uriFromPath]).
func fileURI(path string) string { return uriFromPath(path, runtime.GOOS == "windows") }

// Why a URI names no path on this machine, in the words a skipped root's
// reason uses.
var (
	errNotFileURI  = errors.New("not a file:// URI")
	errOtherHost   = errors.New("names another host")
	errUNC         = errors.New("names another host (a UNC path, \\\\host\\share, is not supported)")
	errNotAbsolute = errors.New("not an absolute path")
	errNUL         = errors.New("contains a NUL character")
)

// pathFromURI converts a file:// URI (RFC 8089) to the absolute path it
// names, by Windows' conventions when windows is set and by Unix's
// otherwise. The path is percent-decoded and not cleaned; the URI's query
// and fragment are ignored; its host must be empty or "localhost".
//
// On Unix the path is the URI's: file:///home/ada/trips is /home/ada/trips.
// On Windows a path must be on a drive: the "/" before the drive letter is
// dropped, the letter upper-cased and every "/" made "\", so
// file:///C:/Users/ada, VS Code's file:///c%3A/Users/ada and the old
// file:///C|/Users/ada are all C:\Users\ada. A UNC path (file://host/share,
// or file:////host/share) is refused, as is any other host: reaching it
// would make the server connect to a machine the client names.
//
// The error is the reason to give the client; it says nothing about this
// machine, since nothing on it is looked at.
func pathFromURI(uri string, windows bool) (string, error) {
	u, err := url.Parse(uri)
	switch {
	case err != nil || u.Scheme != "file":
		return "", errNotFileURI
	case u.Host != "" && !strings.EqualFold(u.Host, "localhost") && windows:
		return "", errUNC
	case u.Host != "" && !strings.EqualFold(u.Host, "localhost"):
		return "", errOtherHost
	case strings.ContainsRune(u.Path, 0):
		return "", errNUL
	}
	p := u.Path
	if !windows {
		if !strings.HasPrefix(p, "/") {
			return "", errNotAbsolute
		}
		return p, nil
	}
	p = strings.ReplaceAll(p, "/", `\`)
	if len(p) >= 3 && p[0] == '\\' && isDriveLetter(p[1]) && (p[2] == ':' || p[2] == '|') && (len(p) == 3 || p[3] == '\\') {
		p = strings.ToUpper(p[1:2]) + ":" + p[3:]
		if len(p) == 2 {
			p += `\` // C: alone is the drive's current directory, not its root
		}
		return p, nil
	}
	if strings.HasPrefix(p, `\\`) {
		return "", errUNC
	}
	return "", errNotAbsolute
}

// uriFromPath is the file:// URI (RFC 8089) of an absolute path, by
// Windows' conventions when windows is set and by Unix's otherwise: the
// path percent-encoded, with "/" for "\" and a "/" before a drive letter
// on Windows (C:\Users\ada is file:///C:/Users/ada), and a UNC path's host
// as the URI's (\\nas\trips is file://nas/trips). [pathFromURI] reads
// back what it writes, except a UNC path, which that refuses.
func uriFromPath(path string, windows bool) string {
	if !windows {
		return (&url.URL{Scheme: "file", Path: path}).String()
	}
	p := strings.ReplaceAll(path, `\`, "/")
	if host, rest, ok := strings.Cut(strings.TrimPrefix(p, "//"), "/"); ok && strings.HasPrefix(p, "//") {
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	if len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':' {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

func isDriveLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
