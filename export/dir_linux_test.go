package export

import (
	"path/filepath"
	"syscall"
	"testing"
)

// ways are the ways OpenDir has down to a directory here: the kernel's
// walk checked through /proc, and the portable one through an os.Root,
// which it takes where /proc cannot say.
var ways = []string{"kernel", "portable"}

// takeWay makes OpenDir take way for the rest of t.
func takeWay(t *testing.T, way string) {
	if way == "portable" {
		setHook(t, &procFD, filepath.Join(t.TempDir(), "no-proc")+"/")
	}
}

// mkfifo makes a named pipe at path, where the system has them.
func mkfifo(t *testing.T, path string) bool {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return true
}
