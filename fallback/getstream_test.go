package fallback

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// A request sees whether its session's GET stream is open now, not when the
// request arrived: a stream that opens a moment later still counts.
func TestGETStreamOpeningLateCounts(t *testing.T) {
	g := NewGETStreams(StreamLimits{})
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

// serveGET serves one GET stream of session through g until the stream is
// closed (its handler's context ends) or release is closed, and returns
// the status the client saw.
func serveGET(g *GETStreams, session string, release <-chan struct{}) int {
	get := httptest.NewRequest(http.MethodGet, "/mcp", nil)
	get.Header.Set(server.HeaderKeySessionID, session)
	rec := httptest.NewRecorder()
	g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})).ServeHTTP(rec, get)
	return rec.Code
}

// One stream per session, the newest replacing the one before; at most
// Max in all (a replacement is not one more); a session's stream closed
// by CloseSession, and one that opens while its session ends closed at
// once.
func TestGETStreamLimits(t *testing.T) {
	live := map[string]bool{"s1": true, "s2": true, "s3": true}
	var mu sync.Mutex
	g := NewGETStreams(StreamLimits{Max: 2,
		Full: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) },
		Live: func(id string) bool { mu.Lock(); defer mu.Unlock(); return live[id] }})
	release := make(chan struct{})
	defer close(release)
	ended := func(session string) chan int {
		c := make(chan int, 1)
		go func() { c <- serveGET(g, session, release) }()
		for deadline := time.Now().Add(5 * time.Second); !g.Has(session); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the stream of %s never opened", session)
			}
		}
		return c
	}
	within := func(c chan int, what string) {
		t.Helper()
		select {
		case <-c:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the stream is still open", what)
		}
	}
	first := ended("s1")
	second := ended("s1")
	within(first, "replaced")
	if g.Count() != 1 {
		t.Errorf("streams after a replacement: %d", g.Count())
	}
	other := ended("s2")
	if code := serveGET(g, "s3", release); code != http.StatusTeapot {
		t.Errorf("a stream beyond Max: %d", code)
	}
	third := ended("s1") // a replacement at the limit is admitted
	within(second, "replaced at the limit")
	g.CloseSession("s1")
	within(third, "its session closed")
	g.CloseSession("s2")
	within(other, "its session closed")
	mu.Lock()
	live["s3"] = false
	mu.Unlock()
	done := make(chan int, 1)
	go func() { done <- serveGET(g, "s3", release) }()
	within(done, "its session ended as it opened")
	if g.Count() != 0 || g.Has("s1") {
		t.Errorf("streams left: %d", g.Count())
	}
}
