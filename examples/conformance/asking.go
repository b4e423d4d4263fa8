package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
)

// The tools here ask the client something: its model (sampling), its user
// (a form) or its directories (roots), one question or several at once.
// Each asks through the engine only (Call.Ask, Call.AskAll), so one handler
// serves both eras: a 2025-11-25 session gets a request of the server's own
// while the call waits; a 2026-07-28 client gets input_required with a
// sealed requestState, and its retry resumes at the question it answers.
// None of them checks a capability or an era itself.

// askLimit bounds how long a 2025-11-25 client may take to answer.
const askLimit = 20 * time.Second

// field is one field of a form.
func field(name string, schema map[string]any) fallback.FormField {
	return fallback.FormField{Name: name, Schema: schema}
}

// formOf is a form asking message, its fields in order.
func formOf(message string, required []string, fields ...fallback.FormField) *mcp.ElicitationParams {
	return &mcp.ElicitationParams{Message: message, RequestedSchema: fallback.FormSchema{Properties: fields, Required: required}}
}

// rawForm is a form whose schema is sent exactly as written: the fixtures
// that test what a schema may say (defaults, enums) need every keyword kept.
func rawForm(message string, schema string) *mcp.ElicitationParams {
	return &mcp.ElicitationParams{Message: message, RequestedSchema: json.RawMessage(schema)}
}

// prompt is a sampling request of one user message.
func prompt(text string, maxTokens int) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}},
		MaxTokens: maxTokens,
	}
}

// Field schemas.
var (
	text  = map[string]any{"type": "string"}
	yesNo = map[string]any{"type": "boolean"}
)

// described is a text field with a description.
func described(description string) map[string]any {
	return map[string]any{"type": "string", "description": description}
}

// failed records a question that got no usable answer and says so.
func failed(c *fallback.Call, step string, a fallback.Asked) *mcp.CallToolResult {
	c.Record(a.Attempt(step))
	return c.Fail("not_answered", fmt.Sprintf("The %s question got no answer: %s.", step, a.Reason), &fallback.ToolError{Why: string(a.Why)})
}

// ask puts q to the client and returns its answer, or else the result to
// answer the call with: the question itself (2026-07-28), or why it got no
// answer.
func ask(ctx context.Context, c *fallback.Call, q fallback.Question) (*fallback.Answer, *mcp.CallToolResult) {
	a := c.Ask(ctx, q)
	switch {
	case a.Pending != nil:
		return nil, a.Pending
	case a.Failed():
		return nil, failed(c, q.Step, a)
	}
	answered(c, q.Step, a)
	return a.Answer, nil
}

// answered records a question's answer as the step used.
func answered(c *fallback.Call, step string, a fallback.Asked) {
	c.Record(fallback.UsedBy(step, "the client answered", a.Elapsed))
}

// formAction is a form's outcome as the suite's fixtures report it: the
// user's action and what they typed. Declining and dismissing are answers
// too; anything else (not declared, no answer in time) is not.
func formAction(a fallback.Asked) (action string, content any, ok bool) {
	switch {
	case a.Answer != nil:
		return "accept", a.Answer.Content, true
	case a.Why == fallback.UserDeclined:
		return "decline", map[string]any{}, true
	case a.Why == fallback.UserCancelled:
		return "cancel", map[string]any{}, true
	}
	return "", nil, false
}

