package tools

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/flightserver/flightserver/internal/golden"
	"github.com/flightserver/flightserver/internal/mcptest"
)

// The answers' bytes as the server writes them (the JSON-RPC result of a
// tools/call, encoded as mcp-go encodes it for the wire) for trips that
// take the paths of the text and the reasons: a nonstop, connections with
// layovers, an overnight one, a metro code, several passengers in another
// cabin, a round trip, flexible dates, an airport lookup and a refusal. A
// change that is meant to leave the answer as it was (a faster way to
// build it) must leave this file as it is; elapsed times, which the clock
// decides, are written as 0.
func TestAnswersOnTheWire(t *testing.T) {
	s := newServer(t)
	date := today().AddDate(0, 0, 14).Format("2006-01-02")
	back := today().AddDate(0, 0, 21).Format("2006-01-02")
	elapsed := regexp.MustCompile(`"elapsedMs":[0-9]+`)
	var got bytes.Buffer
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"nonstop", FindBestFlightName, map[string]any{"origin": "SFO", "destination": "JFK", "date": date}},
		{"connections", FindBestFlightName, map[string]any{"origin": "BOS", "destination": "SYD", "date": date}},
		{"an overnight connection", FindBestFlightName, map[string]any{"origin": "BOS", "destination": "LOS", "date": date, "maxStops": 2}},
		{"metro, three in business", FindBestFlightName, map[string]any{"origin": "NYC", "destination": "LON", "date": date, "passengers": 3, "cabin": "business"}},
		{"round trip", FindBestFlightName, map[string]any{"origin": "SEA", "destination": "ORD", "date": date, "returnDate": back}},
		{"flexible dates", FindBestFlightName, map[string]any{"origin": "LAX", "destination": "MIA", "date": date, "flexDays": 2, "maxStops": 1}},
		{"airports", FindAirportsName, map[string]any{"query": "new york"}},
		{"refused", FindBestFlightName, map[string]any{"origin": "SFO", "destination": "SFO", "date": "yesterday"}},
	} {
		res := mcptest.ModernCall(t, s, tc.tool, map[string]any{}, tc.args, "", nil)
		got.WriteString("# " + tc.name + "\n")
		got.Write(elapsed.ReplaceAll(res, []byte(`"elapsedMs":0`)))
		got.WriteString("\n")
	}
	golden.Check(t, "answers.golden.txt", got.Bytes())
}
