package tools

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// FindResult is findBestFlight's structuredContent; its schema is the tool's
// output schema, so every field here is part of the public contract.
type FindResult struct {
	Trip TripOut `json:"trip"`
	// Method is the tier that produced Flights.
	Method string `json:"method" jsonschema:"how the flights were chosen: client_sampling (the client's LLM), server_llm (the server's LLM), deterministic (price + stops + duration) or candidates (a shortlist, not a ranking)"`
	// Model is the model that ranked, as the client reported it.
	Model  string `json:"model,omitempty" jsonschema:"the model that ranked, as reported by the client or the server's LLM endpoint; absent when no model ranked"`
	Ranked bool   `json:"ranked" jsonschema:"true when flights are in recommended order; false for a shortlist the host's model should choose from with the user"`
	// Flights are the best three when ranked, the shortlist otherwise.
	Flights []FlightOut `json:"flights" jsonschema:"the best three flights, best first; or the shortlist when ranked is false"`
	// Found is what the search returned; Candidates is how many options
	// the ranking chose among.
	Found      int          `json:"found" jsonschema:"flights the search returned, every day and both ways"`
	Candidates int          `json:"candidates" jsonschema:"options the ranking chose among: flights left after the trip's filters (stops, times, airlines, price), or for a round trip the best pairs of them"`
	Calendar   []DayOut     `json:"calendar,omitempty" jsonschema:"with flexDays: one entry per outbound day searched, its lowest fare per passenger and its best option"`
	Attempts   []AttemptOut `json:"attempts" jsonschema:"every decision this call made, in order: the trip details when one was missing, then each ranking method tried, with what happened and why"`
	Summary    string       `json:"summary" jsonschema:"one line for people: which method ranked and why"`
}

// TripOut is the validated trip, echoed so the caller sees the defaults used
// and which airports were searched.
type TripOut struct {
	Origin              string   `json:"origin" jsonschema:"the origin as understood: an airport code, a metro code or a city"`
	Destination         string   `json:"destination"`
	OriginAirports      []string `json:"originAirports" jsonschema:"the airports searched for the origin"`
	DestinationAirports []string `json:"destinationAirports" jsonschema:"the airports searched for the destination"`
	Date                string   `json:"date"`
	ReturnDate          string   `json:"returnDate,omitempty"`
	FlexDays            int      `json:"flexDays,omitempty"`
	Passengers          int      `json:"passengers"`
	Cabin               string   `json:"cabin"`
	MaxStops            int      `json:"maxStops"`
	DepartAfter         string   `json:"departAfter,omitempty"`
	DepartBefore        string   `json:"departBefore,omitempty"`
	ArriveAfter         string   `json:"arriveAfter,omitempty"`
	ArriveBefore        string   `json:"arriveBefore,omitempty"`
	Airlines            []string `json:"airlines,omitempty"`
	ExcludeAirlines     []string `json:"excludeAirlines,omitempty"`
	MaxPrice            float64  `json:"maxPrice,omitempty"`
}

// DayOut is one day of a flexible search.
type DayOut struct {
	Date      string `json:"date"`
	LowestUSD int    `json:"lowestUSD" jsonschema:"lowest fare per passenger that day (both flights, for a round trip); 0 when nothing fits"`
	BestID    string `json:"bestId,omitempty" jsonschema:"the day's best option by price, stops and duration"`
}

// FlightOut is one option with everything a model needs to present or book
// it: a flight, or for a round trip its outbound flight with the return in
// Return.
type FlightOut struct {
	ID       string `json:"id" jsonschema:"stable id; other tools accept it (for a round trip, both flights' ids joined by _)"`
	Position int    `json:"position" jsonschema:"1 for the first listed"`
	Reason   string `json:"reason" jsonschema:"one line: why this option is here"`
	// PriceUSD is per passenger; TotalUSD for everyone travelling; both
	// cover both flights of a round trip.
	PriceUSD        int          `json:"priceUSD" jsonschema:"fare per passenger (both flights, for a round trip)"`
	TotalUSD        int          `json:"totalUSD" jsonschema:"fare for all passengers (both flights, for a round trip)"`
	FlightID        string       `json:"flightId" jsonschema:"the (outbound) flight's own id"`
	Stops           int          `json:"stops"`
	Via             []string     `json:"via"`
	Airlines        []string     `json:"airlines"`
	Depart          string       `json:"depart" jsonschema:"local departure time with UTC offset (RFC 3339)"`
	Arrive          string       `json:"arrive" jsonschema:"local arrival time with UTC offset (RFC 3339)"`
	DurationMinutes int          `json:"durationMinutes"`
	Segments        []SegmentOut `json:"segments"`
	Return          *LegOut      `json:"return,omitempty" jsonschema:"for a round trip: the return flight"`
}

