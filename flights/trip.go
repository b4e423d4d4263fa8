package flights

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flightserver/flightserver/internal/untrusted"
	"github.com/flightserver/flightserver/problem"
)

// Cabin is a travel class.
type Cabin string

// The cabins a trip may ask for.
const (
	Economy        Cabin = "economy"
	PremiumEconomy Cabin = "premium_economy"
	Business       Cabin = "business"
	First          Cabin = "first"
)

// Cabins lists every cabin, cheapest first.
var Cabins = []Cabin{Economy, PremiumEconomy, Business, First}

// Words is the cabin as people write it: "premium economy".
func (c Cabin) Words() string { return strings.ReplaceAll(string(c), "_", " ") }

// Limits of a trip, shared by validation, the tool schema and the docs.
const (
	MinPassengers = 1
	MaxPassengers = 9
	MaxStopsLimit = 2
	// BookingHorizon is how far ahead a departure date may be.
	BookingHorizon = 365 * 24 * time.Hour
)

// DateLayout is the only date format a trip accepts.
const DateLayout = "2006-01-02"

// Clock is a local time of day in minutes after midnight (0..1439).
type Clock int

// ParseClock reads "HH:MM" (24-hour clock).
func ParseClock(s string) (Clock, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, fmt.Errorf("%s is not a time of day in HH:MM (24-hour) form", Quote(s))
	}
	return Clock(t.Hour()*60 + t.Minute()), nil
}

// String formats the clock as HH:MM.
func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", int(c)/60, int(c)%60) }

// InWindow reports whether c lies in the window [after, before]; a nil bound
// is no bound. A window whose after is later than its before runs across
// midnight: 22:00 to 02:00 holds 23:30 and 01:15, not 12:00.
func InWindow(c Clock, after, before *Clock) bool {
	switch {
	case after != nil && before != nil && *after > *before:
		return c >= *after || c <= *before
	case after != nil && c < *after, before != nil && c > *before:
		return false
	}
	return true
}

// ClockOf is t's local time of day.
func ClockOf(t time.Time) Clock { return Clock(t.Hour()*60 + t.Minute()) }

// Trip is a validated search: everything in it has been checked, so code
// that receives a Trip does not check again. A trip with a ReturnDate is a
// round trip; FlexDays widens both dates.
type Trip struct {
	// Origin and Destination name the places as the traveller gave them,
	// normalised: an airport code, a metro code, or a city's canonical name
	// (see Place.Label).
	Origin      string
	Destination string
	// OriginAirports and DestinationAirports are the airports to search,
	// the main one first. Empty means the one airport Origin (Destination)
	// names, as in trips built by hand from a flight id.
	OriginAirports, DestinationAirports []string
	// Date is the departure date in the origin's local calendar, held as
	// midnight UTC; only year, month and day are meaningful.
	Date time.Time
	// ReturnDate is the return's departure date in the destination's local
	// calendar, held like Date; zero for a one-way trip.
	ReturnDate time.Time
	// FlexDays searches this many days either side of Date (and of
	// ReturnDate): see Dates, ReturnDates and DatePairs.
	FlexDays int
	// FlexIndependent, on a flexible round trip, lets the return day move on
	// its own: every outbound day is paired with every return day. False
	// (the default) moves both days together, so the stay keeps the length
	// Date to ReturnDate gives it.
	FlexIndependent bool
	Passengers      int
	Cabin           Cabin
	MaxStops        int
	// DepartAfter and DepartBefore bound the local departure time; nil means
	// no bound. DepartAfter later than DepartBefore is a window across
	// midnight that belongs to the evening of each date: 22:00 to 02:00 on
	// the 15th is the 15th from 22:00 and the 16th until 02:00 (see
	// DepartDay and SearchDates).
	DepartAfter, DepartBefore *Clock
	// ArriveAfter and ArriveBefore bound the local arrival time of day at
	// the destination (on whichever day the flight lands); nil means no
	// bound, and after later than before runs across midnight.
	ArriveAfter, ArriveBefore *Clock
	// Airlines, if not empty, are the only airlines a flight may use, on
	// every segment; ExcludeAirlines may fly no segment. IATA codes.
	Airlines, ExcludeAirlines []string
	// MaxPriceUSD is the most a traveller will pay per passenger; 0 means no limit.
	MaxPriceUSD float64
	// BookableFrom and BookableUntil are the first and last dates that could
	// be searched when the trip was validated (the origin's today and a year
	// on); Dates and ReturnDates stay inside them. Zero means no bound.
	BookableFrom, BookableUntil time.Time
}

