package export

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/flightserver/flightserver/internal/unprivileged"
)

// The tests in this file replace package-level hooks, so none of them calls
// t.Parallel.

// setHook replaces a test hook for the duration of a test.
func setHook[T any](t *testing.T, hook *T, v T) {
	t.Helper()
	old := *hook
	*hook = v
	t.Cleanup(func() { *hook = old })
}

// entries lists a directory's names, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(des))
	for i, de := range des {
		names[i] = de.Name()
	}
	return names
}

// noTemps fails the test if a temporary file of Write's is left in dir or
// any directory below it.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".export-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkWriteError checks that Write (which returned path) failed with an
// error that says says and wraps is.
func checkWriteError(t *testing.T, path string, err error, says string, is error) {
	t.Helper()
	if err == nil {
		t.Fatalf("Write succeeded (%s), want an error", path)
	}
	if !strings.Contains(err.Error(), says) {
		t.Errorf("error %q does not say %q", err, says)
	}
	if !errors.Is(err, is) {
		t.Errorf("error %v does not wrap %v", err, is)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteReadBack(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		{"trip.ics", []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")},
		{"empty.md", nil},
		{"Zürich ✈️.md", []byte("# Zürich\n")},
		{"big.ics", bytes.Repeat([]byte("0123456789abcdef"), 1<<16)}, // 1 MiB
		{filepath.Join("sub", "nested.ics"), []byte("in a subdirectory that exists")},
		{filepath.Join("sub", "..", "cleaned.ics"), []byte("\"..\" that stays inside is fine")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mkdirs(t, filepath.Join(dir, "sub"))
			path, size, err := Write(dir, tt.name, tt.data, false)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, tt.name); path != want {
				t.Errorf("path = %s, want %s", path, want)
			}
			if !filepath.IsAbs(path) {
				t.Errorf("path %s is not absolute", path)
			}
			if size != int64(len(tt.data)) {
				t.Errorf("size = %d, want %d", size, len(tt.data))
			}
			if got := readFile(t, path); got != string(tt.data) {
				t.Errorf("read back %d bytes, want %d", len(got), len(tt.data))
			}
			if runtime.GOOS != "windows" {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm()&0o022 != 0 {
					t.Errorf("mode %v is writable by group or others", fi.Mode())
				}
			}
			noTemps(t, dir)
		})
	}
}

func TestWriteRelativeDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mkdirs(t, "out")
	path, _, err := Write("out", "x.ics", []byte("x"), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(realpath(t, dir), "out", "x.ics"); realpath(t, path) != want || !filepath.IsAbs(path) {
		t.Errorf("path = %s, want an absolute path to %s", path, want)
	}
}

func TestWriteExisting(t *testing.T) {
	tests := []struct {
		name      string
		existing  string // "file" or "dir"
		overwrite bool
		wantErr   string // "" for success
		wantIs    error
	}{
		{"file kept without overwrite", "file", false, "x.ics already exists in", ErrExists},
		{"file replaced with overwrite", "file", true, "", nil},
		{"directory without overwrite", "dir", false, "a directory already exists with the name x.ics", fs.ErrExist},
		{"directory with overwrite", "dir", true, "a directory already exists with the name x.ics", fs.ErrExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "x.ics")
			if tt.existing == "file" {
				writeFile(t, target, "old")
			} else {
				mkdirs(t, target)
			}
			path, size, err := Write(dir, "x.ics", []byte("new"), tt.overwrite)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := readFile(t, path); got != "new" || size != 3 {
					t.Errorf("after overwrite: %q, %d bytes; want \"new\", 3", got, size)
				}
			} else {
				checkWriteError(t, path, err, tt.wantErr, tt.wantIs)
				if tt.existing == "dir" && errors.Is(err, ErrExists) {
					t.Errorf("a directory must not be reported as ErrExists (overwrite would not help): %v", err)
				}
				if errors.Is(err, ErrExists) && !strings.Contains(err.Error(), "pass overwrite true") {
					t.Errorf("error %q does not say how to replace the file", err)
				}
				if tt.existing == "file" {
					if got := readFile(t, target); got != "old" {
						t.Errorf("existing file changed to %q", got)
					}
				} else if fi, err := os.Lstat(target); err != nil || !fi.IsDir() {
					t.Errorf("existing directory changed: %v %v", fi, err)
				}
			}
			noTemps(t, dir)
		})
	}
}

func TestWriteOverwriteKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no Unix permission bits")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "private.md")
	writeFile(t, target, "old")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Write(dir, "private.md", []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after overwrite = %v, want 0600", fi.Mode().Perm())
	}
}

// TestWriteRefusesEscapes calls Write directly with names Filename would
// refuse, to show that the handle on the directory is the boundary, not
// the name check, whichever way OpenDir took down to it.
func TestWriteRefusesEscapes(t *testing.T) {
	parent := t.TempDir() // holds dir and outside side by side
	dir, outside := filepath.Join(parent, "dir"), filepath.Join(parent, "outside")
	mkdirs(t, filepath.Join(dir, "sub"), outside)
	symlink(t, outside, filepath.Join(dir, "abs-link"))                        // absolute link to outside
	symlink(t, filepath.Join("..", "outside"), filepath.Join(dir, "rel-link")) // relative link to outside
	symlink(t, filepath.Join("..", "..", "outside"), filepath.Join(dir, "sub", "deep-link"))
	before := entries(t, dir)

	names := []string{
		"../x.ics",
		"../outside/x.ics",
		"../../x.ics",
		"sub/../../x.ics",
		filepath.Join(outside, "x.ics"), // absolute
		"abs-link/x.ics",
		"rel-link/x.ics",
		"sub/deep-link/x.ics",
	}
	for _, way := range ways {
		for _, name := range names {
			for _, overwrite := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s overwrite=%v", way, name, overwrite), func(t *testing.T) {
					takeWay(t, way)
					path, _, err := Write(dir, name, []byte("escaped"), overwrite)
					if err == nil {
						t.Fatalf("Write(%q) wrote %s", name, path)
					}
					if !errors.Is(err, ErrOutside) {
						t.Errorf("error %v does not wrap ErrOutside (has os.Root's message %q changed?)", err, escapeText)
					}
					if !strings.Contains(err.Error(), "leads outside the directory") {
						t.Errorf("error %q does not explain the refusal", err)
					}
					if got := entries(t, outside); len(got) != 0 {
						t.Errorf("files appeared outside: %v", got)
					}
					if got := entries(t, parent); !slices.Equal(got, []string{"dir", "outside"}) {
						t.Errorf("files appeared next to dir: %v", got)
					}
					if got := entries(t, dir); !slices.Equal(got, before) {
						t.Errorf("dir changed: %v, was %v", got, before)
					}
					noTemps(t, parent)
				})
			}
		}
	}
}

// TestWriteSymlinkAtFinalName: a symbolic link with the final name, pointing
// outside. Nothing is ever written through it: without overwrite the name
// is taken (ErrExists); with overwrite the link itself is replaced by a
// regular file, and its target is left alone.
func TestWriteSymlinkAtFinalName(t *testing.T) {
	for _, targetExists := range []bool{true, false} {
		for _, overwrite := range []bool{false, true} {
			t.Run(fmt.Sprintf("target exists=%v overwrite=%v", targetExists, overwrite), func(t *testing.T) {
				dir, outside := t.TempDir(), t.TempDir()
				target := filepath.Join(outside, "target.ics")
				if targetExists {
					writeFile(t, target, "outside, untouched")
				}
				link := filepath.Join(dir, "x.ics")
				symlink(t, target, link)

				_, _, err := Write(dir, "x.ics", []byte("new"), overwrite)
				if overwrite {
					if err != nil {
						t.Fatal(err)
					}
					fi, err := os.Lstat(link)
					if err != nil || !fi.Mode().IsRegular() || readFile(t, link) != "new" {
						t.Errorf("the link was not replaced by a regular file: %v %v", fi, err)
					}
				} else if !errors.Is(err, ErrExists) {
					t.Errorf("err = %v, want ErrExists", err)
				}
				if targetExists {
					if got := readFile(t, target); got != "outside, untouched" {
						t.Errorf("the link's target outside was written: %q", got)
					}
				} else if got := entries(t, outside); len(got) != 0 {
					t.Errorf("files appeared outside: %v", got)
				}
				noTemps(t, dir)
			})
		}
	}
}

