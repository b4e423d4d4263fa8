package stdiopipe

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"
)

// What track reads of the messages mcp-go writes: the id and the method,
// in any key order, stopping at a response's result only once its id is
// known.
func TestReadHead(t *testing.T) {
	for _, tc := range []struct {
		line, id, method string
		ok               bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}],"id":"not this one"}}`, "7", "", true},
		{`{"jsonrpc":"2.0","result":{"id":"not this one"},"id":"a"}`, `"a"`, "", true},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad"}}`, "3", "", true},
		{`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[{"id":1}]}}`, "9", "sampling/createMessage", true},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, "", "notifications/progress", true},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`, "null", "", true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", "1", "", true},
		{`[{"jsonrpc":"2.0","id":1}]`, "", "", false},
		{`{"jsonrpc":"2.0","method":`, "", "", false},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"arguments":{"origin":"JF`, "12", "tools/call", false}, // cut short: what came first
		{`not json`, "", "", false},
	} {
		id, method, ok := readHead([]byte(tc.line))
		if string(id) != tc.id || method != tc.method || ok != tc.ok {
			t.Errorf("readHead(%s) = %s, %q, %v; want %s, %q, %v", tc.line, id, method, ok, tc.id, tc.method, tc.ok)
		}
	}
}

// pipeOn is a pipe reading stdin, writing to the returned buffer.
func pipeOn(t *testing.T, ctx context.Context, stdin string, max int64, drainFor time.Duration) (*Pipe, *syncBuffer, *syncBuffer) {
	t.Helper()
	out, logs := &syncBuffer{}, &syncBuffer{}
	return New(ctx, strings.NewReader(stdin), out, max, drainFor, zerolog.New(logs)), out, logs
}

// syncBuffer is a bytes.Buffer safe to read while the pipe writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// readLine is the next thing Read hands mcp-go, or an error; it fails the
// test if Read blocks for more than wait.
func readLine(t *testing.T, p *Pipe, wait time.Duration) (string, error) {
	t.Helper()
	type read struct {
		line string
		err  error
	}
	got := make(chan read, 1)
	go func() {
		b := make([]byte, 64<<10)
		n, err := p.Read(b)
		got <- read{string(b[:n]), err}
	}()
	select {
	case r := <-got:
		return r.line, r.err
	case <-time.After(wait):
		t.Fatalf("Read still blocked after %s", wait)
		return "", nil
	}
}

// A line over the limit is skipped, never handed on, and answered with a
// parse error naming the limit and, when its first bytes carry it, the
// request's id; the next line is served as usual.
func TestPipeSkipsAnOversizedLine(t *testing.T) {
	for _, tc := range []struct {
		name, line, wantID string
	}{
		{"id first", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`, `"id":5`},
		// Past the read buffer (64 KB): the id is in what is skipped unread.
		{"id after the cut", `{"jsonrpc":"2.0","method":"tools/call","params":{"pad":"` + strings.Repeat("x", 100<<10) + `"},"id":5}`, `"id":null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
			p, out, logs := pipeOn(t, context.Background(), tc.line+"\n"+next, 128, time.Second)
			line, err := readLine(t, p, 5*time.Second)
			if err != nil || line != next {
				t.Fatalf("Read = %q, %v; want the next line %q", line, err, next)
			}
			answer := out.String()
			if !strings.Contains(answer, tc.wantID) || !strings.Contains(answer, `"code":-32700`) || !strings.Contains(answer, "over the limit of 128") {
				t.Errorf("answer to the oversized line: %s", answer)
			}
			if !strings.Contains(logs.String(), "skipped a stdio message over the limit") {
				t.Errorf("log: %s", logs.String())
			}
		})
	}
}

// The end of stdin is held back until every request read has been
// answered or cancelled, or the drain time is out, or ctx ends; a
// question the server asks once stdin has ended is answered at once, in
// the client's name.
func TestPipeHoldsTheEndOfStdinForCallsInFlight(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}` + "\n"
	for _, tc := range []struct {
		name string
		// then acts once the call has been read and stdin has ended, and
		// says what Read must give next: an error answer (-32000) whose
		// line contains want, or io.EOF when want is "".
		then func(p *Pipe, cancel context.CancelFunc)
		want string
	}{
		{"answered", func(p *Pipe, _ context.CancelFunc) {
			_, _ = p.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
		}, ""},
		{"cancelled by the client", nil, ""},
		{"a signal", func(_ *Pipe, cancel context.CancelFunc) { cancel() }, ""},
		{"the server asks a question", func(p *Pipe, _ context.CancelFunc) {
			_, _ = p.Write([]byte(`{"jsonrpc":"2.0","id":"q1","method":"sampling/createMessage","params":{}}` + "\n"))
		}, `"id":"q1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stdin := call
			if tc.then == nil {
				stdin += `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n"
			}
			p, _, _ := pipeOn(t, ctx, stdin, 1<<20, time.Minute)
			for range strings.Count(stdin, "\n") {
				if _, err := readLine(t, p, 5*time.Second); err != nil {
					t.Fatal(err)
				}
			}
			if tc.then == nil {
				if _, err := readLine(t, p, 5*time.Second); err != io.EOF {
					t.Fatalf("after the call was cancelled Read = %v, want io.EOF", err)
				}
				return
			}
			// stdin has ended, the call is in flight: Read waits.
			got := make(chan string, 1)
			go func() {
				line, err := readLine(t, p, 10*time.Second)
				if err != nil {
					line = err.Error()
				}
				got <- line
			}()
			select {
			case line := <-got:
				t.Fatalf("Read gave %q while a call was in flight", line)
			case <-time.After(50 * time.Millisecond):
			}
			tc.then(p, cancel)
			line := <-got
			if want := tc.want; want == "" && line != io.EOF.Error() || want != "" && (!strings.Contains(line, want) || !strings.Contains(line, `"code":-32000`)) {
				t.Errorf("Read = %q, want %q (EOF when empty)", line, want)
			}
		})
	}
}

// A call nobody answers holds the end back for the drain time, no longer,
// and the log says so.
func TestPipeDrainTimeRunsOut(t *testing.T) {
	p, _, logs := pipeOn(t, context.Background(), `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n", 1<<20, 100*time.Millisecond)
	if _, err := readLine(t, p, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := readLine(t, p, 5*time.Second); err != io.EOF {
		t.Fatalf("Read = %v, want io.EOF once the drain time is out", err)
	}
	if !strings.Contains(logs.String(), "still in flight after their budget") {
		t.Errorf("log: %s", logs.String())
	}
}

// Acked's channel for a listen request closes once its acknowledgement
// has been written, not before; other ids have none.
func TestPipeAckedClosesAfterTheAcknowledgement(t *testing.T) {
	p, out, _ := pipeOn(t, context.Background(), `{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{}}`+"\n", 1<<20, time.Second)
	if _, err := readLine(t, p, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if p.Acked(4) != nil {
		t.Error("a channel for an id that is no listen request")
	}
	written := p.Acked(3)
	if written == nil {
		t.Fatal("no channel for the listen request")
	}
	_, _ = p.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\n"))
	select {
	case <-written:
		t.Fatal("closed before the acknowledgement")
	default:
	}
	_, _ = p.Write([]byte(`{"jsonrpc":"2.0","method":"` + mcp.MethodNotificationSubscriptionsAcknowledged + `","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}` + "\n"))
	select {
	case <-written:
	default:
		t.Fatal("not closed after the acknowledgement was written")
	}
	if !strings.Contains(out.String(), "subscriptions/acknowledged") {
		t.Errorf("the acknowledgement did not reach stdout: %s", out.String())
	}
}
