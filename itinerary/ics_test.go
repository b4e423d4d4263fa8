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

// unfold is the wire form of a file with its folds undone (RFC 5545 §3.1),
// before any parser gets to be lenient about it.
func unfold(b []byte) string { return strings.ReplaceAll(string(b), "\r\n ", "") }

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
	checkICSTrip(t, c, []flights.Flight{f}, b)
}

// segmentOf is one event's expectation: the segment, where it sits in its
// leg, and the leg's label.
type segmentOf struct {
	f   flights.Flight
	i   int
	leg leg
}

// checkICSTrip parses an ICS rendering of a journey and checks it against
// its legs: one event per segment of each leg, in order.
func checkICSTrip(t *testing.T, c *flights.Catalog, legs []flights.Flight, b []byte) {
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
	var want []segmentOf
	for l, f := range legs {
		for i := range f.Segments {
			want = append(want, segmentOf{f, i, legsOf(legs)[l]})
		}
	}
	events := cal.Events()
	if len(events) != len(want) {
		t.Fatalf("%d events for %d segments", len(events), len(want))
	}
	uids := map[string]bool{}
	for n, e := range events {
		f, i, l := want[n].f, want[n].i, want[n].leg
		s := f.Segments[i]
		uid := prop(t, e, "UID")
		if want := fmt.Sprintf("%s-%d-%s@flightserver", f.ID, i+1, s.FlightNumber); uid != want {
			t.Errorf("event %d UID = %q, want %q", n+1, uid, want)
		}
		if uids[uid] {
			t.Errorf("event %d repeats UID %q", n+1, uid)
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
				t.Errorf("event %d %s = %v (%v), want the instant %v", n+1, tc.name, got, err, tc.want)
			}
			if raw := prop(t, e, tc.name); !strings.HasSuffix(raw, "Z") {
				t.Errorf("event %d %s = %q, want UTC (trailing Z)", n+1, tc.name, raw)
			}
		}

		// Text properties come back unfolded and unescaped: equal to what
		// went in means escaping and folding round-trip.
		for name, want := range map[string]string{
			"SUMMARY":     s.FlightNumber + " " + s.From + "→" + s.To,
			"LOCATION":    airportName(c, s.From),
			"DESCRIPTION": description(c, f, i, l, nil),
			"TRANSP":      "OPAQUE",
		} {
			if got := prop(t, e, name); got != want {
				t.Errorf("event %d %s = %q, want %q", n+1, name, got, want)
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
			for i, e := range parseICS(t, b).Events() {
				if desc := prop(t, e, "DESCRIPTION"); contains(desc, "Leg:") || contains(desc, "Round trip") {
					t.Errorf("event %d of a one-way flight names a leg or round trip:\n%s", i+1, desc)
				}
			}
			desc := description(c, f, 0, leg{}, nil)
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

// TestICSOddNames renders a flight, and a round trip, whose names hold
// every character TEXT must escape, a line break and multi-byte characters,
// and that end in a zone with a 45-minute offset.
func TestICSOddNames(t *testing.T) {
	c := oddCatalog(t)
	for _, tc := range []struct {
		name  string
		legs  []flights.Flight
		wants []string // in the wire form, folds undone
	}{
		{"one way", []flights.Flight{oddFlight(t, c)}, []string{
			`LOCATION:Back\\slash\; Semi\, Comma\nSecond line\, Pipe|City *star*` + "\r\n",
			`DESCRIPTION:Zëd Äir ✈ «Ünïcödé» Airways\, "Quoted"\; with a very long name 日本語テキスト ZZ1`,
			"DTSTART:20261231T230000Z\r\n",
			"DTEND:20270101T181000Z\r\n", // 23:55 at +05:45
		}},
		{"round trip", oddRoundTrip(t, c), []string{
			`LOCATION:Tribhuvan_International\, Kathmandu` + "\r\n",
			"DTSTART:20270105T034500Z\r\n", // 09:30 at +05:45
			`DESCRIPTION:Leg: Return\nZëd Äir ✈ «Ünïcödé» Airways\, "Quoted"\; with a very long name 日本語テキスト ZZ3`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := ICSTrip(c, tc.legs, stamp, nil)
			checkICSTrip(t, c, tc.legs, b)
			mustContain(t, unfold(b), tc.wants...)
			if got := prop(t, parseICS(t, b).Events()[0], "LOCATION"); got != "Back\\slash; Semi, Comma\nSecond line, Pipe|City *star*" {
				t.Errorf("LOCATION parses back as %q", got)
			}
		})
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

// TestICSTrip renders real round trips and checks, besides the RFC 5545
// layout and every event, that each event says which leg it is on and
// names the round trip, since an event is read on its own.
func TestICSTrip(t *testing.T) {
	for _, tc := range roundTrips {
		t.Run(tc.name, func(t *testing.T) {
			c, legs := realRoundTrip(t, tc.passengers, tc.outStops, tc.retStops)
			b := ICSTrip(c, legs, stamp, nil)
			checkICSTrip(t, c, legs, b)
			if again := ICSTrip(c, legs, stamp, nil); !bytes.Equal(b, again) {
				t.Error("rendering the same round trip twice gave different bytes")
			}
			events := parseICS(t, b).Events()
			tripID := legs[0].ID + "_" + legs[1].ID
			n := 0
			for l, name := range []string{"Outbound", "Return"} {
				for range legs[l].Segments {
					desc := prop(t, events[n], "DESCRIPTION")
					if !strings.HasPrefix(desc, "Leg: "+name+"\n") {
						t.Errorf("event %d (%s) DESCRIPTION does not start with its leg:\n%s", n+1, legs[l].ID, desc)
					}
					if !contains(desc, "\nRound trip id: "+tripID+"\n") {
						t.Errorf("event %d DESCRIPTION lacks the round trip id %s:\n%s", n+1, tripID, desc)
					}
					n++
				}
			}
		})
	}
}

// TestICSTripKeepsLegEvents imports files the way a calendar does, keeping
// one event per UID: the outbound alone, then the round trip, then the
// return alone. The round trip must add only the return's events and update
// the outbound's in place (same UID, same times), and the return alone must
// add nothing.
func TestICSTripKeepsLegEvents(t *testing.T) {
	c, legs := realRoundTrip(t, 1, 1, 2)
	out, ret := legs[0], legs[1]
	calendar := map[string]*ics.VEvent{}
	imp := func(b []byte) (added, updated int) {
		for _, e := range parseICS(t, b).Events() {
			uid := prop(t, e, "UID")
			if old, ok := calendar[uid]; ok {
				updated++
				for _, name := range []string{"DTSTART", "DTEND", "SUMMARY", "LOCATION"} {
					if was, is := prop(t, old, name), prop(t, e, name); was != is {
						t.Errorf("event %s: %s was %q, the round trip has %q", uid, name, was, is)
					}
				}
			} else {
				added++
			}
			calendar[uid] = e
		}
		return added, updated
	}
	for _, step := range []struct {
		name           string
		file           []byte
		added, updated int
	}{
		{"the outbound alone", ICS(c, out, stamp), len(out.Segments), 0},
		{"the round trip", ICSTrip(c, legs, stamp, nil), len(ret.Segments), len(out.Segments)},
		{"the return alone", ICS(c, ret, stamp), 0, len(ret.Segments)},
	} {
		if added, updated := imp(step.file); added != step.added || updated != step.updated {
			t.Errorf("importing %s added %d and updated %d events, want %d and %d", step.name, added, updated, step.added, step.updated)
		}
	}
}

func TestICSTripGolden(t *testing.T) {
	c, legs := realRoundTrip(t, roundTrips[0].passengers, roundTrips[0].outStops, roundTrips[0].retStops)
	golden.Check(t, roundTrips[0].name+".ics", ICSTrip(c, legs, stamp, nil))
}
