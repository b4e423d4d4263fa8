package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/export"
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

// A root or a directory argument is a file:// URI (RFC 8089) that names a
// path by the client's system's conventions; both are read here on Linux.
func TestPathFromURI(t *testing.T) {
	for _, tc := range []struct {
		uri     string
		windows bool
		want    string // the path, or the error's text
		err     bool
	}{
		// Unix, as before.
		{uri: "file:///home/ada/trips", want: "/home/ada/trips"},
		{uri: "file://localhost/home/ada/trips", want: "/home/ada/trips"},
		{uri: "file://LocalHost/home/ada", want: "/home/ada"},
		{uri: "FILE:///home/ada", want: "/home/ada"},
		{uri: "file:/home/ada", want: "/home/ada"},
		{uri: "file:///home/ada/My%20Trips/100%25", want: "/home/ada/My Trips/100%"},
		{uri: "file:///home/ada/trips?x=1#top", want: "/home/ada/trips"},
		{uri: "file:///home/ada/../bob", want: "/home/ada/../bob"}, // cleaned where it is used
		{uri: "file:///C:/Users/ada", want: "/C:/Users/ada"},       // a Unix path like any other
		{uri: "file://nas/share/trips", want: "names another host", err: true},
		{uri: "file:trips", want: "not an absolute path", err: true},
		{uri: "file://", want: "not an absolute path", err: true},
		{uri: "file:///home/ada/%00x", want: "contains a NUL character", err: true},
		{uri: "https://example.com/trips", want: "not a file:// URI", err: true},
		{uri: "/home/ada/trips", want: "not a file:// URI", err: true},
		{uri: "file://%zz/x", want: "not a file:// URI", err: true},

		// Windows: the drive letter, however a client spells it.
		{uri: "file:///C:/Users/ada/trips", windows: true, want: `C:\Users\ada\trips`},
		{uri: "file:///c:/Users/ada/trips", windows: true, want: `C:\Users\ada\trips`},
		{uri: "file:///c%3A/Users/ada/trips", windows: true, want: `C:\Users\ada\trips`}, // VS Code
		{uri: "file:///C%3a/Users", windows: true, want: `C:\Users`},
		{uri: "file:///C|/Users/ada", windows: true, want: `C:\Users\ada`},
		{uri: "file://localhost/D:/trips", windows: true, want: `D:\trips`},
		{uri: "file:///C:/", windows: true, want: `C:\`},
		{uri: "file:///C:", windows: true, want: `C:\`},
		{uri: "file:///C:/Users/Ada%20Lovelace/Trips%20%23%201/100%25", windows: true, want: `C:\Users\Ada Lovelace\Trips # 1\100%`},
		{uri: "file:///C:/Users%5Cada", windows: true, want: `C:\Users\ada`},
		{uri: "file:///C:/Users/ada/../bob", windows: true, want: `C:\Users\ada\..\bob`},
		// UNC paths, and paths on no drive.
		{uri: "file://nas/share/trips", windows: true, want: errUNC.Error(), err: true},
		{uri: "file:////nas/share/trips", windows: true, want: errUNC.Error(), err: true},
		{uri: "file:///%5C%5Cnas%5Cshare", windows: true, want: errUNC.Error(), err: true},
		{uri: "file:///%5C%5C%3F%5CC:%5CUsers", windows: true, want: errUNC.Error(), err: true},
		{uri: "file://C:/Users", windows: true, want: errUNC.Error(), err: true},
		{uri: "file:///Users/ada", windows: true, want: "not an absolute path", err: true},
		{uri: "file:///CD:/Users", windows: true, want: "not an absolute path", err: true},
		{uri: "file:///C:Users", windows: true, want: "not an absolute path", err: true},
		{uri: "file:///1:/Users", windows: true, want: "not an absolute path", err: true},
		{uri: "file:C:/Users", windows: true, want: "not an absolute path", err: true},
		{uri: "file:///C:/a%00", windows: true, want: "contains a NUL character", err: true},
		{uri: `C:\Users\ada`, windows: true, want: "not a file:// URI", err: true},
	} {
		got, err := pathFromURI(tc.uri, tc.windows)
		switch {
		case tc.err && (err == nil || err.Error() != tc.want):
			t.Errorf("pathFromURI(%q, windows %v) = %q, %v; want the error %q", tc.uri, tc.windows, got, err, tc.want)
		case !tc.err && (err != nil || got != tc.want):
			t.Errorf("pathFromURI(%q, windows %v) = %q, %v; want %q", tc.uri, tc.windows, got, err, tc.want)
		}
	}
}

// A file's URI in a result is one any client reads back as the path, by
// RFC 8089: on Windows the drive is in the path, never the host.
func TestURIFromPath(t *testing.T) {
	for _, tc := range []struct {
		path    string
		windows bool
		want    string
	}{
		{path: "/home/ada/trips/a.ics", want: "file:///home/ada/trips/a.ics"},
		{path: "/home/ada/My Trips/100%.ics", want: "file:///home/ada/My%20Trips/100%25.ics"},
		{path: "/home/ada/#1?.md", want: "file:///home/ada/%231%3F.md"},
		{path: `C:\Users\ada\trips\a.ics`, windows: true, want: "file:///C:/Users/ada/trips/a.ics"},
		{path: `C:\Users\Ada Lovelace\100%.ics`, windows: true, want: "file:///C:/Users/Ada%20Lovelace/100%25.ics"},
		{path: `C:\`, windows: true, want: "file:///C:/"},
		{path: `\\nas\trips\a.ics`, windows: true, want: "file://nas/trips/a.ics"},
	} {
		got := uriFromPath(tc.path, tc.windows)
		if got != tc.want {
			t.Errorf("uriFromPath(%q, windows %v) = %q, want %q", tc.path, tc.windows, got, tc.want)
		}
		if back, err := pathFromURI(got, tc.windows); !strings.HasPrefix(tc.path, `\\`) && (err != nil || back != tc.path) {
			t.Errorf("pathFromURI(%q, windows %v) = %q, %v; want %q back", got, tc.windows, back, err, tc.path)
		}
	}
}

// A directory argument may be a path or a file:// URI, read as roots are;
// one that names no path here is refused, saying why. ".." applies to the
// name, so the answer does not say what a name outside the bases is.
func TestChooseDir(t *testing.T) {
	top := t.TempDir()
	base, secret := filepath.Join(top, "base"), filepath.Join(top, "secret")
	trips := filepath.Join(base, "trips")
	mkdir(t, trips)
	mkdir(t, secret)
	writeFile(t, filepath.Join(secret, "id_ed25519"))
	back := string(filepath.Separator) + ".." + string(filepath.Separator) + ".." + string(filepath.Separator) + filepath.Join("base", "trips")
	real, err := filepath.EvalSymlinks(trips)
	if err != nil {
		t.Fatal(err)
	}
	bases := []usableRoot{{uri: fileURI(base), dir: base}}
	linked := os.Symlink(secret, filepath.Join(base, "out")) == nil // a link inside the base that leads out
	for _, tc := range []struct {
		arg, want string // want: the directory, or what the error says
		err       bool
	}{
		{arg: fileURI(trips), want: real},
		{arg: strings.Replace(fileURI(trips), "file://", "FILE://localhost", 1), want: real},
		{arg: fileURI(filepath.Join(trips, "..", "trips")), want: real},
		{arg: "trips", want: real},
		{arg: filepath.Join(secret, "id_ed25519") + back, want: real},
		{arg: filepath.Join(secret, "nope") + back, want: real},
		{arg: filepath.Join(secret, "id_ed25519"), want: "is not inside an allowed directory", err: true},
		{arg: filepath.Join(secret, "nope"), want: "is not inside an allowed directory", err: true},
		{arg: secret, want: "is not inside an allowed directory", err: true},
		{arg: filepath.Join("..", "secret"), want: "is not inside an allowed directory", err: true},
		{arg: "file://nas/share/trips", want: "is a file:// URI this server cannot use: names another host", err: true},
		{arg: "file://trips", want: "is a file:// URI this server cannot use: names another host", err: true},
		{arg: "file://%zz/trips", want: "is a file:// URI this server cannot use: not a file:// URI", err: true},
		{arg: fileURI(t.TempDir()), want: "is not inside an allowed directory", err: true},
		// A relative directory that is missing is said to be missing (it
		// was once "not inside an allowed directory"); one that leaves the
		// base is not inside, whether or not it exists out there, so the
		// answer tells nothing about what lies outside.
		{arg: "nope", want: `the directory "nope" does not exist in ` + base + ": create it first", err: true},
		{arg: filepath.Join("trips", "nope"), want: "does not exist in " + base, err: true},
		{arg: filepath.Join("..", "nope"), want: "is not inside an allowed directory", err: true},
		{arg: filepath.Join("out", "nope"), want: "is not inside an allowed directory", err: true},
		{arg: "out", want: "is not inside an allowed directory", err: true},
	} {
		if strings.HasPrefix(tc.arg, "out") && !linked {
			continue
		}
		at, err := chooseDir(tc.arg, bases)
		got := filepath.Join(at.base, at.sub)
		switch {
		case tc.err && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("chooseDir(%q) = %q, %v; want an error saying %q", tc.arg, got, err, tc.want)
		case !tc.err && (err != nil || got != tc.want):
			t.Errorf("chooseDir(%q) = %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}
}

// The directory chooseDir found is held inside its base until the file is
// written: swapped afterwards for a link that leads out (by someone who can
// rename in the base), the save is refused and nothing is written out
// there, nor a temporary file left.
func TestSaveDirStaysInsideItsBase(t *testing.T) {
	top := t.TempDir()
	base, secret := filepath.Join(top, "base"), filepath.Join(top, "secret")
	trips := filepath.Join(base, "trips")
	mkdir(t, trips)
	mkdir(t, secret)
	at, err := chooseDir("trips", []usableRoot{{uri: fileURI(base), dir: base}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(trips, filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, trips); err != nil {
		t.Skipf("cannot create symbolic links here: %v", err)
	}
	if dir, err := at.open(); !errors.Is(err, export.ErrOutside) {
		if dir != nil {
			_, _, _ = dir.Write("trip.ics", []byte("BEGIN:VCALENDAR\r\n"), false)
			dir.Close()
		}
		t.Errorf("opening the directory through a link that leads out: %v; want it refused as leading outside", err)
	}
	if left, _ := os.ReadDir(secret); len(left) != 0 {
		t.Errorf("written outside the base: %v", left)
	}
}
