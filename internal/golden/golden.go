// Package golden compares test output with files under testdata/, so that a
// change to a schema, a prompt, a schedule or a rendered file shows up as a
// reviewed diff. Run the tests with -update to rewrite the files after a
// deliberate change:
//
//	go test ./flights ./tools ./ranking/... ./itinerary -update
//
// It is imported only by tests, so only test binaries get the flag.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Check compares got with testdata/name, or writes it there with -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	CheckFile(t, filepath.Join("testdata", name), got)
}

// CheckFile is Check for a file outside testdata/ that is written from the
// code (a generated source file of another part of the repository).
func CheckFile(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the output; if the change is deliberate, run the test with -update and review the diff.\ngot:\n%s", path, got)
	}
}

// CheckBetween is Check for the part of a hand-written file between the
// lines begin and end (each must be there once, begin first): a generated
// table in a document, say. -update rewrites that part alone.
func CheckBetween(t testing.TB, path, begin, end string, got []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, begin+"\n"), strings.Index(text, "\n"+end)
	if i < 0 || j < i || strings.Count(text, begin+"\n") != 1 || strings.Count(text, "\n"+end) != 1 {
		t.Fatalf("%s must hold the line %q once, and after it the line %q once", path, begin, end)
	}
	from, to := i+len(begin)+1, j+1
	if *update {
		text = text[:from] + string(got) + text[to:]
		to = from + len(got)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if text[from:to] != string(got) {
		t.Errorf("%s between %q and %q differs from the output; if the change is deliberate, run the test with -update and review the diff.\ngot:\n%s", path, begin, end, got)
	}
}
