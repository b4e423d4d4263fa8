package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// FindResult is findBestFlight's structuredContent; its schema is the tool's
// output schema, so every field here is part of the public contract.
type FindResult struct {
	Trip TripOut `json:"trip"`
	// Method is the tier that produced Flights. Its schema's description
	// is written from the registry of steps (findOutput, steps.go), over
	// the tag's words.
	Method string `json:"method" jsonschema:"how the flights were chosen: client_sampling (the client's LLM), server_llm (the server's LLM), deterministic (price + stops + duration) or candidates (a shortlist, not a ranking)"`
	// Model is the model that ranked, as the client reported it.
	Model  string `json:"model,omitempty" jsonschema:"the model that ranked, as reported by the client or the server's LLM endpoint; absent when no model ranked"`
	Ranked bool   `json:"ranked" jsonschema:"true when flights are in recommended order; false for a shortlist the host's model should choose from with the user"`
	// Flights are the best three when ranked, the shortlist otherwise.
	Flights []FlightOut `json:"flights" jsonschema:"the best three flights, best first; or the shortlist when ranked is false"`
	// Found is what the search returned; Candidates is how many options
	// the ranking chose among.
	Found      int          `json:"found" jsonschema:"flights the search returned, every day and both ways"`
	Candidates int          `json:"candidates" jsonschema:"options the ranking chose among: the best 47 at most (by the deterministic score) of the flights left after the trip's filters (stops, times, airlines, price), or for a round trip of their pairs"`
	Calendar   []DayOut     `json:"calendar,omitempty" jsonschema:"with flexDays: one entry per outbound day searched, its lowest fare per passenger and its best option"`
	Attempts   []AttemptOut `json:"attempts" jsonschema:"every decision this call made, in order: the trip details when one was missing, then each ranking method tried, with what happened and why"`
	// Cheapest, Fastest and Nonstop name those options of all found,
	// whether or not they are among Flights.
	Cheapest *OptionOut `json:"cheapest,omitempty" jsonschema:"the cheapest option of all found within the trip's limits, whether or not it is among flights; absent when there is none"`
	Fastest  *OptionOut `json:"fastest,omitempty" jsonschema:"the fastest option of all found within the trip's limits, whether or not it is among flights"`
	Nonstop  *OptionOut `json:"nonstop,omitempty" jsonschema:"the best nonstop option (both flights nonstop, for a round trip), when the route has one within the trip's limits; absent when it has none"`
	// Relaxed says, when the trip's filters left nothing, what dropping
	// each one would give.
	Relaxed []RelaxedOut `json:"relaxed,omitempty" jsonschema:"when the trip's filters left no option: for each filter set, what dropping it alone (keeping the others) would give"`
	// Airports names every airport the flights use.
	Airports map[string]string `json:"airports,omitempty" jsonschema:"every airport code the flights use, with its name, city and country"`
	Provider ProviderOut       `json:"provider" jsonschema:"where the flights come from; synthetic: true means made-up sample data, not real flights or fares"`
	Summary  string            `json:"summary" jsonschema:"one line for people: which method ranked and why, what stands out, and whether the flights are synthetic"`
}

// OptionOut names one option of a search by its id and its facts.
type OptionOut struct {
	ID              string `json:"id" jsonschema:"the option's id (for a round trip, both flights' ids joined by _); other tools accept it"`
	PriceUSD        int    `json:"priceUSD" jsonschema:"fare per passenger (both flights, for a round trip)"`
	TotalUSD        int    `json:"totalUSD" jsonschema:"fare for all passengers"`
	DurationMinutes int    `json:"durationMinutes" jsonschema:"time flying and connecting (both flights, for a round trip)"`
	Stops           int    `json:"stops" jsonschema:"connections (on the outbound and the return together, for a round trip)"`
	// Position is its place among Flights, 0 when it is not there.
	Position int `json:"position,omitempty" jsonschema:"its position among flights; absent when it is not among them"`
}

