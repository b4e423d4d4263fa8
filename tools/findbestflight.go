package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/tools/state"
)

// FindBestFlightName is the tool's name as clients call it.
const FindBestFlightName = "findBestFlight"

// Strategy is the caller's choice of how to rank.
type Strategy string

// Strategies findBestFlight accepts.
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

var strategies = []Strategy{Auto, StrategySampling, StrategyServerLLM, StrategyDeterministic, StrategyCandidates}

// FindArgs are findBestFlight's arguments. The JSON names are the tool's
// public contract (a golden test pins the schema).
type FindArgs struct {
	Origin       string   `json:"origin,omitempty" jsonschema:"departure airport, 3-letter IATA code (e.g. JFK)"`
	Destination  string   `json:"destination,omitempty" jsonschema:"arrival airport, 3-letter IATA code (e.g. LHR)"`
	Date         string   `json:"date,omitempty" jsonschema:"departure date in the origin's local calendar, YYYY-MM-DD, today up to one year ahead"`
	Passengers   *int     `json:"passengers,omitempty" jsonschema:"number of travellers, 1-9 (default 1)"`
	Cabin        string   `json:"cabin,omitempty" jsonschema:"travel class (default economy)"`
	MaxStops     *int     `json:"maxStops,omitempty" jsonschema:"most connections accepted: 0 for nonstop only (default 2)"`
	DepartAfter  string   `json:"departAfter,omitempty" jsonschema:"earliest local departure time, HH:MM"`
	DepartBefore string   `json:"departBefore,omitempty" jsonschema:"latest local departure time, HH:MM"`
	MaxPrice     *float64 `json:"maxPrice,omitempty" jsonschema:"highest fare per passenger in US dollars"`
	Strategy     string   `json:"strategy,omitempty" jsonschema:"how to rank: auto (default: the best method available, falling back in order), sampling (your client's LLM only), server_llm (the server's own LLM only), deterministic (price + stops + duration), candidates (a shortlist for you to choose from with the user)"`
}

func (a *FindArgs) fields() map[string]argField {
	return map[string]argField{
		"origin": stringArg(&a.Origin), "destination": stringArg(&a.Destination), "date": stringArg(&a.Date),
		"passengers": intArg(&a.Passengers), "cabin": stringArg(&a.Cabin), "maxStops": intArg(&a.MaxStops),
		"departAfter": stringArg(&a.DepartAfter), "departBefore": stringArg(&a.DepartBefore),
		"maxPrice": numberArg(&a.MaxPrice), "strategy": stringArg(&a.Strategy),
	}
}

func (a *FindArgs) request() flights.Request {
	return flights.Request{
		Origin: a.Origin, Destination: a.Destination, Date: a.Date,
		Passengers: a.Passengers, Cabin: a.Cabin, MaxStops: a.MaxStops,
		DepartAfter: a.DepartAfter, DepartBefore: a.DepartBefore, MaxPriceUSD: a.MaxPrice,
	}
}

const findDescription = `Search about 47 flights for a one-way trip and pick the best three, each with a one-line reason.
Give origin and destination as 3-letter IATA airport codes and the date as YYYY-MM-DD; the other arguments narrow the search.
If origin, destination or date is missing, the server asks the user in a form when your client can show one; otherwise (or when the user declines) it returns an error naming each missing detail (structuredContent: {error: "trip_details_needed", askedUser, why, fields}): ask the user, then call again.
Ranking uses your client's LLM through sampling when the client offers it, then the server's own LLM when one is configured, and otherwise price + stops + duration.
The result says how the flights were ranked (the method) and lists every ranking method tried with why it was or was not used.
Flight ids are stable: pass one to other tools to refer to that flight.
With strategy "candidates" you get a shortlist to choose from with the user instead of a ranking.
Invalid arguments give an error listing each problem and what is accepted.`

func (t *Toolset) findBestFlightTool() (mcp.Tool, error) {
	const hhmm = `^([01][0-9]|2[0-3]):[0-5][0-9]$`
	// A search changes nothing, twice is the same as once, and it reaches
	// no outside system.
	return defineTool[FindArgs, FindResult](FindBestFlightName, "Find the best flight", findDescription, map[string]func(*jsonschema.Schema){
		"origin":       pattern(`^[A-Za-z]{3}$`),
		"destination":  pattern(`^[A-Za-z]{3}$`),
		"date":         format("date"),
		"passengers":   integer(flights.MinPassengers, flights.MaxPassengers),
		"cabin":        enum(flights.Cabins...),
		"maxStops":     integer(0, flights.MaxStopsLimit),
		"departAfter":  pattern(hhmm),
		"departBefore": pattern(hhmm),
		"maxPrice":     positiveNumber,
		"strategy":     enum(strategies...),
	}, hints{readOnly: true, idempotent: true})
}

