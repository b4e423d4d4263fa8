package export

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Test hooks. Tests replace them to reach failure paths that a test cannot
// provoke honestly (a full disk, a file system without hard links); the
// production values are the plain methods.
var (
	linkFile = (*os.Root).Link
	syncFile = (*os.File).Sync
)

// fileMode is the mode of new files before the umask: readable by others,
// as exported documents usually are, but never writable by them whatever
// the umask says.
const fileMode = 0o644

// Write writes data to the file name inside dir and returns the file's
// absolute path and the number of bytes written.
//
// Confinement. The directory holding name is opened inside dir with
// [OpenDir], and every file operation goes through that one handle, so
// name cannot lead outside dir: "..", absolute names and symbolic links
// pointing outside are refused (the error wraps [ErrOutside]), and this
// holds even if name did not come from [Filename]. Names with
// subdirectories that stay inside ("2025/trip.ics") work if the
// subdirectory exists; Write creates no directories.
//
// Atomicity. The data goes to a temporary file in the same directory as the
// final name (same directory means same file system, so the rename below is
// atomic and never a copy). The temporary file is written, fsynced and
// closed, and only then given its final name. A reader sees either the old
// file, or nothing, or the complete new file, never half of one; a failure
// at any step removes the temporary file, so no partial file is left. The
// temporary name is ".export-" followed by 26 random characters from
// crypto/rand and ".tmp": hidden, unguessable (so no one can plant a file
// or link there in advance), and created with O_EXCL so an existing file is
// never reused. After the final name is in place the directory is fsynced
// too, so the new name survives a power cut; that step is best effort
// (some systems cannot sync a directory), since the file is already there.
//
// Existing files. With overwrite true, the temporary file is renamed over
// the final name, which atomically replaces a file (keeping its permission
// bits, not its owner) or a symbolic link (the link itself is replaced; its
// target is never written to). With overwrite false, an existing file is
// kept and the error wraps [ErrExists]. A directory with that name is an
// error either way, and not ErrExists, since overwrite would not help.
//
// Why overwrite=false has no race. "Check that the name is free, then
// rename" is wrong: another writer can create the file between the check
// and the rename, and rename would silently replace it. Instead Write makes
// the final name a hard link to the temporary file ([os.Root.Link]); link,
// unlike rename, fails with EEXIST when the name exists, and checking and
// claiming the name are one atomic system call. The temporary name is then
// removed. On file systems without hard links (FAT, exFAT, some network
// and FUSE file systems), link fails with "not supported" or "permission
// denied", and Write falls back to claiming the name with an empty
// placeholder opened with O_CREATE|O_EXCL (also atomic) and renaming the
// temporary file over it. The fallback never replaces another writer's
// file either, but it has two documented imperfections: for a moment a
// reader can see the empty placeholder, and if the rename fails the
// placeholder is removed only after checking it is still ours (a writer
// with overwrite=true could replace it between that check and the removal).
func Write(dir, name string, data []byte, overwrite bool) (path string, size int64, err error) {
	if name == "" {
		return "", 0, fmt.Errorf("no file name was given: %w", ErrInvalidName)
	}
	d, err := openDir(dir, filepath.Dir(name), name)
	if err != nil {
		return "", 0, err
	}
	defer d.Close()
	return d.Write(filepath.Base(name), data, overwrite)
}

