package fallback

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// listenSession is the one session a subscriptions/listen is served on.
type listenSession struct{ out chan mcp.JSONRPCNotification }

func (s listenSession) Initialize()                                         {}
func (s listenSession) Initialized() bool                                   { return true }
func (s listenSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.out }
func (s listenSession) SessionID() string                                   { return "listen-test" }

const listenMessage = `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"toolsListChanged":true}}}`

// The hook holds a listen's result until the transport says the
// acknowledgement is out; without a signal, or past the bound, it does not
// hold it.
func TestListenResultWaitsForItsAcknowledgement(t *testing.T) {
	for _, tc := range []struct {
		name     string
		signal   bool          // the transport puts an AckSignal in the context
		writeIn  time.Duration // when the transport writes the acknowledgement; <0: never
		wait     time.Duration // the hook's bound
		cancel   bool          // the request is cancelled (the client went away)
		want     []string
		warnings int
	}{
		{"written after a while", true, 100 * time.Millisecond, 10 * time.Second, false, []string{"ack", "result"}, 0},
		{"written at once", true, 0, 10 * time.Second, false, []string{"ack", "result"}, 0},
		{"never written: the bound ends the wait", true, -1, 100 * time.Millisecond, false, []string{"result"}, 1},
		// Were the hook to wait in these two, it would wait out the 10 s
		// and warn.
		{"a transport that does not tell", false, -1, 10 * time.Second, false, []string{"result"}, 0},
		{"the request is cancelled", true, -1, 10 * time.Second, true, []string{"result"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			hooks := &server.Hooks{}
			acknowledgeFirst(hooks, tc.wait, zerolog.New(&log))
			s := server.NewMCPServer("t", "1", server.WithHooks(hooks), server.WithToolCapabilities(false))

			var mu sync.Mutex
			var order []string
			note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			session := listenSession{out: make(chan mcp.JSONRPCNotification, 1)}
			written := make(chan struct{})
			var askedFor any
			ctx, cancel := context.WithCancel(s.WithContext(context.Background(), session))
			defer cancel()
			if tc.signal {
				ctx = WithAckSignal(ctx, func(id any) <-chan struct{} { askedFor = id; return written })
			}
			// The transport's writer: takes the acknowledgement off the
			// session, writes it after writeIn, then says so.
			writerDone := make(chan struct{})
			go func() {
				defer close(writerDone)
				ack := <-session.out
				if tc.cancel {
					cancel()
				}
				if ack.Method != string(mcp.MethodNotificationSubscriptionsAcknowledged) || tc.writeIn < 0 {
					return
				}
				time.Sleep(tc.writeIn)
				note("ack")
				close(written)
			}()
			answered := make(chan mcp.JSONRPCMessage, 1)
			go func() { answered <- s.HandleMessage(ctx, []byte(listenMessage)) }()
			select {
			case resp := <-answered:
				if _, ok := resp.(mcp.JSONRPCResponse); !ok {
					t.Fatalf("listen answered %#v", resp)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the hook held the result past every bound")
			}
			note("result")
			select { // let a late acknowledgement show
			case <-writerDone:
			case <-time.After(10 * time.Second):
				t.Fatal("the writer never took the acknowledgement off the session")
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(order, " ") != strings.Join(tc.want, " ") {
				t.Errorf("order %v, want %v", order, tc.want)
			}
			if tc.signal && askedFor != float64(7) {
				t.Errorf("the hook asked about id %#v, want the request's 7", askedFor)
			}
			if got := strings.Count(log.String(), "acknowledgement was not written in time"); got != tc.warnings {
				t.Errorf("%d warnings, want %d; log:\n%s", got, tc.warnings, log.String())
			}
		})
	}
}
