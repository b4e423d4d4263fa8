package fallback

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A tool tells its client how a call is going with two notifications: progress
// (to a request that carried a progress token) and log messages (at or
// above the level the client asked for: logging/setLevel in 2025-11-25,
// the request's _meta logLevel in 2026-07-28, where asking for none means
// none). Both go out on the call's own response stream, in either era.
//
// mcp-go v1.2.1 can drop a notification sent just before the handler
// returns: its forwarder takes the notification off the session's queue,
// then waits for the response writer, and finds the response already
// written (the mcp-go conformance baseline lists the scenarios this makes
// flaky). A notification still on the queue when the handler returns is
// safe (mcp-go drains the queue onto the response before writing it); one
// the forwarder has taken but not yet written is the one lost. So after
// each notification the call waits until the queue is empty (a reader has
// taken it, however long a loaded machine took to run that reader; at
// most notifyTaken), then gives the write notifySettle. A call sends a
// handful, so the cost is a few milliseconds a call that reports.

// notifyTaken bounds the wait for a reader to take a notification off the
// session's queue (a legacy session whose streams are all gone has none).
// A variable only so that a test can lengthen it.
var notifyTaken = 500 * time.Millisecond

// notifySettle is how long a notification a reader has taken is given to
// reach its stream before the call goes on.
const notifySettle = 15 * time.Millisecond

// Progress reports progress on the call (done of total, with a message for
// people), if its request carried a progress token; it reports whether it
// sent one.
func (c *Call) Progress(ctx context.Context, done, total float64, message string) bool {
	meta := c.req.Params.Meta
	if meta == nil || meta.ProgressToken == nil {
		return false
	}
	params := map[string]any{"progressToken": meta.ProgressToken, "progress": done, "message": message}
	if total > 0 {
		params["total"] = total
	}
	sendSettled(ctx, func(srv *server.MCPServer) error {
		return srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
	})
	return true
}

// LogToClient sends the client a log message from logger at level, if the
// client asked for messages at that level.
func (c *Call) LogToClient(ctx context.Context, level mcp.LoggingLevel, logger string, data any) {
	sendSettled(ctx, func(srv *server.MCPServer) error {
		return srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, logger, data))
	})
}

// sendSettled sends a notification on the server serving ctx, best effort
// (a dropped notification costs nothing), and gives it notifySettle.
func sendSettled(ctx context.Context, send func(*server.MCPServer) error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return
	}
	if send(srv) != nil {
		return
	}
	if session := server.ClientSessionFromContext(ctx); session != nil {
		queue := session.NotificationChannel()
		for deadline := time.Now().Add(notifyTaken); len(queue) > 0 && ctx.Err() == nil && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	t := time.NewTimer(notifySettle)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