// LegOut is the return flight of a round trip.
type LegOut struct {
	FlightID        string       `json:"flightId"`
	PriceUSD        int          `json:"priceUSD" jsonschema:"this flight's fare per passenger"`
	Stops           int          `json:"stops"`
	Via             []string     `json:"via"`
	Airlines        []string     `json:"airlines"`
	Depart          string       `json:"depart"`
	Arrive          string       `json:"arrive"`
	DurationMinutes int          `json:"durationMinutes"`
	Segments        []SegmentOut `json:"segments"`
}

// SegmentOut is one leg of a flight.
type SegmentOut struct {
	FlightNumber string `json:"flightNumber"`
	Airline      string `json:"airline"`
	From         string `json:"from"`
	To           string `json:"to"`
	Depart       string `json:"depart"`
	Arrive       string `json:"arrive"`
}

func newFindResult(trip flights.Trip, found searched, r ranking.Ranking, attempts []fallback.Attempt) FindResult {
	res := FindResult{
		Trip:       tripOut(trip),
		Method:     string(r.Method),
		Model:      r.Model,
		Ranked:     r.Ranked,
		Flights:    make([]FlightOut, len(r.Picks)),
		Found:      found.found,
		Candidates: r.Considered,
		Attempts:   attemptsOut(attempts),
	}
	for _, d := range found.calendar {
		res.Calendar = append(res.Calendar, DayOut{Date: d.Date.Format(flights.DateLayout), LowestUSD: d.LowestUSD, BestID: d.BestID})
	}
	for i, p := range r.Picks {
		res.Flights[i] = flightOut(i+1, p)
	}
	res.Summary = summary(res)
	return res
}

func tripOut(t flights.Trip) TripOut {
	out := TripOut{
		Origin: t.Origin, Destination: t.Destination, OriginAirports: t.Origins(), DestinationAirports: t.Destinations(),
		Date: t.Date.Format(flights.DateLayout), FlexDays: t.FlexDays,
		Passengers: t.Passengers, Cabin: string(t.Cabin), MaxStops: t.MaxStops, MaxPrice: t.MaxPriceUSD,
		DepartAfter: clockText(t.DepartAfter), DepartBefore: clockText(t.DepartBefore),
		ArriveAfter: clockText(t.ArriveAfter), ArriveBefore: clockText(t.ArriveBefore),
		Airlines: t.Airlines, ExcludeAirlines: t.ExcludeAirlines,
	}
	if t.IsRoundTrip() {
		out.ReturnDate = t.ReturnDate.Format(flights.DateLayout)
	}
	return out
}

func clockText(c *flights.Clock) string {
	if c == nil {
		return ""
	}
	return c.String()
}

func flightOut(pos int, p ranking.Pick) FlightOut {
	f := legOut(p.Flight)
	out := FlightOut{
		ID: p.ID(), Position: pos, Reason: p.Reason, PriceUSD: p.PriceUSD(), TotalUSD: p.TotalUSD(),
		FlightID: f.FlightID, Stops: f.Stops, Via: f.Via, Airlines: f.Airlines, Depart: f.Depart, Arrive: f.Arrive,
		DurationMinutes: f.DurationMinutes, Segments: f.Segments,
	}
	if p.Return != nil {
		r := legOut(*p.Return)
		out.Return = &r
	}
	return out
}

func legOut(f flights.Flight) LegOut {
	out := LegOut{
		FlightID: f.ID, PriceUSD: f.PriceUSD, Stops: f.Stops(), Via: f.Via(), Airlines: f.Airlines(),
		Depart: f.Depart().Format(time.RFC3339), Arrive: f.Arrive().Format(time.RFC3339),
		DurationMinutes: int(f.Duration().Minutes()),
		Segments:        make([]SegmentOut, len(f.Segments)),
	}
	for i, s := range f.Segments {
		out.Segments[i] = SegmentOut{FlightNumber: s.FlightNumber, Airline: s.Airline, From: s.From, To: s.To,
			Depart: s.Depart.Format(time.RFC3339), Arrive: s.Arrive.Format(time.RFC3339)}
	}
	return out
}

