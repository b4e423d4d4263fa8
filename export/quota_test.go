package export

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeClock is a Quota's clock that moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestQuota(t *testing.T, dir string, limit int64) (*Quota, *fakeClock) {
	t.Helper()
	q := NewQuota(dir, limit)
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	q.now = clock.now
	return q, clock
}

func writeSized(t *testing.T, path string, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
}

// What is already there counts, subdirectories included; what is let
// through counts; a write that would pass the limit is refused with
// ErrFull and a message naming the directory, the limit and the flag.
func TestQuotaCountsWhatIsThereAndWhatItLetsThrough(t *testing.T) {
	dir := t.TempDir()
	writeSized(t, filepath.Join(dir, "a.ics"), 400)
	writeSized(t, filepath.Join(dir, "trips", "b.md"), 300)
	q, _ := newTestQuota(t, dir, 1000)

	if err := q.Take(300); err != nil { // 700 there + 300 = 1000: fits
		t.Fatalf("Take(300) with 700 of 1000 used: %v", err)
	}
	err := q.Take(1)
	if !errors.Is(err, ErrFull) {
		t.Fatalf("Take(1) at the limit: %v, want ErrFull", err)
	}
	for _, want := range []string{dir, "is full", "1000 bytes", "--export-max-bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	q.Give(300) // the write failed
	if err := q.Take(300); err != nil {
		t.Errorf("Take(300) after Give(300): %v", err)
	}
}

// Files deleted by someone else are seen when the count says full, at most
// once per interval: before the interval, the count stands.
func TestQuotaMeasuresAgainWhenFullAtMostOncePerInterval(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "old.ics")
	writeSized(t, big, 900)
	q, clock := newTestQuota(t, dir, 1000)
	if err := q.Take(200); !errors.Is(err, ErrFull) {
		t.Fatalf("Take(200) with 900 of 1000 used: %v, want ErrFull", err)
	}
	if err := os.Remove(big); err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(5 * time.Second)
	if err := q.Take(200); !errors.Is(err, ErrFull) {
		t.Errorf("Take(200) 5 s later: %v, want ErrFull still (no walk within the interval)", err)
	}
	clock.t = clock.t.Add(6 * time.Second)
	if err := q.Take(200); err != nil {
		t.Errorf("Take(200) 11 s later, the old file deleted: %v", err)
	}
}

// A tree of more entries than one measurement reads counts as full, so a
// walk's cost is bounded; a directory not made yet holds nothing; no limit
// takes anything.
func TestQuotaEdges(t *testing.T) {
	t.Run("too many entries", func(t *testing.T) {
		dir := t.TempDir()
		for i := range quotaEntries + 1 {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		q, _ := newTestQuota(t, dir, 1<<30)
		if err := q.Take(1); !errors.Is(err, ErrFull) {
			t.Errorf("Take(1) over %d empty files: %v, want ErrFull", quotaEntries+1, err)
		}
	})
	t.Run("missing directory", func(t *testing.T) {
		q, _ := newTestQuota(t, filepath.Join(t.TempDir(), "not-yet"), 10)
		if err := q.Take(10); err != nil {
			t.Errorf("Take(10) in a directory not made yet: %v", err)
		}
	})
	t.Run("no limit", func(t *testing.T) {
		var q *Quota = NewQuota(t.TempDir(), 0)
		if q != nil {
			t.Fatalf("NewQuota(dir, 0) = %+v, want nil (no bound)", q)
		}
		if err := q.Take(1 << 40); err != nil {
			t.Errorf("a nil Quota refused: %v", err)
		}
		q.Give(1)
	})
}

func TestBytesText(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{12, "12 bytes"}, {1536, "1.5 KiB"}, {64 << 20, "64 MiB"}, {3 << 30, "3 GiB"}, {1<<20 - 1, "1024 KiB"}} {
		if got := bytesText(tc.n); got != tc.want {
			t.Errorf("bytesText(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// lockedFS is a directory tree in which one subdirectory cannot be read,
// as lost+found at the top of a mounted volume cannot by a server that
// does not run as root (which these tests may, so the permission is faked).
type lockedFS struct {
	fs.FS
	locked string
}

func (l lockedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == l.locked {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(l.FS, name)
}

// A subdirectory the server may not read does not stop every save: what
// it holds cannot be counted, and the server could not have written it.
// The directory itself unreadable is an error that says so.
func TestQuotaSkipsWhatItMayNotRead(t *testing.T) {
	dir := t.TempDir()
	writeSized(t, filepath.Join(dir, "a.ics"), 400)
	writeSized(t, filepath.Join(dir, "lost+found", "x"), 300)
	used, err := measure(lockedFS{os.DirFS(dir), "lost+found"}, 1000)
	if err != nil || used != 400 {
		t.Errorf("measure with an unreadable lost+found = %d, %v; want 400, nil", used, err)
	}
	if _, err := measure(lockedFS{os.DirFS(dir), "."}, 1000); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("measure of an unreadable directory: %v, want a permission error", err)
	}
}