// compact is v as JSON, for a fixture's text.
func compact(v any) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// sampled is the text a model wrote ("" when it wrote none). The answer is
// untrusted: a 2026-07-28 retry carries it as plain JSON, read here as
// sampling content of any shape mcp-go knows.
func sampled(res *mcp.CreateMessageResult) string {
	if res == nil {
		return ""
	}
	parsed, err := mcp.ParseSamplingContent(res.Content)
	if err != nil {
		return ""
	}
	blocks := []any{parsed}
	if list, ok := parsed.([]mcp.Content); ok {
		blocks = blocks[:0]
		for _, b := range list {
			blocks = append(blocks, b)
		}
	}
	var text strings.Builder
	for _, b := range blocks {
		if tc, ok := mcp.AsTextContent(b); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String()
}

// formTool is a tool that shows one form and reports the user's action.
func (f *fixtures) formTool(tool mcp.Tool, label string, form func(c *fallback.Call) *mcp.ElicitationParams) {
	f.add(tool, func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
		a := c.Ask(ctx, fallback.Question{Step: "form", Key: "form", Form: form(c), Limit: askLimit, Waiting: "waiting for the user"})
		if a.Pending != nil {
			return a.Pending
		}
		action, content, ok := formAction(a)
		if !ok {
			return failed(c, "form", a)
		}
		answered(c, "form", a)
		return mcp.NewToolResultText(fmt.Sprintf("%s: action=%s, content=%s", label, action, compact(content)))
	}, "form")
}

// addAskingTools adds the tools that ask the client.
func (f *fixtures) addAskingTools() {
	f.add(mcp.NewTool("test_sampling", mcp.WithDescription("Tests server-initiated sampling (LLM completion request)"),
		mcp.WithString("prompt", mcp.Required(), mcp.Description("The prompt to send to the LLM"))),
		func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			req := c.Request()
			answer, res := ask(ctx, c, fallback.Question{Step: "sampling", Key: "sampling", Sampling: prompt(req.GetString("prompt", ""), 100),
				Limit: askLimit, Waiting: "waiting for the client's model"})
			if res != nil {
				return res
			}
			return mcp.NewToolResultText("LLM response: " + sampled(answer.Sampling))
		}, "sampling")

	f.formTool(mcp.NewTool("test_elicitation", mcp.WithDescription("Tests server-initiated elicitation (user input request)"),
		mcp.WithString("message", mcp.Required(), mcp.Description("The message to show the user"))),
		"User response", func(c *fallback.Call) *mcp.ElicitationParams {
			req := c.Request()
			return formOf(req.GetString("message", ""), []string{"username", "email"},
				field("username", described("User's response")), field("email", described("User's email address")))
		})
	f.formTool(mcp.NewTool("test_elicitation_sep1034_defaults", mcp.WithDescription("Tests elicitation with default values per SEP-1034")),
		"Elicitation completed", func(*fallback.Call) *mcp.ElicitationParams {
			return rawForm("Please review and update the form fields with defaults", `{"type":"object","properties":{
				"name":{"type":"string","description":"User name","default":"John Doe"},
				"age":{"type":"integer","description":"User age","default":30},
				"score":{"type":"number","description":"User score","default":95.5},
				"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
				"verified":{"type":"boolean","description":"Verification status","default":true}},"required":[]}`)
		})
	f.formTool(mcp.NewTool("test_elicitation_sep1330_enums", mcp.WithDescription("Tests elicitation with enum schema improvements per SEP-1330")),
		"Elicitation completed", func(*fallback.Call) *mcp.ElicitationParams {
			return rawForm("Please select options from the enum fields", `{"type":"object","properties":{
				"untitledSingle":{"type":"string","description":"Select one option","enum":["option1","option2","option3"]},
				"titledSingle":{"type":"string","description":"Select one option with titles","oneOf":[
					{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},
				"legacyEnum":{"type":"string","description":"Select one option (legacy)","enum":["opt1","opt2","opt3"],
					"enumNames":["Option One","Option Two","Option Three"]},
				"untitledMulti":{"type":"array","description":"Select multiple options","minItems":1,"maxItems":3,
					"items":{"type":"string","enum":["option1","option2","option3"]}},
				"titledMulti":{"type":"array","description":"Select multiple options with titles","minItems":1,"maxItems":3,
					"items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}},
				"required":[]}`)
		})
	f.formTool(mcp.NewTool("test_streaming_elicitation", mcp.WithDescription(
		"Asks the user to confirm: a 2026-07-28 client gets input_required, never a request of the server's own on the response stream")),
		"Streaming complete", func(*fallback.Call) *mcp.ElicitationParams {
			return formOf("Continue?", []string{"ok"}, field("ok", yesNo))
		})

	// A tool that only asks is useless to a client that cannot answer: a
	// modern client that does not declare sampling gets -32021 before the
	// call starts (fallback.Engine.ProtocolErrors), a legacy one an isError.
	f.required["test_missing_capability"] = []fallback.AskKind{fallback.AskSampling}
	f.add(mcp.NewTool("test_missing_capability", mcp.WithDescription("Test tool requiring sampling: asks the client's model to say hello")),
		func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			answer, res := ask(ctx, c, fallback.Question{Step: "sampling", Key: "hello", Sampling: prompt("Say hello", 20), Limit: askLimit})
			if res != nil {
				return res
			}
			return mcp.NewToolResultText("Success: " + sampled(answer.Sampling))
		}, "sampling")

	f.addInputRequiredTools()
}

