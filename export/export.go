// Package export writes files that a tool produces (saveItinerary's .ics and
// .md files) into a directory that a person chose, and nowhere else.
//
// The directory comes from the MCP client's roots or from the operator's
// --export-dir. Roots are coordination, not a security boundary: a client
// says "the user works here", and nothing stops a buggy or hostile client
// (or a prompt-injected model filling in tool arguments) from asking for
// "../../.ssh/authorized_keys". Keeping the write inside the directory is
// this package's job, and it does it in three layers, each of which would be
// insufficient alone:
//
//  1. [Inside] checks, before anything is opened, that a directory argument
//     lies inside an allowed base. It compares resolved paths (symbolic links
//     followed), so "/roots/a/link-to-etc" is not mistaken for a
//     subdirectory of /roots/a. It is a path check, so it can only be as
//     current as the moment it ran.
//  2. [Filename] turns a caller's suggestion into one plain file name: no
//     directories, no hidden files, no device names, a bounded length and
//     the right extension. A name is data from the client; it is refused
//     when it tries to be a path and tidied up when it is merely ugly.
//  3. [OpenDir] opens the directory to write in, inside its base, and
//     [Write] (or [Dir.Write]) writes through that one handle, an
//     [os.Root] on the directory itself, refusing "..", absolute names and
//     symbolic links that lead outside. The directory is checked by the
//     handle, not by its name (on Linux by the path /proc gives for the
//     open directory, elsewhere by opening it folder by folder through an
//     os.Root on the base), so unlike a string check followed by
//     os.OpenFile this cannot be raced: swapping a directory for a symlink
//     after the check does not redirect the write, because what was
//     checked is what is written in.
//
// Layer 3 is the boundary; layers 1 and 2 give better error messages and
// saner file names, and they keep working if a future caller forgets one of
// the others.
package export

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrExists reports that the file to write already exists and overwrite was
// false. Errors returned by [Write] wrap it, so callers test with errors.Is
// and can tell the person that passing overwrite would help. A directory of
// the same name does not produce ErrExists, because overwrite would not help.
var ErrExists = errors.New("export: the file already exists")

// ErrInvalidName reports a file name that is refused rather than tidied:
// one that contains a path separator or a NUL byte, or that is "." or "..".
// [Filename] and [Write] wrap it.
var ErrInvalidName = errors.New("export: invalid file name")

// ErrOutside reports that [Write] refused a name because it leads outside
// the directory: through "..", as an absolute path, or through a symbolic
// link that points outside. [OpenDir] wraps it too.
var ErrOutside = errors.New("export: the path leads outside the directory")

// existsError is the error for an existing file: its message says what to
// do about it, and errors.Is(err, ErrExists) is true.
type existsError struct {
	name, dir string
	err       error // the underlying error (EEXIST from link or open)
}

func (e *existsError) Error() string {
	return fmt.Sprintf("%s already exists in %s; pass overwrite true to replace it", e.name, e.dir)
}

func (e *existsError) Is(target error) bool { return target == ErrExists }
func (e *existsError) Unwrap() error        { return e.err }

// personError carries a message written for a person (the tool's caller
// shows it to the user) while keeping the underlying error reachable with
// errors.Is and errors.As: errors.Is(err, syscall.ENOSPC) still works, and a
// log can print the *os.PathError for the operator.
type personError struct {
	msg  string
	errs []error // the sentinel (if any) and the cause
}

func (e *personError) Error() string   { return e.msg }
func (e *personError) Unwrap() []error { return e.errs }

// quoteName quotes a caller-supplied name for an error message, shortened,
// so a 10 kB or control-character-laden "name" cannot flood or garble the
// message.
func quoteName(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
