package flights

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
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

// Trip is a validated one-way search: everything in it has been checked, so
// code that receives a Trip does not check again.
type Trip struct {
	Origin      string
	Destination string
	// Date is the departure date in the origin's local calendar, held as
	// midnight UTC; only year, month and day are meaningful.
	Date       time.Time
	Passengers int
	Cabin      Cabin
	MaxStops   int
	// DepartAfter and DepartBefore bound the local departure time; nil means
	// no bound.
	DepartAfter, DepartBefore *Clock
	// MaxPriceUSD is the most a traveller will pay per passenger; 0 means no limit.
	MaxPriceUSD float64
}

// Request is a trip as a caller gives it: strings and optional numbers, not
// yet trusted. Pointers distinguish "not given" from a zero.
type Request struct {
	Origin, Destination, Date string
	Passengers                *int
	Cabin                     string
	MaxStops                  *int
	DepartAfter, DepartBefore string
	MaxPriceUSD               *float64
}

// Problem is one thing wrong with a request, worded for the person (or model)
// who has to fix it.
type Problem struct {
	Field    string `json:"field"`
	Problem  string `json:"problem"`
	Accepted string `json:"accepted"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s (accepted: %s)", p.Field, p.Problem, p.Accepted)
}

// Problems is every problem found in a request. It is an error so that
// validation can return it as one, and a list so that callers can show each.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "; ")
}

// Validator turns requests into trips. Now is injectable so that "a date in
// the past" is testable; nil means time.Now.
type Validator struct {
	Catalog *Catalog
	Now     func() time.Time
}

// Validate checks every field and returns all problems at once, so a caller
// fixes its request in one round instead of one error at a time.
func (v Validator) Validate(r Request) (Trip, error) {
	var ps Problems
	add := func(field, problem, accepted string) {
		ps = append(ps, Problem{Field: field, Problem: problem, Accepted: accepted})
	}
	t := Trip{Passengers: 1, Cabin: Economy, MaxStops: MaxStopsLimit}

	origin, okOrigin := v.airport("origin", r.Origin, add)
	dest, okDest := v.airport("destination", r.Destination, add)
	t.Origin, t.Destination = origin, dest
	if okOrigin && okDest && origin == dest {
		add("destination", fmt.Sprintf("is the same airport as origin (%s)", origin),
			"an airport different from the origin")
	}

	const dateAccepted = "a date in YYYY-MM-DD form, from today up to one year ahead"
	switch date, err := time.Parse(DateLayout, strings.TrimSpace(r.Date)); {
	case strings.TrimSpace(r.Date) == "":
		add("date", "is missing", dateAccepted)
	case err != nil:
		add("date", fmt.Sprintf("%s is not a date in YYYY-MM-DD form", Quote(r.Date)), dateAccepted)
	default:
		today := v.today(origin)
		t.Date = date
		if date.Before(today) {
			add("date", fmt.Sprintf("%s is in the past (today is %s at the origin)", date.Format(DateLayout), today.Format(DateLayout)), dateAccepted)
		} else if last := today.Add(BookingHorizon); date.After(last) {
			add("date", fmt.Sprintf("%s is more than a year ahead (the last bookable date is %s)", date.Format(DateLayout), last.Format(DateLayout)), dateAccepted)
		}
	}

	if r.Passengers != nil {
		t.Passengers = *r.Passengers
		if t.Passengers < MinPassengers || t.Passengers > MaxPassengers {
			add("passengers", fmt.Sprintf("%d is out of range", t.Passengers),
				fmt.Sprintf("a whole number from %d to %d", MinPassengers, MaxPassengers))
		}
	}
	if c := strings.TrimSpace(strings.ToLower(r.Cabin)); c != "" {
		t.Cabin = Cabin(c)
		if !validCabin(t.Cabin) {
			add("cabin", fmt.Sprintf("%s is not a cabin", Quote(r.Cabin)), cabinList())
		}
	}
	if r.MaxStops != nil {
		t.MaxStops = *r.MaxStops
		if t.MaxStops < 0 || t.MaxStops > MaxStopsLimit {
			add("maxStops", fmt.Sprintf("%d is out of range", t.MaxStops),
				fmt.Sprintf("0 (nonstop only), 1 or %d", MaxStopsLimit))
		}
	}
	t.DepartAfter = v.clock("departAfter", r.DepartAfter, add)
	t.DepartBefore = v.clock("departBefore", r.DepartBefore, add)
	if t.DepartAfter != nil && t.DepartBefore != nil && *t.DepartAfter >= *t.DepartBefore {
		add("departBefore", fmt.Sprintf("%s is not later than departAfter (%s)", *t.DepartBefore, *t.DepartAfter),
			"a time later than departAfter on the same day")
	}
	if r.MaxPriceUSD != nil {
		t.MaxPriceUSD = *r.MaxPriceUSD
		if t.MaxPriceUSD <= 0 {
			add("maxPrice", fmt.Sprintf("%g is not a positive amount", t.MaxPriceUSD),
				"a positive amount in US dollars per passenger, or leave it out for no limit")
		}
	}
	if len(ps) > 0 {
		return Trip{}, ps
	}
	return t, nil
}

func (v Validator) airport(field, raw string, add func(field, problem, accepted string)) (string, bool) {
	code := strings.ToUpper(strings.TrimSpace(raw))
	if code == "" {
		add(field, "is missing", "a 3-letter IATA airport code, e.g. JFK")
		return "", false
	}
	if v.Catalog.Airport(code) != nil {
		return code, true
	}
	accepted := "a 3-letter IATA code of a known airport"
	if suggestions := v.Catalog.Suggest(raw, 3); len(suggestions) > 0 {
		accepted += "; closest known: " + strings.Join(suggestions, ", ")
	}
	add(field, fmt.Sprintf("%s is not a known airport code", Quote(raw)), accepted)
	return code, false
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

// today is the current date at the origin (UTC when the origin is unknown),
// as midnight UTC so it compares with Trip.Date.
func (v Validator) today(origin string) time.Time {
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	t := now()
	if a := v.Catalog.Airport(origin); a != nil {
		t = t.In(a.Location)
	} else {
		t = t.UTC()
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// Quote quotes a caller's value for a Problem, shortened, so that a huge or
// hostile argument cannot flood the error that echoes it.
func Quote(s string) string {
	const max = 40
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return strconv.Quote(s)
}

func validCabin(c Cabin) bool { return slices.Contains(Cabins, c) }

func cabinList() string {
	names := make([]string, len(Cabins))
	for i, c := range Cabins {
		names[i] = string(c)
	}
	return "one of " + strings.Join(names, ", ")
}
