package fallback

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// unreadSession is a session whose notifications nobody reads.
type unreadSession struct{ queue chan mcp.JSONRPCNotification }

func (unreadSession) Initialize()                                           {}
func (unreadSession) Initialized() bool                                     { return true }
func (s unreadSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.queue }
func (unreadSession) SessionID() string                                     { return "unread" }

// Stopping the progress sent while a call waits for its client does not
// wait for a progress notification nobody has read yet: the answer that
// stopped it goes out at once. Waiting for a reader is lengthened here to
// an hour, so a stop that waited for it would not return within the test.
func TestStoppingProgressDoesNotWaitForAReader(t *testing.T) {
	was := notifyTaken
	notifyTaken = time.Hour
	t.Cleanup(func() { notifyTaken = was })

	session := unreadSession{queue: make(chan mcp.JSONRPCNotification, 10)}
	s := server.NewMCPServer("progress-test", "1")
	sent, stopped := make(chan struct{}), make(chan struct{})
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := &Call{e: &Engine{progressEvery: time.Millisecond}, req: req}
		stop := c.progressWhileWaiting(ctx, "waiting for the user")
		// A notification on the queue: the ticker is waiting for its reader.
		for len(session.queue) == 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		close(sent)
		stop()
		close(stopped)
		return mcp.NewToolResultText("answered"), nil
	})
	ctx, cancel := context.WithCancel(s.WithContext(context.Background(), session))
	defer cancel()
	go s.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","_meta":{"progressToken":"p"}}}`))
	for _, step := range []struct {
		done <-chan struct{}
		fail string
	}{
		{sent, "no progress notification was sent"},
		{stopped, "stopping the progress waited for a reader of its last notification"},
	} {
		select {
		case <-step.done:
		case <-time.After(10 * time.Second):
			t.Fatal(step.fail)
		}
	}
	if n := <-session.queue; n.Method != string(mcp.MethodNotificationProgress) {
		t.Errorf("sent %s, want a progress notification", n.Method)
	}
}