// one is a tool that asks one question and answers with what reply makes
// of the answer.
func (f *fixtures) one(name, description string, q fallback.Question, reply func(c *fallback.Call, a *fallback.Answer) *mcp.CallToolResult) {
	f.add(mcp.NewTool(name, mcp.WithDescription(description)), func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
		answer, res := ask(ctx, c, q)
		if res != nil {
			return res
		}
		return reply(c, answer)
	}, q.Step)
}

// addInputRequiredTools adds the fixtures of the 2026-07-28 multi
// round-trip scenarios (SEP-2322). They work in 2025-11-25 too: the engine
// asks those clients directly.
func (f *fixtures) addInputRequiredTools() {
	name := formOf("What is your name?", []string{"name"}, field("name", text))
	confirm := formOf("Please confirm", []string{"ok"}, field("ok", yesNo))

	f.one("test_input_required_result_elicitation", "MRTR: returns InputRequiredResult with elicitation request",
		fallback.Question{Step: "user_name", Key: "user_name", Form: name, Limit: askLimit},
		func(c *fallback.Call, a *fallback.Answer) *mcp.CallToolResult {
			var got struct {
				Name string `json:"name"`
			}
			if problems := fallback.DecodeForm(a.Content, &got); len(problems) > 0 || got.Name == "" {
				return c.Fail("no_name", "The form gave no name.", &fallback.ToolError{Fields: problems})
			}
			return mcp.NewToolResultText("Hello, " + got.Name + "!")
		})
	f.one("test_input_required_result_sampling", "MRTR: returns InputRequiredResult with sampling request",
		fallback.Question{Step: "capital_question", Key: "capital_question", Sampling: prompt("What is the capital of France?", 100), Limit: askLimit},
		func(_ *fallback.Call, a *fallback.Answer) *mcp.CallToolResult {
			return mcp.NewToolResultText("Sampling result: " + sampled(a.Sampling))
		})
	f.one("test_input_required_result_list_roots", "MRTR: returns InputRequiredResult with roots/list request",
		fallback.Question{Step: "client_roots", Key: "client_roots", Roots: true, Limit: askLimit},
		func(_ *fallback.Call, a *fallback.Answer) *mcp.CallToolResult {
			return mcp.NewToolResultText(fmt.Sprintf("Found %d root(s)", len(a.Roots)))
		})
	confirmed := func(ok string) func(c *fallback.Call, a *fallback.Answer) *mcp.CallToolResult {
		return func(c *fallback.Call, a *fallback.Answer) *mcp.CallToolResult {
			var got struct {
				OK bool `json:"ok"`
			}
			if problems := fallback.DecodeForm(a.Content, &got); len(problems) > 0 || !got.OK {
				return c.Fail("not_confirmed", "The user did not confirm.", &fallback.ToolError{Why: string(fallback.NotConfirmed), Fields: problems})
			}
			return mcp.NewToolResultText(ok)
		}
	}
	f.one("test_input_required_result_request_state", "MRTR: returns InputRequiredResult with requestState",
		fallback.Question{Step: "confirm", Key: "confirm", Form: confirm, Limit: askLimit}, confirmed("state-ok: requestState validated"))
	f.one("test_input_required_result_tampered_state", "MRTR: HMAC-signed requestState integrity test",
		fallback.Question{Step: "confirm", Key: "confirm", Form: confirm, Limit: askLimit}, confirmed("integrity-ok: state verified"))

	f.add(mcp.NewTool("test_input_required_result_multiple_inputs", mcp.WithDescription("MRTR: returns InputRequiredResult with multiple input requests")),
		func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			qs := []fallback.Question{
				{Step: "user_name", Key: "user_name", Form: name, Limit: askLimit},
				{Step: "greeting", Key: "greeting", Sampling: prompt("Generate a greeting", 50), Limit: askLimit},
				{Step: "client_roots", Key: "client_roots", Roots: true, Limit: askLimit},
			}
			asked, pending := c.AskAll(ctx, qs...)
			if pending != nil {
				return pending
			}
			for i, a := range asked {
				if a.Failed() {
					return failed(c, qs[i].Step, a)
				}
				answered(c, qs[i].Step, a)
			}
			var got struct {
				Name string `json:"name"`
			}
			fallback.DecodeForm(asked[0].Answer.Content, &got)
			return mcp.NewToolResultText(fmt.Sprintf("Name: %s; Greeting: %s; Roots: %d", got.Name, sampled(asked[1].Answer.Sampling), len(asked[2].Answer.Roots)))
		}, "user_name")

	f.add(mcp.NewTool("test_input_required_result_capabilities", mcp.WithDescription("MRTR: respects client capabilities in inputRequests")),
		func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			qs := []fallback.Question{
				{Step: "elicit_input", Key: "elicit_input", Form: formOf("Elicitation input", []string{"value"}, field("value", text)), Limit: askLimit},
				{Step: "sample_input", Key: "sample_input", Sampling: prompt("Sample request", 50), Limit: askLimit},
			}
			asked, pending := c.AskAll(ctx, qs...)
			if pending != nil {
				return pending
			}
			var received []string
			for i, a := range asked {
				if a.Failed() {
					c.Record(a.Attempt(qs[i].Step))
					continue
				}
				answered(c, qs[i].Step, a)
				received = append(received, qs[i].Key)
			}
			if len(received) == 0 {
				return mcp.NewToolResultText("No supported capabilities declared")
			}
			return mcp.NewToolResultText("capabilities-ok: received " + strings.Join(received, ","))
		}, "elicit_input")

	// Two rounds, each a question; the first answer travels in the
	// tool's own state, sealed into the second question's requestState.
	type rounds struct {
		Name string `json:"name,omitempty"`
	}
	f.mcp.AddTool(mcp.NewTool("test_input_required_result_multi_round", mcp.WithDescription("MRTR: multi-round InputRequiredResult workflow")),
		fallback.Serve(f.engine, fallback.Spec[rounds]{Name: "test_input_required_result_multi_round", Steps: []string{"step1", "step2"},
			Handle: func(ctx context.Context, c *fallback.Call, st *rounds) *mcp.CallToolResult {
				if st.Name == "" {
					answer, res := ask(ctx, c, fallback.Question{Step: "step1", Key: "step1", Limit: askLimit,
						Form: formOf("Step 1: What is your name?", []string{"name"}, field("name", text))})
					if res != nil {
						return res
					}
					var got struct {
						Name string `json:"name"`
					}
					if problems := fallback.DecodeForm(answer.Content, &got); len(problems) > 0 || got.Name == "" {
						return c.Fail("no_name", "Step 1 gave no name.", &fallback.ToolError{Fields: problems})
					}
					st.Name = got.Name
				}
				answer, res := ask(ctx, c, fallback.Question{Step: "step2", Key: "step2", Limit: askLimit,
					Form: formOf("Step 2: What is your favorite color?", []string{"color"}, field("color", text))})
				if res != nil {
					return res
				}
				var got struct {
					Color string `json:"color"`
				}
				if problems := fallback.DecodeForm(answer.Content, &got); len(problems) > 0 || got.Color == "" {
					return c.Fail("no_color", "Step 2 gave no color.", &fallback.ToolError{Fields: problems})
				}
				return mcp.NewToolResultText(fmt.Sprintf("Multi-round complete for %s who likes %s", st.Name, got.Color))
			}}))
}
