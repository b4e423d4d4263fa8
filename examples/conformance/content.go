package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
)

// The fixtures' media: a 1x1 red PNG and a minimal WAV, the suite's own.
const (
	testImage = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	testAudio = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

// add serves a tool that keeps no state across rounds through the engine:
// every call gets the budget, the one log line and the era read once.
func (f *fixtures) add(tool mcp.Tool, handle func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult, steps ...string) {
	f.mcp.AddTool(tool, fallback.Serve(f.engine, fallback.Spec[struct{}]{
		Name: tool.Name, Steps: steps,
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult { return handle(ctx, c) },
	}))
}

// fixed is a handler that answers res, whoever calls.
func fixed(res func() *mcp.CallToolResult) func(context.Context, *fallback.Call) *mcp.CallToolResult {
	return func(context.Context, *fallback.Call) *mcp.CallToolResult { return res() }
}

// addContentTools adds the tools that answer a fixed content of each type.
func (f *fixtures) addContentTools() {
	f.add(mcp.NewTool("test_simple_text", mcp.WithDescription("Tests simple text content response")),
		fixed(func() *mcp.CallToolResult {
			return mcp.NewToolResultText("This is a simple text response for testing.")
		}))
	f.add(mcp.NewTool("test_image_content", mcp.WithDescription("Tests image content response")),
		fixed(func() *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent(testImage, "image/png")}}
		}))
	f.add(mcp.NewTool("test_audio_content", mcp.WithDescription("Tests audio content response")),
		fixed(func() *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewAudioContent(testAudio, "audio/wav")}}
		}))
	f.add(mcp.NewTool("test_embedded_resource", mcp.WithDescription("Tests embedded resource content response")),
		fixed(func() *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewEmbeddedResource(mcp.TextResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."})}}
		}))
	f.add(mcp.NewTool("test_multiple_content_types", mcp.WithDescription("Tests response with multiple content types (text, image, resource)")),
		fixed(func() *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("Multiple content types test:"),
				mcp.NewImageContent(testImage, "image/png"),
				mcp.NewEmbeddedResource(mcp.TextResourceContents{
					URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}),
			}}
		}))
	f.add(mcp.NewTool("test_error_handling", mcp.WithDescription("Tests error response handling")),
		func(_ context.Context, c *fallback.Call) *mcp.CallToolResult {
			return c.Fail("intentional", "This tool intentionally returns an error for testing", nil)
		})
	f.mcp.AddTool(mcp.NewToolWithRawSchema("json_schema_2020_12_tool",
		"Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)", jsonSchema202012),
		fallback.Serve(f.engine, fallback.Spec[struct{}]{Name: "json_schema_2020_12_tool",
			Handle: func(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
				return mcp.NewToolResultText("JSON Schema 2020-12 tool called")
			}}))
	// A parameter that travels in a header too (SEP-2243): mcp-go checks
	// that the Mcp-Param-Region header and the argument agree.
	f.mcp.AddTool(mcp.NewToolWithRawSchema("test_header_param",
		"Echoes its region, which a 2026-07-28 client also sends as the Mcp-Param-Region header", []byte(`{
  "type": "object",
  "properties": {"region": {"type": "string", "description": "Where to answer from", "x-mcp-header": "Region"}},
  "required": ["region"]
}`)), fallback.Serve(f.engine, fallback.Spec[struct{}]{Name: "test_header_param",
		Handle: func(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			req := c.Request()
			return mcp.NewToolResultText("region: " + req.GetString("region", ""))
		}}))
}

// jsonSchema202012 is an input schema that uses the 2020-12 vocabulary
// (SEP-1613, SEP-2106), published as written.
var jsonSchema202012 = []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`)
