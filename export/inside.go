package export

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Inside reports whether dir lies inside base (or is base itself), so that a
// directory argument can be checked against a client's root or the
// operator's --export-dir before anything is opened. It returns dir
// resolved: cleaned, with symbolic links followed. Callers must then use
// resolved, not dir, so that what is written is what was checked.
//
// Inside looks at the file system along dir, and whether it returns an
// error, and which, depends on what it finds there (a file where a
// directory was named, a directory it may not read). A caller answering
// an untrusted client must therefore give the same answer for an error as
// for ok == false, and should check that dir lies inside base by its name
// (cleaned) before calling Inside, so that nothing outside base is looked
// at.
//
// Both paths must be absolute: a relative path means something different
// depending on the server's working directory, which neither the client nor
// the operator can see, so it is an error rather than a guess. (Join a
// relative argument to a base before calling Inside.)
//
// Why resolve symbolic links? A purely lexical check accepts
// /roots/a/escape when escape is a link to /etc, and rejects nothing it
// should. filepath.EvalSymlinks also applies ".." the way the kernel does,
// after following the link before it: /roots/a/link/.. is the parent of the
// link's target, not /roots/a. When dir does not exist yet, the deepest
// existing ancestor is resolved and the missing rest appended (it cannot
// contain links, since it does not exist).
//
// Why filepath.Rel and filepath.IsLocal instead of strings.HasPrefix?
// Because "/tmp/ab" has the prefix "/tmp/a" without being inside it, and a
// directory really named "..data" is inside even though its relative path
// starts with "..".
//
// Inside is a check of paths at one moment. If someone can rename
// directories inside base between Inside and the write, the resolved path
// may no longer be inside. [OpenDir] cannot leave the base it is given, so
// a caller that must stay inside base whatever happens in between opens
// the way down from base to resolved with OpenDir(base, ...) and writes
// through that (saveItinerary does). Note also that on case-insensitive
// file systems (macOS, Windows) two spellings of one directory compare
// unequal, which errs on the side of refusing.
func Inside(base, dir string) (resolved string, ok bool, err error) {
	if !filepath.IsAbs(base) {
		return "", false, fmt.Errorf("the base directory %s is not an absolute path", quoteName(base))
	}
	if !filepath.IsAbs(dir) {
		return "", false, fmt.Errorf("the directory %s is not an absolute path", quoteName(dir))
	}
	b, err := resolve(base)
	if err != nil {
		return "", false, fmt.Errorf("resolving the base directory %s: %w", base, err)
	}
	d, err := resolve(dir)
	if err != nil {
		return "", false, fmt.Errorf("resolving the directory %s: %w", dir, err)
	}
	rel, err := filepath.Rel(b, d)
	if err != nil {
		// Different volumes on Windows (C: vs D:): certainly not inside.
		return d, false, nil
	}
	// IsLocal accepts "." (base itself) and "a/b", and rejects "..",
	// "../x" and absolute paths.
	return d, filepath.IsLocal(rel), nil
}

// resolve returns p with symbolic links followed and cleaned. If p does not
// exist, it resolves the deepest ancestor that does and appends the rest.
func resolve(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	cur, tail := filepath.Clean(p), ""
	for {
		parent := filepath.Dir(cur)
		if parent == cur {
			// Reached the file system root without finding anything that
			// exists; the root itself always exists, so this is unusual
			// (a missing Windows volume, say). Fall back to the cleaned path.
			return filepath.Join(cur, tail), nil
		}
		tail = filepath.Join(filepath.Base(cur), tail)
		r, err := filepath.EvalSymlinks(parent)
		if err == nil {
			return filepath.Join(r, tail), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		cur = parent
	}
}
