package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// FindBestFlightName is the tool's name as clients call it.
const FindBestFlightName = "findBestFlight"

// Strategy is the caller's choice of how to rank.
type Strategy string

// Strategies findBestFlight accepts: auto, and the single-rung ones of
// steps (steps.go), where each rung says what it means.
const (
	// Auto walks the ladder: the best tier this request and this server
	// can use, falling back tier by tier.
	Auto Strategy = "auto"
	// StrategyDeterministic ranks by price, stops and duration only.
	StrategyDeterministic Strategy = "deterministic"
	// StrategyCandidates returns a shortlist for the host's model to choose from.
	StrategyCandidates Strategy = "candidates"
	// StrategySampling ranks through the client's LLM only, and says so
	// with an error when it cannot.
	StrategySampling Strategy = "sampling"
	// StrategyServerLLM ranks through the server's own LLM only.
	StrategyServerLLM Strategy = "server_llm"
)

// FindArgs are findBestFlight's arguments. The JSON names are the tool's
// public contract (a golden test pins the schema).
type FindArgs struct {
	Origin          string   `json:"origin,omitempty" jsonschema:"where from: an IATA airport code (JFK), a metro code (NYC, LON) or a city name (San Francisco); a city or metro searches all its airports"`
	Destination     string   `json:"destination,omitempty" jsonschema:"where to: an IATA airport code (LHR), a metro code or a city name, as for origin"`
	Date            string   `json:"date,omitempty" jsonschema:"departure date in the origin's local calendar, YYYY-MM-DD, today up to one year ahead"`
	ReturnDate      string   `json:"returnDate,omitempty" jsonschema:"for a round trip: the return date, YYYY-MM-DD, on or after date and within the same year ahead"`
	FlexDays        *int     `json:"flexDays,omitempty" jsonschema:"search date (and returnDate) up to this many days either side, 0-3 (default 0); the result then has a calendar of the lowest fare per day. On a round trip both dates move together, so the stay keeps its length; see flexIndependently"`
	FlexIndependent bool     `json:"flexIndependently,omitempty" jsonschema:"with flexDays on a round trip: true lets the return date move on its own, pairing every departure day with every return day, so the stay may be longer or shorter (default false: both dates move together)"`
	Passengers      *int     `json:"passengers,omitempty" jsonschema:"number of travellers, 1-9 (default 1)"`
	Cabin           string   `json:"cabin,omitempty" jsonschema:"travel class (default economy)"`
	MaxStops        *int     `json:"maxStops,omitempty" jsonschema:"most connections accepted: 0 for nonstop only (default 2)"`
	DepartAfter     string   `json:"departAfter,omitempty" jsonschema:"earliest local departure time, HH:MM; later than departBefore for a window across midnight (22:00 to 02:00: that evening and the early hours after it)"`
	DepartBefore    string   `json:"departBefore,omitempty" jsonschema:"latest local departure time, HH:MM"`
	ArriveAfter     string   `json:"arriveAfter,omitempty" jsonschema:"earliest local arrival time at the destination, HH:MM; later than arriveBefore for a window across midnight"`
	ArriveBefore    string   `json:"arriveBefore,omitempty" jsonschema:"latest local arrival time at the destination, HH:MM"`
	Airlines        []string `json:"airlines,omitempty" jsonschema:"only flights operated entirely by these airlines (IATA codes such as BA, or names: British Airways, Delta, KLM)"`
	ExcludeAirlines []string `json:"excludeAirlines,omitempty" jsonschema:"no flight with a segment by these airlines (IATA codes or names)"`
	MaxPrice        *float64 `json:"maxPrice,omitempty" jsonschema:"highest fare per passenger in US dollars (for a round trip, both flights together)"`
	Strategy        string   `json:"strategy,omitempty"` // values and description: strategyRefinement
}

func (a *FindArgs) request() flights.Request {
	return flights.Request{
		Origin: a.Origin, Destination: a.Destination, Date: a.Date, ReturnDate: a.ReturnDate, FlexDays: a.FlexDays, FlexIndependent: a.FlexIndependent,
		Passengers: a.Passengers, Cabin: a.Cabin, MaxStops: a.MaxStops,
		DepartAfter: a.DepartAfter, DepartBefore: a.DepartBefore, ArriveAfter: a.ArriveAfter, ArriveBefore: a.ArriveBefore,
		MaxPriceUSD: a.MaxPrice, Airlines: a.Airlines, ExcludeAirlines: a.ExcludeAirlines,
	}
}

const findDescription = `Search about 47 flights for a trip and pick the best three, each with a one-line reason; one way, or a round trip with returnDate, on one date or flexibly (flexDays).
The flights are synthetic sample data made up by this server (a teaching example with no network and no booking key): plausible routes, times and fares, not real ones; say so to the user. Every result says it (provider.synthetic).
Give origin and destination as airport codes, metro codes or city names ("JFK", "NYC", "San Francisco"; findAirports looks them up) and the date as YYYY-MM-DD; the other arguments narrow the search.
If origin, destination or date is missing, the server asks the user in a form when your client can show one; otherwise (or when the user declines) it returns an error naming each missing detail (machine-readable in _meta "io.github.flightserver/error": {error: "trip_details_needed", askedUser, why, fields}): ask the user, then call again.
Ranking uses your client's LLM through sampling when the client offers it and the server's own LLM when one is configured (by default the client's first; the operator may put the server's first), and otherwise price + stops + duration.
The result says how the flights were ranked (the method) and lists every ranking method tried with why it was or was not used; it also names the cheapest and the fastest option of all (and the best nonstop) even when they are not among the three, each segment's airline and each connection's length, and, when the filters leave nothing, what dropping each would give.
Flight ids are stable: pass one to other tools to refer to that flight.
With strategy "candidates" you get a shortlist to choose from with the user instead of a ranking.
Invalid arguments give an error listing each problem and what is accepted.`

