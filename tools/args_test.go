package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestEveryToolReadsTheNamesItLists: the names a tool's listed schema shows
// are exactly the names its arguments are read by, so a model that calls
// with the schema's names is never told one is unknown, and one that sends
// another name is told the schema's list. Both come from the same struct
// tags; listFlightOptions lists and reads FindArgs less strategy.
func TestEveryToolReadsTheNamesItLists(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, declaresView)
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, tool := range list.Tools {
		seen = append(seen, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			raw, err := json.Marshal(tool.InputSchema)
			if tool.RawInputSchema != nil {
				raw, err = tool.RawInputSchema, nil
			}
			if err != nil {
				t.Fatal(err)
			}
			var schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			if err := json.Unmarshal(raw, &schema); err != nil {
				t.Fatal(err)
			}
			names := make([]string, 0, len(schema.Properties))
			for n := range schema.Properties {
				names = append(names, n)
			}
			slices.Sort(names)
			if len(names) == 0 {
				t.Fatalf("no properties in %s", raw)
			}
			res := callTool(t, c, tool.Name, map[string]any{"notListed": 1})
			want := `"notListed": is not an argument of this tool (accepted: only ` + strings.Join(names, ", ") + ")"
			if !res.IsError || !strings.Contains(text(res), want) {
				t.Errorf("want an error with %q, got %s", want, text(res))
			}
		})
	}
	for _, name := range []string{FindBestFlightName, ListOptionsName, BookFlightName, SaveItineraryName, FindAirportsName} {
		if !slices.Contains(seen, name) {
			t.Errorf("%s not listed (listed: %v)", name, seen)
		}
	}
}
