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

func TestValidateAcceptsPlacesAndOptions(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: "new york city", Destination: "LON", Date: "2026-12-15", ReturnDate: "2026-12-22", FlexDays: ptrTo(2),
		ArriveAfter: "07:00", ArriveBefore: "21:30", Airlines: []string{" ba", "American Airlines", "BA"}, ExcludeAirlines: []string{"dl"}})
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if trip.Origin != "New York" || strings.Join(trip.Origins(), " ") != "JFK LGA EWR" || trip.Destination != "LON" || strings.Join(trip.Destinations(), " ") != "LHR LGW STN LCY LTN" {
		t.Errorf("places: %s %v to %s %v", trip.Origin, trip.Origins(), trip.Destination, trip.Destinations())
	}
	if !trip.IsRoundTrip() || trip.ReturnDate.Format(DateLayout) != "2026-12-22" || trip.FlexDays != 2 || *trip.ArriveAfter != 7*60 || *trip.ArriveBefore != 21*60+30 {
		t.Errorf("options: %+v", trip)
	}
	if strings.Join(trip.Airlines, " ") != "AA BA" || strings.Join(trip.ExcludeAirlines, " ") != "DL" {
		t.Errorf("airlines %v, excluded %v; want sorted distinct codes", trip.Airlines, trip.ExcludeAirlines)
	}
	if !trip.BookableFrom.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) || !trip.BookableUntil.Equal(time.Date(2027, 11, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("bookable %v to %v", trip.BookableFrom, trip.BookableUntil)
	}
	// A city of one airport is searched at that airport, and named as the city.
	trip, err = v.Validate(Request{Origin: "San Francisco", Destination: "jfk", Date: "2026-12-15"})
	if err != nil || trip.Origin != "San Francisco" || strings.Join(trip.Origins(), " ") != "SFO" || trip.Destination != "JFK" || strings.Join(trip.Destinations(), " ") != "JFK" || trip.IsRoundTrip() {
		t.Errorf("trip %+v, err %v", trip, err)
	}
	if got := (Trip{Origin: "JFK", Destination: "LHR"}); strings.Join(got.Origins(), "") != "JFK" || strings.Join(got.Destinations(), "") != "LHR" {
		t.Errorf("a trip built by hand searches %v to %v", got.Origins(), got.Destinations())
	}
}

func TestTripDates(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(DateLayout, s); return d }
	days := func(ds []time.Time) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Format("01-02"))
		}
		return strings.Join(out, " ")
	}
	window := Trip{BookableFrom: day("2026-11-30"), BookableUntil: day("2027-11-30")}
	for _, tc := range []struct {
		name              string
		date, ret         string
		flex              int
		wantOut, wantBack string
	}{
		{"one day, one way", "2026-12-15", "", 0, "12-15", ""},
		{"flex both sides", "2026-12-15", "2026-12-22", 2, "12-13 12-14 12-15 12-16 12-17", "12-20 12-21 12-22 12-23 12-24"},
		{"not before today", "2026-12-01", "", 3, "11-30 12-01 12-02 12-03 12-04", ""},
		{"not past a year", "2027-11-29", "2027-11-30", 2, "11-27 11-28 11-29 11-30", "11-28 11-29 11-30"},
		{"returns not before the first outbound", "2026-12-15", "2026-12-15", 3, "12-12 12-13 12-14 12-15 12-16 12-17 12-18", "12-12 12-13 12-14 12-15 12-16 12-17 12-18"},
		{"same-day return", "2026-12-15", "2026-12-15", 0, "12-15", "12-15"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trip := window
			trip.Date, trip.FlexDays = day(tc.date), tc.flex
			if tc.ret != "" {
				trip.ReturnDate = day(tc.ret)
			}
			if got := days(trip.Dates()); got != tc.wantOut {
				t.Errorf("Dates = %s, want %s", got, tc.wantOut)
			}
			if got := days(trip.ReturnDates()); got != tc.wantBack {
				t.Errorf("ReturnDates = %s, want %s", got, tc.wantBack)
			}
		})
	}
	// A hand-built trip has no window: nothing is clamped.
	if got := days((Trip{Date: day("2020-01-02"), FlexDays: 1}).Dates()); got != "01-01 01-02 01-03" {
		t.Errorf("unbounded Dates = %s", got)
	}
}