// summary is the one line that says how the result was reached.
func summary(r FindResult) string {
	var how string
	for _, a := range r.Attempts {
		if a.Step == r.Method && a.Outcome == string(fallback.Used) {
			how = a.Reason
		}
	}
	what := "flights"
	if r.Trip.ReturnDate != "" {
		what = "round trips"
	}
	switch {
	case r.Found == 0:
		return fmt.Sprintf("No flights found from %s to %s on %s.", r.Trip.Origin, r.Trip.Destination, r.Trip.Date)
	case r.Candidates == 0:
		return fmt.Sprintf("%d flights found, but no %s within the trip's limits (stops, times, airlines, price); relax them and search again.", r.Found, what)
	case !r.Ranked:
		return fmt.Sprintf("Shortlist of %d of %d %s, not ranked (method: %s): %s. Present them and choose with the user.", len(r.Flights), r.Candidates, what, r.Method, how)
	default:
		return fmt.Sprintf("Best %d of %d %s, ranked by method %s: %s.", len(r.Flights), r.Candidates, what, r.Method, how)
	}
}

// renderFind is the text for people: a heading, a compact table (for a
// round trip, the return on a line of its own under each pick; with more
// than one passenger, the total beside the fare), the calendar of a
// flexible search, and the summary. It reads times from the ranking's
// flights, which still carry their zones, rather than re-parsing the
// structured strings.
func renderFind(r FindResult, picks []ranking.Pick) string {
	var b strings.Builder
	t := r.Trip
	when := t.Date
	if t.ReturnDate != "" {
		when += " – " + t.ReturnDate
	}
	if t.FlexDays > 0 {
		when += fmt.Sprintf(" (±%d days)", t.FlexDays)
	}
	fmt.Fprintf(&b, "%s → %s, %s, %d passenger(s), %s\n", place(t.Origin, t.OriginAirports), place(t.Destination, t.DestinationAirports),
		when, t.Passengers, strings.ReplaceAll(t.Cabin, "_", " "))
	if len(picks) > 0 {
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		price := "price"
		if t.Passengers > 1 {
			price = fmt.Sprintf("price (total for %d)", t.Passengers)
		}
		fmt.Fprintf(w, "#\tflight\tdate\tdepart\tarrive\tduration\tstops\t%s\tid\n", price)
		for i, p := range picks {
			fare := fmt.Sprintf("$%d", p.PriceUSD())
			if t.Passengers > 1 {
				fare += fmt.Sprintf(" ($%d)", p.TotalUSD())
			}
			legRow(w, strconv.Itoa(i+1), p.Flight, fare, p.ID())
			if p.Return != nil {
				legRow(w, "↩", *p.Return, "", "")
			}
		}
		_ = w.Flush() // writes to a strings.Builder, which cannot fail
	}
	if len(r.Calendar) > 0 {
		days := make([]string, len(r.Calendar))
		for i, d := range r.Calendar {
			days[i] = d.Date[5:]
			if d.BestID == "" {
				days[i] += " —"
			} else {
				days[i] += fmt.Sprintf(" $%d", d.LowestUSD)
			}
			if d.Date == t.Date {
				days[i] = "[" + days[i] + "]"
			}
		}
		b.WriteString("Lowest fare per day: " + strings.Join(days, " · ") + "\n")
	}
	b.WriteString(r.Summary)
	return b.String()
}

// legRow writes one flight's row of the table.
func legRow(w io.Writer, n string, f flights.Flight, fare, id string) {
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, strings.Join(f.FlightNumbers(), "+"), f.Depart().Format("Mon 2 Jan"),
		f.Depart().Format("15:04"), arrival(f), flights.FormatDuration(f.Duration()), ranking.StopsText(f), fare, id)
}

// place is a place as the heading shows it: "NYC (JFK, LGA, EWR)" when it
// stands for several airports.
func place(label string, airports []string) string {
	if len(airports) > 1 || (len(airports) == 1 && airports[0] != label) {
		return label + " (" + strings.Join(airports, ", ") + ")"
	}
	return label
}

// arrival is the local arrival time, with "+1" (or more) when it lands on a
// later calendar day than it left, "-1" when earlier (crossing the date line
// westward).
func arrival(f flights.Flight) string {
	civil := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	a := f.Arrive()
	switch days := int(civil(a).Sub(civil(f.Depart())).Hours() / 24); {
	case days > 0:
		return fmt.Sprintf("%s+%d", a.Format("15:04"), days)
	case days < 0:
		return fmt.Sprintf("%s%d", a.Format("15:04"), days)
	}
	return a.Format("15:04")
}
