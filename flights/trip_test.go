package flights

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// now is the fixed "today" of these tests: 2026-11-30 12:00 UTC.
var now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

func ptrTo[T any](v T) *T { return &v }

func TestValidateAcceptsAndDefaults(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: " jfk ", Destination: "LHR", Date: "2026-12-15"})
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	want := Trip{Origin: "JFK", Destination: "LHR", Date: time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), Passengers: 1, Cabin: Economy, MaxStops: 2}
	if trip.Origin != want.Origin || trip.Destination != want.Destination || !trip.Date.Equal(want.Date) ||
		trip.Passengers != 1 || trip.Cabin != Economy || trip.MaxStops != 2 || trip.DepartAfter != nil || trip.MaxPriceUSD != 0 {
		t.Errorf("trip = %+v, want %+v", trip, want)
	}

	trip, err = v.Validate(Request{Origin: "SFO", Destination: "NRT", Date: "2026-12-01", Passengers: ptrTo(9), Cabin: "Business",
		MaxStops: ptrTo(0), DepartAfter: "06:30", DepartBefore: "23:59", MaxPriceUSD: ptrTo(2500.0)})
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if trip.Passengers != 9 || trip.Cabin != Business || trip.MaxStops != 0 || *trip.DepartAfter != 6*60+30 || *trip.DepartBefore != 23*60+59 || trip.MaxPriceUSD != 2500 {
		t.Errorf("trip = %+v", trip)
	}
}

func TestValidateRejects(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	base := func() Request { return Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15"} }
	for _, tc := range []struct {
		name   string
		change func(*Request)
		field  string
		says   string // in the problem
		accept string // in what is accepted
	}{
		{"missing origin", func(r *Request) { r.Origin = "" }, "origin", "is missing", "IATA"},
		{"unknown origin suggests", func(r *Request) { r.Origin = "JKF" }, "origin", `"JKF" is not a known airport code`, "JFK"},
		{"unknown destination by city", func(r *Request) { r.Destination = "Paris" }, "destination", "not a known airport", "CDG"},
		{"same airport", func(r *Request) { r.Destination = "jfk" }, "destination", "same airport as origin", "different"},
		{"missing date", func(r *Request) { r.Date = " " }, "date", "is missing", "YYYY-MM-DD"},
		{"date format", func(r *Request) { r.Date = "15/12/2026" }, "date", "not a date in YYYY-MM-DD", "YYYY-MM-DD"},
		{"impossible date", func(r *Request) { r.Date = "2026-02-30" }, "date", "not a date", "YYYY-MM-DD"},
		{"date in the past", func(r *Request) { r.Date = "2026-11-29" }, "date", "in the past (today is 2026-11-30", "from today"},
		{"date over a year ahead", func(r *Request) { r.Date = "2027-12-01" }, "date", "more than a year ahead", "one year"},
		{"no passengers", func(r *Request) { r.Passengers = ptrTo(0) }, "passengers", "0 is out of range", "1 to 9"},
		{"too many passengers", func(r *Request) { r.Passengers = ptrTo(10) }, "passengers", "10 is out of range", "1 to 9"},
		{"unknown cabin", func(r *Request) { r.Cabin = "coach" }, "cabin", `"coach" is not a cabin`, "premium_economy"},
		{"negative stops", func(r *Request) { r.MaxStops = ptrTo(-1) }, "maxStops", "out of range", "nonstop"},
		{"too many stops", func(r *Request) { r.MaxStops = ptrTo(3) }, "maxStops", "out of range", "0 (nonstop only), 1 or 2"},
		{"bad time", func(r *Request) { r.DepartAfter = "7am" }, "departAfter", "not a time of day", "HH:MM"},
		{"hour 24", func(r *Request) { r.DepartBefore = "24:00" }, "departBefore", "not a time of day", "23:59"},
		{"window backwards", func(r *Request) { r.DepartAfter, r.DepartBefore = "18:00", "09:00" }, "departBefore", "not later than departAfter", "later than departAfter"},
		{"zero price", func(r *Request) { r.MaxPriceUSD = ptrTo(0.0) }, "maxPrice", "not a positive amount", "US dollars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := base()
			tc.change(&r)
			_, err := v.Validate(r)
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("err = %v, want Problems", err)
			}
			if len(ps) != 1 {
				t.Fatalf("problems = %v, want exactly one", ps)
			}
			p := ps[0]
			if p.Field != tc.field || !strings.Contains(p.Problem, tc.says) || !strings.Contains(p.Accepted, tc.accept) {
				t.Errorf("problem = %+v, want field %s, problem containing %q, accepted containing %q", p, tc.field, tc.says, tc.accept)
			}
		})
	}
}

func TestValidateReportsEveryProblemAtOnce(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	_, err := v.Validate(Request{Origin: "XXQ", Destination: "", Date: "tomorrow", Passengers: ptrTo(12), Cabin: "steerage", MaxStops: ptrTo(5), DepartAfter: "25:00", MaxPriceUSD: ptrTo(-3.0)})
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v, want Problems", err)
	}
	var fields []string
	for _, p := range ps {
		fields = append(fields, p.Field)
	}
	want := "origin destination date passengers cabin maxStops departAfter maxPrice"
	if got := strings.Join(fields, " "); got != want {
		t.Errorf("fields = %s, want %s", got, want)
	}
	if msg := err.Error(); !strings.Contains(msg, "passengers: 12 is out of range (accepted: a whole number from 1 to 9)") {
		t.Errorf("Error() = %q, want each problem with its field and what is accepted", msg)
	}
}

// "Today" is the origin's local date: at 02:00 UTC on 30 November it is
// still the 29th in Los Angeles, so a 29 November departure from LAX is
// fine and one from London is in the past.
func TestValidateTodayIsLocalToTheOrigin(t *testing.T) {
	early := func() time.Time { return time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC) }
	v := Validator{Catalog: mustCatalog(t), Now: early}
	if _, err := v.Validate(Request{Origin: "LAX", Destination: "JFK", Date: "2026-11-29"}); err != nil {
		t.Errorf("LAX on its local today: %v", err)
	}
	if _, err := v.Validate(Request{Origin: "LHR", Destination: "JFK", Date: "2026-11-29"}); err == nil {
		t.Error("LHR on a date already past in London: no error")
	}
	if _, err := v.Validate(Request{Origin: "LAX", Destination: "JFK", Date: "2027-11-29"}); err != nil {
		t.Errorf("exactly one year ahead: %v", err)
	}
}

func TestParseClock(t *testing.T) {
	for in, want := range map[string]Clock{"00:00": 0, "06:05": 365, "23:59": 1439} {
		if got, err := ParseClock(in); err != nil || got != want || got.String() != in {
			t.Errorf("ParseClock(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "6:05", "24:00", "12:60", "noon", "12:00:00"} {
		if _, err := ParseClock(bad); err == nil {
			t.Errorf("ParseClock(%q): no error", bad)
		}
	}
}
