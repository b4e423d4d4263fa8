package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
)

// FindAirportsName is the tool's name as clients call it.
const FindAirportsName = "findAirports"

// FindAirportsArgs are findAirports' arguments.
type FindAirportsArgs struct {
	Query   string `json:"query" jsonschema:"an airport or metro code (JFK, NYC), a city (new york) or part of an airport's name (heathrow)"`
	Country string `json:"country,omitempty" jsonschema:"only airports in this country: an ISO code (US) or a name (United States)"`
}

func (a *FindAirportsArgs) fields() map[string]argField {
	return map[string]argField{"query": stringArg(&a.Query), "country": stringArg(&a.Country)}
}

// AirportsResult is findAirports' structuredContent.
type AirportsResult struct {
	Airports []AirportOut `json:"airports" jsonschema:"the matches, exact codes first; findBestFlight accepts any code here"`
	Summary  string       `json:"summary"`
}

// AirportOut is one airport.
type AirportOut struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	City     string `json:"city"`
	Country  string `json:"country" jsonschema:"ISO 3166-1 alpha-2"`
	TimeZone string `json:"timeZone" jsonschema:"IANA time zone: flight times are local to it"`
}

// maxAirportsListed bounds a listing: enough for any city, small for a
// model's context.
const maxAirportsListed = 25

const airportsDescription = `Look up airports by code, metro code, city or part of a name (optionally in one country): each with its code, name, city, country and time zone.
findBestFlight already accepts city names and metro codes itself; use this to check a place or to let the user choose among airports.`

func findAirportsTool() (mcp.Tool, error) {
	// A lookup in the server's own data: read-only, idempotent, closed world.
	return defineTool[FindAirportsArgs, AirportsResult](FindAirportsName, "Find airports", airportsDescription, map[string]func(*jsonschema.Schema){
		"query":   length(1, maxPlaceLen),
		"country": length(2, maxPlaceLen),
	}, nil, hints{readOnly: true, idempotent: true})
}

// findAirportsSpec declares the tool: it never asks the client anything.
func (t *Toolset) findAirportsSpec() toolSpec[struct{}] {
	return toolSpec[struct{}]{name: FindAirportsName, handle: t.findAirports}
}

// findAirports makes no fallback decision (there is nothing to fall back
// from), so its result has no attempts.
func (t *Toolset) findAirports(_ context.Context, c *call, _ *struct{}) *mcp.CallToolResult {
	var args FindAirportsArgs
	ps := decodeArgs(c.req.Params.Arguments, args.fields())
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
		return c.invalidArguments(ps)
	}
	found := t.catalog.FindAirports(q, country)
	res := AirportsResult{Airports: []AirportOut{}}
	for _, a := range found[:min(len(found), maxAirportsListed)] {
		res.Airports = append(res.Airports, AirportOut{Code: a.Code, Name: a.Name, City: a.City, Country: a.Country, TimeZone: a.TZ})
	}
	var b strings.Builder
	switch {
	case len(found) == 0:
		res.Summary = fmt.Sprintf("No airport matches %s.", flights.Quote(q+" "+country))
	case len(found) > maxAirportsListed:
		res.Summary = fmt.Sprintf("%d airports match; the first %d are listed. Narrow the query (or give country).", len(found), maxAirportsListed)
	default:
		res.Summary = fmt.Sprintf("%d airport(s) match.", len(found))
	}
	for _, a := range res.Airports {
		fmt.Fprintf(&b, "%s  %s, %s, %s (%s)\n", a.Code, a.Name, a.City, a.Country, a.TimeZone)
	}
	b.WriteString(res.Summary)
	return mcp.NewToolResultStructured(res, b.String())
}
