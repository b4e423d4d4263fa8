package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Over HTTP a root must lie inside --export-dir. Every root outside it is
// skipped for the same reason, whatever is at that path on the server (a
// file, a directory, nothing), so that a client cannot learn from the
// answer what exists there; a root inside it is checked on disk and skipped
// for its precise reason.
func TestCheckRootsWithinTheExportDir(t *testing.T) {
	top := t.TempDir()
	exportDir, secret := filepath.Join(top, "export"), filepath.Join(top, "secret")
	team := filepath.Join(exportDir, "team")
	mkdir(t, team)
	mkdir(t, secret)
	writeFile(t, filepath.Join(secret, "id_ed25519"))
	writeFile(t, filepath.Join(exportDir, "notes.txt"))
	symlinkOrSkip(t, team, filepath.Join(secret, "in"))
	symlinkOrSkip(t, secret, filepath.Join(exportDir, "out"))
	realTeam, err := filepath.EvalSymlinks(team)
	if err != nil {
		t.Fatal(err)
	}
	// "..": after a file and after nothing, the name decides alike.
	back := string(filepath.Separator) + ".." + string(filepath.Separator) + ".." + string(filepath.Separator) + filepath.Join("export", "team")

	for _, tc := range []struct {
		name, path string
		why        string // "" when the root is usable, as realTeam
	}{
		{"a missing path outside", filepath.Join(secret, "nope"), outsideExportDir},
		{"a file outside", filepath.Join(secret, "id_ed25519"), outsideExportDir},
		{"a directory outside", secret, outsideExportDir},
		{"a path through a file outside", filepath.Join(secret, "id_ed25519", "x"), outsideExportDir},
		{"a parent of the export directory", top, outsideExportDir},
		{"a link outside that leads inside", filepath.Join(secret, "in"), outsideExportDir},
		{"a link inside that leads outside", filepath.Join(exportDir, "out"), outsideExportDir},
		{"a missing path through a link inside that leads outside", filepath.Join(exportDir, "out", "nope"), outsideExportDir},
		{".. after a file outside", filepath.Join(secret, "id_ed25519") + back, ""},
		{".. after a missing path outside", filepath.Join(secret, "nope") + back, ""},
		{"a directory inside", team, ""},
		{"a missing directory inside", filepath.Join(exportDir, "nope"), "does not exist on this server"},
		{"a file inside", filepath.Join(exportDir, "notes.txt"), "is not a directory"},
		{"a relative path", "team", "not an absolute path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uri := fileURI(tc.path)
			if !filepath.IsAbs(tc.path) {
				uri = "file:" + tc.path
			}
			ok, skipped := checkRoots([]mcp.Root{{URI: uri}}, exportDir)
			switch {
			case tc.why == "" && (len(ok) != 1 || ok[0].dir != realTeam || len(skipped) != 0):
				t.Errorf("%s: usable %+v, skipped %q; want usable as %s", tc.path, ok, skipped, realTeam)
			case tc.why != "" && (len(ok) != 0 || len(skipped) != 1 || skipped[0] != uri+": "+tc.why):
				t.Errorf("%s: usable %+v, skipped %q; want skipped for %q", tc.path, ok, skipped, tc.why)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// symlinkOrSkip makes a symbolic link, skipping the test where this user
// cannot (Windows without developer mode).
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symbolic links here: %v", err)
	}
}
