package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// A request sees whether its session's GET stream is open now, not when the
// request arrived: a stream that opens a moment later still counts.
func TestGETStreamOpeningLateCounts(t *testing.T) {
	g := NewGETStreams()
	var open func() bool
	post := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	post.Header.Set(server.HeaderKeySessionID, "s1")
	g.Handler(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		open, _ = r.Context().Value(getStreamKey{}).(func() bool)
	})).ServeHTTP(httptest.NewRecorder(), post)
	if open == nil || open() {
		t.Fatal("a session without a GET stream reads as having one")
	}
	if waitFor(context.Background(), open, 50*time.Millisecond) {
		t.Fatal("waitFor held with no stream")
	}

	// The client's GET stream arrives 100 ms later and stays open.
	release := make(chan struct{})
	defer close(release)
	go func() {
		time.Sleep(100 * time.Millisecond)
		get := httptest.NewRequest(http.MethodGet, "/mcp", nil)
		get.Header.Set(server.HeaderKeySessionID, "s1")
		g.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release })).ServeHTTP(httptest.NewRecorder(), get)
	}()
	if !waitFor(context.Background(), open, 5*time.Second) {
		t.Fatal("the late GET stream was not seen")
	}
	// A call that ends stops waiting at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := func() bool { return false }
	if waitFor(ctx, other, time.Hour) {
		t.Fatal("waitFor held for a cancelled call")
	}
}
