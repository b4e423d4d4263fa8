package export

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// procFD is where Linux names a process's open files. Tests point it at a
// folder that does not exist, to take the portable way.
var procFD = "/proc/self/fd/"

// openByKernel opens the directory sub of base (base resolved, sub "." or
// local) by its path, so that the kernel walks the way down, and keeps it
// only if the directory it reached lies inside base by the handle's own
// name in /proc. It returns nil when it keeps nothing: the walk failed, the
// directory lies outside, or /proc cannot say; OpenDir then takes the
// portable way, which refuses or explains.
//
// The first open is O_PATH, which never blocks (a named pipe swapped in
// fails O_DIRECTORY instead) and needs no permission on sub but to reach
// it; the os.Root is then opened through /proc on that same directory, not
// on its name, so nothing can be swapped in between the check and the root.
func openByKernel(base, sub string) *os.Root {
	fd, err := unix.Open(filepath.Join(base, sub), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	self := procFD + strconv.Itoa(fd)
	at, err := os.Readlink(self)
	if err != nil || !within(base, at) {
		return nil
	}
	root, err := os.OpenRoot(self)
	if err != nil {
		return nil
	}
	return root
}
