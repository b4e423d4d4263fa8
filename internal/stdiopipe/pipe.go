package stdiopipe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"
)

// Pipe stands between the process's stdin and stdout and mcp-go's stdio
// server (hand it to StdioServer.Listen as both reader and writer), for
// what that server does not do:
//
//   - It caps a message (one line) at max bytes. mcp-go reads a whole line
//     into memory however long it is, and stalls its read loop while it
//     does (docs/BENCHMARKS.md#worst-cases-per-client-and-per-process);
//     here a line over the cap is skipped as it arrives, never held, and
//     answered with a parse error that names the
//     limit (with the request's id when it can be read from the first
//     bytes), and the next line is served as usual.
//   - At the end of stdin it lets the calls in flight finish. mcp-go
//     cancels every handler the moment stdin ends, so a host that sends a
//     call and closes its end (as scripts and some hosts do) got "search:
//     context canceled". Here the end of stdin is held back from mcp-go
//     until every request read has been answered, for at most a call's
//     budget and a margin. A question the server asks the client (sampling,
//     a form, roots) can no longer be answered once stdin has closed, so
//     each gets an error answer at once, in the client's name, and the
//     call moves on to its fallback instead of waiting out its timeout.
//   - It tells when a subscriptions/listen acknowledgement has been
//     written (Acked), so that its result goes out after it
//     (fallback/listen.go).
//
// It tracks requests by JSON-RPC id in both directions: mcp-go writes each
// message in one Write, and writes go out under one lock so that its
// answers and the pipe's own never interleave.
type Pipe struct {
	ctx      context.Context
	in       *bufio.Reader
	out      io.Writer
	max      int64
	drainFor time.Duration
	log      zerolog.Logger

	wmu sync.Mutex // serialises writes to out

	mu         sync.Mutex
	fromClient map[string]*listenAck      // requests read, not yet answered (a listen's acknowledgement; nil for the rest)
	fromServer map[string]json.RawMessage // the server's questions, not yet answered (key -> id)
	eof        bool
	eofAt      time.Time
	injected   [][]byte      // lines to hand mcp-go as if the client had sent them
	changed    chan struct{} // a token whenever the above change

	pending []byte // the rest of the line being handed to mcp-go (Read's only)
}

// New is the pipe between stdin and stdout: a message (one line) is at
// most max bytes (--max-body-bytes); at the end of stdin the calls in
// flight have at most drainFor to be answered; ctx ending (a signal) ends
// the wait at once. log gets what the pipe skips, and why it exits.
func New(ctx context.Context, stdin io.Reader, stdout io.Writer, max int64, drainFor time.Duration, log zerolog.Logger) *Pipe {
	return &Pipe{ctx: ctx, in: bufio.NewReaderSize(stdin, 64<<10), out: stdout, max: max, drainFor: drainFor, log: log,
		fromClient: map[string]*listenAck{}, fromServer: map[string]json.RawMessage{}, changed: make(chan struct{}, 1)}
}

// Read hands mcp-go the client's messages, one whole line at a time.
func (p *Pipe) Read(b []byte) (int, error) {
	for {
		if len(p.pending) > 0 {
			n := copy(b, p.pending)
			p.pending = p.pending[n:]
			return n, nil
		}
		p.mu.Lock()
		if len(p.injected) > 0 {
			p.pending, p.injected = p.injected[0], p.injected[1:]
			p.mu.Unlock()
			continue
		}
		eof := p.eof
		p.mu.Unlock()
		if eof {
			if err := p.waitForAnswers(); err != nil {
				return 0, err
			}
			continue
		}
		line, err := p.readLine()
		if len(line) > 0 {
			p.track(line, true)
			p.pending = line
			continue
		}
		if err == io.EOF {
			p.endOfInput()
			continue
		}
		if err != nil {
			return 0, err
		}
	}
}

