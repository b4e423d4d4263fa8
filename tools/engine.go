package tools

import (
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking"
)

// The engine's result types, by the names the flight tools' results and
// errors have always used.
type (
	// ToolError is fallback.ToolError.
	ToolError = fallback.ToolError
	// AttemptOut is fallback.AttemptOut.
	AttemptOut = fallback.AttemptOut
)

// ErrorMetaKey is the _meta key under which flightserver's isError results
// carry their ToolError (the engine's Config.ErrorMetaKey): clients read
// it, so it never changes.
const ErrorMetaKey = "io.github.flightserver/error"

// Error codes of ToolError.Error that only these tools use (the engine's
// own are fallback.Error*).
const (
	// ErrorTripDetailsNeeded: findBestFlight did not search for want of
	// trip details; Why, AskedUser and Fields say what and why.
	ErrorTripDetailsNeeded = "trip_details_needed"
	// ErrorNotRanked: a single-rung strategy could not rank.
	ErrorNotRanked = "not_ranked"
	// ErrorNotBooked: bookFlight did not book; Why says why.
	ErrorNotBooked = "not_booked"
	// ErrorNotSaved: saveItinerary wrote nothing; Why says why.
	ErrorNotSaved = "not_saved"
	// ErrorSearchFailed: the flight search itself failed.
	ErrorSearchFailed = "search_failed"
)

// maxProblemsShown bounds an error listing: a caller sending thousands of
// unknown arguments gets a readable answer, not a megabyte.
const maxProblemsShown = 20

// invalidArguments is the isError for bad arguments: every problem on its
// own line, so the host's model can fix all of them and call again.
func invalidArguments(c *fallback.Call, ps flights.Problems) *mcp.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "%s did not run: %d problem(s) with the arguments.\n", c.Tool(), len(ps))
	for i, p := range ps {
		if i == maxProblemsShown {
			fmt.Fprintf(&b, "- … and %d more\n", len(ps)-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", p)
	}
	b.WriteString("Fix these and call again.")
	if len(ps) > maxProblemsShown {
		ps = ps[:maxProblemsShown]
	}
	return c.Fail(fallback.ErrorInvalidArguments, b.String(), &ToolError{Fields: ps})
}

// The ranking ladder's types, by the names the flight tools use: the
// engine's rung and what a rung reached, on the options of one search.
// The ladder itself is ladder.go; the rungs are there and in models.go.

// ladderRung is the ranking ladder's rung type.
type ladderRung = fallback.Rung[rankJob, ranking.Ranking]

// reached is what a ranking rung did on one call.
type reached = fallback.Reached[ranking.Ranking]

// rankJob is what the ranking ladder ranks: the options within the trip's
// limits.
type rankJob struct {
	ranking.Options
	// all are the standouts of every option found, of which Options
	// holds the best few.
	all ranking.Standouts
}

// Empty says why there is nothing to rank, or "".
func (j rankJob) Empty() string {
	if j.Len() == 0 {
		return "no flight is within the trip's limits"
	}
	return ""
}
