package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrFull reports that a write would take the files under a [Quota]'s
// directory over its limit. Errors returned by [Quota.Take] wrap it.
var ErrFull = errors.New("export: the directory is full")

// quotaEntries is the most entries [Quota] reads in one measurement; a tree
// with more counts as full, so a measurement's cost is bounded however many
// files someone put there.
const quotaEntries = 1 << 16

// Quota bounds the bytes the files under one directory hold, so that writes
// made for clients (saveItinerary over HTTP: a new file name each call)
// cannot fill the disk the directory is on.
//
// It measures the directory (a walk of its tree, which stops once the limit
// or quotaEntries is passed) at the first [Quota.Take], and then counts what
// it lets through. It measures again only when that count says the next
// write does not fit, and then at most once per interval: files others wrote
// or deleted since are seen at that point, not before. So a write that fits
// costs no I/O, the count can only overstate what the directory holds (a
// file replaced is counted twice), and a full directory costs at most one
// walk per interval. Safe for concurrent use; a Take waits while another
// measures.
type Quota struct {
	dir      string
	max      int64
	interval time.Duration
	now      func() time.Time

	mu       sync.Mutex
	used     int64     // bytes under dir: as measured, plus what was let through since
	measured time.Time // when, or zero: not yet
}

// NewQuota bounds the files under dir to max bytes in all. max <= 0: no
// bound (a nil *Quota is the same).
func NewQuota(dir string, max int64) *Quota {
	if max <= 0 {
		return nil
	}
	return &Quota{dir: dir, max: max, interval: 10 * time.Second, now: time.Now}
}

// Take reserves n bytes under the directory for a write about to happen,
// or says why it does not fit (wrapping [ErrFull]), or that the directory
// could not be measured. Call [Quota.Give] with the same n if the write
// then fails. A nil *Quota takes anything.
func (q *Quota) Take(n int64) error {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.measured.IsZero() || (q.used+n > q.max && q.now().Sub(q.measured) >= q.interval) {
		used, err := measure(os.DirFS(q.dir), q.max)
		if err != nil {
			return fmt.Errorf("the server could not read its export directory %s to count what its files hold (--export-max-bytes): %w. "+
				"The operator can let the server read it, or pass --export-max-bytes 0 for no limit", q.dir, err)
		}
		q.used, q.measured = used, q.now()
	}
	if q.used+n > q.max {
		return &personError{
			msg: fmt.Sprintf("the export directory %s is full: its files hold %s, and the server keeps them under %s (--export-max-bytes). "+
				"The operator can delete old itineraries there or raise the limit", q.dir, bytesText(min(q.used, q.max)), bytesText(q.max)),
			errs: []error{ErrFull},
		}
	}
	q.used += n
	return nil
}

// Give returns n bytes that [Quota.Take] reserved for a write that did not
// happen. A nil *Quota does nothing.
func (q *Quota) Give(n int64) {
	if q == nil {
		return
	}
	q.mu.Lock()
	q.used = max(q.used-n, 0)
	q.mu.Unlock()
}

// measure sums the sizes of the regular files in dir, stopping at the
// first sum over limit or the entry past quotaEntries (both return more than
// limit). A directory that does not exist holds nothing; an entry that goes
// while it is read, or that the server may not read below dir, is skipped.
func measure(dir fs.FS, limit int64) (int64, error) {
	var sum int64
	entries := 0
	full := errors.New("full")
	err := fs.WalkDir(dir, ".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err == nil:
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case path != "." && errors.Is(err, fs.ErrPermission):
			// A subdirectory the server may not read (lost+found at the
			// top of a volume): what it holds cannot be counted, nor
			// did the server write it; refusing every save for it
			// would leave the operator nothing to fix but the volume.
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		default:
			return err
		}
		if entries++; entries > quotaEntries {
			sum = limit + 1
			return full
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if sum += info.Size(); sum > limit {
			return full
		}
		return nil
	})
	if err != nil && err != full {
		return 0, err
	}
	return sum, nil
}

// bytesText is n in the largest binary unit it fills, to a tenth: 64 MiB,
// 1.5 KiB, 12 bytes.
func bytesText(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			s := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
