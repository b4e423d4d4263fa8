package tools

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// On Windows a host's roots name a drive (file:///C:/Users/..., VS Code's
// file:///c%3A/Users/...): they are usable, and a saved file's URI puts the
// drive in the path, not the host.
func TestRootsOnWindows(t *testing.T) {
	dir := t.TempDir()
	slash := "/" + filepath.ToSlash(dir)
	for _, uri := range []string{
		"file://" + slash,
		"file://" + strings.Replace(slash, ":", "%3A", 1),
		"file://" + strings.ToLower(slash[:2]) + slash[2:],
		"file://localhost" + slash,
	} {
		if ok, skipped := checkRoots([]mcp.Root{{URI: uri}}, ""); len(ok) != 1 || !strings.EqualFold(ok[0].dir, dir) {
			t.Errorf("%s: usable %+v, skipped %q", uri, ok, skipped)
		}
		if ok, skipped := checkRoots([]mcp.Root{{URI: uri}}, dir); len(ok) != 1 {
			t.Errorf("%s within %s: usable %+v, skipped %q", uri, dir, ok, skipped)
		}
	}
	file := filepath.Join(dir, "a b.ics")
	u, err := url.Parse(fileURI(file))
	if err != nil || u.Host != "" || u.Path != "/"+filepath.ToSlash(file) {
		t.Errorf("fileURI(%s) = %s (%v): want the drive in the path", file, fileURI(file), err)
	}
}
