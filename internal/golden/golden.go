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
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Check compares got with testdata/name, or writes it there with -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
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