// TestWriteFailures provokes failures a root user cannot bypass (CI runs as
// root, and root ignores permission bits): a file where a directory should
// be, a missing directory, a name that is a directory. A full disk or an I/O
// error cannot be provoked honestly in a unit test, so they are injected at
// the fsync of the temporary file, the last step before the rename.
func TestWriteFailures(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) (writeDir, name string)
		sync    error // injected fsync error, if any
		wantErr string
		wantIs  error
	}{
		{
			name: "dir is a regular file",
			setup: func(t *testing.T, dir string) (string, string) {
				writeFile(t, filepath.Join(dir, "plain"), "")
				return filepath.Join(dir, "plain"), "x.ics"
			},
			wantErr: "plain is not a directory", wantIs: syscall.ENOTDIR,
		},
		{
			name: "dir does not exist",
			setup: func(t *testing.T, dir string) (string, string) {
				return filepath.Join(dir, "missing"), "x.ics"
			},
			wantErr: "missing does not exist", wantIs: fs.ErrNotExist,
		},
		{
			name: "a file sits where the name's directory should be",
			setup: func(t *testing.T, dir string) (string, string) {
				writeFile(t, filepath.Join(dir, "plain"), "")
				return dir, "plain/x.ics"
			},
			wantErr: "is a file, not a directory", wantIs: syscall.ENOTDIR,
		},
		{
			name: "the name's subdirectory does not exist",
			setup: func(t *testing.T, dir string) (string, string) {
				return dir, "missing/x.ics"
			},
			wantErr: "missing does not exist", wantIs: fs.ErrNotExist,
		},
		{
			name:    "disk full at fsync (injected)",
			setup:   func(t *testing.T, dir string) (string, string) { return dir, "x.ics" },
			sync:    syscall.ENOSPC,
			wantErr: "the disk is full", wantIs: syscall.ENOSPC,
		},
		{
			name:    "I/O error at fsync (injected)",
			setup:   func(t *testing.T, dir string) (string, string) { return dir, "x.ics" },
			sync:    syscall.EIO,
			wantErr: "input/output error", wantIs: syscall.EIO,
		},
		{
			name:    "empty name",
			setup:   func(t *testing.T, dir string) (string, string) { return dir, "" },
			wantErr: "no file name", wantIs: ErrInvalidName,
		},
	}
	for _, tt := range tests {
		for _, overwrite := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s overwrite=%v", tt.name, overwrite), func(t *testing.T) {
				if tt.sync != nil {
					setHook(t, &syncFile, func(f *os.File) error {
						return &os.PathError{Op: "sync", Path: f.Name(), Err: tt.sync}
					})
				}
				top := t.TempDir()
				dir, name := tt.setup(t, top)
				before := entries(t, top)
				path, _, err := Write(dir, name, []byte("data"), overwrite)
				checkWriteError(t, path, err, tt.wantErr, tt.wantIs)
				if after := entries(t, top); !slices.Equal(after, before) {
					t.Errorf("directory changed from %v to %v: a partial file was left", before, after)
				}
				noTemps(t, top)
			})
		}
	}
}

// TestWriteReadOnlyDir uses permission bits, which root ignores: as root
// (CI is) it runs in a copy of the test binary as the user nobody.
func TestWriteReadOnlyDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("directory permission bits do not stop writes on Windows")
	}
	if unprivileged.Rerun(t) {
		return
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	_, _, err := Write(dir, "x.ics", []byte("data"), false)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("err = %v, want a permission error", err)
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("files left: %v", got)
	}
}

