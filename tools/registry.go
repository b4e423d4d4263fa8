package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/fallback"
)

// A tool is declared once, here: its name, its full definition as the
// listing shows it, its handler, and whether only the results view calls
// it. Registration (Toolset.server), the listing's definitions
// (toolDefinitions), the view's filter (viewTools) and the metrics contract
// (Names) all read this list, so a new tool is one entry.
type declaredTool struct {
	name string
	// define builds the full definition (schemas derived from the Go
	// types); it depends on no configuration.
	define func() (mcp.Tool, error)
	// handler is the tool's handler on one toolset.
	handler func(*Toolset) server.ToolHandlerFunc
	// viewOnly: called by the results view (MCP Apps), listed only to a
	// host that renders it, with app visibility, and not for a model.
	viewOnly bool
}

// registry is every tool the server serves.
var registry = []declaredTool{
	{name: FindBestFlightName, define: func() (mcp.Tool, error) { return findBestFlightTool() }, handler: serving((*Toolset).findBestFlightSpec)},
	{name: BookFlightName, define: bookFlightTool, handler: serving((*Toolset).bookFlightSpec)},
	{name: SaveItineraryName, define: saveItineraryTool, handler: serving((*Toolset).saveItinerarySpec)},
	{name: FindAirportsName, define: findAirportsTool, handler: serving((*Toolset).findAirportsSpec)},
	{name: ListOptionsName, define: listOptionsTool, handler: serving((*Toolset).listOptionsSpec), viewOnly: true},
}

// serving is the handler of the tool spec declares, on the toolset's
// engine, once the catalog is built (awaitCatalog).
func serving[S any](spec func(*Toolset) fallback.Spec[S]) func(*Toolset) server.ToolHandlerFunc {
	return func(t *Toolset) server.ToolHandlerFunc {
		s := spec(t)
		handle := s.Handle
		s.Handle = func(ctx context.Context, c *fallback.Call, st *S) *mcp.CallToolResult {
			if res := t.awaitCatalog(ctx, c); res != nil {
				return res
			}
			return handle(ctx, c, st)
		}
		return fallback.Serve(t.engine, s)
	}
}

// Names is every tool the server serves, in registry order: the values of
// the tool label on the call and rung metrics (listFlightOptions' calls,
// made by the results view, are counted like any other), the ones the
// dashboards may name.
var Names = func() []string {
	names := make([]string, len(registry))
	for i, d := range registry {
		names[i] = d.name
	}
	return names
}()

// viewOnly reports whether the named tool is called only by the results
// view.
func viewOnly(name string) bool {
	for _, d := range registry {
		if d.name == name {
			return d.viewOnly
		}
	}
	return false
}