// RelaxedOut is what dropping one filter would give.
type RelaxedOut struct {
	Filter  string `json:"filter" jsonschema:"the argument: maxPrice, maxStops, departAfter/departBefore, arriveAfter/arriveBefore, airlines or excludeAirlines"`
	Limit   string `json:"limit" jsonschema:"the trip's value for it"`
	Options int    `json:"options" jsonschema:"how many options there would be without it"`
	Gives   string `json:"gives,omitempty" jsonschema:"what those options are, e.g. the cheapest fare or the fewest stops"`
}

// ProviderOut says where the flights come from.
type ProviderOut struct {
	Name      string `json:"name"`
	Synthetic bool   `json:"synthetic" jsonschema:"true: the flights, times and fares are sample data made up by the server, not real; nothing can be bought"`
	Note      string `json:"note" jsonschema:"what that means, for people"`
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
	FlexIndependent     bool     `json:"flexIndependently,omitempty" jsonschema:"with flexDays on a round trip: the return date moved on its own, so the stay may be longer or shorter"`
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

func dayOut(date time.Time, lowest int, best string) DayOut {
	return DayOut{Date: date.Format(flights.DateLayout), LowestUSD: lowest, BestID: best}
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
	Layovers        []LayoverOut `json:"layovers,omitempty" jsonschema:"on a connecting flight: each connection, in order"`
	Return          *LegOut      `json:"return,omitempty" jsonschema:"for a round trip: the return flight"`
	// AirportChanges says where a round trip does not come back the way
	// it went (out of EWR, back into LGA).
	AirportChanges []string `json:"airportChanges,omitempty" jsonschema:"for a round trip that changes airport at either end: where and how"`
}

// LayoverOut is one connection of a flight.
type LayoverOut struct {
	Airport         string `json:"airport" jsonschema:"where the traveller lands"`
	Minutes         int    `json:"minutes" jsonschema:"time on the ground"`
	Overnight       bool   `json:"overnight" jsonschema:"at least an hour of it between midnight and 05:00 local time"`
	ChangeOfAirport bool   `json:"changeOfAirport" jsonschema:"the next flight leaves from another airport (see departFrom)"`
	DepartFrom      string `json:"departFrom,omitempty" jsonschema:"on a change of airport: the airport the next flight leaves from"`
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
	Layovers        []LayoverOut `json:"layovers,omitempty" jsonschema:"on a connecting flight: each connection, in order"`
}

// SegmentOut is one leg of a flight.
type SegmentOut struct {
	FlightNumber string `json:"flightNumber"`
	Airline      string `json:"airline" jsonschema:"IATA code"`
	AirlineName  string `json:"airlineName"`
	From         string `json:"from"`
	To           string `json:"to"`
	Depart       string `json:"depart"`
	Arrive       string `json:"arrive"`
}

// names are the catalogue's names for what a result shows: airlines and
// airports by code. An unknown code (from a provider with a wider world)
// stands for itself.
type names struct{ catalog *flights.Catalog }

func (n names) airline(code string) string {
	if al := n.catalog.Airline(code); al != nil {
		return al.Name
	}
	return code
}

func (n names) airport(code string) string {
	if a := n.catalog.Airport(code); a != nil {
		return a.Name + ", " + a.City + ", " + a.Country
	}
	return code
}

func newFindResult(n names, about flights.ProviderInfo, trip *flights.Trip, found *searched, r *ranking.Ranking, attempts []fallback.Attempt) *FindResult {
	res := &FindResult{
		Trip:       tripOut(*trip),
		Method:     string(r.Method),
		Model:      r.Model,
		Ranked:     r.Ranked,
		Flights:    make([]FlightOut, len(r.Picks)),
		Found:      found.found,
		Candidates: r.Considered,
		Attempts:   fallback.AttemptsOut(attempts),
		Provider:   providerOut(about),
	}
	for _, d := range found.calendar {
		res.Calendar = append(res.Calendar, dayOut(d.Date, d.LowestUSD, d.BestID))
	}
	for i, p := range r.Picks {
		res.Flights[i] = flightOut(n, i+1, p)
	}
	res.Cheapest, res.Fastest, res.Nonstop = optionOut(found.standouts.Cheapest, res.Flights), optionOut(found.standouts.Fastest, res.Flights), optionOut(found.standouts.Nonstop, res.Flights)
	for _, x := range found.relaxed {
		res.Relaxed = append(res.Relaxed, RelaxedOut{Filter: x.Filter, Limit: x.Limit, Options: x.Options, Gives: x.Gives})
	}
	res.Airports = airportsOf(n, res.Flights)
	res.Summary = summary(res)
	return res
}

// airportsOf names every airport the flights use; nil when they use none.
func airportsOf(n names, fs []FlightOut) map[string]string {
	var out map[string]string
	for _, f := range fs {
		for _, leg := range [][]SegmentOut{f.Segments, returnSegments(f)} {
			for _, s := range leg {
				for _, code := range []string{s.From, s.To} {
					if out == nil {
						out = map[string]string{}
					}
					if _, named := out[code]; !named {
						out[code] = n.airport(code)
					}
				}
			}
		}
	}
	return out
}

func returnSegments(f FlightOut) []SegmentOut {
	if f.Return == nil {
		return nil
	}
	return f.Return.Segments
}

// optionOut names a standout option, and its place among the flights
// listed.
func optionOut(p *ranking.Pick, listed []FlightOut) *OptionOut {
	if p == nil {
		return nil
	}
	o := &OptionOut{ID: p.ID(), PriceUSD: p.PriceUSD(), TotalUSD: p.TotalUSD(), DurationMinutes: int(p.Duration().Minutes()), Stops: p.Stops()}
	for _, f := range listed {
		if f.ID == o.ID {
			o.Position = f.Position
		}
	}
	return o
}

// providerOut says where the flights come from, in words a traveller
// cannot mistake.
func providerOut(about flights.ProviderInfo) ProviderOut {
	out := ProviderOut{Name: about.Name, Synthetic: about.Synthetic}
	if about.Synthetic {
		out.Note = "Synthetic sample data: the flights, times and fares are made up by this server (a teaching example with no network and no booking key), not real; nothing can be bought."
	} else {
		out.Note = "Flights from " + about.Name + "."
	}
	return out
}

// syntheticNote is the sentence every summary ends with.
func (t *Toolset) syntheticNote() string { return sourceNote(t.provider.About()) }

func sourceNote(about flights.ProviderInfo) string {
	if about.Synthetic {
		return "The flights are synthetic sample data, not real flights or fares."
	}
	return "Flights from " + about.Name + "."
}

func tripOut(t flights.Trip) TripOut {
	out := TripOut{
		Origin: t.Origin, Destination: t.Destination, OriginAirports: t.Origins(), DestinationAirports: t.Destinations(),
		Date: t.Date.Format(flights.DateLayout), FlexDays: t.FlexDays, FlexIndependent: t.IsRoundTrip() && t.FlexDays > 0 && t.FlexIndependent,
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

func flightOut(n names, pos int, p ranking.Pick) FlightOut {
	f := legOut(n, p.Flight)
	out := FlightOut{
		ID: p.ID(), Position: pos, Reason: p.Reason, PriceUSD: p.PriceUSD(), TotalUSD: p.TotalUSD(),
		FlightID: f.FlightID, Stops: f.Stops, Via: f.Via, Airlines: f.Airlines, Depart: f.Depart, Arrive: f.Arrive,
		DurationMinutes: f.DurationMinutes, Segments: f.Segments, Layovers: f.Layovers, AirportChanges: ranking.AirportChanges(p.Option),
	}
	if p.Return != nil {
		r := legOut(n, *p.Return)
		out.Return = &r
	}
	return out
}

func layoversOut(f flights.Flight) []LayoverOut {
	ls := f.Layovers()
	if len(ls) == 0 {
		return nil
	}
	out := make([]LayoverOut, 0, len(ls))
	for _, l := range ls {
		o := LayoverOut{Airport: l.Airport, Minutes: int(l.Duration.Minutes()), Overnight: l.Overnight, ChangeOfAirport: l.ChangeOfAirport}
		if l.ChangeOfAirport {
			o.DepartFrom = l.DepartFrom
		}
		out = append(out, o)
	}
	return out
}

func legOut(n names, f flights.Flight) LegOut {
	out := LegOut{
		FlightID: f.ID, PriceUSD: f.PriceUSD, Stops: f.Stops(), Via: f.Via(), Airlines: f.Airlines(),
		DurationMinutes: int(f.Duration().Minutes()),
		Segments:        make([]SegmentOut, len(f.Segments)),
		Layovers:        layoversOut(f),
	}
	// The segments' times in RFC 3339, cut from one string: the leg's
	// depart and arrive are its first segment's and its last one's.
	var buf [4 * len(time.RFC3339)]byte
	var endsRoom [4]int
	b, ends := buf[:0], endsRoom[:0]
	for _, s := range f.Segments {
		b = s.Depart.AppendFormat(b, time.RFC3339)
		ends = append(ends, len(b))
		b = s.Arrive.AppendFormat(b, time.RFC3339)
		ends = append(ends, len(b))
	}
	times, from := string(b), 0
	for i, s := range f.Segments {
		dep, arr := ends[2*i], ends[2*i+1]
		out.Segments[i] = SegmentOut{FlightNumber: s.FlightNumber, Airline: s.Airline, AirlineName: n.airline(s.Airline), From: s.From, To: s.To,
			Depart: times[from:dep], Arrive: times[dep:arr]}
		from = arr
	}
	out.Depart, out.Arrive = out.Segments[0].Depart, out.Segments[len(f.Segments)-1].Arrive
	return out
}

// summary is the one line that says how the result was reached, what
// stands out that the flights listed do not show (the cheapest or the
// fastest of all, a nonstop), and where the flights come from.
func summary(r *FindResult) string {
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
	source := sourceNote(flights.ProviderInfo{Name: r.Provider.Name, Synthetic: r.Provider.Synthetic})
	switch {
	case r.Found == 0:
		if c := flights.Cabin(r.Trip.Cabin); c != "" && c != flights.Economy {
			// Premium cabins are sold on some routes only: the route may
			// well have flights in another.
			return fmt.Sprintf("No flights found in the %s cabin from %s to %s on %s: not every route sells it; search again in another cabin. %s",
				c.Words(), r.Trip.Origin, r.Trip.Destination, r.Trip.Date, source)
		}
		return fmt.Sprintf("No flights found from %s to %s on %s. %s", r.Trip.Origin, r.Trip.Destination, r.Trip.Date, source)
	case r.Candidates == 0:
		var relax []string
		for _, x := range r.Relaxed {
			relax = append(relax, relaxedText(x))
		}
		s := fmt.Sprintf("%d flights found, but no %s within the trip's limits", r.Found, what)
		if len(relax) > 0 {
			s += ": " + strings.Join(relax, "; ") + ". Relax a filter and search again."
		} else {
			s += "; relax them and search again."
		}
		return s + " " + source
	}
	var b strings.Builder
	b.Grow(summarySize)
	write := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	listed, of := strconv.Itoa(len(r.Flights)), strconv.Itoa(r.Candidates)
	if !r.Ranked {
		write("Shortlist of ", listed, " of ", of, " ", what, ", not ranked (method: ", r.Method, "): ", how, ". Present them and choose with the user.")
	} else {
		write("Best ", listed, " of ", of, " ", what, ", ranked by method ", r.Method, ": ", how, ".")
	}
	// What the summary has already called an option, by its id: at most
	// the cheapest and the fastest.
	var named [2]struct{ id, what string }
	calls := 0
	calledAs := func(id string) string {
		for _, n := range named[:calls] {
			if n.id == id {
				return n.what
			}
		}
		return ""
	}
	for _, o := range [...]struct {
		what string
		o    *OptionOut
	}{{"the cheapest", r.Cheapest}, {"the fastest", r.Fastest}} {
		switch {
		case o.o == nil || o.o.Position > 0:
		case calledAs(o.o.ID) != "":
			write(" ", upper(calledAs(o.o.ID)), " is also ", o.what, ".")
		default:
			write(" Not listed: ", o.what, ", ", optionText(*o.o), ".")
			named[calls].id, named[calls].what = o.o.ID, o.what
			calls++
		}
	}
	if r.Nonstop != nil && !slices.ContainsFunc(r.Flights, nonstopOut) {
		best := calledAs(r.Nonstop.ID)
		if best == "" {
			best = optionText(*r.Nonstop)
		}
		write(" The route has nonstops, and none is listed: the best is ", best, ".")
	}
	for _, f := range r.Flights {
		if len(f.AirportChanges) > 0 {
			write(" #", strconv.Itoa(f.Position), " changes airport (", strings.Join(f.AirportChanges, "; "), ").")
		}
	}
	write(" ", source)
	return b.String()
}

// summarySize is room for a typical summary (200-350 bytes), so that
// building it does not copy it as it grows.
const summarySize = 320

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func nonstopOut(f FlightOut) bool { return f.Stops == 0 && (f.Return == nil || f.Return.Stops == 0) }

// optionText is an option in a few words: "JFK-LHR-261215-K3M9P, $612, 7h05m, nonstop".
func optionText(o OptionOut) string {
	var buf [80]byte
	b := strconv.AppendInt(append(append(buf[:0], o.ID...), ", $"...), int64(o.PriceUSD), 10)
	b = flights.AppendDuration(append(b, ", "...), time.Duration(o.DurationMinutes)*time.Minute)
	if o.Stops > 0 {
		b = append(strconv.AppendInt(append(b, ", "...), int64(o.Stops), 10), " stop(s)"...)
	} else {
		b = append(b, ", nonstop"...)
	}
	return string(b)
}

func relaxedText(x RelaxedOut) string {
	return ranking.Relaxation{Filter: x.Filter, Limit: x.Limit, Options: x.Options, Gives: x.Gives}.String()
}

// renderFind is the text for people: a heading, a compact table (for a
// round trip, the return on a line of its own under each pick; with more
// than one passenger, the total beside the fare), the calendar of a
// flexible search, and the summary. It reads times from the ranking's
// flights, which still carry their zones, rather than re-parsing the
// structured strings.
func renderFind(r *FindResult, picks []ranking.Pick) string {
	var b strings.Builder
	b.Grow(renderFindSize)
	t := r.Trip
	when := t.Date
	if t.ReturnDate != "" {
		when += " – " + t.ReturnDate
	}
	if t.FlexDays > 0 {
		when += fmt.Sprintf(" (±%d days)", t.FlexDays)
	}
	b.WriteString(place(t.Origin, t.OriginAirports) + " → " + place(t.Destination, t.DestinationAirports) + ", " +
		when + ", " + strconv.Itoa(t.Passengers) + " passenger(s), " + flights.Cabin(t.Cabin).Words() + "\n")
	if len(picks) > 0 {
		price := "price"
		if t.Passengers > 1 {
			price = "price (total for " + strconv.Itoa(t.Passengers) + ")"
		}
		var room [1 + 2*3][tableColumns]string // the header and three round trips; more grow
		rows := append(room[:0], [tableColumns]string{"#", "flight", "date", "depart", "arrive", "duration", "stops", price, "id"})
		for i, p := range picks {
			var f [48]byte
			fare := strconv.AppendInt(append(f[:0], '$'), int64(p.PriceUSD()), 10)
			if t.Passengers > 1 {
				fare = append(strconv.AppendInt(append(fare, " ($"...), int64(p.TotalUSD()), 10), ')')
			}
			rows = append(rows, legRow(strconv.Itoa(i+1), p.Flight, fare, p.ID()))
			if p.Return != nil {
				rows = append(rows, legRow("↩", *p.Return, nil, ""))
			}
		}
		writeTable(&b, rows)
		for i, f := range r.Flights {
			b.WriteString(strconv.Itoa(i + 1))
			b.WriteString(". ")
			writeLegDetail(&b, f.Segments, f.Layovers)
			if f.Return != nil {
				b.WriteString("; back ")
				writeLegDetail(&b, f.Return.Segments, f.Return.Layovers)
			}
			b.WriteString("\n")
		}
	}
	for _, o := range []struct {
		name string
		o    *OptionOut
	}{{"Cheapest of all", r.Cheapest}, {"Fastest of all", r.Fastest}, {"Best nonstop", r.Nonstop}} {
		if o.o == nil {
			continue
		}
		b.WriteString(o.name)
		b.WriteString(": ")
		b.WriteString(optionText(*o.o))
		if o.o.Position > 0 {
			b.WriteString(" (#")
			b.WriteString(strconv.Itoa(o.o.Position))
			b.WriteString(")")
		}
		b.WriteString("\n")
	}
	if len(r.Airports) > 0 {
		b.WriteString("Airports: ")
		var room [16]string // a typical result's airports; more grow
		codes := room[:0]
		for c := range r.Airports {
			codes = append(codes, c)
		}
		slices.Sort(codes)
		for i, c := range codes {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(c)
			b.WriteString(" ")
			b.WriteString(r.Airports[c])
		}
		b.WriteString("\n")
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

// renderFindSize is room for a typical text (three flights, about 1.5 KB),
// so that building it does not copy it as it grows.
const renderFindSize = 2048

// writeLegDetail writes a flight's segments with their airlines and
// connections: "BA178 British Airways JFK→LHR" or "AA100 American Airlines
// JFK→ORD, 2h05m at ORD (overnight), ...".
func writeLegDetail(b *strings.Builder, segs []SegmentOut, layovers []LayoverOut) {
	for i, s := range segs {
		if i > 0 {
			b.WriteString(", ")
		}
		for _, p := range [...]string{s.FlightNumber, " ", s.AirlineName, " ", s.From, "→", s.To} {
			b.WriteString(p)
		}
		if i >= len(layovers) {
			continue
		}
		l := layovers[i]
		var d [16]byte
		b.WriteString(", ")
		b.Write(flights.AppendDuration(d[:0], time.Duration(l.Minutes)*time.Minute))
		b.WriteString(" at ")
		b.WriteString(l.Airport)
		switch {
		case l.Overnight && l.ChangeOfAirport:
			b.WriteString(" (overnight, change of airport to " + l.DepartFrom + ")")
		case l.Overnight:
			b.WriteString(" (overnight)")
		case l.ChangeOfAirport:
			b.WriteString(" (change of airport to " + l.DepartFrom + ")")
		}
	}
}

// legRow is one flight's row of the table, its cells between n and id cut
// from one string; fare is the fare's cell.
func legRow(n string, f flights.Flight, fare []byte, id string) [tableColumns]string {
	var buf [rowSize]byte
	var ends [tableColumns - 3]int
	b := buf[:0]
	for i, s := range f.Segments {
		if i > 0 {
			b = append(b, '+')
		}
		b = append(b, s.FlightNumber...)
	}
	ends[0] = len(b)
	depart := f.Depart()
	b = depart.AppendFormat(b, "Mon 2 Jan")
	ends[1] = len(b)
	b = depart.AppendFormat(b, "15:04")
	ends[2] = len(b)
	b = appendArrival(b, f)
	ends[3] = len(b)
	b = flights.AppendDuration(b, f.Duration())
	ends[4] = len(b)
	b = ranking.AppendStops(b, f)
	ends[5] = len(b)
	cells := string(append(b, fare...))
	return [tableColumns]string{n, cells[:ends[0]], cells[ends[0]:ends[1]], cells[ends[1]:ends[2]],
		cells[ends[2]:ends[3]], cells[ends[3]:ends[4]], cells[ends[4]:ends[5]], cells[ends[5]:], id}
}

// rowSize is room on the stack for a typical row's cells.
const rowSize = 128

// place is a place as the heading shows it: "NYC (JFK, LGA, EWR)" when it
// stands for several airports.
func place(label string, airports []string) string {
	if len(airports) > 1 || (len(airports) == 1 && airports[0] != label) {
		return label + " (" + strings.Join(airports, ", ") + ")"
	}
	return label
}

// appendArrival appends the local arrival time, with "+1" (or more) when
// it lands on a later calendar day than it left, "-1" when earlier
// (crossing the date line eastward: Auckland to Honolulu lands the day
// before it left).
func appendArrival(b []byte, f flights.Flight) []byte {
	civil := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	a := f.Arrive()
	b = a.AppendFormat(b, "15:04")
	switch days := int(civil(a).Sub(civil(f.Depart())).Hours() / 24); {
	case days > 0:
		b = strconv.AppendInt(append(b, '+'), int64(days), 10)
	case days < 0:
		b = strconv.AppendInt(b, int64(days), 10)
	}
	return b
}
