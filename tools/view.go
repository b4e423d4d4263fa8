package tools

import (
	"context"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/web"
)

// MCP Apps (io.modelcontextprotocol/ui, SEP-1865) lets a host render a
// tool's result in an interactive view: a ui:// resource the server serves
// and the tool's listing links. It is one more optional client capability,
// so it is negotiated like the others, per request: only a client that
// declared the extension with the MCP App MIME type sees the link and the
// resource; every other host gets exactly what it got before. The view adds
// to the result, it never replaces it: content and structuredContent are the
// same for every host, and complete on their own.

// The extension's names, as the spec spells them.
const (
	// UIExtension is the extension's id under capabilities.extensions.
	UIExtension = "io.modelcontextprotocol/ui"
	// ViewMIME is the MIME type of an MCP App's HTML.
	ViewMIME = "text/html;profile=mcp-app"
	// ViewURI is the findBestFlight results view.
	ViewURI = "ui://flightserver/results"
	// stepView names the view decision in findBestFlight's attempts.
	stepView = "view"
)

// canShowView reports whether the client declared MCP Apps with the MIME
// type of this server's view (legacy: in initialize; modern: in the
// request's _meta capabilities).
func canShowView(c fallback.Client) bool {
	ext, ok := c.Capabilities.Extensions[UIExtension].(map[string]any)
	if !ok {
		return false
	}
	types, _ := ext["mimeTypes"].([]any)
	return slices.ContainsFunc(types, func(v any) bool { return v == ViewMIME })
}

// withView is findBestFlight's listing linked to the view: _meta.ui, and the
// flat key older VS Code builds read.
func withView(tool mcp.Tool) mcp.Tool {
	meta := map[string]any{"ui": map[string]any{"resourceUri": ViewURI}, "ui/resourceUri": ViewURI}
	if tool.Meta != nil {
		for k, v := range tool.Meta.AdditionalFields {
			if _, ours := meta[k]; !ours {
				meta[k] = v
			}
		}
	}
	tool.Meta = mcp.NewMetaFromMap(meta)
	return tool
}

// viewTools is the mcp-go tool filter for the view's own tools (those
// forView names: listFlightOptions): a client that declared MCP Apps sees
// them marked for the view only (_meta.ui.visibility ["app"], so its host
// keeps them from the model); any other client neither sees nor can call
// them (mcp-go applies the filter to tools/call too). clientOf reads who
// the client is (Engine.Client).
func viewTools(forView func(name string) bool, clientOf func(context.Context) fallback.Client) func(context.Context, []mcp.Tool) []mcp.Tool {
	return func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
		if !slices.ContainsFunc(tools, func(tool mcp.Tool) bool { return forView(tool.Name) }) {
			return tools // most calls: the client's declarations change nothing
		}
		if !canShowView(clientOf(ctx)) {
			return slices.DeleteFunc(tools, func(tool mcp.Tool) bool { return forView(tool.Name) })
		}
		for i, tool := range tools {
			if forView(tool.Name) {
				tools[i].Meta = mcp.NewMetaFromMap(map[string]any{"ui": map[string]any{"visibility": []any{"app"}}})
			}
		}
		return tools
	}
}

// viewAttempt is the view decision, recorded with findBestFlight's others.
func viewAttempt(c fallback.Client) fallback.Attempt {
	if !c.Known {
		return fallback.SkippedFor(stepView, fallback.UnknownClient, "cannot tell whether this client renders MCP Apps: a legacy request without an initialized session")
	}
	if !canShowView(c) {
		return fallback.SkippedFor(stepView, fallback.ClientCannotAsk, "client did not declare MCP Apps ("+UIExtension+" with "+ViewMIME+"): the text and structuredContent are the whole result")
	}
	return fallback.UsedBy(stepView, "the host renders the results view "+ViewURI+" beside the text", 0)
}

// viewResource is the view as a resource.
func viewResource() mcp.Resource {
	return mcp.NewResource(ViewURI, "Flight results",
		mcp.WithResourceDescription("An interactive view of findBestFlight's result: a fare calendar, the picks and every other option on timelines, sorted and filtered, how they were ranked, and holding and saving a flight."),
		mcp.WithMIMEType(ViewMIME))
}

// readView serves the page to a client that declared MCP Apps. Its _meta.ui
// asks for the strictest sandbox: no network origins at all (the page is
// self-contained) and a border.
func readView(clientOf func(context.Context) fallback.Client) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		if !canShowView(clientOf(ctx)) {
			return nil, fmt.Errorf("%s is an MCP App view: declare the %s extension with %s to read it", ViewURI, UIExtension, ViewMIME)
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI: ViewURI, MIMEType: ViewMIME, Text: string(web.ResultsHTML),
			Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}},
		}}, nil
	}
}

// offerView registers the view and shows it only to clients that declared
// the extension: the resource is dropped from other clients' listings.
// clientOf reads who the client is (Engine.Client).
func offerView(s *server.MCPServer, hooks *server.Hooks, clientOf func(context.Context) fallback.Client) {
	s.AddResource(viewResource(), readView(clientOf))
	hooks.AddAfterListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		if res == nil || canShowView(clientOf(ctx)) {
			return
		}
		res.Resources = slices.DeleteFunc(res.Resources, func(r mcp.Resource) bool { return r.URI == ViewURI })
	})
}