// readLine returns the next line (with its newline), or nil and no error
// after skipping one over the limit.
func (p *Pipe) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := p.in.ReadSlice('\n')
		if int64(len(line)+len(chunk)) > p.max {
			return nil, p.skipOversized(append(line, chunk...), err)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(bytes.TrimSpace(line)) > 0:
			return append(line, '\n'), nil // a last line without its newline still counts
		default:
			return nil, err
		}
	}
}

// skipOversized discards the rest of a line that has passed the limit
// (head is what has been read of it, err the last read's) and answers it
// with a parse error.
func (p *Pipe) skipOversized(head []byte, err error) error {
	skipped := int64(len(head))
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = p.in.ReadSlice('\n')
		skipped += int64(len(chunk))
	}
	id := leadingID(head)
	p.log.Warn().Int64("bytes", skipped).Int64("max_bytes", p.max).Msg("skipped a stdio message over the limit")
	p.writeError(id, mcp.PARSE_ERROR, fmt.Sprintf("Parse error: a message of %d bytes or more is over the limit of %d (--max-body-bytes); it was skipped unread", skipped, p.max))
	if err == nil {
		return nil
	}
	return err
}

// leadingID is the request's id when it comes before the point where the
// message was cut, else JSON null (JSON-RPC's id for "could not tell").
func leadingID(head []byte) json.RawMessage {
	if id, _, _ := readHead(head); len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return id
	}
	return json.RawMessage("null")
}

// Write sends one of mcp-go's messages to the client; give it each
// message whole, in one Write, as mcp-go does.
func (p *Pipe) Write(b []byte) (int, error) {
	ack := p.track(b, false)
	p.wmu.Lock()
	defer p.wmu.Unlock()
	n, err := p.out.Write(b)
	if ack != nil {
		close(ack)
	}
	return n, err
}

// listenAck is a subscriptions/listen request waiting for its result:
// written is closed once its acknowledgement is out (sent: Write will
// close it).
type listenAck struct {
	written chan struct{}
	sent    bool
}

// Acked is the pipe's acknowledgement signal (fallback.AckSignal in the
// server): the channel closed once the subscriptions/listen request with
// this id has been acknowledged; nil for an id that is no listen request
// in flight.
func (p *Pipe) Acked(id any) <-chan struct{} {
	raw, err := json.Marshal(id)
	if err != nil {
		return nil
	}
	key, ok := idKey(raw)
	if !ok {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.fromClient[key]; l != nil {
		return l.written
	}
	return nil
}

// ackedListen is the key of the subscriptions/listen request that line,
// an acknowledgement, acknowledges.
func ackedListen(line []byte) (string, bool) {
	var ack struct {
		Params struct {
			Meta struct {
				ID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &ack) != nil {
		return "", false
	}
	return idKey(ack.Params.Meta.ID)
}

func (p *Pipe) writeError(id json.RawMessage, code int, message string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, _ = p.out.Write(append(b, '\n'))
}

// track notes a message read from the client (in) or written to it. For
// the acknowledgement of a listen request it returns that request's
// channel, for Write to close once the line is out.
func (p *Pipe) track(line []byte, in bool) (ack chan struct{}) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	if in {
		if json.Unmarshal(line, &m) != nil {
			return nil // mcp-go answers it with a parse error, which carries no id
		}
	} else {
		var ok bool
		if m.ID, m.Method, ok = readHead(line); !ok {
			return nil
		}
	}
	key, hasID := idKey(m.ID)
	// A message with a result is an answer, whatever else it says: mcp-go
	// never answers it, so counting it as a request would hold stdin's
	// end back for the whole drain.
	answer := len(m.Result) > 0 && string(m.Result) != "null"
	p.mu.Lock()
	defer p.mu.Unlock()
	if !in && m.Method == mcp.MethodNotificationSubscriptionsAcknowledged {
		if k, ok := ackedListen(line); ok && p.fromClient[k] != nil && !p.fromClient[k].sent {
			p.fromClient[k].sent = true
			ack = p.fromClient[k].written
		}
	}
	switch {
	case in && m.Method == string(mcp.MethodNotificationCancelled):
		// A cancelled request is not answered at all.
		if k, ok := idKey(m.Params.RequestID); ok {
			delete(p.fromClient, k)
		}
	case !hasID:
	case in && m.Method != "" && !answer:
		p.fromClient[key] = nil
		if m.Method == string(mcp.MethodSubscriptionsListen) {
			p.fromClient[key] = &listenAck{written: make(chan struct{})}
		}
	case in:
		delete(p.fromServer, key)
	case m.Method != "":
		p.fromServer[key] = m.ID
		if p.eof {
			p.injected = append(p.injected, closedAnswer(m.ID))
		}
	default:
		delete(p.fromClient, key)
	}
	select {
	case p.changed <- struct{}{}:
	default:
	}
	return ack
}

// readHead reads a message's id and method from its top-level keys, and
// stops at a response's result (or error) once the id is known: mcp-go
// writes a response's id before its result, so the answer to a search
// is not scanned (what that saves: docs/BENCHMARKS.md#beside-the-peers).
// ok is false for a line that is not a whole JSON object; id and method are
// then what came before the point where it broke (leadingID reads the id of
// a message cut short). What a client wrote is decoded whole instead
// (track): its keys may come in any order, and a broken message must not
// count as an answer.
func readHead(line []byte) (id json.RawMessage, method string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, "", false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return id, method, false
		}
		key, _ := t.(string)
		if (key == "result" || key == "error") && id != nil {
			return id, method, true // a response, and all track needs of it
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return id, method, false
		}
		switch key {
		case "id":
			id = v
		case "method":
			if json.Unmarshal(v, &method) != nil {
				return id, "", false
			}
		}
	}
	return id, method, true
}

