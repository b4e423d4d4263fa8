package export

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

const fallbackID = "JFK-LHR-261215-K3M9P"

func TestFilenameTidies(t *testing.T) {
	long := strings.Repeat("a", 300)
	multibyte := "x" + strings.Repeat("é", 100) // 201 bytes; a cut at 96 bytes falls inside an é
	tests := []struct {
		name, suggested, ext, want string
	}{
		{"plain", "Paris trip", ".ics", "Paris trip.ics"},
		{"extension not doubled", "Paris trip.ics", ".ics", "Paris trip.ics"},
		{"extension case normalised", "Trip.ICS", ".ics", "Trip.ics"},
		{"other extension kept", "notes.txt", ".md", "notes.txt.md"},
		{"empty falls back", "", ".ics", fallbackID + ".ics"},
		{"blank falls back", "   ", ".ics", fallbackID + ".ics"},
		{"only dots falls back", "...", ".ics", fallbackID + ".ics"},
		{"only filler falls back", "_-_ .", ".md", fallbackID + ".md"},
		{"only the extension falls back", ".ics", ".ics", fallbackID + ".ics"},
		{"leading dot (hidden file) removed", ".hidden", ".ics", "hidden.ics"},
		{"leading hyphen (option-like) removed", "-rf", ".ics", "rf.ics"},
		{"trailing dots and spaces removed", "trip. . .", ".ics", "trip.ics"},
		{"whitespace controls become spaces", "a\tb\nc", ".ics", "a b c.ics"},
		{"other controls become _", "a\x01b\x7fc\u009bd", ".ics", "a_b_c_d.ics"},
		{"windows-forbidden characters", `x<y>:z|?*"`, ".ics", "x_y__z____.ics"},
		{"drive-relative colon", "C:trip", ".ics", "C_trip.ics"},
		{"bidi override dropped", "\u202Egnp.exe", ".ics", "gnp.exe.ics"},
		{"zero-width space dropped", "tr\u200bip", ".ics", "trip.ics"},
		{"invalid UTF-8 replaced", "a\xffb", ".ics", "a_b.ics"},
		{"non-ASCII kept", "Zürich → Tōkyō ✈️", ".md", "Zürich → Tōkyō ✈️.md"},
		{"reserved CON", "CON", ".ics", "_CON.ics"},
		{"reserved with extension", "nul.txt", ".md", "_nul.txt.md"},
		{"reserved any case, trailing space", "com1 ", ".ics", "_com1.ics"},
		{"reserved superscript", "LPT¹", ".ics", "_LPT¹.ics"},
		{"not reserved: COM10", "COM10", ".ics", "COM10.ics"},
		{"not reserved: console", "console", ".ics", "console.ics"},
		{"long ASCII cut to the bound", long, ".ics", strings.Repeat("a", MaxNameBytes-4) + ".ics"},
		{"long UTF-8 cut at a character boundary", multibyte, ".ics", "x" + strings.Repeat("é", 47) + ".ics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Filename(tt.suggested, fallbackID, tt.ext)
			if err != nil {
				t.Fatalf("Filename(%q): %v", tt.suggested, err)
			}
			if got != tt.want {
				t.Errorf("Filename(%q) = %q, want %q", tt.suggested, got, tt.want)
			}
			checkSafeName(t, got, tt.ext)
		})
	}
}

func TestFilenameRefuses(t *testing.T) {
	tests := []struct {
		name, suggested, wantText string
	}{
		{"parent directory", "../x.ics", "path separator (/)"},
		{"deep parent", "../../.ssh/authorized_keys", "path separator (/)"},
		{"absolute", "/etc/passwd", "path separator (/)"},
		{"subdirectory", "trips/x.ics", "path separator (/)"},
		{"backslash", `..\..\win.ini`, `path separator (\)`},
		{"windows absolute", `C:\x.ics`, `path separator (\)`},
		{"NUL", "trip\x00.ics", "NUL"},
		{"NUL and separator", "../\x00", "NUL"},
		{"dot", ".", "refers to a directory"},
		{"dot dot", "..", "refers to a directory"},
		{"dot dot with spaces", " .. ", "refers to a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Filename(tt.suggested, fallbackID, ".ics")
			if err == nil {
				t.Fatalf("Filename(%q) = %q, want an error", tt.suggested, got)
			}
			if !errors.Is(err, ErrInvalidName) {
				t.Errorf("error %v does not wrap ErrInvalidName", err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q does not say %q", err, tt.wantText)
			}
			if strings.ContainsRune(err.Error(), 0) {
				t.Errorf("error %q carries the NUL byte through", err)
			}
		})
	}
}

func TestFilenameProgrammerErrors(t *testing.T) {
	tests := []struct {
		name, suggested, fallback, ext string
	}{
		{"extension without dot", "x", fallbackID, "ics"},
		{"extension only a dot", "x", fallbackID, "."},
		{"extension with separator", "x", fallbackID, ".i/cs"},
		{"extension with second dot", "x", fallbackID, ".tar.gz"},
		{"empty extension", "x", fallbackID, ""},
		{"fallback is a path", "", "../x", ".ics"},
		{"fallback unusable", "", "...", ".ics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Filename(tt.suggested, tt.fallback, tt.ext); err == nil {
				t.Errorf("Filename(%q, %q, %q) = %q, want an error", tt.suggested, tt.fallback, tt.ext, got)
			}
		})
	}
}

// FuzzFilename checks the promises for any input: either an error wrapping
// ErrInvalidName, or a safe name. `go test` runs the seeds; `go test
// -fuzz=FuzzFilename ./export` explores further.
func FuzzFilename(f *testing.F) {
	for _, s := range []string{"", "trip", "../x", "CON", ".ics", "\u202e", "a\xff", strings.Repeat("é", 60), " . ", "x.ICS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Filename(s, fallbackID, ".ics")
		if err != nil {
			if !errors.Is(err, ErrInvalidName) {
				t.Fatalf("Filename(%q): unexpected error kind %v", s, err)
			}
			return
		}
		checkSafeName(t, got, ".ics")
	})
}

func checkSafeName(t *testing.T, got, ext string) {
	t.Helper()
	switch {
	case !utf8.ValidString(got):
		t.Errorf("%q is not valid UTF-8", got)
	case len(got) > MaxNameBytes:
		t.Errorf("%q is %d bytes, more than %d", got, len(got), MaxNameBytes)
	case !strings.HasSuffix(got, ext) || len(got) == len(ext):
		t.Errorf("%q does not end in %s after a non-empty stem", got, ext)
	case strings.HasPrefix(got, ".") || strings.HasPrefix(got, "-") || strings.HasPrefix(got, " "):
		t.Errorf("%q starts with a dot, hyphen or space", got)
	case strings.ContainsAny(got, "/\\\x00<>:\"|?*"):
		t.Errorf("%q contains a separator, NUL or a Windows-forbidden character", got)
	case strings.IndexFunc(got, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0:
		t.Errorf("%q contains a control or formatting character", got)
	case !filepath.IsLocal(got) || filepath.Base(got) != got:
		t.Errorf("%q is not a single local name", got)
	case isReserved(strings.TrimSuffix(got, ext)):
		t.Errorf("%q is a Windows device name", got)
	}
}