// Bounds the schema states, so a model learns them before calling.
const (
	maxPlaceLen = 64
	maxAirlines = 20
)

// findBestFlightTool is the tool's definition; require lists the input
// properties to make required (none: what a client that can be asked sees).
func findBestFlightTool(require ...string) (mcp.Tool, error) {
	// A search changes nothing, twice is the same as once, and it reaches
	// no outside system.
	return fallback.DefineTool[FindArgs, FindResult](fallback.Definition{Name: FindBestFlightName, Title: "Find the best flight", Description: findDescription,
		Refine: findRefinements(), Require: require, RefineOutput: findOutput(), Hints: fallback.Hints{ReadOnly: true, Idempotent: true}})
}

// findRefinements are the bounds of FindArgs' schema (listFlightOptions
// takes the same trip).
func findRefinements() map[string]func(*jsonschema.Schema) {
	const hhmm = `^([01][0-9]|2[0-3]):[0-5][0-9]$`
	return map[string]func(*jsonschema.Schema){
		"origin":          fallback.Length(2, maxPlaceLen),
		"destination":     fallback.Length(2, maxPlaceLen),
		"date":            fallback.Format("date"),
		"returnDate":      fallback.Format("date"),
		"flexDays":        fallback.Integer(0, flights.MaxFlexDays),
		"passengers":      fallback.Integer(flights.MinPassengers, flights.MaxPassengers),
		"cabin":           fallback.Enum(flights.Cabins...),
		"maxStops":        fallback.Integer(0, flights.MaxStopsLimit),
		"departAfter":     fallback.Pattern(hhmm),
		"departBefore":    fallback.Pattern(hhmm),
		"arriveAfter":     fallback.Pattern(hhmm),
		"arriveBefore":    fallback.Pattern(hhmm),
		"airlines":        fallback.List(maxAirlines),
		"excludeAirlines": fallback.List(maxAirlines),
		"maxPrice":        fallback.PositiveNumber,
		"strategy":        strategyRefinement,
	}
}

// findBestFlightSpec declares the tool: the steps at which it may ask the
// client (the trip form, the client's model) and its handler.
func (t *Toolset) findBestFlightSpec() fallback.Spec[findState] {
	return fallback.Spec[findState]{Name: FindBestFlightName, Steps: []string{stepTrip, string(ranking.ClientSampling)}, Handle: t.findBestFlight}
}

// findBestFlight reads as its decisions: settle the trip (asking the user
// for what is missing), search, rank by the ladder, render. Everything runs
// under the call budget, so the call always answers in time.
func (t *Toolset) findBestFlight(ctx context.Context, c *fallback.Call, st *findState) *mcp.CallToolResult {
	var args FindArgs
	argPs := fallback.DecodeArguments(c.Request().Params.Arguments, &args)
	strategy := Strategy(strings.ToLower(strings.TrimSpace(args.Strategy)))
	if strategy == "" {
		strategy = Auto
	}
	if !isStrategy(strategy) {
		argPs = append(argPs, flights.Problem{Field: "strategy", Problem: fmt.Sprintf("%s is not a strategy", flights.Quote(args.Strategy)), Accepted: flights.OneOf(strategies)})
	}

	trip, early := t.settleTrip(ctx, c, st, args, argPs)
	if early != nil {
		return early
	}

	found, err := t.search(ctx, trip)
	if err != nil {
		return t.searchFailed(ctx, c, err)
	}

	r, early := t.rank(ctx, c, strategy, found.options, found.standouts)
	if early != nil { // input_required, or an isError for a single-rung strategy
		return early
	}
	c.Record(viewAttempt(c.Client()))
	result := newFindResult(names{t.catalog}, t.provider.About(), &trip, &found, &r, c.Attempts())
	return mcp.NewToolResultStructured(result, renderFind(result, r.Picks))
}

// searchFailed says truthfully why a search gave nothing: the call ended
// (cancelled, or out of budget), or the search itself failed.
func (t *Toolset) searchFailed(ctx context.Context, c *fallback.Call, err error) *mcp.CallToolResult {
	if b, ok := isBusy(err); ok {
		c.Log().Warn().Int("waiting", b.waiting).Msg("search refused: the search gate is full")
		return c.Fail(fallback.ErrorBusy, "The flight search did not run: "+b.Error()+".",
			&ToolError{Reason: b.Error(), RetryAfterSeconds: int(b.retryAfter.Seconds())})
	}
	if ctx.Err() != nil {
		return c.Fail(fallback.ErrorCancelled, "The call ended before the search finished: it was cancelled, or ran out of its time budget. Call again if the search is still wanted.", nil)
	}
	c.Log().Error().Err(err).Msg("search failed")
	return c.Fail(ErrorSearchFailed, "The flight search failed. Try again; if it keeps failing, the server log has details.", nil)
}

func isStrategy(s Strategy) bool { return slices.Contains(strategies, s) }
