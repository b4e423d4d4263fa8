// Package fallback is the engine an MCP tool runs on when what it would
// like to use may not be there: the client's model (sampling), the user
// (forms, confirmations), the client's directories (roots), a server-side
// LLM. It asks for each in the way the client's protocol era asks, within
// a bounded time, and says which path each call took and why, in one
// vocabulary (Why, Attempt; fallback.go).
//
// # The pattern
//
// A tool is a Spec: its name, the steps at which it may ask the client
// something, and a handler. Serve turns it into the handler mcp-go calls;
// an Engine (New, then Attach to the server) holds what every call shares:
// the sealer of modern rounds' state, the metrics, the call budget, the
// progress interval, and what it keeps per legacy session.
//
//	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: log})
//	engine.Attach(s, hooks)
//	s.AddTool(tool, fallback.Serve(engine, fallback.Spec[struct{}]{
//		Name: "greet", Steps: []string{"name_form"},
//		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
//			a := c.Ask(ctx, fallback.Question{Step: "name_form", Key: "name", Form: &form, Limit: 30 * time.Second})
//			switch {
//			case a.Pending != nil: // modern era: the question goes out as input_required
//				return a.Pending
//			case a.Failed(): // not declared, declined, cancelled, no time, ...
//				c.Record(a.Attempt("name_form"))
//				return c.Fail("no_name", "no name: "+a.Reason, &fallback.ToolError{Why: string(a.Why)})
//			}
//			c.Record(fallback.UsedBy("name_form", "the user gave their name", a.Elapsed))
//			return greeting(a.Answer.Content, fallback.AttemptsOut(c.Attempts()))
//		},
//	}))
//
// ExampleServe is this tool whole, run against a real client.
//
// The handler reads as the tool's decisions. Everything every tool does
// alike happens once, in Serve and Call.Ask:
//
//   - the call budget (Config.CallBudget) bounds the whole call, and every
//     wait inside it gets only what is left less AnswerReserve (Waitable),
//     so a call always has time to say what happened;
//   - a client is never asked for what it did not declare (Client.CannotAsk:
//     the one place that decides, per request, in both eras);
//   - 2025-11-25 (legacy): the question is a request of the server's own
//     while the call waits, with progress notifications, a bound on the
//     questions one session may have waiting, and every error the client
//     answers classified into a Why;
//   - 2026-07-28 (modern): the question is an input_required result whose
//     requestState (package fallback/state) is signed and bound to the tool,
//     the arguments and the step; the handler's own state S and the attempts
//     so far travel in it, and the retry resumes at the question it answers
//     (Call.Resuming). A state that cannot be used is refused with an
//     isError that says how to start over; a chain of rounds asks at most
//     MaxRounds questions;
//   - every decision is recorded once (Call.Record) into the result, the
//     metrics, the trace and the log, and an isError carries the same
//     attempts and a machine-readable ToolError in _meta, under the
//     server's own key (Config.ErrorMetaKey).
//
// A tool that tries several ways in order (a ladder of rungs) records one
// Attempt per rung: used, skipped (could not apply here) or failed (tried,
// nothing usable; the next rung runs). The engine knows nothing of what a
// tool does; package tools (the flight tools) is its first user, and its
// own tests run a one-question tool without flights, in both eras
// (engine_test.go).
//
// A ladder is that, in order: rungs of one shape (Rung), each a named type,
// walked by Walk, which applies the rules every rung shares (the
// operator's settings, what the client declared, nothing to rank, no time
// left) and resumes a modern retry at the rung whose question it answers.
// A tool's schemas come from its Go types (DefineTool, SchemaFor), and a
// form's fields go out in the order given (FormSchema). The same types'
// json tags read what comes back: DecodeArguments reads a call's arguments
// and DecodeForm an accepted form's content, leniently where the meaning
// is plain, and with a Problem per field (and per unknown argument) where
// it is not (args.go).
//
// A tool that needs several answers before it can go on asks them at once
// (Call.AskAll: one round in 2026-07-28), and tells the client how it is
// going with Call.Progress and Call.LogToClient (notify.go).
//
// The engine also holds the transport-level pieces the eras need on
// streamable HTTP: GETStreams (which legacy sessions can receive sampling
// and roots requests), the subscriptions/listen acknowledgement
// (AckSignal), and ProtocolErrors, the opt-in layer that answers the two
// refusals 2026-07-28 makes JSON-RPC errors. examples/conformance is a
// second server on the engine: the conformance suite's fixtures.
package fallback