// invocation is one findBestFlight call as the ladder sees it.
type invocation struct {
	req    mcp.CallToolRequest
	client Client
	// resumed is the verified state of a modern retry; nil on a first call.
	resumed *state.Payload
	// state is what earlier rounds left for this one (decoded from
	// resumed), updated for the rounds after it; never nil.
	state *findState
}

// findBestFlight handles one call: read and validate the arguments, open the
// state of a retry, search, rank by the ladder, render. Everything runs
// under the call budget, so the call always answers in time.
func (t *Toolset) findBestFlight(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, t.callBudget)
	defer cancel()
	c := invocation{req: req, client: ClientFrom(ctx), state: &findState{}}
	log := t.log.With().Str("tool", FindBestFlightName).Str("era", string(c.client.Era)).Str("client", clean(c.client.Name, 60)).Logger()

	var args FindArgs
	argPs := decodeArgs(req.Params.Arguments, args.fields())
	strategy := Strategy(strings.ToLower(strings.TrimSpace(args.Strategy)))
	if strategy == "" {
		strategy = Auto
	}
	if !isStrategy(strategy) {
		argPs = append(argPs, flights.Problem{Field: "strategy", Problem: fmt.Sprintf("%s is not a strategy", flights.Quote(args.Strategy)), Accepted: strategyList()})
	}

	// A modern retry: open its state first, because it carries what the
	// user answered in earlier rounds, and that changes the trip.
	switch {
	case req.Params.RequestState != "":
		p, refused, err := t.reopen(req, tripStep, samplingStep)
		if refused != nil || err != nil {
			return refused, err
		}
		if err := json.Unmarshal(p.Data, c.state); err != nil {
			// Our own signed bytes that do not decode: a server of
			// another version sealed them.
			return mcp.NewToolResultError("This retry's requestState holds nothing this server can read (sealed by another version?). " +
				"Call findBestFlight again without requestState and inputResponses to start over."), nil
		}
		c.resumed = &p
	case len(req.Params.InputResponses) > 0:
		// Answers without our sealed question prove nothing: ignored.
		log.Warn().Int("inputResponses", len(req.Params.InputResponses)).Msg("ignored inputResponses sent without requestState")
	}

	trip, early, err := t.settleTrip(ctx, c, log, args, argPs)
	if early != nil || err != nil {
		if early != nil && early.IsError {
			log.Info().Msg("did not search: the trip's details are invalid or missing")
		}
		return early, err
	}

	found, err := t.provider.Search(ctx, trip)
	if err != nil {
		log.Error().Err(err).Msg("search failed")
		return mcp.NewToolResultError(fmt.Sprintf("The flight search failed: %v. Try again; if it keeps failing, the server log has details.", err)), nil
	}
	cands := t.weights.Candidates(trip, found)

	r, early := t.rank(ctx, c, log, strategy, trip, cands)
	if early != nil { // input_required, or an isError for a single-tier strategy
		return early, nil
	}
	result := newFindResult(trip, len(found), r)
	log.Info().Str("method", string(r.Method)).Int("found", len(found)).Int("considered", r.Considered).
		Dur("elapsed", time.Since(start)).Msg("ranked")
	return mcp.NewToolResultStructured(result, renderFind(result, r.Picks)), nil
}

func isStrategy(s Strategy) bool { return slices.Contains(strategies, s) }

func strategyList() string {
	names := make([]string, len(strategies))
	for i, s := range strategies {
		names[i] = string(s)
	}
	return "one of " + strings.Join(names, ", ")
}

// maxProblemsShown bounds an error listing: a caller sending thousands of
// unknown arguments gets a readable answer, not a megabyte.
const maxProblemsShown = 20

// invalidArguments is the isError result for bad arguments: every problem on
// its own line, so the host's model can fix all of them and call again.
func invalidArguments(tool string, ps flights.Problems) *mcp.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "%s was not called: %d problem(s) with the arguments.\n", tool, len(ps))
	for i, p := range ps {
		if i == maxProblemsShown {
			fmt.Fprintf(&b, "- … and %d more\n", len(ps)-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", p)
	}
	b.WriteString("Fix these and call again.")
	return mcp.NewToolResultError(b.String())
}
