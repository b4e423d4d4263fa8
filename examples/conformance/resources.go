package main

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// addResources adds the suite's resources: two static ones, a template and
// one a client may subscribe to. Subscriptions, not-found errors and
// caching hints are mcp-go's.
func (f *fixtures) addResources() {
	static := func(uri, name, title, description, mime string, contents mcp.ResourceContents) {
		f.mcp.AddResource(mcp.NewResource(uri, name, mcp.WithResourceTitle(title), mcp.WithResourceDescription(description), mcp.WithMIMEType(mime)),
			func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{contents}, nil
			})
	}
	static("test://static-text", "static-text", "Static Text Resource", "A static text resource for testing", "text/plain",
		mcp.TextResourceContents{URI: "test://static-text", MIMEType: "text/plain", Text: "This is the content of the static text resource."})
	static("test://static-binary", "static-binary", "Static Binary Resource", "A static binary resource (image) for testing", "image/png",
		mcp.BlobResourceContents{URI: "test://static-binary", MIMEType: "image/png", Blob: testImage})
	static("test://watched-resource", "watched-resource", "Watched Resource", "A resource a client may subscribe to", "text/plain",
		mcp.TextResourceContents{URI: "test://watched-resource", MIMEType: "text/plain", Text: "Watched resource content"})

	f.mcp.AddResourceTemplate(mcp.NewResourceTemplate("test://template/{id}/data", "template",
		mcp.WithTemplateDescription("A resource template with parameter substitution"), mcp.WithTemplateMIMEType("application/json")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			id := strings.TrimSuffix(strings.TrimPrefix(req.Params.URI, "test://template/"), "/data")
			body, err := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)}}, nil
		})
}
