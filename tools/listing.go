package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
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

// tripFields are the details a client that cannot show forms must give.
var tripFields = []string{"origin", "destination", "date"}

// listFor is the mcp-go tool filter that shows each client its variant of
// the tools. It gets a fresh copy of the tools for every request.
func (t *Toolset) listFor(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	client := ClientFrom(ctx)
	for i, tool := range tools {
		if tool.Name == FindBestFlightName {
			if why, _ := client.cannotAsk(askForm); why != "" {
				tools[i] = t.findRequired
			}
			if client.CanShowView() {
				tools[i] = withView(tools[i])
			}
		}
	}
	return tools
}