// Origins are the origin airports to search.
func (t Trip) Origins() []string { return airportsOr(t.OriginAirports, t.Origin) }

// Destinations are the destination airports to search.
func (t Trip) Destinations() []string { return airportsOr(t.DestinationAirports, t.Destination) }

func airportsOr(airports []string, code string) []string {
	if len(airports) > 0 {
		return airports
	}
	return []string{code}
}

// IsRoundTrip reports whether the trip has a return date.
func (t Trip) IsRoundTrip() bool { return !t.ReturnDate.IsZero() }

// MaxFlexDays is how many days either side of a date a trip may search.
const MaxFlexDays = 3

// Dates are the outbound days to search, in order: Date ± FlexDays, inside
// the bookable window.
func (t Trip) Dates() []time.Time { return t.span(t.Date, t.BookableFrom) }

// ReturnDates are the return days to search, in order; nil for a one-way
// trip. With FlexIndependent they are ReturnDate ± FlexDays, inside the
// bookable window and not before the first outbound day (a return day may
// still come before some outbound days: NewRoundTrip decides which pairs can
// be flown); otherwise each outbound day's partner in DatePairs.
func (t Trip) ReturnDates() []time.Time {
	if !t.IsRoundTrip() {
		return nil
	}
	if !t.FlexIndependent {
		var out []time.Time
		for _, p := range t.DatePairs() {
			out = append(out, p.Return)
		}
		return out
	}
	first := t.BookableFrom
	if out := t.Dates(); len(out) > 0 && out[0].After(first) {
		first = out[0]
	}
	return t.span(t.ReturnDate, first)
}

// DatePair is an outbound day and a return day that a round trip pairs.
type DatePair struct{ Out, Return time.Time }

// DatePairs are the days a round trip pairs, in order of the outbound day
// (then the return day): with FlexIndependent every outbound day with every
// return day not before it (up to 49); otherwise each outbound day with the
// day that keeps the stay's length (up to 7), for the days whose partner is
// bookable. Nil for a one-way trip.
func (t Trip) DatePairs() []DatePair {
	if !t.IsRoundTrip() {
		return nil
	}
	var out []DatePair
	if t.FlexIndependent {
		rets := t.ReturnDates()
		for _, o := range t.Dates() {
			for _, r := range rets {
				if !r.Before(o) {
					out = append(out, DatePair{o, r})
				}
			}
		}
		return out
	}
	stay := t.StayDays()
	for _, o := range t.Dates() {
		if r := o.AddDate(0, 0, stay); t.BookableUntil.IsZero() || !r.After(t.BookableUntil) {
			out = append(out, DatePair{o, r})
		}
	}
	return out
}

// StayDays is how many days after Date the return is planned: 0 for a
// same-day return (and for a one-way trip).
func (t Trip) StayDays() int {
	if !t.IsRoundTrip() {
		return 0
	}
	return int(t.ReturnDate.Sub(t.Date).Hours()/24 + 0.5)
}

// Pairs reports whether an outbound counted on day out (see DepartDay) and
// a return leaving on day ret may make one of the trip's round trips: any
// two days with FlexIndependent, else only the two that keep the stay's
// length. Whether the flights themselves connect is NewRoundTrip's to say.
func (t Trip) Pairs(out, ret time.Time) bool {
	return t.FlexIndependent || int(ret.Sub(out).Hours()/24+0.5) == t.StayDays()
}

// DepartWraps reports whether the departure window runs across midnight.
func (t Trip) DepartWraps() bool {
	return t.DepartAfter != nil && t.DepartBefore != nil && *t.DepartAfter > *t.DepartBefore
}

