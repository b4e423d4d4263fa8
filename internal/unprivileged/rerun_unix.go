//go:build unix

package unprivileged

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Nobody is the uid and gid a test runs under instead of root: the
// conventional nobody (65534), which needs no entry in /etc/passwd.
const Nobody = 65534

// Rerun runs t again in a copy of this test binary as the user nobody when
// this process is root, and reports whether it did: the caller then
// returns, its verdict being the copy's (t fails unless the copy ran t and
// passed). Not root, it reports false and the caller goes on itself. t
// must be a top-level test, and the copy runs in a folder of its own, so t
// must not read files relative to its package.
func Rerun(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("finding this test binary to run it as nobody: %v", err)
	}
	// The copy lives where nobody can read and run it: a test's own
	// TempDir is private to root.
	dir, err := os.MkdirTemp("", "asnobody")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test")
	if err := copyExecutable(self, bin); err != nil {
		t.Fatalf("copying this test binary to run it as nobody: %v", err)
	}
	cmd := exec.Command(bin, "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("as nobody (uid %d):\n%s", Nobody, out)
	switch {
	case err != nil:
		t.Errorf("%s failed as nobody: %v", t.Name(), err)
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" "):
		// A copy that ran nothing, or skipped, exits 0 too.
		t.Errorf("%s did not run and pass as nobody", t.Name())
	}
	return true
}

func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		_ = dst.Close()
		return err
	}
	return dst.Close()
}
