package itinerary

import (
	"strings"
	"testing"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/golden"
)

// A saved booking says what was held, for whom and where they sit: in every
// calendar event (each is read on its own) and under the itinerary's title.
// A name with Markdown syntax in it shows as written.
func TestBookedItinerary(t *testing.T) {
	booking := &Booking{Reference: "BK-JFK-LHR-261215-MA80F-AAAA-ABCDEF", Passenger: "Zoë O'Brien-Smith Jr.", Seat: "no_preference"}
	c, fs := realFlights(t)
	_, round := realRoundTrip(t, 1, 0, 1)
	for name, legs := range map[string][]flights.Flight{"one way": {fs["1-stop"]}, "round trip": round} {
		t.Run(name, func(t *testing.T) {
			b := ICSTrip(c, legs, stamp, booking)
			checkLines(t, b)
			events := parseICS(t, b).Events()
			if len(events) == 0 {
				t.Fatal("no events")
			}
			for i, e := range events {
				desc := prop(t, e, "DESCRIPTION")
				for _, want := range []string{"Booking reference: " + booking.Reference + " (simulated hold)", "Passenger: Zoë O'Brien-Smith Jr.", "Seat preference: no preference"} {
					if !strings.Contains(desc, want) {
						t.Errorf("event %d does not say %q:\n%s", i+1, want, desc)
					}
				}
			}
			if unbooked := string(ICSTrip(c, legs, stamp, nil)); strings.Contains(unbooked, "Passenger") || strings.Contains(unbooked, "Booking reference") {
				t.Errorf("an itinerary saved without a booking names one:\n%s", unbooked)
			}

			text := string(MarkdownTrip(c, legs, booking))
			mustContain(t, text, "- Booking reference: `"+booking.Reference+"` (simulated hold)\n", "- Passenger: "+md(booking.Passenger)+"\n", "- Seat preference: no preference\n")
			if title, rest, _ := strings.Cut(text, "\n\n"); !strings.HasPrefix(title, "# ") || !strings.HasPrefix(rest, "- Booking reference") {
				t.Errorf("the booking does not come first under the title:\n%s", text)
			}
		})
	}
}

func TestBookedItineraryGolden(t *testing.T) {
	c, legs := realRoundTrip(t, 1, 0, 1)
	booking := &Booking{Reference: "BK-" + legs[0].ID + "_" + legs[1].ID + "-ODBEIZLMMRQSAY3ZMVWGCY3F-ABCDEF", Passenger: "Ada Lovelace", Seat: "window"}
	golden.Check(t, "roundtrip-booked.ics", ICSTrip(c, legs, stamp, booking))
	golden.Check(t, "roundtrip-booked.md", MarkdownTrip(c, legs, booking))
}

// A calendar keeps one event per UID. Two passengers' holds on one flight,
// imported into one calendar, must both stay (with their own references
// and seats); the same hold saved twice must update its events, and an
// unbooked save of the flight keeps the flight's own UIDs.
func TestBookedEventsArePerBooking(t *testing.T) {
	c, fs := realFlights(t)
	f := fs["1-stop"]
	ada := &Booking{Reference: "BK-" + f.ID + "-MFSWCIDMN5ZGKYLDMU-ABCDEF", Passenger: "Ada Lovelace", Seat: "window"}
	grace := &Booking{Reference: "BK-" + f.ID + "-I5ZGCY3FEBECA33QOBSXE-ABCDEF", Passenger: "Grace Hopper", Seat: "aisle"}
	calendar := map[string]string{} // UID -> DESCRIPTION
	imp := func(b []byte) (added int) {
		for _, e := range parseICS(t, b).Events() {
			uid := prop(t, e, "UID")
			if _, ok := calendar[uid]; !ok {
				added++
			}
			calendar[uid] = prop(t, e, "DESCRIPTION")
		}
		return added
	}
	n := len(f.Segments)
	for _, step := range []struct {
		name    string
		booking *Booking
		added   int
	}{
		{"the flight, unbooked", nil, n},
		{"Ada's hold", ada, n},
		{"Grace's hold", grace, n},
		{"Ada's hold again", ada, 0},
		{"the flight, unbooked, again", nil, 0},
	} {
		if got := imp(ICSTrip(c, []flights.Flight{f}, stamp, step.booking)); got != step.added {
			t.Errorf("%s: %d events added, want %d", step.name, got, step.added)
		}
	}
	for _, b := range []*Booking{ada, grace} {
		kept := 0
		for _, desc := range calendar {
			if strings.Contains(desc, "Booking reference: "+b.Reference) && strings.Contains(desc, "Passenger: "+b.Passenger) {
				kept++
			}
		}
		if kept != n {
			t.Errorf("%s's hold is in %d of the calendar's events, want %d", b.Passenger, kept, n)
		}
	}
	if want := "UID:" + f.ID + "-1-" + f.Segments[0].FlightNumber + "@flightserver\r\n"; !strings.Contains(string(ICS(c, f, stamp)), want) {
		t.Errorf("an unbooked flight's first UID is not %q", want)
	}
}
