// Package stdiopipe holds the pipe between a stdio MCP server's stdin and
// stdout and mcp-go's stdio server, for the three things that server does
// not do: bound a message, let the calls in flight finish when stdin ends,
// and tell when a subscriptions/listen acknowledgement is out.
//
// The contract, for a Pipe given to StdioServer.Listen as its reader and
// its writer:
//
//   - A line over the limit is never held in memory: it is skipped as it
//     arrives and answered with a JSON-RPC parse error that names the limit
//     (with the request's id when its first bytes carry it); the next line
//     is served as usual.
//   - The end of stdin reaches mcp-go only once every request read has been
//     answered (or cancelled by the client), the drain time has passed, or
//     the context has ended. Every question the server asks the client
//     after (or before, unanswered) the end is answered at once, in the
//     client's name, with an error, so the call falls back instead of
//     waiting out its timeout.
//   - Each message mcp-go writes goes out whole, never interleaved with the
//     pipe's own answers; Acked's channel for a listen request closes once
//     its acknowledgement has been written.
//
// It knows JSON-RPC and the MCP method names, nothing of the tools: the
// server hands Acked to the engine (fallback.WithAckSignal).
package stdiopipe