// idKey names a JSON-RPC id the same way whichever side wrote it (1 and
// 1.0 are one id); false for a missing or null id.
func idKey(raw json.RawMessage) (string, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return "", false
	}
	switch v := v.(type) {
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64), true
	case string:
		return "s" + v, true
	}
	// Any other id (not one JSON-RPC allows, but mcp-go echoes it back)
	// is keyed as mcp-go writes it: compact, its keys sorted.
	b, _ := json.Marshal(v)
	return "r" + string(b), true
}

// codeClosed is the JSON-RPC code of the answer given in the client's name
// to a question it can no longer answer: -32000, the code the HTTP
// transport answers a request it does not serve with (httpguard's
// CodeRefused), in the range JSON-RPC leaves to the implementation.
const codeClosed = -32000

// closedAnswer is the client's answer, in its name, to a question it can
// no longer answer.
func closedAnswer(id json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": codeClosed, "message": "no answer can come: the client closed its end of stdin"}})
	return append(b, '\n')
}

// endOfInput marks stdin's end and answers the questions still open.
func (p *Pipe) endOfInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.eof, p.eofAt = true, time.Now()
	for _, id := range p.fromServer {
		p.injected = append(p.injected, closedAnswer(id))
	}
	if n := len(p.fromClient); n > 0 {
		p.log.Info().Int("inFlight", n).Dur("atMost_ms", p.drainFor).Msg("stdin closed; answering the calls in flight before exiting")
	}
}

// waitForAnswers holds stdin's end back until every request read has been
// answered, drainFor has passed since stdin ended, or ctx has ended (then
// io.EOF), or the server has asked a question that needs its answer handed
// over (then nil).
func (p *Pipe) waitForAnswers() error {
	p.mu.Lock()
	deadline := time.NewTimer(time.Until(p.eofAt.Add(p.drainFor)))
	p.mu.Unlock()
	defer deadline.Stop()
	for {
		p.mu.Lock()
		inject, left := len(p.injected) > 0, len(p.fromClient)
		p.mu.Unlock()
		if inject {
			return nil
		}
		if left == 0 {
			return io.EOF
		}
		select {
		case <-p.changed:
		case <-deadline.C:
			p.log.Warn().Int("inFlight", left).Dur("waited_ms", p.drainFor).Msg("stdin closed and calls are still in flight after their budget; exiting without their answers")
			return io.EOF
		case <-p.ctx.Done():
			return io.EOF
		}
	}
}
