package export

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// procFD is where Linux names a process's open files. Tests point it at a
// folder that does not exist, to take the portable way.
var procFD = "/proc/self/fd/"

// openByKernel opens the directory sub of base (base resolved, sub "." or
// local) with openat2 from a handle on base, resolving beneath it: the
// kernel refuses any step of the walk that would leave base ("..", an
// absolute link, a link that leads out, a magic link such as
// /proc/PID/root), so what it opens lies inside base by construction,
// and it needs only to pass through each folder on the way (execute
// permission), not to list it. It returns nil when it opens nothing: the
// walk was refused or failed, the kernel has no openat2 (before 5.6), or
// /proc is not there to turn the handle into an os.Root; OpenDir then takes
// the portable way, which refuses or explains as it always has.
//
// Both opens are O_PATH, which never blocks (a named pipe fails
// O_DIRECTORY instead); the os.Root is then opened through /proc on that
// same directory, not on its name, so nothing can be swapped in between.
func openByKernel(base, sub string) *os.Root {
	at, err := unix.Open(base, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(at)
	fd, err := unix.Openat2(at, sub, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	root, err := os.OpenRoot(procFD + strconv.Itoa(fd))
	if err != nil {
		return nil
	}
	return root
}
