package fallback_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
)

// fillsIn is a user who types their name into any form.
type fillsIn string

func (name fillsIn) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": string(name)}}}, nil
}

// A tool that asks its user one question. The handler is the same in both
// protocol eras; here a 2026-07-28 client answers the form through a retry
// the engine reads back, and the result says which path the call took.
func ExampleServe() {
	key, err := state.RandomKey()
	if err != nil {
		log.Fatal(err)
	}
	sealer, err := state.New(key, nil, 10*time.Minute, 4096)
	if err != nil {
		log.Fatal(err)
	}
	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: zerolog.Nop()})
	if err != nil {
		log.Fatal(err)
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("greeter", "1", server.WithHooks(hooks))
	engine.Attach(s, hooks)

	form := mcp.ElicitationParams{Message: "What is your name?", RequestedSchema: fallback.FormSchema{
		Properties: []fallback.FormField{{Name: "name", Schema: map[string]any{"type": "string"}}}, Required: []string{"name"}}}
	s.AddTool(mcp.NewTool("greet"), fallback.Serve(engine, fallback.Spec[struct{}]{
		Name: "greet", Steps: []string{"name_form"},
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			a := c.Ask(ctx, fallback.Question{Step: "name_form", Key: "name", Form: &form, Limit: 30 * time.Second})
			switch {
			case a.Pending != nil: // 2026-07-28: the question goes out as input_required
				return a.Pending
			case a.Failed(): // not declared, declined, cancelled, no time, ...
				c.Record(a.Attempt("name_form"))
				return c.Fail("no_name", "no name: "+a.Reason, &fallback.ToolError{Why: string(a.Why)})
			}
			// The answer is untrusted: read by the form's own names, each
			// field checked for its type.
			var answer struct {
				Name string `json:"name"`
			}
			if ps := fallback.DecodeForm(a.Answer.Content, &answer); len(ps) > 0 || answer.Name == "" {
				c.Record(fallback.FailedFor("name_form", fallback.UnusableAnswer, "the form gave no name", a.Elapsed))
				return c.Fail("no_name", "no name in the form", nil)
			}
			c.Record(fallback.UsedBy("name_form", "the user gave their name", a.Elapsed))
			res := mcp.NewToolResultText("Hello, " + answer.Name)
			res.StructuredContent = map[string]any{"attempts": fallback.AttemptsOut(c.Attempts())}
			return res
		},
	}))

	c, err := client.NewInProcessClientWithOptions(s, client.WithProtocolVersion(mcp.ProtocolVersion20260728),
		client.WithElicitationHandler(fillsIn("Ada")))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "example", Version: "1"}}}); err != nil {
		log.Fatal(err)
	}
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "greet"}})
	if err != nil {
		log.Fatal(err)
	}
	attempts := res.StructuredContent.(map[string]any)["attempts"].([]any)
	first := attempts[0].(map[string]any)
	fmt.Println(res.Content[0].(mcp.TextContent).Text)
	fmt.Println(first["step"], first["outcome"])
	// Output:
	// Hello, Ada
	// name_form used
}
