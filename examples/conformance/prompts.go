package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addPrompts adds the suite's prompts.
func (f *fixtures) addPrompts() {
	user := func(c mcp.Content) mcp.PromptMessage { return mcp.PromptMessage{Role: mcp.RoleUser, Content: c} }
	f.mcp.AddPrompt(mcp.NewPrompt("test_simple_prompt", mcp.WithPromptTitle("Simple Test Prompt"), mcp.WithPromptDescription("A simple prompt without arguments")),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{user(mcp.NewTextContent("This is a simple prompt for testing."))}), nil
		})
	f.mcp.AddPrompt(mcp.NewPrompt("test_prompt_with_arguments", mcp.WithPromptTitle("Prompt With Arguments"), mcp.WithPromptDescription("A prompt with required arguments"),
		mcp.WithArgument("arg1", mcp.ArgumentDescription("First test argument"), mcp.RequiredArgument()),
		mcp.WithArgument("arg2", mcp.ArgumentDescription("Second test argument"), mcp.RequiredArgument())),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			args := req.Params.Arguments
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{user(mcp.NewTextContent(
				fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"])))}), nil
		})
	f.mcp.AddPrompt(mcp.NewPrompt("test_prompt_with_embedded_resource", mcp.WithPromptTitle("Prompt With Embedded Resource"),
		mcp.WithPromptDescription("A prompt that includes an embedded resource"),
		mcp.WithArgument("resourceUri", mcp.ArgumentDescription("URI of the resource to embed"), mcp.RequiredArgument())),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{
				user(mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."})),
				user(mcp.NewTextContent("Please process the embedded resource above.")),
			}), nil
		})
	f.mcp.AddPrompt(mcp.NewPrompt("test_prompt_with_image", mcp.WithPromptTitle("Prompt With Image"), mcp.WithPromptDescription("A prompt that includes image content")),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{
				user(mcp.NewImageContent(testImage, "image/png")),
				user(mcp.NewTextContent("Please analyze the image above.")),
			}), nil
		})

	// A prompt that needs the user first. The engine's asking is a tool
	// call's (fallback.Call); a prompt asks through mcp-go's own
	// multi round-trip builder, which serves 2025-11-25 clients by
	// asking them directly.
	asked := mcp.ElicitationParams{Message: "What context should the prompt use?", RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{"context": map[string]any{"type": "string"}}, "required": []string{"context"}}}
	f.mcp.AddPrompt(mcp.NewPrompt("test_input_required_result_prompt", mcp.WithPromptDescription("MRTR: prompt that requires elicitation input")),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			answer := server.ElicitationResponse(req.Params.InputResponses, "user_context")
			if answer == nil || answer.Action != mcp.ElicitationResponseActionAccept {
				return server.NewInputRequestBuilder("").Elicit("user_context", asked).PromptResult(), nil
			}
			content, _ := answer.Content.(map[string]any) // any shape a client sends: not a map is no context
			given, _ := content["context"].(string)
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{user(mcp.NewTextContent("Prompt with context: " + given))}), nil
		})
}

// completions answers completion/complete for prompt arguments: the
// suite's values, filtered by what was typed.
type completions struct{}

func (completions) CompletePromptArgument(_ context.Context, _ string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	var values []string
	for _, v := range []string{"paris", "park", "party"} {
		if strings.HasPrefix(v, arg.Value) {
			values = append(values, v)
		}
	}
	if values == nil {
		values = []string{}
	}
	return &mcp.Completion{Values: values, Total: len(values)}, nil
}