// A round trip's flexible days move together by default, keeping the stay;
// FlexIndependent pairs every outbound day with every return day.
func TestTripDatePairs(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(DateLayout, s); return d }
	pairs := func(ps []DatePair) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Out.Format("02")+">"+p.Return.Format("02"))
		}
		return strings.Join(out, " ")
	}
	window := Trip{BookableFrom: day("2026-11-30"), BookableUntil: day("2027-11-30"), Date: day("2026-12-15"), ReturnDate: day("2026-12-22"), FlexDays: 1}
	if got := pairs(window.DatePairs()); got != "14>21 15>22 16>23" {
		t.Errorf("together: %s", got)
	}
	if got := window.StayDays(); got != 7 {
		t.Errorf("stay %d days", got)
	}
	apart := window
	apart.FlexIndependent = true
	if got := pairs(apart.DatePairs()); got != "14>21 14>22 14>23 15>21 15>22 15>23 16>21 16>22 16>23" {
		t.Errorf("independent: %s", got)
	}
	if !window.Pairs(day("2026-12-14"), day("2026-12-21")) || window.Pairs(day("2026-12-14"), day("2026-12-22")) || !apart.Pairs(day("2026-12-14"), day("2026-12-22")) {
		t.Error("Pairs disagrees with DatePairs")
	}
	// The last bookable day bounds the returns, and so the outbound days
	// that pair with them.
	late := window
	late.Date, late.ReturnDate = day("2027-11-28"), day("2027-11-30")
	if got := pairs(late.DatePairs()); got != "27>29 28>30" {
		t.Errorf("at the end of the window: %s", got)
	}
	if (Trip{Date: day("2026-12-15")}).DatePairs() != nil {
		t.Error("a one-way trip has date pairs")
	}
	// Validation carries the choice.
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-22", FlexDays: ptrTo(3), FlexIndependent: true})
	if err != nil || !trip.FlexIndependent || len(trip.DatePairs()) != 49 {
		t.Errorf("validated: %+v, %v", trip, err)
	}
}

// A departure window across midnight belongs to the evening of each date:
// 22:00-02:00 on the 15th is the 15th from 22:00 and the 16th to 02:00.
func TestOvernightDepartureWindow(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", DepartAfter: "22:00", DepartBefore: "02:00"})
	if err != nil {
		t.Fatal(err)
	}
	if !trip.DepartWraps() || len(trip.SearchDates()) != 2 || trip.SearchDates()[1].Format(DateLayout) != "2026-12-16" {
		t.Fatalf("wraps %v, searches %v", trip.DepartWraps(), trip.SearchDates())
	}
	ny, _ := time.LoadLocation("America/New_York")
	at := func(d, hm string) Flight {
		dep, _ := time.ParseInLocation("2006-01-02 15:04", d+" "+hm, ny)
		return Flight{Segments: []Segment{{From: "JFK", To: "LHR", Airline: "BA", Depart: dep, Arrive: dep.Add(7 * time.Hour)}}, PriceUSD: 500}
	}
	for _, tc := range []struct {
		date, hm string
		want     bool
	}{
		{"2026-12-15", "22:00", true}, {"2026-12-15", "23:45", true}, {"2026-12-16", "01:30", true}, {"2026-12-16", "02:00", true},
		{"2026-12-15", "01:30", false}, // the night before the 15th
		{"2026-12-15", "21:59", false}, {"2026-12-16", "02:01", false}, {"2026-12-16", "22:30", false}, {"2026-12-15", "12:00", false},
	} {
		if got := trip.Admits(at(tc.date, tc.hm)); got != tc.want {
			t.Errorf("%s %s: admitted %v, want %v", tc.date, tc.hm, got, tc.want)
		}
	}
	if d := trip.DepartDay(at("2026-12-16", "01:30").Depart()); d.Format(DateLayout) != "2026-12-15" {
		t.Errorf("01:30 on the 16th counts for %s", d.Format(DateLayout))
	}
	for _, tc := range []struct {
		c, after, before Clock
		want             bool
	}{{60, 1320, 120, true}, {1380, 1320, 120, true}, {720, 1320, 120, false}, {600, 540, 1020, true}, {1100, 540, 1020, false}} {
		if got := InWindow(tc.c, &tc.after, &tc.before); got != tc.want {
			t.Errorf("InWindow(%s, %s, %s) = %v", tc.c, tc.after, tc.before, got)
		}
	}
}

