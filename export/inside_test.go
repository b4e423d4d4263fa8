package export

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// symlink creates a symbolic link, skipping the test where the platform
// does not let this user create one (Windows without developer mode).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("cannot create symbolic links here: %v", err)
		}
		t.Fatal(err)
	}
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// realpath resolves symbolic links in a directory the test made, since the
// temporary directory itself may sit behind one (/var -> /private/var on
// macOS), and Inside returns resolved paths.
func realpath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestInside(t *testing.T) {
	top := t.TempDir()
	base := filepath.Join(top, "a")
	mkdirs(t, filepath.Join(base, "nested", "deep"), filepath.Join(base, "..data"), filepath.Join(top, "ab"), filepath.Join(top, "outside"))
	if err := os.WriteFile(filepath.Join(base, "file.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(base, "nested"), filepath.Join(base, "link-in"))  // absolute, stays inside
	symlink(t, filepath.Join(top, "outside"), filepath.Join(base, "link-out")) // absolute, leads outside
	symlink(t, filepath.Join("..", "outside"), filepath.Join(base, "rel-out")) // relative, leads outside
	symlink(t, filepath.Join("nested", "deep"), filepath.Join(base, "rel-in")) // relative, stays inside
	symlink(t, base, filepath.Join(top, "base-link"))                          // the base itself behind a link
	realTop := realpath(t, top)
	realBase := filepath.Join(realTop, "a")

	tests := []struct {
		name, base, dir string
		want            string // resolved
		ok              bool
	}{
		{"base itself", base, base, realBase, true},
		{"base with trailing separator", base, base + string(filepath.Separator), realBase, true},
		{"nested", base, filepath.Join(base, "nested", "deep"), filepath.Join(realBase, "nested", "deep"), true},
		{"dot-dot staying inside", base, base + "/nested/deep/../..", realBase, true},
		{"dot-dot leaving", base, base + "/nested/../../ab", filepath.Join(realTop, "ab"), false},
		{"prefix trick: /…/ab is not inside /…/a", base, filepath.Join(top, "ab"), filepath.Join(realTop, "ab"), false},
		{"sibling", base, filepath.Join(top, "outside"), filepath.Join(realTop, "outside"), false},
		{"parent", base, top, realTop, false},
		{"file system root", base, string(filepath.Separator), string(filepath.Separator), false},
		{"a directory named ..data is inside", base, filepath.Join(base, "..data"), filepath.Join(realBase, "..data"), true},
		{"symlink staying inside resolves", base, filepath.Join(base, "link-in"), filepath.Join(realBase, "nested"), true},
		{"relative symlink staying inside resolves", base, filepath.Join(base, "rel-in"), filepath.Join(realBase, "nested", "deep"), true},
		{"symlink leading outside", base, filepath.Join(base, "link-out"), filepath.Join(realTop, "outside"), false},
		{"relative symlink leading outside", base, filepath.Join(base, "rel-out"), filepath.Join(realTop, "outside"), false},
		// Lexically base/link-out/.. is base; the kernel (and EvalSymlinks)
		// follow the link first, so it is the parent of "outside": top.
		{"dot-dot after a symlink is applied to its target", base, base + "/link-out/..", realTop, false},
		{"dot-dot after a symlink can land inside", base, base + "/link-out/../a/nested", filepath.Join(realBase, "nested"), true},
		{"base given through a symlink", filepath.Join(top, "base-link"), filepath.Join(base, "nested"), filepath.Join(realBase, "nested"), true},
		{"dir given through the symlinked base", base, filepath.Join(top, "base-link", "nested"), filepath.Join(realBase, "nested"), true},
		{"missing directory inside", base, filepath.Join(base, "new", "sub"), filepath.Join(realBase, "new", "sub"), true},
		{"missing directory behind a symlink leading outside", base, filepath.Join(base, "link-out", "new"), filepath.Join(realTop, "outside", "new"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := Inside(tt.base, tt.dir)
			if err != nil {
				t.Fatalf("Inside(%s, %s): %v", tt.base, tt.dir, err)
			}
			if ok != tt.ok || got != tt.want {
				t.Errorf("Inside(%s, %s) = %s, %v; want %s, %v", tt.base, tt.dir, got, ok, tt.want, tt.ok)
			}
		})
	}

	errTests := []struct{ name, base, dir string }{
		{"relative dir", base, "nested"},
		{"relative base", "a", base},
		{"empty dir", base, ""},
		{"a file in the middle of the path", base, filepath.Join(base, "file.txt", "x")},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok, err := Inside(tt.base, tt.dir); err == nil {
				t.Errorf("Inside(%q, %q) = %q, %v; want an error", tt.base, tt.dir, got, ok)
			}
		})
	}
}
