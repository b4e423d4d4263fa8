package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Dir is a directory opened for writing files in, held inside the base it
// was opened in: every operation goes through one handle on the directory
// itself, so what happens to the names on the way down afterwards (a
// folder renamed, swapped for a link) cannot move a write elsewhere. A Dir
// is used by one goroutine at a time and closed when done.
type Dir struct {
	root *os.Root
	path string // the directory's absolute path as opened, for messages and results
}

// OpenDir opens the directory sub inside base: sub is "." for base itself,
// or a local path ("trips", "2027/spring") of a directory that exists. A sub
// that leads outside base, through "..", as an absolute path or through a
// symbolic link, is refused and the error wraps [ErrOutside]; a sub that is
// missing wraps [fs.ErrNotExist].
//
// On Linux the way down is walked by the kernel with openat2, resolving
// beneath base (no step may leave it, and no magic link is followed), so
// the folders between base and sub need only let this server pass through
// (execute permission), not list them. Elsewhere, on kernels before 5.6,
// or where /proc is not mounted, each folder on the way is opened through
// an [os.Root] on base, so each must be readable. Either way sub itself must be readable, and base is
// named by its path: base is the trusted end of the walk (a root the client
// declared, the operator's export directory).
func OpenDir(base, sub string) (*Dir, error) {
	return openDir(base, sub, sub)
}

// openDir is OpenDir, its errors speaking of what as the name sought (the
// file name itself, when Write opens the directory holding it).
func openDir(base, sub, what string) (*Dir, error) {
	if base == "" {
		return nil, errors.New("no directory was given to write in")
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return nil, fmt.Errorf("the directory %s: %w", quoteName(base), err)
	}
	// Stat first, although OpenRoot would find out: OpenRoot opens
	// whatever is there, and opening a named pipe blocks until a writer
	// appears, so a FIFO in place of the directory would hang the call.
	// OpenRoot's own "not a directory" error is also a plain string that
	// errors.Is cannot recognise.
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return nil, &personError{fmt.Sprintf("%s is not a directory", abs),
			[]error{&fs.PathError{Op: "open", Path: abs, Err: syscall.ENOTDIR}}}
	}
	path := filepath.Join(abs, sub)
	if sub == "." || filepath.IsLocal(sub) {
		if root := openByKernel(abs, sub); root != nil {
			return &Dir{root: root, path: path}, nil
		}
	}
	// The portable way, and the one that says why when the kernel's walk
	// found nothing it could keep: an os.Root on base, and one on sub
	// opened through it, folder by folder.
	root, err := os.OpenRoot(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &personError{fmt.Sprintf("the directory %s does not exist", abs), []error{err}}
		}
		return nil, describe(err, abs, what)
	}
	if sub == "." {
		return &Dir{root: root, path: abs}, nil
	}
	defer root.Close()
	// Stat first here too, for the same two reasons.
	fi, err := root.Stat(sub)
	if err == nil && !fi.IsDir() {
		err = &fs.PathError{Op: "open", Path: sub, Err: syscall.ENOTDIR}
	}
	var leaf *os.Root
	if err == nil {
		leaf, err = root.OpenRoot(sub)
	}
	switch {
	case err == nil:
	case what == sub && errors.Is(err, fs.ErrNotExist):
		// describe names the folder holding what, which is sub itself here.
		return nil, &personError{fmt.Sprintf("the directory %s does not exist", path), []error{err}}
	default:
		return nil, describe(err, abs, what)
	}
	return &Dir{root: leaf, path: path}, nil
}

// Path is the directory's absolute path, as it was opened.
func (d *Dir) Path() string { return d.path }

// Root is the handle every operation on the directory goes through, for
// reading what is there (Lstat, OpenFile); names given to it are relative
// to the directory and cannot lead out of it. Its Name is not the
// directory's path (it may be a /proc name of a closed descriptor): use
// Path.
func (d *Dir) Root() *os.Root { return d.root }

// Close closes the directory's handle.
func (d *Dir) Close() error { return d.root.Close() }