// TestDescribe checks the sentence for each error a file system can give.
// The error values are constructed, since most cannot be provoked in a test
// (a read-only mount, a full disk, a quota), but they are the same values
// the os package returns.
func TestDescribe(t *testing.T) {
	tests := []struct {
		errno syscall.Errno
		want  string
	}{
		{syscall.EROFS, "the directory /d is read-only"},
		{syscall.ENOSPC, "the disk is full"},
		{syscall.EDQUOT, "the disk quota is used up"},
		{syscall.EFBIG, "too large"},
		{syscall.EACCES, "permission denied: this server may not write in the directory /d"},
		{syscall.EPERM, "permission denied"},
		{syscall.ENOTDIR, "is a file, not a directory"},
		{syscall.EISDIR, "a directory already exists with the name \"x.ics\""},
		{syscall.ENOENT, "the directory /d does not exist"},
		{syscall.ENAMETOOLONG, "too long"},
		{syscall.ELOOP, "too many symbolic links"},
		{syscall.EIO, "input/output error"},
		{syscall.EBUSY, "writing \"x.ics\" in /d failed: device or resource busy"}, // anything else: the system's word, without a path
	}
	for _, tt := range tests {
		t.Run(tt.errno.Error(), func(t *testing.T) {
			cause := &os.PathError{Op: "open", Path: "/d/x.ics", Err: tt.errno}
			err := describe(cause, "/d", "x.ics")
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("describe(%v) = %q, want it to contain %q", tt.errno, err, tt.want)
			}
			if !errors.Is(err, tt.errno) {
				t.Errorf("describe(%v) lost the cause", tt.errno)
			}
			var pe *os.PathError
			if !errors.As(err, &pe) {
				t.Errorf("describe(%v) lost the *os.PathError", tt.errno)
			}
		})
	}
}

// TestWriteNoClobberRace starts many writers of the same new name at once,
// without overwrite: exactly one must win, the others get ErrExists, and
// the file holds the winner's data in full. It runs with hard links and with
// the placeholder fallback for file systems that have none.
func TestWriteNoClobberRace(t *testing.T) {
	for _, mode := range []string{"link", "placeholder fallback"} {
		t.Run(mode, func(t *testing.T) {
			links := 0
			var mu sync.Mutex
			if mode == "placeholder fallback" {
				setHook(t, &linkFile, func(_ *os.Root, oldname, newname string) error {
					mu.Lock()
					links++
					mu.Unlock()
					return &os.LinkError{Op: "linkat", Old: oldname, New: newname, Err: syscall.EPERM} // what FAT says on Linux
				})
			}
			const writers, rounds = 16, 20
			for round := range rounds {
				dir := t.TempDir()
				var wg sync.WaitGroup
				start := make(chan struct{})
				errs := make([]error, writers)
				for i := range writers {
					wg.Go(func() {
						<-start
						_, _, errs[i] = Write(dir, "race.ics", bytes.Repeat([]byte{byte('a' + i)}, 64<<10), false)
					})
				}
				close(start)
				wg.Wait()
				winner := -1
				for i, err := range errs {
					switch {
					case err == nil && winner >= 0:
						t.Fatalf("round %d: writers %d and %d both succeeded", round, winner, i)
					case err == nil:
						winner = i
					case !errors.Is(err, ErrExists):
						t.Fatalf("round %d: writer %d: %v, want ErrExists", round, i, err)
					}
				}
				if winner < 0 {
					t.Fatalf("round %d: no writer succeeded", round)
				}
				if got := readFile(t, filepath.Join(dir, "race.ics")); got != strings.Repeat(string(rune('a'+winner)), 64<<10) {
					t.Fatalf("round %d: the file is not writer %d's data in full", round, winner)
				}
				if got := entries(t, dir); !slices.Equal(got, []string{"race.ics"}) {
					t.Fatalf("round %d: left behind: %v", round, got)
				}
			}
			if mode == "placeholder fallback" && links != writers*rounds {
				t.Errorf("the link hook ran %d times, want %d", links, writers*rounds)
			}
		})
	}
}

// TestWriteReadersSeeWholeFiles overwrites a file again and again while a
// reader reads it: every read must be one complete version, never a mix or
// a truncated file, because the data is renamed into place, not written in
// place.
func TestWriteReadersSeeWholeFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows cannot rename over a file another handle has open")
	}
	dir := t.TempDir()
	const size = 256 << 10
	versions := [][]byte{bytes.Repeat([]byte("A"), size), bytes.Repeat([]byte("B"), size)}
	if _, _, err := Write(dir, "live.md", versions[0], true); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			b, err := os.ReadFile(filepath.Join(dir, "live.md"))
			if err != nil {
				t.Errorf("read: %v", err)
				return
			}
			if !bytes.Equal(b, versions[0]) && !bytes.Equal(b, versions[1]) {
				t.Errorf("a reader saw %d bytes that are neither version", len(b))
				return
			}
		}
	})
	for i := range 100 {
		if _, _, err := Write(dir, "live.md", versions[i%2], true); err != nil {
			t.Error(err)
			break
		}
	}
	close(done)
	wg.Wait()
	noTemps(t, dir)
}
