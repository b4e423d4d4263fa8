package itinerary

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/golden"
)

// parseICS reads b with a real iCalendar parser, in its strict mode: a file
// our own code reads back proves little about what calendar applications see.
func parseICS(t testing.TB, b []byte) *ics.Calendar {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, b)
	}
	return cal
}

// prop is the (unfolded, unescaped) value of a property the event must have.
func prop(t testing.TB, e *ics.VEvent, name string) string {
	t.Helper()
	p := e.GetProperty(ics.ComponentProperty(name))
	if p == nil {
		t.Fatalf("event %s has no %s", e.Id(), name)
	}
	return p.Value
}

func calProp(cal *ics.Calendar, name string) (string, bool) {
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == name {
			return p.Value, true
		}
	}
	return "", false
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// checkLines asserts the physical layout RFC 5545 §3.1 requires of the whole
// file, which a lenient parser would not complain about: CRLF after every
// line and nothing else, at most 75 octets a line, continuation lines
// starting with one space, and no line that is not valid UTF-8 on its own
// (a multi-byte character split by a fold) or that ends in the middle of an
// escape sequence. It returns how many lines are
// continuations, so callers can check folding was exercised at all.
func checkLines(t *testing.T, b []byte) (continuations int) {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Errorf("the file does not end with CRLF")
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n")
	for i, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, l)
		}
		if len(l) > maxLineOctets {
			t.Errorf("line %d is %d octets (max %d): %q", i+1, len(l), maxLineOctets, l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d is not valid UTF-8 on its own (a character split by folding?): %q", i+1, l)
		}
		if l == "" {
			t.Errorf("line %d is empty", i+1)
		}
		if strings.HasPrefix(l, " ") {
			continuations++
		}
		if trailingBackslashes(l)%2 == 1 {
			t.Errorf("line %d ends inside an escape sequence: %q", i+1, l)
		}
	}
	return continuations
}

// checkICS parses an ICS rendering of f and checks it against the flight.
func checkICS(t *testing.T, c *flights.Catalog, f flights.Flight, b []byte) {
	t.Helper()
	if n := checkLines(t, b); n == 0 {
		t.Errorf("no line was folded: the long DESCRIPTION should have been")
	}
	cal := parseICS(t, b)
	for name, want := range map[string]string{"VERSION": "2.0", "PRODID": ProdID, "CALSCALE": "GREGORIAN", "METHOD": "PUBLISH"} {
		if got, ok := calProp(cal, name); !ok || got != want {
			t.Errorf("calendar %s = %q (present %v), want %q", name, got, ok, want)
		}
	}
	events := cal.Events()
	if len(events) != len(f.Segments) {
		t.Fatalf("%d events for %d segments", len(events), len(f.Segments))
	}
	uids := map[string]bool{}
	for i, e := range events {
		s := f.Segments[i]
		uid := prop(t, e, "UID")
		if want := fmt.Sprintf("%s-%d-%s@flightserver", f.ID, i+1, s.FlightNumber); uid != want {
			t.Errorf("event %d UID = %q, want %q", i+1, uid, want)
		}
		if uids[uid] {
			t.Errorf("event %d repeats UID %q", i+1, uid)
		}
		uids[uid] = true

		// The parser reads DTSTART/DTEND back as instants; Equal compares
		// instants whatever the zone, which is what a calendar cares about.
		for _, tc := range []struct {
			name string
			get  func() (time.Time, error)
			want time.Time
		}{
			{"DTSTAMP", e.GetDtStampTime, stamp},
			{"DTSTART", e.GetStartAt, s.Depart},
			{"DTEND", e.GetEndAt, s.Arrive},
		} {
			got, err := tc.get()
			if err != nil || !got.Equal(tc.want) {
				t.Errorf("event %d %s = %v (%v), want the instant %v", i+1, tc.name, got, err, tc.want)
			}
			if raw := prop(t, e, tc.name); !strings.HasSuffix(raw, "Z") {
				t.Errorf("event %d %s = %q, want UTC (trailing Z)", i+1, tc.name, raw)
			}
		}

		// Text properties come back unfolded and unescaped: equal to what
		// went in means escaping and folding round-trip.
		for name, want := range map[string]string{
			"SUMMARY":     s.FlightNumber + " " + s.From + "→" + s.To,
			"LOCATION":    airportName(c, s.From),
			"DESCRIPTION": description(c, f, i),
			"TRANSP":      "OPAQUE",
		} {
			if got := prop(t, e, name); got != want {
				t.Errorf("event %d %s = %q, want %q", i+1, name, got, want)
			}
		}
	}
}

