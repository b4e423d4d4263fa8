package export

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/flightserver/flightserver/internal/unprivileged"
)

// A folder on the way that the server may pass through but not list (mode
// 0100 for its owner: a home directory shared as 0711, say) does not stop a
// save below it on Linux, where the kernel walks the way down; the portable
// way must open each folder, and says permission denied. Permission bits
// bind only a user without privileges, so as root this runs as nobody.
func TestOpenDirThroughAFolderItMayOnlyEnter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("folder permission bits do not stop listing on Windows")
	}
	if unprivileged.Rerun(t) {
		return
	}
	for _, way := range ways {
		t.Run(way, func(t *testing.T) {
			takeWay(t, way)
			top := t.TempDir()
			mid := filepath.Join(top, "mid")
			mkdirs(t, filepath.Join(mid, "trips"))
			if err := os.Chmod(mid, 0o100); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(mid, 0o755) })
			if _, err := os.ReadDir(mid); !errors.Is(err, fs.ErrPermission) {
				t.Fatalf("listing the folder: %v, want permission denied (is this test running with privileges?)", err)
			}

			path, _, err := Write(top, "mid/trips/x.ics", []byte("data"), false)
			if way == "portable" {
				if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "permission denied") {
					t.Errorf("Write = %q, %v; want it refused as permission denied", path, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Write through the folder: %v", err)
			}
			if want := filepath.Join(top, "mid", "trips", "x.ics"); path != want || readFile(t, want) != "data" {
				t.Errorf("Write = %q; want %s holding the data", path, want)
			}
			d, err := OpenDir(top, filepath.Join("mid", "trips"))
			if err != nil {
				t.Fatalf("OpenDir through the folder: %v", err)
			}
			defer d.Close()
			if fi, err := d.Root().Lstat("x.ics"); err != nil || fi.Size() != 4 {
				t.Errorf("reading back through the handle: %v, %v", fi, err)
			}
		})
	}
}

// A Dir holds the directory it opened: renamed afterwards, and a link to
// another folder put in its place, the write still goes into the directory
// that was opened, and nothing lands behind the link. Opening the name
// again then refuses it, since the link leads out.
func TestDirHoldsTheDirectoryItOpened(t *testing.T) {
	for _, way := range ways {
		t.Run(way, func(t *testing.T) {
			takeWay(t, way)
			top := t.TempDir()
			base, secret := filepath.Join(top, "base"), filepath.Join(top, "secret")
			trips := filepath.Join(base, "trips")
			mkdirs(t, trips, secret)
			d, err := OpenDir(base, "trips")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if err := os.Rename(trips, filepath.Join(base, "moved")); err != nil {
				t.Fatal(err)
			}
			symlink(t, secret, trips)
			if _, _, err := d.Write("x.ics", []byte("data"), false); err != nil {
				t.Fatalf("Write after the swap: %v", err)
			}
			if got := readFile(t, filepath.Join(base, "moved", "x.ics")); got != "data" {
				t.Errorf("the opened directory holds %q, want the data", got)
			}
			if got := entries(t, secret); len(got) != 0 {
				t.Errorf("written behind the link: %v", got)
			}
			if again, err := OpenDir(base, "trips"); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "leads outside the directory") {
				if again != nil {
					again.Close()
				}
				t.Errorf("OpenDir of the link = %v; want it refused as leading outside", err)
			}
		})
	}
}

func TestOpenDirErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, base string) (sub string)
		wantErr string // with {base} for the base directory
		wantIs  error
	}{
		{"missing", func(*testing.T, string) string { return "missing" },
			"the directory {base}/missing does not exist", fs.ErrNotExist},
		{"a file", func(t *testing.T, base string) string {
			writeFile(t, filepath.Join(base, "plain"), "")
			return "plain"
		}, "is a file, not a directory", syscall.ENOTDIR},
		{"up and out", func(*testing.T, string) string { return ".." }, "leads outside the directory", ErrOutside},
		{"absolute", func(t *testing.T, _ string) string { return t.TempDir() }, "leads outside the directory", ErrOutside},
		{"a named pipe (it must not block)", func(t *testing.T, base string) string {
			if !mkfifo(t, filepath.Join(base, "pipe")) {
				t.Skip("no named pipes on this system")
			}
			return "pipe"
		}, "is a file, not a directory", syscall.ENOTDIR},
	}
	for _, way := range ways {
		for _, tt := range tests {
			t.Run(way+"/"+tt.name, func(t *testing.T) {
				takeWay(t, way)
				base := t.TempDir()
				d, err := OpenDir(base, tt.setup(t, base))
				if err == nil {
					d.Close()
					t.Fatalf("OpenDir succeeded, want an error")
				}
				if want := strings.ReplaceAll(tt.wantErr, "{base}", base); !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
				if !errors.Is(err, tt.wantIs) {
					t.Errorf("error %v does not wrap %v", err, tt.wantIs)
				}
			})
		}
	}
}

// Dir.Write takes a plain file name only: the way down is OpenDir's.
func TestDirWriteTakesAPlainName(t *testing.T) {
	base := t.TempDir()
	mkdirs(t, filepath.Join(base, "sub"))
	d, err := OpenDir(base, ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"", ".", "..", "sub/x.ics", "../x.ics", filepath.Join(base, "x.ics")} {
		if path, _, err := d.Write(name, []byte("x"), true); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Write(%q) = %q, %v; want ErrInvalidName", name, path, err)
		}
	}
	if got := entries(t, base); len(got) != 1 {
		t.Errorf("the directory holds %v, want only sub", got)
	}
}
