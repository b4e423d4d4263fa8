package httpguard

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func TestReadMessage(t *testing.T) {
	for body, want := range map[string]message{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`:                                  {request: true},
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`:                                      {request: true},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`:                      {request: true, initialize: true},
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                          {},
		`{"jsonrpc":"2.0","id":null,"method":"x"}`:                                        {},
		`{"jsonrpc":"2.0","id":7,"result":{"action":"accept"}}`:                           {},
		`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"rejected"}}`:               {},
		`[{"jsonrpc":"2.0","id":7,"result":{}},{"jsonrpc":"2.0","id":8,"method":"ping"}]`: {request: true},
		`[{"jsonrpc":"2.0","id":7,"result":{}}]`:                                          {},
		`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`:                                {request: true},
		`not json`: {request: true},
		``:         {request: true},
		// What encoding/json (and so mcp-go) makes of keys and values that
		// are not the usual ones.
		` { "id" : 3 , "method" : "initialize" } `:           {request: true, initialize: true},
		`{"ID":3,"Method":"initialize"}`:                     {request: true, initialize: true},
		`{"id":3,"method":"initialize","method":"ping"}`:     {request: true},
		`{"id":3,"id":null,"method":"ping"}`:                 {},
		`{"id":{"a":[1,"}"]},"method":"ping"}`:               {request: true},
		`{"params":{"id":1,"method":"x"},"method":"notify"}`: {},
		`{"id":1,"method":"initialize","method":null}`:       {request: true, initialize: true},
		`{"id":1,"method":"\u0069nitialize"}`:                {request: true, initialize: true},
		`{"id":1,"\u006dethod":"initialize"}`:                {request: true, initialize: true},
		`{"id":1,"method":7}`:                                {request: true},
		`{"id":1,"method":"subscriptions/listen"}`:           {request: true, listen: true},
		`{"method":"subscriptions/listen"}`:                  {},
		`{"id":"a\"b","method":"ping"}`:                      {request: true},
		`{"id":1,"method":"ping"`:                            {request: true},
		`"a string"`:                                         {request: true},
		`{}`:                                                 {},
	} {
		if got := readMessage([]byte(body)); got != want {
			t.Errorf("readMessage(%s) = %+v, want %+v", body, got, want)
		}
		if got := decodeMessage([]byte(body)); got != want {
			t.Errorf("the table is wrong about %s: encoding/json reads %+v", body, got)
		}
	}
}

// FuzzReadMessage holds the one-pass reading to encoding/json's, which is
// how mcp-go reads the same body: a layer that read a body otherwise
// (missed an initialize, say) could be led past its limit.
func FuzzReadMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`,
		`{"ID":null,"mEtHoD":"initialize","id":"1"}`, `[{"id":1,"method":"ping"}]`, `{"id":[{"}":"]"}],"method":"a"}`,
		`{"\u0069d":1,"method":"initialize"}`, `{"id":1,"method":"\"x"}`, ` {"id" :1 ,"method": "initialize"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if got, want := readMessage(body), decodeMessage(body); got != want {
			t.Errorf("readMessage(%q) = %+v, encoding/json reads %+v", body, got, want)
		}
	})
}

// BenchmarkReadMessage is a tools/call's body read both ways.
func BenchmarkReadMessage(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"SFO","destination":"JFK","date":"2026-12-16"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	for name, read := range map[string]func([]byte) message{"scan": readMessage, "encoding-json": decodeMessage} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !read(body).request {
					b.Fatal("not a request")
				}
			}
		})
	}
}

// What ReadBody found stays with the request when a layer after it reads
// the body and wraps it again (fallback's ProtocolErrors does): the
// session table must still see an initialize.
func TestMessageSurvivesARewrappedBody(t *testing.T) {
	var got message
	inner := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = messageOf(r) })
	rewrap := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		inner.ServeHTTP(w, r)
	})
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	ReadBody(1<<20, time.Second, zerolog.Nop(), rewrap).ServeHTTP(httptest.NewRecorder(), r)
	if want := (message{request: true, initialize: true}); got != want {
		t.Errorf("after the body was wrapped again: %+v, want %+v", got, want)
	}
}

// A body is read into a buffer of its announced length only when that is
// small: an announced megabyte that never comes costs no megabyte.
func TestReadAllMakesNoLargeBufferAhead(t *testing.T) {
	small, err := readAll(strings.NewReader(strings.Repeat("x", 100)), 100)
	if err != nil || len(small) != 100 || cap(small) != 100 {
		t.Errorf("a 100-byte body: %d bytes in a buffer of %d, %v", len(small), cap(small), err)
	}
	if _, err := readAll(strings.NewReader("short"), 100); err == nil {
		t.Error("a body shorter than announced read without an error")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := readAll(strings.NewReader("ten bytes."), 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil || string(got) != "ten bytes." {
		t.Fatalf("%q, %v", got, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("10 bytes of an announced megabyte allocated %d bytes", n)
	}
}

// The bodies of one ReadBody hold at most BodiesAtOnce of the largest at
// once: requests keep their share while they are served, a body that finds
// the budget spent waits within its deadline and then gets 503, an answer
// gives its share back as soon as it is read, and a served request's share
// comes back when it is done.
func TestReadBodyBudget(t *testing.T) {
	const max = 1024
	release := make(chan struct{})
	var served sync.WaitGroup
	held := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if messageOf(r).request && strings.Contains(r.URL.Path, "hold") {
			served.Done()
			<-release
		}
		_, _ = io.WriteString(w, "reached")
	})
	srv := httptest.NewServer(ReadBody(max, 300*time.Millisecond, zerolog.Nop(), held))
	defer srv.Close()
	// Each body is length bytes, padded: a request, or an answer.
	body := func(request bool, length int) string {
		head := `{"jsonrpc":"2.0","id":1,"result":{},"pad":"`
		if request {
			head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","pad":"`
		}
		return head + strings.Repeat("x", length-len(head)-2) + `"}`
	}
	post := func(path, b string) (int, int, string) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		rec := httptest.NewRecorder()
		rec.Code = resp.StatusCode
		_, _ = io.Copy(rec.Body, resp.Body)
		_, code, msg := refusalOf(t, rec)
		return resp.StatusCode, code, msg
	}

	// BodiesAtOnce requests of 1000 bytes, held while served: 24 bytes
	// of each one's share are left.
	served.Add(BodiesAtOnce)
	done := make(chan int, BodiesAtOnce)
	for range BodiesAtOnce {
		go func() { status, _, _ := post("/hold", body(true, 1000)); done <- status }()
	}
	served.Wait()
	start := time.Now()
	if status, code, msg := post("/mcp", body(true, max)); status != http.StatusServiceUnavailable || code != CodeBusy || !strings.Contains(msg, "--max-body-bytes") {
		t.Errorf("a body beyond the budget: %d, code %d, %q; want 503, %d", status, code, msg, CodeBusy)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Errorf("a body beyond the budget was refused after %s, without waiting for its deadline", waited)
	}
	for i := range 10 { // one at a time through what is left: each gives its share back at once
		if status, _, msg := post("/mcp", body(false, 24*BodiesAtOnce)); status != http.StatusOK {
			t.Fatalf("answer %d with the budget all but spent: %d %q", i, status, msg)
		}
	}
	close(release)
	for range BodiesAtOnce {
		if status := <-done; status != http.StatusOK {
			t.Errorf("a held request: %d", status)
		}
	}
	if status, _, msg := post("/mcp", body(true, max)); status != http.StatusOK {
		t.Errorf("once the requests were served: %d %q", status, msg)
	}
}
