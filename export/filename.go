package export

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes bounds the length of a name from [Filename], extension
// included. File systems allow 255 bytes per name, but a name also ends up
// in paths (4096 bytes on Linux, 260 characters in old Windows APIs), in
// URIs and in chat transcripts; 100 bytes is plenty for a human-readable
// name and leaves room for the temporary name [Write] uses next to it.
const MaxNameBytes = 100

// Filename makes a safe file name from a caller's suggestion, for use with
// [Write]. The result is one plain name (no directories) ending in ext,
// such as "Paris trip.ics".
//
// The policy is "refuse what tries to be a path, tidy what is merely ugly":
//
//   - Refused with an error wrapping [ErrInvalidName]: a path separator
//     ('/' or '\\', both on every OS, since the client may run on Windows),
//     which covers "../x", "/etc/passwd" and "C:\x"; a NUL byte, which
//     truncates names in C APIs; and the names "." and "..". These are not
//     file names a person would choose by accident, so silently turning
//     "../../.ssh/authorized_keys" into something else would hide an attack
//     (or a bug) that the caller should hear about.
//   - Tidied: control characters and the characters Windows forbids
//     (<>:"|?*) become '_'; invisible formatting characters (such as the
//     right-to-left override that makes "gpj.exe" display as "exe.jpg")
//     are dropped; invalid UTF-8 becomes '_'; leading dots, spaces and
//     hyphens are removed (no hidden files, no names that look like
//     command-line options); trailing dots and spaces are removed (Windows
//     drops them silently); Windows device names (CON, NUL, COM1, ...) get
//     a '_' prefix, since "CON.ics" is still the console on Windows; the
//     name is cut to [MaxNameBytes] at a UTF-8 character boundary.
//   - Extension: ext (".ics", ".md") is always the final extension. A
//     suggestion that already ends in ext, in any case, is not doubled;
//     any other extension is kept as part of the name ("notes.txt" becomes
//     "notes.txt.md"), so nothing the person typed is lost and the file
//     still opens with the right program.
//   - Fallback: an empty suggestion, or one with nothing usable left
//     (only dots, spaces, '_' or '-'), gives fallback tidied the same way.
//
// Filename also returns an error when ext is not a dot followed by 1 to 16
// ASCII letters or digits, or when fallback itself is unusable; both are
// mistakes in the calling code, not in the caller's input.
//
// Not done: Unicode normalisation (NFC vs NFD, which macOS cares about)
// needs golang.org/x/text, and this package uses only the standard library.
func Filename(suggested, fallback, ext string) (string, error) {
	if err := checkExt(ext); err != nil {
		return "", err
	}
	if err := refuse(suggested); err != nil {
		return "", err
	}
	if stem := sanitize(suggested, ext); stem != "" {
		return stem + ext, nil
	}
	if err := refuse(fallback); err != nil {
		return "", fmt.Errorf("the fallback name: %w", err)
	}
	if stem := sanitize(fallback, ext); stem != "" {
		return stem + ext, nil
	}
	return "", fmt.Errorf("the fallback name %s is not usable as a file name: %w", quoteName(fallback), ErrInvalidName)
}

// checkExt accepts ".ics", ".md", ".json": a dot and 1 to 16 ASCII letters
// or digits, so the extension can never add a separator or a second dot.
func checkExt(ext string) error {
	ok := len(ext) >= 2 && len(ext) <= 17 && ext[0] == '.'
	for i := 1; ok && i < len(ext); i++ {
		c := ext[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if !ok {
		return fmt.Errorf("the extension %s must be a dot followed by 1 to 16 letters or digits", quoteName(ext))
	}
	return nil
}

// refuse returns an error for names that are paths rather than names.
func refuse(s string) error {
	switch {
	case strings.ContainsRune(s, 0):
		return fmt.Errorf("the file name %s contains a NUL character: %w", quoteName(s), ErrInvalidName)
	case strings.ContainsAny(s, `/\`):
		sep := "/"
		if !strings.Contains(s, "/") {
			sep = `\`
		}
		return fmt.Errorf("the file name %s contains a path separator (%s); give a plain file name without directories: %w",
			quoteName(s), sep, ErrInvalidName)
	case strings.TrimSpace(s) == "." || strings.TrimSpace(s) == "..":
		return fmt.Errorf("the file name %s refers to a directory, not a file: %w", quoteName(s), ErrInvalidName)
	}
	return nil
}

// sanitize returns the tidied stem of s (the name without ext), or "" when
// nothing usable is left.
func sanitize(s, ext string) string {
	s = strings.ToValidUTF8(s, "_")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' ' // tabs, newlines, no-break spaces, line separators
		case unicode.IsControl(r):
			return '_'
		case unicode.Is(unicode.Cf, r):
			return -1 // bidi overrides, zero-width characters: invisible, so dropped
		case strings.ContainsRune(`<>:"|?*`, r):
			return '_'
		}
		return r
	}, s)
	// Strip ext, in any case, so that "Trip.ICS" becomes "Trip.ics", not
	// "Trip.ICS.ics". This comes before removing leading dots, so that a
	// suggestion of just ".ics" means "no name" rather than "ics.ics".
	s = strings.TrimRight(s, ". ")
	if len(s) >= len(ext) && strings.EqualFold(s[len(s)-len(ext):], ext) {
		s = s[:len(s)-len(ext)]
	}
	s = trim(s)
	limit := MaxNameBytes - len(ext)
	s = truncate(s, limit)
	if isReserved(s) {
		s = truncate("_"+s, limit)
	}
	if strings.Trim(s, "._- ") == "" {
		return ""
	}
	return s
}

// truncate cuts s to at most limit bytes without splitting a UTF-8
// sequence, then trims again so the cut cannot leave a trailing dot or
// space. (It may split a sequence of combining characters, which only
// changes how the last character looks.)
func truncate(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return trim(s[:limit])
}

// trim removes leading dots, spaces and hyphens and trailing dots and
// spaces.
func trim(s string) string {
	return strings.TrimRight(strings.TrimLeft(s, ". -"), ". ")
}

// isReserved reports whether stem names a Windows device. Windows ignores
// the extension and trailing spaces when deciding ("nul.txt", "COM1 .ics"),
// so only the part before the first dot counts. The superscript digits are
// reserved too (COM¹), as Windows documents.
func isReserved(stem string) bool {
	base, _, _ := strings.Cut(stem, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}
