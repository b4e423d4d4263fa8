package tools

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/flightserver/flightserver/internal/fakeclient"
)

// A client that hangs up while the server waits for its sampling answer
// leaves nothing behind: the wait ends with the request, and no goroutine
// of the call outlives it.
func TestNoGoroutineLeftWhenClientLeavesMidSampling(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	sampler := &fakeclient.Sampler{Behaviour: fakeclient.Silent}
	// The server would wait 30 s; the client leaves after 300 ms.
	var logs lockedBuffer
	s := newServer(t, func(c *Config) {
		c.SamplingTimeout = 30 * time.Second
		c.Logger = zerolog.New(&logs)
	})
	streams := NewGETStreams()
	ts := httptest.NewServer(streams.Handler(server.NewStreamableHTTPServer(s)))
	defer ts.Close()
	//lint:ignore SA1019 the legacy GET stream is how legacy sampling reaches the client.
	tr, err := transport.NewStreamableHTTP(ts.URL+"/mcp", transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20251125), client.WithSamplingHandler(sampler))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !streams.Open(c.GetSessionId()); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("GET stream did not open")
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: jfkLHR}}); err == nil {
		t.Fatal("the call succeeded; the client was meant to give up")
	}
	if len(sampler.Requests()) != 1 {
		t.Fatal("the sampling request never reached the client")
	}
	// The server stops waiting when the request ends, not when its own
	// 30 s timeout would: the sampling tier reports the call ended.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "while waiting for the client"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server is still waiting for the departed client; log:\n%s", logs.String())
		}
	}
	// The deferred closes run before goleak looks: client, then server.
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