// DepartDay is the day of the trip a departure counts for: its local date,
// or the date before for a departure in the after-midnight part of a window
// across midnight (01:00 on the 16th, in a 22:00-02:00 window, is the
// night of the 15th).
func (t Trip) DepartDay(dep time.Time) time.Time {
	d := civilDate(dep)
	if t.DepartWraps() && ClockOf(dep) <= *t.DepartBefore {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// SearchDates are the outbound days a provider is asked for: Dates, and the
// day after the last when the departure window runs across midnight (its
// early hours belong to the last date's night).
func (t Trip) SearchDates() []time.Time {
	ds := t.Dates()
	if t.DepartWraps() && len(ds) > 0 {
		ds = append(ds, ds[len(ds)-1].AddDate(0, 0, 1))
	}
	return ds
}

// civilDate is t's local calendar date, as midnight UTC like Trip.Date.
func civilDate(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Admits reports whether f satisfies the trip's limits: stops, departure
// and arrival windows (local times of day at each end; a departure in a
// window across midnight must also count for one of Dates), price per
// passenger, and airlines (every segment by one of Airlines, if any; none by
// ExcludeAirlines). A provider that returns a page of results applies it
// before cutting the page, so that a filter never empties a page that a
// wider search would have filled.
func (t Trip) Admits(f Flight) bool {
	if len(f.Segments) == 0 || f.Stops() > t.MaxStops {
		return false
	}
	if !InWindow(ClockOf(f.Depart()), t.DepartAfter, t.DepartBefore) || !InWindow(ClockOf(f.Arrive()), t.ArriveAfter, t.ArriveBefore) {
		return false
	}
	if t.DepartWraps() && !t.Date.IsZero() {
		if ds, day := t.Dates(), t.DepartDay(f.Depart()); len(ds) == 0 || day.Before(ds[0]) || day.After(ds[len(ds)-1]) {
			return false
		}
	}
	if t.MaxPriceUSD > 0 && float64(f.PriceUSD) > t.MaxPriceUSD {
		return false
	}
	for _, s := range f.Segments {
		if (len(t.Airlines) > 0 && !slices.Contains(t.Airlines, s.Airline)) || slices.Contains(t.ExcludeAirlines, s.Airline) {
			return false
		}
	}
	return true
}

// Filtered reports whether the trip sets any of the limits Admits checks,
// so that Admits can refuse a flight of MaxStopsLimit stops or fewer; a
// provider need not ask Admits about each flight of a trip that sets none.
// It must name every limit Admits checks.
func (t Trip) Filtered() bool {
	return t.MaxStops < MaxStopsLimit || t.DepartAfter != nil || t.DepartBefore != nil || t.ArriveAfter != nil || t.ArriveBefore != nil ||
		t.MaxPriceUSD > 0 || len(t.Airlines) > 0 || len(t.ExcludeAirlines) > 0
}

func (t Trip) span(center, first time.Time) []time.Time {
	var out []time.Time
	for d := -t.FlexDays; d <= t.FlexDays; d++ {
		day := center.AddDate(0, 0, d)
		if (!first.IsZero() && day.Before(first)) || (!t.BookableUntil.IsZero() && day.After(t.BookableUntil)) {
			continue
		}
		out = append(out, day)
	}
	return out
}

// On is the one-day, one-way search for the outbound on date: what a
// Provider is given, once per day of Dates.
func (t Trip) On(date time.Time) Trip {
	t.Date, t.ReturnDate, t.FlexDays = date, time.Time{}, 0
	return t
}

// Return is the one-day, one-way search for the return on date: the trip
// reversed. The time windows are the outbound's and do not carry over; the
// stops, airlines and cabin do, and so does the price cap (a leg dearer
// than the whole trip's cap cannot be part of a round trip within it).
func (t Trip) Return(date time.Time) Trip {
	r := t.On(date)
	r.Origin, r.Destination = t.Destination, t.Origin
	r.OriginAirports, r.DestinationAirports = t.DestinationAirports, t.OriginAirports
	r.DepartAfter, r.DepartBefore, r.ArriveAfter, r.ArriveBefore = nil, nil, nil, nil
	return r
}

// Request is a trip as a caller gives it: strings and optional numbers, not
// yet trusted. Pointers distinguish "not given" from a zero.
type Request struct {
	// Origin and Destination are each an airport code, a metro code or a
	// city name: see Catalog.ResolvePlace.
	Origin, Destination, Date string
	// ReturnDate, if given, makes the trip a round trip.
	ReturnDate string
	FlexDays   *int
	// FlexIndependent: see Trip.FlexIndependent.
	FlexIndependent           bool
	Passengers                *int
	Cabin                     string
	MaxStops                  *int
	DepartAfter, DepartBefore string
	ArriveAfter, ArriveBefore string
	MaxPriceUSD               *float64
	// Airlines and ExcludeAirlines are IATA codes or airline names.
	Airlines, ExcludeAirlines []string
}

// Problem is one thing wrong with a request, worded for the person (or
// model) who has to fix it: the module's one vocabulary for that, which
// the engine's decoder speaks too.
type Problem = problem.Problem

// Problems is every problem found in a request (an error, and a list).
type Problems = problem.Problems

// Validator turns requests into trips. Now is injectable so that "a date in
// the past" is testable; nil means time.Now.
type Validator struct {
	Catalog *Catalog
	Now     func() time.Time
	// PlaceHint, if set, ends what is accepted for a place that did not
	// resolve: where the caller can look places up ("findAirports ...").
	PlaceHint string
}

// Validate checks every field and returns all problems at once, so a caller
// fixes its request in one round instead of one error at a time.
func (v Validator) Validate(r Request) (Trip, error) {
	var ps Problems
	add := func(field, problem, accepted string) {
		ps = append(ps, Problem{Field: field, Problem: problem, Accepted: accepted})
	}
	t := Trip{Passengers: 1, Cabin: Economy, MaxStops: MaxStopsLimit}

	origin, okOrigin := v.place("origin", r.Origin, &ps)
	dest, okDest := v.place("destination", r.Destination, &ps)
	t.Origin, t.Destination = origin.Label(), dest.Label()
	t.OriginAirports, t.DestinationAirports = origin.Airports, dest.Airports
	if okOrigin && okDest {
		if problem := v.apart(origin, dest); problem != "" {
			add("destination", problem, fmt.Sprintf("an airport or city different from the origin, at least %d km away", minLegKm))
		}
	}

	today := v.today(origin.Airports)
	last := today.Add(BookingHorizon)
	t.BookableFrom, t.BookableUntil = today, last
	const dateAccepted = "a date in YYYY-MM-DD form, from today up to one year ahead"
	if date, ok := v.date("date", r.Date, true, today, last, dateAccepted, add); ok {
		t.Date = date
	}
	if strings.TrimSpace(r.ReturnDate) != "" {
		const accepted = "a date in YYYY-MM-DD form, on or after date and up to one year ahead, or leave it out for a one-way trip"
		if date, ok := v.date("returnDate", r.ReturnDate, false, today, last, accepted, add); ok {
			t.ReturnDate = date
			if !t.Date.IsZero() && date.Before(t.Date) {
				add("returnDate", fmt.Sprintf("%s is before the departure date (%s)", date.Format(DateLayout), t.Date.Format(DateLayout)), accepted)
			}
		}
	}
	if r.FlexDays != nil {
		t.FlexDays = *r.FlexDays
		if t.FlexDays < 0 || t.FlexDays > MaxFlexDays {
			add("flexDays", fmt.Sprintf("%d is out of range", t.FlexDays),
				fmt.Sprintf("a whole number of days either side of the dates, from 0 to %d", MaxFlexDays))
		}
	}
	t.FlexIndependent = r.FlexIndependent

	if r.Passengers != nil {
		t.Passengers = *r.Passengers
		if t.Passengers < MinPassengers || t.Passengers > MaxPassengers {
			add("passengers", fmt.Sprintf("%d is out of range", t.Passengers),
				fmt.Sprintf("a whole number from %d to %d", MinPassengers, MaxPassengers))
		}
	}
	if strings.TrimSpace(r.Cabin) != "" {
		var ok bool
		if t.Cabin, ok = ParseCabin(r.Cabin); !ok {
			add("cabin", fmt.Sprintf("%s is not a cabin", Quote(r.Cabin)), OneOf(Cabins))
		}
	}
	if r.MaxStops != nil {
		t.MaxStops = *r.MaxStops
		if t.MaxStops < 0 || t.MaxStops > MaxStopsLimit {
			add("maxStops", fmt.Sprintf("%d is out of range", t.MaxStops),
				fmt.Sprintf("0 (nonstop only), 1 or %d", MaxStopsLimit))
		}
	}
	t.DepartAfter, t.DepartBefore = v.window("departAfter", "departBefore", r.DepartAfter, r.DepartBefore, add)
	t.ArriveAfter, t.ArriveBefore = v.window("arriveAfter", "arriveBefore", r.ArriveAfter, r.ArriveBefore, add)
	if r.MaxPriceUSD != nil {
		t.MaxPriceUSD = *r.MaxPriceUSD
		if t.MaxPriceUSD <= 0 {
			add("maxPrice", fmt.Sprintf("%g is not a positive amount", t.MaxPriceUSD),
				"a positive amount in US dollars per passenger, or leave it out for no limit")
		}
	}
	t.Airlines = v.airlines("airlines", r.Airlines, &ps)
	t.ExcludeAirlines = v.airlines("excludeAirlines", r.ExcludeAirlines, &ps)
	for _, code := range t.Airlines {
		if slices.Contains(t.ExcludeAirlines, code) {
			add("excludeAirlines", fmt.Sprintf("%s is also in airlines", code), "airlines not among those in airlines")
			break
		}
	}
	if len(ps) > 0 {
		return Trip{}, ps
	}
	return t, nil
}

func (v Validator) place(field, raw string, ps *Problems) (Place, bool) {
	if strings.TrimSpace(raw) == "" {
		*ps = append(*ps, Problem{Field: field, Problem: "is missing", Accepted: PlaceAccepted})
		return Place{}, false
	}
	p, err := v.Catalog.ResolvePlace(raw)
	if err != nil {
		var pe *PlaceError
		if !errors.As(err, &pe) {
			pe = &PlaceError{Reason: err.Error()}
		}
		p := pe.Problem(field)
		if v.PlaceHint != "" {
			p.Accepted += "; " + v.PlaceHint
		}
		*ps = append(*ps, p)
		return Place{Query: raw}, false
	}
	return p, true
}

// apart says what is wrong with flying from origin to dest, or "": the same
// place, an airport in both, or every pair of airports too close to fly.
func (v Validator) apart(origin, dest Place) string {
	if slices.Equal(origin.Airports, dest.Airports) {
		if origin.Kind == AirportPlace && dest.Kind == AirportPlace {
			return fmt.Sprintf("is the same airport as origin (%s)", origin.Code)
		}
		return fmt.Sprintf("is the same place as origin (%s)", origin.Label())
	}
	for _, a := range dest.Airports {
		if slices.Contains(origin.Airports, a) {
			return fmt.Sprintf("includes %s, which is also an origin airport", a)
		}
	}
	farthest := 0.0
	for _, o := range origin.Airports {
		for _, d := range dest.Airports {
			farthest = max(farthest, DistanceKm(v.Catalog.Airport(o), v.Catalog.Airport(d)))
		}
	}
	switch {
	case farthest >= minLegKm:
		return "" // the provider skips the pairs that are too close
	case len(origin.Airports) == 1 && len(dest.Airports) == 1:
		return fmt.Sprintf("is %.0f km from origin, too close for a flight", farthest)
	}
	return fmt.Sprintf("has every airport within %d km of the origin's, too close for a flight", minLegKm)
}

// date reads a date field that must lie in [today, last].
func (v Validator) date(field, raw string, required bool, today, last time.Time, accepted string, add func(field, problem, accepted string)) (time.Time, bool) {
	raw = strings.TrimSpace(raw)
	date, err := time.Parse(DateLayout, raw)
	switch {
	case raw == "" && required:
		add(field, "is missing", accepted)
	case raw == "":
	case err != nil:
		add(field, dateProblem(raw), accepted)
	case date.Before(today):
		add(field, fmt.Sprintf("%s is in the past (today is %s at the origin)", date.Format(DateLayout), today.Format(DateLayout)), accepted)
		return date, true
	case date.After(last):
		add(field, fmt.Sprintf("%s is more than a year ahead (the last bookable date is %s)", date.Format(DateLayout), last.Format(DateLayout)), accepted)
		return date, true
	default:
		return date, true
	}
	return time.Time{}, false
}

// dateProblem says why raw, which time.Parse refused, is not a date: a
// day the calendar does not have ("2027-02-30: February 2027 has 28
// days"), a month past 12, or not the YYYY-MM-DD form at all.
func dateProblem(raw string) string {
	y, m, d, ok := dateParts(raw)
	switch {
	case !ok:
		return fmt.Sprintf("%s is not a date in YYYY-MM-DD form", Quote(raw))
	case m < 1 || m > 12:
		return fmt.Sprintf("%s is not a date: there is no month %02d", raw, m)
	case d < 1:
		return fmt.Sprintf("%s is not a date: there is no day %02d", raw, d)
	}
	last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if d > last {
		return fmt.Sprintf("%s is not a date: %s %d has %d days", raw, time.Month(m), y, last)
	}
	return fmt.Sprintf("%s is not a date in YYYY-MM-DD form", Quote(raw))
}

// dateParts reads the numbers of a YYYY-MM-DD shaped string, whatever
// their range.
func dateParts(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	num := func(part string) int {
		n, err := strconv.Atoi(part)
		if err != nil || strings.ContainsAny(part, "+-") {
			ok = false
		}
		return n
	}
	ok = true
	y, m, d = num(s[:4]), num(s[5:7]), num(s[8:])
	return y, m, d, ok
}

// window reads a pair of HH:MM bounds. The first later than the second is
// a window across midnight (22:00 to 02:00); the same time twice is no
// window at all.
func (v Validator) window(afterField, beforeField, afterRaw, beforeRaw string, add func(field, problem, accepted string)) (*Clock, *Clock) {
	after, before := v.clock(afterField, afterRaw, add), v.clock(beforeField, beforeRaw, add)
	if after != nil && before != nil && *after == *before {
		add(beforeField, fmt.Sprintf("%s is the same time as %s", *before, afterField),
			fmt.Sprintf("a time later than %s, or earlier for a window across midnight (e.g. %s 22:00, %s 02:00)", afterField, afterField, beforeField))
	}
	return after, before
}

// maxAirlines bounds an airline list: more than every airline known is a
// mistake, and each entry costs a lookup.
const maxAirlines = 20

// airlines reads a list of airline codes or names into sorted, distinct
// IATA codes.
func (v Validator) airlines(field string, raw []string, ps *Problems) []string {
	if len(raw) > maxAirlines {
		*ps = append(*ps, Problem{Field: field, Problem: fmt.Sprintf("lists %d airlines", len(raw)),
			Accepted: fmt.Sprintf("at most %d IATA airline codes", maxAirlines)})
		return nil
	}
	var out []string
	for _, s := range raw {
		al, err := v.Catalog.ResolveAirline(s)
		if err != nil {
			*ps = append(*ps, Problem{Field: field, Problem: err.Error(), Accepted: v.Catalog.airlineAccepted(s)})
			continue
		}
		if !slices.Contains(out, al.Code) {
			out = append(out, al.Code)
		}
	}
	slices.Sort(out)
	return out
}

func (v Validator) clock(field, raw string, add func(field, problem, accepted string)) *Clock {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	c, err := ParseClock(strings.TrimSpace(raw))
	if err != nil {
		add(field, err.Error(), "a local time of day as HH:MM, from 00:00 to 23:59")
		return nil
	}
	return &c
}

// today is the current date at the origin (its first airport: a metro's
// airports share a time zone; UTC when the origin is unknown), as midnight
// UTC so it compares with Trip.Date.
func (v Validator) today(origin []string) time.Time {
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	t := now().UTC()
	if len(origin) > 0 {
		if a := v.Catalog.Airport(origin[0]); a != nil {
			t = t.In(a.Location())
		}
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// Quote quotes a caller's value for a Problem, shortened, so that a huge or
// hostile argument cannot flood the error that echoes it (see untrusted.Quote).
func Quote(s string) string { return untrusted.Quote(s) }

func validCabin(c Cabin) bool { return slices.Contains(Cabins, c) }

// ParseCabin reads a cabin as a caller wrote it (any case, spaces
// around): Economy for an empty string, false for a word that is none of
// Cabins.
func ParseCabin(raw string) (Cabin, bool) {
	c := Cabin(strings.TrimSpace(strings.ToLower(raw)))
	if c == "" {
		return Economy, true
	}
	return c, validCabin(c)
}

// OneOf is a Problem's Accepted for a choice among fixed values ("one of
// a, b, c"), worded the same for every such argument: the cabin here, and
// the tools' own choices.
func OneOf[S ~string](values []S) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return "one of " + strings.Join(names, ", ")
}
