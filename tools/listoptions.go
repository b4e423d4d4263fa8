package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// listFlightOptions is the results view's own tool: every option a
// findBestFlight search chose among, for the view to sort and filter in the
// page. It is for the view only (MCP Apps visibility ["app"]): a host keeps
// it from its model, and a client that did not declare MCP Apps is never
// shown it and cannot call it (view.go). So findBestFlight's answer, which
// every model reads whole, stays three picks and what stands out, and the
// ~47 options cost bytes only when a person is looking at them.

// ListOptionsName is the view-only tool's name.
const ListOptionsName = "listFlightOptions"

// OptionsResult is listFlightOptions' structuredContent.
type OptionsResult struct {
	Trip TripOut `json:"trip"`
	// Options are every option of the search, in the deterministic order.
	Options []FlightOut `json:"options" jsonschema:"every option the ranking chose among (flights within the trip's limits, or for a round trip the best pairs of them), best first by the deterministic score (price + stops + duration), then the cheapest, fastest and nonstop option of all when they were not among them; position is that order"`
	Found   int         `json:"found" jsonschema:"flights the search returned, every day and both ways"`
	// Calendar is findBestFlight's, with the return days of a flexible
	// round trip.
	Calendar []OptionsDayOut   `json:"calendar,omitempty" jsonschema:"with flexDays: one entry per outbound day, its lowest fare per passenger, and for a round trip the same per return day"`
	Airports map[string]string `json:"airports,omitempty" jsonschema:"every airport code the options use, with its name, city and country"`
	Provider ProviderOut       `json:"provider"`
	Summary  string            `json:"summary"`
}

// OptionsDayOut is one outbound day of a flexible search, with its return
// days on a round trip.
type OptionsDayOut struct {
	DayOut
	Returns []DayOut `json:"returns,omitempty" jsonschema:"for a flexible round trip: each return day searched, the lowest fare per passenger leaving on this day and coming back on that one (0 when no pair fits) and its best option"`
}

const optionsDescription = `For the findBestFlight results view only (MCP Apps): every option of a search, in the deterministic order, for the view to sort and filter. Takes findBestFlight's trip arguments, without strategy. Models use findBestFlight.`

func listOptionsTool() (mcp.Tool, error) {
	tool, err := fallback.DefineTool[FindArgs, OptionsResult](fallback.Definition{Name: ListOptionsName, Title: "List every flight option", Description: optionsDescription,
		Refine: findRefinements(), Require: tripFields, Hints: fallback.Hints{ReadOnly: true, Idempotent: true}})
	if err != nil {
		return mcp.Tool{}, err
	}
	// The arguments are findBestFlight's, less how to rank.
	return withoutInput(tool, "strategy")
}

// listOptionsSpec declares the tool: it never asks the client anything.
func (t *Toolset) listOptionsSpec() fallback.Spec[struct{}] {
	return fallback.Spec[struct{}]{Name: ListOptionsName, Handle: t.listOptions}
}

// listOptions validates the trip as findBestFlight does (but never asks the
// user: the view sends a trip findBestFlight already settled), searches it
// (a search findBestFlight just made is reused) and lists every option.
func (t *Toolset) listOptions(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
	var args FindArgs
	if ps := fallback.DecodeArguments(c.Request().Params.Arguments, &args, "strategy"); len(ps) > 0 {
		return invalidArguments(c, ps)
	}
	trip, err := t.validator.Validate(args.request())
	if err != nil {
		var ps flights.Problems
		if errors.As(err, &ps) {
			return invalidArguments(c, ps)
		}
		c.Log().Error().Err(err).Msg("validate trip")
		return c.Fail(fallback.ErrorInvalidArguments, ListOptionsName+" could not check the trip: "+fallback.Clean(err.Error(), 120), nil)
	}
	found, err := t.search(ctx, trip)
	if err != nil {
		return t.searchFailed(ctx, c, err)
	}
	n := names{t.catalog}
	listed := t.weights.Shortlist(found.options.List, found.options.Len())
	res := OptionsResult{Trip: tripOut(trip), Options: make([]FlightOut, len(listed.Picks)), Found: found.found, Provider: providerOut(t.provider.About())}
	seen := map[string]bool{}
	for i, p := range listed.Picks {
		res.Options[i] = flightOut(n, i+1, p)
		seen[p.ID()] = true
	}
	// The options are bounded (as many as one day has, across the days of
	// a flexible search; the best varied pairs of a round trip), and the
	// cheapest, fastest or nonstop option of all may lie beyond them: it
	// comes after them, so sorting the page by price or time finds it.
	for _, s := range []struct {
		p    *ranking.Pick
		what string
	}{{found.standouts.Cheapest, "the cheapest"}, {found.standouts.Fastest, "the fastest"}, {found.standouts.Nonstop, "the best nonstop"}} {
		if s.p == nil || seen[s.p.ID()] {
			continue
		}
		p := *s.p
		p.Reason = s.what + " option of all found"
		res.Options = append(res.Options, flightOut(n, len(res.Options)+1, p))
		seen[p.ID()] = true
	}
	for _, d := range found.calendar {
		day := OptionsDayOut{DayOut: dayOut(d.Date, d.LowestUSD, d.BestID)}
		for _, r := range d.Returns {
			day.Returns = append(day.Returns, dayOut(r.Date, r.LowestUSD, r.BestID))
		}
		res.Calendar = append(res.Calendar, day)
	}
	res.Airports = airportsOf(n, res.Options)
	what := "flights"
	if trip.IsRoundTrip() {
		what = "round trips"
	}
	res.Summary = fmt.Sprintf("%d %s within the trip's limits, of %d flights found, best first by %s. %s", len(res.Options), what, res.Found,
		strings.TrimSuffix(t.weights.ExplainCabin(trip.Cabin), "."), t.syntheticNote())
	return mcp.NewToolResultStructured(res, res.Summary)
}

// withoutInput drops properties from a tool's input schema.
func withoutInput(tool mcp.Tool, props ...string) (mcp.Tool, error) {
	var s map[string]any
	if err := json.Unmarshal(tool.RawInputSchema, &s); err != nil {
		return mcp.Tool{}, fmt.Errorf("%s input schema: %w", tool.Name, err)
	}
	properties, _ := s["properties"].(map[string]any)
	for _, p := range props {
		if _, ok := properties[p]; !ok {
			return mcp.Tool{}, fmt.Errorf("%s input schema has no property %q", tool.Name, p)
		}
		delete(properties, p)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return mcp.Tool{}, fmt.Errorf("%s input schema: %w", tool.Name, err)
	}
	tool.RawInputSchema = raw
	return tool, nil
}
