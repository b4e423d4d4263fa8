package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// bindHelper, set in a copy of this test binary, makes it the other
// process of TestOpenDirRefusesMagicLinks: in a mount namespace of its
// own, it binds the folder named by the variable over the one named by
// bindOnto, says so on stdout and waits for stdin to close.
const bindHelper, bindOnto = "EXPORT_TEST_BIND", "EXPORT_TEST_BIND_ONTO"

func TestMain(m *testing.M) {
	if from := os.Getenv(bindHelper); from != "" {
		if err := syscall.Mount(from, os.Getenv(bindOnto), "", syscall.MS_BIND, ""); err != nil {
			fmt.Println("mount:", err)
			os.Exit(1)
		}
		fmt.Println("bound")
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A link inside the base that goes through a magic link, /proc/PID/root of
// a process in another mount namespace, to a folder bound at the base's
// own path there, leads outside the base (to the folder bound), though
// the directory reached bears a name inside the base. It is refused on
// every way down, and nothing is written there. Making a mount namespace
// needs root, which CI has.
func TestOpenDirRefusesMagicLinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a mount namespace needs root; CI runs this as root")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	base, secret := filepath.Join(top, "base"), filepath.Join(top, "secret")
	onto := filepath.Join(base, "x")
	mkdirs(t, onto, secret)
	writeFile(t, filepath.Join(secret, "marker"), "")
	helper := exec.Command(self, "-test.run", "^$")
	helper.Env = append(os.Environ(), bindHelper+"="+secret, bindOnto+"="+onto)
	helper.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	stdin, err := helper.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatalf("starting the process in a mount namespace of its own: %v", err)
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = helper.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "bound\n" {
		t.Fatalf("the other process: %q, %v", line, err)
	}
	symlink(t, fmt.Sprintf("/proc/%d/root%s", helper.Process.Pid, onto), filepath.Join(base, "trips"))
	if got := entries(t, filepath.Join(base, "trips")); !slices.Equal(got, []string{"marker"}) {
		t.Fatalf("the link does not reach the bound folder: %v", got)
	}
	for _, way := range ways {
		t.Run(way, func(t *testing.T) {
			takeWay(t, way)
			d, err := OpenDir(base, "trips")
			if err == nil {
				_, _, werr := d.Write("evil.ics", []byte("x"), false)
				d.Close()
				t.Errorf("OpenDir through the magic link succeeded (write: %v)", werr)
			} else if !errors.Is(err, ErrOutside) {
				t.Errorf("OpenDir through the magic link: %v; want it refused as leading outside", err)
			}
			if got := entries(t, secret); !slices.Equal(got, []string{"marker"}) {
				t.Errorf("written in the folder bound elsewhere: %v", got)
			}
		})
	}
}
