package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
)

// step is the pause between a fixture's notifications, so a client sees
// them arrive during the call rather than with its result.
const step = 50 * time.Millisecond

// addNotifyingTools adds the tools that send notifications while they run,
// and the two that change a list for the clients listening to it.
func (f *fixtures) addNotifyingTools() {
	withLogs := func(name, description, done string, messages ...string) {
		f.add(mcp.NewTool(name, mcp.WithDescription(description)), func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			for i, m := range messages {
				if i > 0 {
					time.Sleep(step)
				}
				c.LogToClient(ctx, mcp.LoggingLevelInfo, "conformance-fixtures", m)
			}
			return mcp.NewToolResultText(done)
		})
	}
	withLogs("test_tool_with_logging", "Tests tool that emits log messages during execution", "Tool with logging executed successfully",
		"Tool execution started", "Tool processing data", "Tool execution completed")
	// Sends a message only a client that asked for logs gets: in
	// 2026-07-28, one whose request names a logLevel.
	withLogs("test_logging_tool", "Sends one log message, which only a client that asked for logs gets", "Logging evaluated",
		"Diagnostic trace logging activated")

	f.add(mcp.NewTool("test_tool_with_progress", mcp.WithDescription("Tests tool that reports progress notifications")),
		func(ctx context.Context, c *fallback.Call) *mcp.CallToolResult {
			for i, done := range []float64{0, 50, 100} {
				if i > 0 {
					time.Sleep(step)
				}
				c.Progress(ctx, done, 100, fmt.Sprintf("Completed step %g of 100", done))
			}
			return mcp.NewToolResultText("progress reported")
		})

	// The suite's hooks to see list changes delivered: mcp-go sends the
	// notification to every 2025-11-25 session and to every 2026-07-28
	// subscriptions/listen stream whose filter asked for it.
	f.add(mcp.NewTool("test_trigger_tool_change", mcp.WithDescription("Tells listeners that the tool list changed")),
		func(context.Context, *fallback.Call) *mcp.CallToolResult {
			f.mcp.SendNotificationToAllClients(string(mcp.MethodNotificationToolsListChanged), nil)
			return mcp.NewToolResultText("Mutation triggered")
		})
	f.add(mcp.NewTool("test_trigger_prompt_change", mcp.WithDescription("Tells listeners that the prompt list changed")),
		func(context.Context, *fallback.Call) *mcp.CallToolResult {
			f.mcp.SendNotificationToAllClients(string(mcp.MethodNotificationPromptsListChanged), nil)
			return mcp.NewToolResultText("Mutation triggered")
		})
}
