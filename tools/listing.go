package tools

import (
	"context"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
)

// What each client is shown is decided per request, like everything else
// about the client: a tool listing is the first fallback a server has.
//
// findBestFlight's origin, destination and date are optional in the schema
// a client that can show forms sees, so a call may leave them out and the
// server asks the user. A client that cannot ask sees them required from the
// start, so its model gathers them before calling; if it calls without them
// anyway, the tool still answers with an error that names each missing
// detail. Legacy clients declare once per session, modern ones per request,
// and tools/list results say so: their cache hints (ttlMs 0, private) tell
// a client never to reuse one listing for other capabilities.

// listFor shows each client its variant of the tools: it turns a listing
// of the tools as registered (after the view's filter, whose _meta it
// keeps) into their full definitions. It runs after every tools/list
// (Toolset.server), on that listing's own copy of the tools.
func (t *Toolset) listFor(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	defs, err := t.definitions()
	if err != nil {
		// Cannot happen in a build whose tests passed (TestToolDefinitions
		// builds them); the client still sees the tools' names and can
		// call them (TestBrokenDefinitionsStillList). Said once, not at
		// every listing.
		t.badDefinitions.Do(func() {
			t.log.Error().Err(err).Msg("tool definitions could not be built: listing the tools without their schemas")
		})
		return tools
	}
	for i, tool := range tools {
		full, ours := defs.byName[tool.Name]
		if !ours {
			continue // a tool registered by someone else (the load test's noop)
		}
		if tool.Meta != nil {
			full.Meta = tool.Meta // the view's filter marked it
		}
		tools[i] = full
		if tool.Name == FindBestFlightName {
			// The only tool whose definition depends on the client.
			client := t.engine.Client(ctx)
			if why, _ := client.CannotAsk(fallback.AskForm); why != "" {
				tools[i] = defs.findRequired
			}
			if canShowView(client) {
				tools[i] = withView(tools[i])
			}
		}
	}
	return tools
}

// The schemas a client is shown live here, in the listing, and not in the
// tool mcp-go holds: on every 2026-07-28 tools/call mcp-go re-encodes and
// decodes the registered input schema to look for x-mcp-header bindings
// (parameters that travel in HTTP headers too), at a cost that grows with
// the schema (docs/BENCHMARKS.md#beside-the-peers). None of our
// schemas has such a binding (TestRegisteredSchemasHideNoHeaderBindings
// holds that), so the tool registered with mcp-go carries the least schema
// that check needs, an object with no properties, and the listing gives
// every client the full one. Nothing else in mcp-go reads the registered
// schema here: its input validation (server.WithInputSchemaValidation) is
// not used; the handlers validate their arguments themselves.

// registered is a tool as registered with mcp-go: its name, which routes
// calls to its handler, and the least input schema. Its full definition is
// in the listing.
func registered(name string) mcp.Tool {
	return mcp.Tool{Name: name, RawInputSchema: minimalSchema}
}

// definitions are the tools' full definitions, as the listing shows them.
type definitions struct {
	byName map[string]mcp.Tool
	// findRequired is findBestFlight as a client that cannot show forms
	// sees it: origin, destination and date required.
	findRequired mcp.Tool
}

// toolDefinitions are every tool's full definition, the same for every
// server in the process (they depend on no configuration). Deriving their
// ten JSON schemas from the Go types costs more than the rest of what the
// server does at start, so the first listing builds them (listFor is
// their only reader), and neither the first answer, initialize's, nor a
// call waits for them or competes with them
// (docs/BENCHMARKS.md#against-the-floors-issue-26).
var toolDefinitions = sync.OnceValues(func() (definitions, error) {
	defs := definitions{byName: map[string]mcp.Tool{}}
	for _, d := range registry {
		tool, err := d.define()
		if err != nil {
			return definitions{}, fmt.Errorf("tools: %w", err)
		}
		defs.byName[tool.Name] = tool
	}
	var err error
	if defs.findRequired, err = findBestFlightTool(tripFields...); err != nil {
		return definitions{}, fmt.Errorf("tools: %w", err)
	}
	return defs, nil
})

// minimalSchema is the input schema mcp-go holds for each of our tools.
var minimalSchema = []byte(`{"type":"object"}`)
