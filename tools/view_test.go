package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// declaresView is a client that renders MCP Apps.
var declaresView = client.WithClientCapabilities(mcp.ClientCapabilities{Extensions: map[string]any{
	UIExtension: map[string]any{"mimeTypes": []any{ViewMIME}},
}})

// The results view is negotiated per request like every other capability:
// only a client that declared MCP Apps sees the link, the resource and a
// view attempt marked used; every other client sees the tools exactly as
// before, and its result is the same.
func TestViewOnlyForClientsThatDeclareIt(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			for _, declared := range []bool{true, false} {
				name := via + "/" + era.name + "/not declared"
				var opts []client.ClientOption
				if declared {
					name, opts = via+"/"+era.name+"/declared", []client.ClientOption{declaresView}
				}
				t.Run(name, func(t *testing.T) {
					c := connect(t, newServer(t), via, era.version, opts...)
					ctx := context.Background()
					list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
					if err != nil {
						t.Fatal(err)
					}
					b, _ := json.Marshal(list.Tools)
					if got := strings.Contains(string(b), ViewURI); got != declared {
						t.Errorf("tools/list mentions %s: %v, want %v", ViewURI, got, declared)
					}
					for _, tool := range list.Tools {
						meta, _ := json.Marshal(tool.Meta)
						if declared && tool.Name == FindBestFlightName && (!strings.Contains(string(meta), `"ui":{"resourceUri":"`+ViewURI+`"}`) || !strings.Contains(string(meta), `"ui/resourceUri":"`+ViewURI+`"`)) {
							t.Errorf("findBestFlight _meta %s", meta)
						}
						if !declared && strings.Contains(string(meta), "ui") {
							t.Errorf("%s carries ui metadata for a client without the extension: %s", tool.Name, meta)
						}
					}
					resources, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
					if err != nil {
						t.Fatal(err)
					}
					offered := len(resources.Resources) == 1 && resources.Resources[0].URI == ViewURI && resources.Resources[0].MIMEType == ViewMIME
					if offered != declared || (!declared && len(resources.Resources) != 0) {
						t.Errorf("resources %+v", resources.Resources)
					}
					read, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: ViewURI}})
					if declared {
						if err != nil || len(read.Contents) != 1 {
							t.Fatalf("read: %v %+v", err, read)
						}
						tc, ok := read.Contents[0].(mcp.TextResourceContents)
						if !ok || tc.MIMEType != ViewMIME || !strings.HasPrefix(tc.Text, "<!doctype html>") || tc.Meta["ui"] == nil {
							t.Errorf("contents: %T mime %q, meta %v, %.40q", read.Contents[0], tc.MIMEType, tc.Meta, tc.Text)
						}
					} else if err == nil {
						t.Error("the view was served to a client that did not declare MCP Apps")
					}

					var r FindResult
					decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
					view := r.Attempts[len(r.Attempts)-1]
					if want := map[bool]string{true: "used", false: "skipped"}[declared]; view.Step != stepView || view.Outcome != want {
						t.Errorf("view attempt %+v, want %s", view, want)
					}
					// The view adds; the text and the data are whole for everyone.
					if len(r.Flights) != 3 || !strings.Contains(text(callTool(t, c, FindBestFlightName, jfkLHR)), r.Flights[0].ID) {
						t.Error("the result is not complete without the view")
					}
				})
			}
		}
	}
}

// The server says it serves MCP Apps, as the extension asks.
func TestServerDeclaresTheExtension(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	if _, ok := c.GetServerCapabilities().Extensions[UIExtension]; !ok {
		t.Errorf("server capabilities %+v lack %s", c.GetServerCapabilities(), UIExtension)
	}
}