func TestICS(t *testing.T) {
	c, fs := realFlights(t)
	for name, f := range fs {
		t.Run(name, func(t *testing.T) {
			b := ICS(c, f, stamp)
			checkICS(t, c, f, b)
			if again := ICS(c, f, stamp); !bytes.Equal(b, again) {
				t.Error("rendering the same flight twice gave different bytes")
			}
			desc := description(c, f, 0)
			for _, want := range []string{
				airlineName(c, f.Segments[0].Airline),
				localTime(f.Segments[0].Depart), localTime(f.Segments[0].Arrive),
				flights.FormatDuration(f.Segments[0].Arrive.Sub(f.Segments[0].Depart)),
				f.ID, "Simulated itinerary from flightserver",
			} {
				if !contains(desc, want) {
					t.Errorf("DESCRIPTION lacks %q:\n%s", want, desc)
				}
			}
		})
	}
}

// TestICSOddNames renders a flight whose names hold every character TEXT
// must escape, a line break and multi-byte characters.
func TestICSOddNames(t *testing.T) {
	c := oddCatalog(t)
	f := oddFlight(t, c)
	b := ICS(c, f, stamp)
	checkICS(t, c, f, b)

	// The wire form, before any parser gets to be lenient about it.
	unfolded := strings.ReplaceAll(string(b), "\r\n ", "")
	for _, want := range []string{
		`LOCATION:Back\\slash\; Semi\, Comma\nSecond line\, Pipe|City *star*` + "\r\n",
		`Zëd Äir ✈ «Ünïcödé» Airways\, "Quoted"\; with a very long name 日本語テキスト ZZ1`,
		"DTSTART:20261231T230000Z\r\n",
		"DTEND:20270101T181000Z\r\n", // 23:55 at +05:45
	} {
		if !contains(unfolded, want) {
			t.Errorf("unfolded file lacks %q:\n%s", want, unfolded)
		}
	}
	if got := prop(t, parseICS(t, b).Events()[0], "LOCATION"); got != "Back\\slash; Semi, Comma\nSecond line, Pipe|City *star*" {
		t.Errorf("LOCATION parses back as %q", got)
	}
}

func TestICSGolden(t *testing.T) {
	c, fs := realFlights(t)
	for name, f := range fs {
		t.Run(name, func(t *testing.T) { golden.Check(t, name+".ics", ICS(c, f, stamp)) })
	}
}

func TestEscapeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain text: with a colon and \"quotes\"", "plain text: with a colon and \"quotes\""},
		{`a\b`, `a\\b`},
		{"a;b,c", `a\;b\,c`},
		{`,;\`, `\,\;\\`},
		{"one\ntwo", `one\ntwo`},
		{"one\r\ntwo", `one\ntwo`},
		{"one\rtwo", `one\ntwo`},
		{"\n\n", `\n\n`},
		{`already \n escaped`, `already \\n escaped`},
		{"tab\tkept", "tab\tkept"},
		{"bell\a and nul\x00 and del\x7f dropped", "bell and nul and del dropped"},
		{"JFK→LHR ✈ 日本", "JFK→LHR ✈ 日本"},
		{"bad \xff byte", "bad \uFFFD byte"},
	} {
		if got := escapeText(tc.in); got != tc.want {
			t.Errorf("escapeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func foldString(line string) string {
	var b bytes.Buffer
	fold(&b, line)
	return b.String()
}

func TestFold(t *testing.T) {
	a75, a76 := strings.Repeat("a", 75), strings.Repeat("a", 76)
	for _, tc := range []struct{ name, in, want string }{
		{"short", "SUMMARY:hi", "SUMMARY:hi\r\n"},
		{"exactly 75", a75, a75 + "\r\n"},
		{"76", a76, a75 + "\r\n a\r\n"},
		{"continuations carry 74", strings.Repeat("a", 75+74+1),
			a75 + "\r\n " + strings.Repeat("a", 74) + "\r\n a\r\n"},
		// "é" is two octets; at octets 75-76 it must move whole to the next line.
		{"no split of a 2-octet character", strings.Repeat("a", 74) + "éb",
			strings.Repeat("a", 74) + "\r\n éb\r\n"},
		// An escape at octets 75-76 moves whole too; an escaped backslash
		// followed by a plain one at 75 does not split the pair either.
		{"no split of an escape", strings.Repeat("a", 74) + `\,b`,
			strings.Repeat("a", 74) + "\r\n " + `\,b` + "\r\n"},
		{"escaped backslash then escape", strings.Repeat("a", 72) + `\\\,b`,
			strings.Repeat("a", 72) + `\\` + "\r\n " + `\,b` + "\r\n"},
		{"escaped backslash ends the line", strings.Repeat("a", 73) + `\\b`,
			strings.Repeat("a", 73) + `\\` + "\r\n b\r\n"},
	} {
		if got := foldString(tc.in); got != tc.want {
			t.Errorf("%s: fold = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFoldRoundTrip folds lines of 1- to 4-octet characters at every offset,
// so each possible split position within a character meets the 75-octet
// boundary, and checks the layout and that unfolding gives the line back.
func TestFoldRoundTrip(t *testing.T) {
	for _, ch := range []string{"a", "é", "→", "✈", "日", "😀"} {
		for prefix := range 4 {
			line := "DESCRIPTION:" + strings.Repeat("x", prefix) + strings.Repeat(ch, 200/len(ch))
			got := foldString(line)
			checkLines(t, []byte(got))
			if unfolded := strings.TrimSuffix(strings.ReplaceAll(got, "\r\n ", ""), "\r\n"); unfolded != line {
				t.Errorf("%q at offset %d does not unfold to the original", ch, prefix)
			}
		}
	}
}

// FuzzEscapeFold checks, for any string, that the content line we write is
// read back by a real parser as the string (with line breaks normalised to
// LF and the control characters TEXT forbids removed), and that the physical
// lines obey the octet limit without splitting characters.
func FuzzEscapeFold(f *testing.F) {
	for _, s := range []string{"", "a,b;c\\d\ne", strings.Repeat("日本語,", 40), "\r\n\r", "\\N\\n", "x\xff\xfe", strings.Repeat("😀", 30)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wire := foldString("DESCRIPTION:" + escapeText(s))
		for _, l := range strings.Split(strings.TrimSuffix(wire, "\r\n"), "\r\n") {
			if len(l) > maxLineOctets || !utf8.ValidString(l) || strings.ContainsAny(l, "\r\n") || trailingBackslashes(l)%2 == 1 {
				t.Fatalf("bad physical line %q", l)
			}
		}
		cl, err := ics.NewCalendarStream(strings.NewReader(wire)).ReadLine()
		if cl == nil {
			t.Fatalf("read %q: %v", wire, err)
		}
		p, err := ics.ParseProperty(*cl)
		if err != nil || p == nil {
			t.Fatalf("parse %q: %v", *cl, err)
		}
		if want := normalise(s); p.Value != want {
			t.Fatalf("round trip of %q gave %q, want %q", s, p.Value, want)
		}
	})
}

// normalise is what escapeText promises to preserve of s.
func normalise(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