// Write writes data to the file name in the directory, as [Write] does
// (atomically, confined, keeping or replacing an existing file as
// overwrite says), and returns the file's absolute path and the number of
// bytes written. name is a plain file name: one with a separator, or "."
// or "..", is refused and the error wraps [ErrInvalidName].
func (d *Dir) Write(name string, data []byte, overwrite bool) (path string, size int64, err error) {
	if name == "" || name == "." || name == ".." || filepath.Base(name) != name || strings.ContainsAny(name, `/\`) {
		return "", 0, fmt.Errorf("%s is not a plain file name: %w", quoteName(name), ErrInvalidName)
	}
	root := d.root
	tmp := ".export-" + rand.Text() + ".tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return "", 0, describe(err, d.path, name)
	}
	if err := fill(root, f, name, data, overwrite); err != nil {
		_ = root.Remove(tmp)
		return "", 0, describe(err, d.path, name)
	}
	if overwrite {
		err = root.Rename(tmp, name)
	} else {
		err = publishNew(root, tmp, name)
	}
	if err != nil {
		_ = root.Remove(tmp)
		if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.EISDIR) {
			return "", 0, existing(root, err, d.path, name)
		}
		return "", 0, describe(err, d.path, name)
	}
	syncDir(root)
	return filepath.Join(d.path, name), int64(len(data)), nil
}

// fill writes data to the temporary file, fsyncs and closes it. The fsync
// comes before the rename: without it, a crash shortly after the rename can
// leave the new name pointing at an empty or partial file on some file
// systems, which is exactly what the rename was meant to prevent. Close is
// checked too, because on network file systems a write error may only
// surface there.
func fill(root *os.Root, f *os.File, name string, data []byte, overwrite bool) error {
	if overwrite {
		// Keep the permission bits of the file being replaced, so replacing
		// a private (0600) file does not make it readable by others. Best
		// effort: Windows supports little of chmod.
		if fi, err := root.Lstat(name); err == nil && fi.Mode().IsRegular() {
			_ = f.Chmod(fi.Mode().Perm())
		}
	}
	_, err := f.Write(data) // Write returns an error whenever it writes less than len(data)
	if err == nil {
		err = syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// publishNew gives the temporary file its final name unless that name
// exists, without a window in which another writer's file could be
// replaced. See Write for why a hard link, and for the fallback.
func publishNew(root *os.Root, tmp, name string) error {
	err := linkFile(root, tmp, name)
	if err == nil {
		// The file is in place under both names; drop the temporary one.
		// If that fails, a hidden second name for the same file remains,
		// which is untidy but harmless, and the write did succeed.
		_ = root.Remove(tmp)
		return nil
	}
	if !linkUnsupported(err) {
		return err
	}
	placeholder, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	ours, statErr := placeholder.Stat()
	_ = placeholder.Close()
	if err := root.Rename(tmp, name); err != nil {
		if fi, lerr := root.Lstat(name); statErr == nil && lerr == nil && os.SameFile(fi, ours) {
			_ = root.Remove(name)
		}
		return err
	}
	return nil
}

// linkUnsupported reports whether a link error means "this file system has
// no hard links" rather than "the name is taken" or a real failure. Linux
// reports EPERM for FAT (fs.ErrPermission matches EPERM and EACCES); FUSE
// and some network file systems report ENOSYS or EOPNOTSUPP, and Windows
// ERROR_NOT_SUPPORTED (errors.ErrUnsupported matches those). Treating a
// permission error as "unsupported" is safe: if the directory really is
// not writable, the placeholder fails with the same error and that is what
// gets reported.
func linkUnsupported(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, fs.ErrPermission)
}

// syncDir fsyncs the directory holding the new name, so that the rename or
// link itself is durable. Errors are ignored: the file is already in place
// and complete, and some platforms (Windows, some network file systems)
// cannot sync a directory at all.
func syncDir(root *os.Root) {
	d, err := root.Open(".")
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// existing explains a publish that failed because something has the final
// name: a file (ErrExists, and overwrite would help) or a directory (not
// ErrExists, since overwrite would not help).
func existing(root *os.Root, err error, dir, name string) error {
	where := filepath.Dir(filepath.Join(dir, name))
	if fi, lerr := root.Lstat(name); lerr == nil && fi.IsDir() {
		return &personError{fmt.Sprintf("a directory already exists with the name %s in %s", filepath.Base(name), where), []error{err}}
	}
	return &existsError{name: filepath.Base(name), dir: where, err: err}
}

// escapeText is the message of os.Root's (unexported) error for a path that
// leads outside the root. Matching text is a last resort, but the os
// package offers nothing else to test against; TestWriteRefusesEscapes
// fails if the text ever changes, so the match cannot rot silently.
const escapeText = "path escapes from parent"

// describe turns a file system error into a sentence for a person, naming
// the directory, and keeps err reachable for errors.Is and for logs.
func describe(err error, dir, name string) error {
	where := dir
	if filepath.IsLocal(name) {
		where = filepath.Dir(filepath.Join(dir, name))
	}
	base := quoteName(filepath.Base(name))
	var msg string
	switch {
	case strings.Contains(err.Error(), escapeText):
		return &personError{fmt.Sprintf("the name %s leads outside the directory %s (through \"..\", an absolute path or a symbolic link) and was refused",
			quoteName(name), dir), []error{ErrOutside, err}}
	case errors.Is(err, syscall.EROFS):
		msg = fmt.Sprintf("the directory %s is read-only (it is on a read-only file system)", where)
	case errors.Is(err, syscall.ENOSPC):
		msg = fmt.Sprintf("the disk is full: there is no space left to write %s in %s", base, where)
	case errors.Is(err, syscall.EDQUOT):
		msg = fmt.Sprintf("the disk quota is used up: there is no room to write %s in %s", base, where)
	case errors.Is(err, syscall.EFBIG):
		msg = fmt.Sprintf("the file %s is too large for the file system of %s", base, where)
	case errors.Is(err, fs.ErrPermission):
		msg = fmt.Sprintf("permission denied: this server may not write in the directory %s", where)
	case errors.Is(err, syscall.ENOTDIR):
		msg = fmt.Sprintf("part of the path to %s in %s is a file, not a directory", quoteName(name), dir)
	case errors.Is(err, syscall.EISDIR):
		msg = fmt.Sprintf("a directory already exists with the name %s in %s", base, where)
	case errors.Is(err, fs.ErrNotExist):
		msg = fmt.Sprintf("the directory %s does not exist", where)
	case errors.Is(err, syscall.ENAMETOOLONG):
		msg = fmt.Sprintf("the file name %s is too long for the file system of %s", base, where)
	case errors.Is(err, syscall.ELOOP):
		msg = fmt.Sprintf("there are too many symbolic links on the way to %s in %s", quoteName(name), dir)
	case errors.Is(err, syscall.EIO):
		msg = fmt.Sprintf("the disk reported an input/output error while writing %s in %s", base, where)
	default:
		// The cause without its path: a directory opened through /proc
		// (see openByKernel) has a name that means nothing to a person.
		msg = fmt.Sprintf("writing %s in %s failed: %v", base, where, cause(err))
	}
	return &personError{msg, []error{err}}
}

// cause is the system's own word for err: the error inside an
// *fs.PathError or *os.LinkError, or err itself.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