func TestTripOnAndReturn(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: "NYC", Destination: "MAN", Date: "2026-12-15", ReturnDate: "2026-12-20", FlexDays: ptrTo(1),
		DepartAfter: "08:00", ArriveBefore: "22:00", MaxStops: ptrTo(1), Cabin: "business", Passengers: ptrTo(2), Airlines: []string{"BA"}, MaxPriceUSD: ptrTo(3000.0)})
	if err != nil {
		t.Fatal(err)
	}
	day := trip.Dates()[0]
	out := trip.On(day)
	if !out.Date.Equal(day) || out.IsRoundTrip() || out.FlexDays != 0 || out.Origin != "NYC" || *out.DepartAfter != 8*60 || *out.ArriveBefore != 22*60 {
		t.Errorf("On = %+v", out)
	}
	back := trip.Return(trip.ReturnDates()[0])
	if back.Origin != "MAN" || strings.Join(back.Origins(), " ") != "MAN" || back.Destination != "NYC" || strings.Join(back.Destinations(), " ") != "JFK LGA EWR" ||
		back.Date.Format(DateLayout) != "2026-12-19" || back.IsRoundTrip() || back.FlexDays != 0 {
		t.Errorf("Return: %s %v to %s %v on %v", back.Origin, back.Origins(), back.Destination, back.Destinations(), back.Date)
	}
	if back.DepartAfter != nil || back.ArriveBefore != nil || back.MaxStops != 1 || back.Cabin != Business || back.Passengers != 2 || strings.Join(back.Airlines, "") != "BA" || back.MaxPriceUSD != 3000 {
		t.Errorf("Return keeps the wrong limits: %+v", back)
	}
	if trip.OriginAirports[0] != "JFK" || trip.Origin != "NYC" {
		t.Error("On or Return changed the trip")
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
		{"unknown origin suggests", func(r *Request) { r.Origin = "JKF" }, "origin", `"JKF" is not a known airport or metro code`, "closest known: JFK (John F. Kennedy"},
		{"misspelt city suggests the city", func(r *Request) { r.Destination = "Pariss" }, "destination", "not a known airport, metro area or city", "Paris, FR (PAR: CDG, ORY)"},
		{"ambiguous city names each", func(r *Request) { r.Destination = "san jose" }, "destination", "more than one city", "one of: San Jose, CR (SJO); San Jose, US (SJC)"},
		{"same airport", func(r *Request) { r.Destination = "jfk" }, "destination", "same airport as origin", "different"},
		{"same place", func(r *Request) { r.Origin, r.Destination = "NYC", "new york" }, "destination", "same place as origin (NYC)", "different"},
		{"an airport of the origin", func(r *Request) { r.Destination = "NYC" }, "destination", "includes JFK, which is also an origin airport", "different"},
		{"too close to fly", func(r *Request) { r.Destination = "LGA" }, "destination", "is 17 km from origin, too close for a flight", "at least 150 km"},
		{"metros too close to fly", func(r *Request) { r.Origin, r.Destination = "AEP", "EZE" }, "destination", "too close for a flight", "at least 150 km"},
		{"return before departure", func(r *Request) { r.ReturnDate = "2026-12-14" }, "returnDate", "before the departure date (2026-12-15)", "on or after date"},
		{"return date format", func(r *Request) { r.ReturnDate = "next week" }, "returnDate", "not a date in YYYY-MM-DD", "one-way"},
		{"return over a year ahead", func(r *Request) { r.ReturnDate = "2027-12-01" }, "returnDate", "more than a year ahead", "one year"},
		{"flex too wide", func(r *Request) { r.FlexDays = ptrTo(4) }, "flexDays", "4 is out of range", "from 0 to 3"},
		{"flex negative", func(r *Request) { r.FlexDays = ptrTo(-1) }, "flexDays", "-1 is out of range", "from 0 to 3"},
		{"bad arrival time", func(r *Request) { r.ArriveAfter = "noon" }, "arriveAfter", "not a time of day", "HH:MM"},
		{"arrival window of no length", func(r *Request) { r.ArriveAfter, r.ArriveBefore = "20:00", "20:00" }, "arriveBefore", "20:00 is the same time as arriveAfter", "window across midnight"},
		{"unknown airline lists the known", func(r *Request) { r.Airlines = []string{"BA", "XQ"} }, "airlines", `"XQ" is not a known airline`, "known: 6E, AA, AC"},
		{"airline name of several", func(r *Request) { r.ExcludeAirlines = []string{"air"} }, "excludeAirlines", `"air" is the name of more than one airline`, "it could be AC (Air Canada), AF (Air France)"},
		{"airline code swapped", func(r *Request) { r.Airlines = []string{"AB"} }, "airlines", `"AB" is not a known airline`, "closest known: BA (British Airways)"},
		{"airline both wanted and excluded", func(r *Request) { r.Airlines, r.ExcludeAirlines = []string{"BA", "AA"}, []string{"ba"} }, "excludeAirlines", "BA is also in airlines", "not among"},
		{"too many airlines", func(r *Request) { r.Airlines = make([]string, 21) }, "airlines", "lists 21 airlines", "at most 20"},
		{"missing date", func(r *Request) { r.Date = " " }, "date", "is missing", "YYYY-MM-DD"},
		{"date format", func(r *Request) { r.Date = "15/12/2026" }, "date", "not a date in YYYY-MM-DD", "YYYY-MM-DD"},
		{"impossible date", func(r *Request) { r.Date = "2027-02-30" }, "date", "2027-02-30 is not a date: February 2027 has 28 days", "YYYY-MM-DD"},
		{"impossible leap day", func(r *Request) { r.Date = "2027-02-29" }, "date", "February 2027 has 28 days", "YYYY-MM-DD"},
		{"day 31 of a short month", func(r *Request) { r.ReturnDate = "2027-04-31" }, "returnDate", "April 2027 has 30 days", "YYYY-MM-DD"},
		{"month 13", func(r *Request) { r.Date = "2027-13-01" }, "date", "there is no month 13", "YYYY-MM-DD"},
		{"day 00", func(r *Request) { r.Date = "2027-01-00" }, "date", "there is no day 00", "YYYY-MM-DD"},
		{"unknown city gets the nearest airports", func(r *Request) { r.Destination = "Kraków" }, "destination", `"Kraków" has no airport`, "Kraków, PL: nearest WAW (Warsaw Chopin Airport, Warsaw, PL) 244 km"},
		{"date in the past", func(r *Request) { r.Date = "2026-11-29" }, "date", "in the past (today is 2026-11-30", "from today"},
		{"date over a year ahead", func(r *Request) { r.Date = "2027-12-01" }, "date", "more than a year ahead", "one year"},
		{"no passengers", func(r *Request) { r.Passengers = ptrTo(0) }, "passengers", "0 is out of range", "1 to 9"},
		{"too many passengers", func(r *Request) { r.Passengers = ptrTo(10) }, "passengers", "10 is out of range", "1 to 9"},
		{"unknown cabin", func(r *Request) { r.Cabin = "coach" }, "cabin", `"coach" is not a cabin`, "premium_economy"},
		{"negative stops", func(r *Request) { r.MaxStops = ptrTo(-1) }, "maxStops", "out of range", "nonstop"},
		{"too many stops", func(r *Request) { r.MaxStops = ptrTo(3) }, "maxStops", "out of range", "0 (nonstop only), 1 or 2"},
		{"bad time", func(r *Request) { r.DepartAfter = "7am" }, "departAfter", "not a time of day", "HH:MM"},
		{"hour 24", func(r *Request) { r.DepartBefore = "24:00" }, "departBefore", "not a time of day", "23:59"},
		{"window of no length", func(r *Request) { r.DepartAfter, r.DepartBefore = "09:00", "09:00" }, "departBefore", "is the same time as departAfter", "later than departAfter"},
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
	_, err := v.Validate(Request{Origin: "XXQ", Destination: "", Date: "tomorrow", ReturnDate: "later", FlexDays: ptrTo(7), Passengers: ptrTo(12), Cabin: "steerage", MaxStops: ptrTo(5),
		DepartAfter: "25:00", ArriveBefore: "8pm", MaxPriceUSD: ptrTo(-3.0), Airlines: []string{"ZZ"}, ExcludeAirlines: []string{"QQ"}})
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v, want Problems", err)
	}
	var fields []string
	for _, p := range ps {
		fields = append(fields, p.Field)
	}
	want := "origin destination date returnDate flexDays passengers cabin maxStops departAfter arriveBefore maxPrice airlines excludeAirlines"
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
