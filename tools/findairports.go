package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// FindAirportsName is the tool's name as clients call it.
const FindAirportsName = "findAirports"

// FindAirportsArgs are findAirports' arguments.
type FindAirportsArgs struct {
	Query   string `json:"query" jsonschema:"an airport or metro code (JFK, NYC), a city (new york) or part of an airport's name (heathrow)"`
	Country string `json:"country,omitempty" jsonschema:"only airports in this country: an ISO code (US) or a name (United States)"`
}

// AirportsResult is findAirports' structuredContent.
type AirportsResult struct {
	Airports []AirportOut `json:"airports" jsonschema:"the matches, exact codes first; findBestFlight accepts any code here"`
	// Suggestions are close matches when nothing matched: the places a
	// misspelling may mean, or the airports nearest to a place that has
	// none here.
	Suggestions []AirportOut `json:"suggestions,omitempty" jsonschema:"when nothing matched: close matches, or for a real place with no airport here the nearest airports (with distanceKm)"`
	Summary     string       `json:"summary"`
}

// AirportOut is one airport.
type AirportOut struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	City     string `json:"city"`
	Country  string `json:"country" jsonschema:"ISO 3166-1 alpha-2"`
	TimeZone string `json:"timeZone" jsonschema:"IANA time zone: flight times are local to it"`
	// DistanceKm is set on a suggestion that is an airport near the place
	// asked for.
	DistanceKm int `json:"distanceKm,omitempty" jsonschema:"for a nearest-airport suggestion: how far it is from the place asked for"`
}

// placeHint ends what findBestFlight accepts for a place it could not
// resolve: where to look places up.
const placeHint = "findAirports looks up airports by city, code or name, and lists the nearest to a place without one"

func airportOut(a flights.Airport) AirportOut {
	return AirportOut{Code: a.Code, Name: a.Name, City: a.City, Country: a.Country, TimeZone: a.TZ}
}

// maxAirportsListed bounds a listing: enough for any city, small for a
// model's context.
const maxAirportsListed = 25

const airportsDescription = `Look up airports by code, metro code, city or part of a name (optionally in one country): each with its code, name, city, country and time zone. When nothing matches it suggests close matches, and for a real place with no airport here (a town, a city the catalogue lacks) the nearest airports by distance.
findBestFlight already accepts city names and metro codes itself; use this to check a place or to let the user choose among airports.
The airports are real; the flights findBestFlight finds between them are synthetic sample data, not real schedules or fares.`

func findAirportsTool() (mcp.Tool, error) {
	// A lookup in the server's own data: read-only, idempotent, closed world.
	return fallback.DefineTool[FindAirportsArgs, AirportsResult](fallback.Definition{Name: FindAirportsName, Title: "Find airports", Description: airportsDescription,
		Refine: map[string]func(*jsonschema.Schema){
			"query":   fallback.Length(1, maxPlaceLen),
			"country": fallback.Length(2, maxPlaceLen),
		},
		Hints: fallback.Hints{ReadOnly: true, Idempotent: true}})
}

// findAirportsSpec declares the tool: it never asks the client anything.
func (t *Toolset) findAirportsSpec() fallback.Spec[struct{}] {
	return fallback.Spec[struct{}]{Name: FindAirportsName, Handle: t.findAirports}
}

// findAirports makes no fallback decision (there is nothing to fall back
// from), so its result has no attempts.
func (t *Toolset) findAirports(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
	var args FindAirportsArgs
	ps := fallback.DecodeArguments(c.Request().Params.Arguments, &args)
	q, country := strings.TrimSpace(args.Query), strings.TrimSpace(args.Country)
	switch {
	case len(ps) > 0:
	case q == "" && country == "":
		ps = append(ps, flights.Problem{Field: "query", Problem: "is missing", Accepted: "a code, a city or part of an airport's name"})
	case len(q) > maxPlaceLen:
		ps = append(ps, flights.Problem{Field: "query", Problem: fmt.Sprintf("is %d characters long", len(q)), Accepted: fmt.Sprintf("at most %d characters", maxPlaceLen)})
	case country != "":
		if _, ok := t.catalog.ResolveCountry(country); !ok {
			ps = append(ps, flights.Problem{Field: "country", Problem: fmt.Sprintf("%s is not a country this server knows", flights.Quote(country)), Accepted: "an ISO 3166-1 code such as US, or a country name"})
		}
	}
	if len(ps) > 0 {
		return invalidArguments(c, ps)
	}
	found := t.catalog.FindAirports(q, country)
	res := AirportsResult{Airports: []AirportOut{}}
	for _, a := range found[:min(len(found), maxAirportsListed)] {
		res.Airports = append(res.Airports, airportOut(a))
	}
	asked := flights.Quote(q)
	switch {
	case q == "":
		asked = "country " + flights.Quote(country)
	case country != "":
		asked += " in " + flights.Quote(country)
	}
	var b strings.Builder
	switch {
	case len(found) == 0:
		res.Suggestions = t.airportSuggestions(q, country)
		res.Summary = fmt.Sprintf("No airport matches %s.", asked)
		switch {
		case len(res.Suggestions) > 0 && res.Suggestions[0].DistanceKm > 0:
			res.Summary += " It has no airport here; the suggestions are the nearest airports, by distance."
		case len(res.Suggestions) > 0:
			res.Summary += " Did you mean one of the suggestions?"
		}
	case len(found) > maxAirportsListed:
		res.Summary = fmt.Sprintf("%d airports match %s; the first %d are listed. Narrow the query (or give country).", len(found), asked, maxAirportsListed)
	default:
		res.Summary = fmt.Sprintf("%d airport(s) match %s.", len(found), asked)
	}
	res.Summary += " " + t.syntheticNote()
	for _, a := range res.Airports {
		fmt.Fprintf(&b, "%s  %s, %s, %s (%s)\n", a.Code, a.Name, a.City, a.Country, a.TimeZone)
	}
	if len(res.Suggestions) > 0 {
		b.WriteString("Suggestions:\n")
		for _, a := range res.Suggestions {
			fmt.Fprintf(&b, "%s  %s, %s, %s (%s)", a.Code, a.Name, a.City, a.Country, a.TimeZone)
			if a.DistanceKm > 0 {
				fmt.Fprintf(&b, ", %d km away", a.DistanceKm)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(res.Summary)
	return mcp.NewToolResultStructured(res, b.String())
}

// airportSuggestions are the airports a query that matched nothing may
// mean: those of the places it is close to, or the nearest to a real place
// with no airport here, in country if one is given.
func (t *Toolset) airportSuggestions(q, country string) []AirportOut {
	if q == "" {
		return nil
	}
	_, err := t.catalog.ResolvePlace(q)
	var pe *flights.PlaceError
	if !errors.As(err, &pe) {
		return nil
	}
	var only string
	if co, ok := t.catalog.ResolveCountry(country); ok {
		only = co.Code
	}
	var out []AirportOut
	add := func(code string, km int) {
		a := t.catalog.Airport(code)
		if a == nil || (only != "" && a.Country != only) || slices.ContainsFunc(out, func(o AirportOut) bool { return o.Code == code }) {
			return
		}
		o := airportOut(*a)
		o.DistanceKm = km
		out = append(out, o)
	}
	for _, n := range pe.Nearby {
		for _, a := range n.Airports {
			add(a.Place.Code, max(1, a.Km))
		}
	}
	for _, p := range pe.Suggestions {
		for _, code := range p.Airports {
			add(code, 0)
		}
	}
	return out[:min(len(out), maxAirportsListed)]
}
