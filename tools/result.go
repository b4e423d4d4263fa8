package tools

import (
	"fmt"
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
	// Found is what the search returned; Candidates is how many passed the
	// trip's filters and were considered.
	Found      int          `json:"found" jsonschema:"flights the search returned"`
	Candidates int          `json:"candidates" jsonschema:"flights left after the trip's filters (stops, times, price), all of them considered"`
	Attempts   []AttemptOut `json:"attempts" jsonschema:"every decision this call made, in order: the trip details when one was missing, then each ranking method tried, with what happened and why"`
	Summary    string       `json:"summary" jsonschema:"one line for people: which method ranked and why"`
}

// TripOut is the validated trip, echoed so the caller sees the defaults used.
type TripOut struct {
	Origin       string  `json:"origin"`
	Destination  string  `json:"destination"`
	Date         string  `json:"date"`
	Passengers   int     `json:"passengers"`
	Cabin        string  `json:"cabin"`
	MaxStops     int     `json:"maxStops"`
	DepartAfter  string  `json:"departAfter,omitempty"`
	DepartBefore string  `json:"departBefore,omitempty"`
	MaxPrice     float64 `json:"maxPrice,omitempty"`
}

// FlightOut is one flight with everything a model needs to present or book it.
type FlightOut struct {
	ID       string `json:"id" jsonschema:"stable flight id; other tools accept it"`
	Position int    `json:"position" jsonschema:"1 for the first listed"`
	Reason   string `json:"reason" jsonschema:"one line: why this flight is here"`
	// PriceUSD is per passenger; TotalUSD for everyone travelling.
	PriceUSD        int          `json:"priceUSD"`
	TotalUSD        int          `json:"totalUSD"`
	Stops           int          `json:"stops"`
	Via             []string     `json:"via"`
	Airlines        []string     `json:"airlines"`
	Depart          string       `json:"depart" jsonschema:"local departure time with UTC offset (RFC 3339)"`
	Arrive          string       `json:"arrive" jsonschema:"local arrival time with UTC offset (RFC 3339)"`
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

func newFindResult(trip flights.Trip, found int, r ranking.Ranking, attempts []fallback.Attempt) FindResult {
	res := FindResult{
		Trip:       tripOut(trip),
		Method:     string(r.Method),
		Model:      r.Model,
		Ranked:     r.Ranked,
		Flights:    make([]FlightOut, len(r.Picks)),
		Found:      found,
		Candidates: r.Considered,
		Attempts:   attemptsOut(attempts),
	}
	for i, p := range r.Picks {
		res.Flights[i] = flightOut(i+1, p)
	}
	res.Summary = summary(res)
	return res
}

func tripOut(t flights.Trip) TripOut {
	out := TripOut{
		Origin: t.Origin, Destination: t.Destination, Date: t.Date.Format(flights.DateLayout),
		Passengers: t.Passengers, Cabin: string(t.Cabin), MaxStops: t.MaxStops, MaxPrice: t.MaxPriceUSD,
	}
	if t.DepartAfter != nil {
		out.DepartAfter = t.DepartAfter.String()
	}
	if t.DepartBefore != nil {
		out.DepartBefore = t.DepartBefore.String()
	}
	return out
}

func flightOut(pos int, p ranking.Pick) FlightOut {
	f := p.Flight
	out := FlightOut{
		ID: f.ID, Position: pos, Reason: p.Reason, PriceUSD: f.PriceUSD, TotalUSD: f.TotalUSD,
		Stops: f.Stops(), Via: f.Via(), Airlines: f.Airlines(),
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
	switch {
	case r.Found == 0:
		return fmt.Sprintf("No flights found from %s to %s on %s.", r.Trip.Origin, r.Trip.Destination, r.Trip.Date)
	case r.Candidates == 0:
		return fmt.Sprintf("%d flights found, but none within the trip's limits (stops, departure times, price); relax them and search again.", r.Found)
	case !r.Ranked:
		return fmt.Sprintf("Shortlist of %d of %d flights, not ranked (method: %s): %s. Present them and choose with the user.", len(r.Flights), r.Candidates, r.Method, how)
	default:
		return fmt.Sprintf("Best %d of %d flights, ranked by method %s: %s.", len(r.Flights), r.Candidates, r.Method, how)
	}
}

// renderFind is the text for people: a heading, a compact table and the
// summary line. It reads times from the ranking's flights, which still carry
// their zones, rather than re-parsing the structured strings.
func renderFind(r FindResult, picks []ranking.Pick) string {
	var b strings.Builder
	t := r.Trip
	fmt.Fprintf(&b, "%s → %s, %s, %d passenger(s), %s\n", t.Origin, t.Destination, t.Date, t.Passengers, strings.ReplaceAll(t.Cabin, "_", " "))
	if len(picks) > 0 {
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "#\tflight\tdepart\tarrive\tduration\tstops\tprice\tid")
		for i, p := range picks {
			f := p.Flight
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t$%d\t%s\n", i+1, strings.Join(f.FlightNumbers(), "+"), f.Depart().Format("15:04"),
				arrival(f), flights.FormatDuration(f.Duration()), ranking.StopsText(f), f.PriceUSD, f.ID)
		}
		_ = w.Flush() // writes to a strings.Builder, which cannot fail
	}
	b.WriteString(r.Summary)
	return b.String()
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
