package httpguard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"
	"golang.org/x/sync/semaphore"
)

// BoundBodies bounds the body of every request a listener serves, not only
// the POSTs to the MCP endpoint that ReadBody reads. net/http reads what a
// handler left of a body (up to 256 KB) before it writes the answer, with
// no deadline once the headers are in, so a request that announces a body
// and never sends it would hold its connection and goroutine for good,
// whatever the answer (a probe's, a 404, a refusal):
//
//   - A request other than a POST that announces a body (a length, or
//     chunked) is refused with 400 at once, and its connection is not
//     read again: nothing on this server takes a body on another method.
//   - A POST's body must arrive within timeout of its headers, whoever reads
//     it. ReadBody, which reads the MCP endpoint's, clears the deadline once
//     the body is in, so that a long answer is not cut; a handler that reads
//     none (another path) answers once net/http has the body, or the
//     deadline has passed and the connection is closed after the answer.
func BoundBodies(timeout time.Duration, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.ContentLength == 0:
		case r.Method != http.MethodPost:
			log.Warn().Str("method", truncate(r.Method, 20)).Str("remote", r.RemoteAddr).Msg("refused a request with a body on a method that takes none")
			writeError(w, r, refusedStrayBody, "a "+truncate(r.Method, 20)+" request carries no body on this server: send it without one (no Content-Length, no Transfer-Encoding)")
			return
		default:
			if err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout)); err != nil {
				log.Error().Err(err).Msg("cannot bound the body read")
			}
		}
		next.ServeHTTP(w, r)
	})
}

// ReadBody reads a POST's whole body, at most max bytes, within timeout of
// its headers, before any other layer sees the request: a client that
// announces 4000 bytes and sends one, or trickles a body byte by byte, is
// cut off with 408 instead of holding a connection and a goroutine for as
// long as it likes (net/http's ReadHeaderTimeout covers only the headers,
// and a ReadTimeout would cover the whole exchange, SSE answers included).
//
// The deadline is on reading, and cleared once the body is in, so the
// answer may take as long as the call needs: a legacy call that waits 40 s
// for the user's form answers on this same connection. A client's answer
// to the server's own question is an ordinary small POST and reads at once.
// GET (the long-lived legacy stream) and DELETE carry no body and get no
// deadline.
//
// A body over max is refused with 413 at once when the client announced
// its length, and as soon as the read passes max when it did not.
//
// The bodies of one ReadBody hold at most BodiesAtOnce times max bytes
// in all, however many clients send them: a body takes its announced
// length from that budget (max when it is chunked) before its first byte
// is read, and gives it back once it is read when it holds no request (a
// client's answer, a notification), or when its request has been served. A
// body that finds the budget spent waits for it within its own deadline,
// and is refused with 503 if that passes first; a client's answer to the
// server's question is as small as it is brief, so a budget spent on calls
// waiting for answers still leaves room for them, in all but a contrived
// case that ends, at worst, with the question timing out.
func ReadBody(max int64, timeout time.Duration, log zerolog.Logger, next http.Handler) http.Handler {
	budget := semaphore.NewWeighted(BodiesAtOnce * max)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			writeError(w, r, refusedTooLarge, fmt.Sprintf("request body of %d bytes is over the limit of %d (--max-body-bytes)", r.ContentLength, max))
			return
		}
		deadline := time.Now().Add(timeout)
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(deadline); err != nil {
			// Only a ResponseWriter that hides its connection fails here;
			// ours is net/http's own.
			log.Error().Err(err).Msg("cannot bound the body read")
		}
		weight := r.ContentLength
		if weight < 0 {
			weight = max
		}
		if !budget.TryAcquire(weight) && !acquireBy(r.Context(), budget, weight, deadline) {
			log.Warn().Int64("bytes", weight).Int64("budget", BodiesAtOnce*max).Msg("refused a request: too many bodies being read at once")
			w.Header().Set("Retry-After", "1")
			writeError(w, r, refusedBodiesBusy, fmt.Sprintf("the server is reading as many request bodies as it holds at once (%d of --max-body-bytes); retry in a second", BodiesAtOnce))
			return
		}
		held := weight
		defer func() { budget.Release(held) }()
		body, err := readAll(http.MaxBytesReader(w, r.Body, max), r.ContentLength)
		var tooLarge *http.MaxBytesError
		var netErr net.Error
		switch {
		case err == nil:
			// Cleared at once: net/http keeps reading the connection after
			// the body (to notice a client that goes away), and that read
			// must not end a long answer. (On a refusal it stays: writeError
			// ends the connection's reading.)
			_ = rc.SetReadDeadline(time.Time{})
		case errors.As(err, &tooLarge):
			writeError(w, r, refusedTooLarge, fmt.Sprintf("request body is over the limit of %d bytes (--max-body-bytes)", max))
			return
		case errors.As(err, &netErr) && netErr.Timeout():
			log.Warn().Str("remote", r.RemoteAddr).Dur("timeout_ms", timeout).Msg("refused a request whose body did not arrive in time")
			writeError(w, r, refusedTooSlow, fmt.Sprintf("the request body did not arrive within %s (--read-body-timeout): send the whole body at once", timeout))
			return
		default:
			// The client went away or sent a broken chunked body: nobody
			// is there to read an answer, but try.
			writeError(w, r, refusedUnreadable, "the request body could not be read: "+truncate(err.Error(), 120))
			return
		}
		r = withBody(r, body)
		if !messageOf(r).request {
			budget.Release(held) // an answer or a notification: done at once
			held = 0
		}
		next.ServeHTTP(w, r)
	})
}

// acquireBy waits for weight of budget until deadline or ctx ends, and
// reports whether it has it.
func acquireBy(ctx context.Context, budget *semaphore.Weighted, weight int64, deadline time.Time) bool {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	return budget.Acquire(ctx, weight) == nil
}

// BodiesAtOnce is how many bodies of the largest size ReadBody's budget
// holds at once (see ReadBody).
const BodiesAtOnce = 8

// readAll reads body to its end: into a buffer of exactly the announced
// length when that is small (0 to exactBody bytes), growing one as
// io.ReadAll does otherwise, or when it is chunked (-1). A larger buffer
// is never made ahead of the bytes that fill it: a client that announces
// a body of --max-body-bytes and sends none of it has the server hold at
// most exactBody bytes for it, not the whole announced length.
func readAll(body io.Reader, announced int64) ([]byte, error) {
	if announced < 0 || announced > exactBody {
		return io.ReadAll(body)
	}
	b := make([]byte, announced)
	if _, err := io.ReadFull(body, b); err != nil {
		return nil, err
	}
	return b, nil
}

// exactBody is the largest announced body read into a buffer made ahead
// of it: every request a client makes in the course of a call (a tool
// call, an answer to a form or a sampling request) is well under it.
const exactBody = 8 << 10

// message is what the layers in front of mcp-go need to know of a POST's
// JSON-RPC body, decoded once here: Inflight counts requests, and Sessions
// counts initializes. One decoding serves every layer (what that saves a
// call: docs/BENCHMARKS.md#beside-the-peers).
type message struct {
	// request: the body holds a request (a method and an id) rather than
	// only responses or notifications. A body that is not JSON counts as a
	// request: the server will refuse it, and that is work.
	request bool
	// initialize: the body is an initialize request.
	initialize bool
	// listen: the body is a subscriptions/listen request, whose result
	// must wait for its acknowledgement (AcknowledgedFirst).
	listen bool
}

// readMessage is what the layers need of a body, read the way mcp-go's
// encoding/json reads it (decodeMessage is that reading). A single request
// object, which is almost every POST, is read in one pass over bytes that
// json.Valid has checked, without decoding anything; whatever that pass
// does not handle itself (a batch, escapes or other than ASCII in a key,
// a method that is not a plain string) goes to decodeMessage, so the two
// agree on every body (FuzzReadMessage holds them to it).
func readMessage(body []byte) message {
	if !json.Valid(body) {
		return message{request: true}
	}
	m, ok := scanMessage(body)
	if !ok {
		return decodeMessage(body)
	}
	return m
}

// decodeMessage is readMessage with encoding/json: mcp-go's reading of a
// body, and the reference scanMessage is held to.
func decodeMessage(body []byte) message {
	type one struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	isRequest := func(m one) bool { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }
	var m one
	if err := json.Unmarshal(body, &m); err == nil {
		return message{request: isRequest(m), initialize: m.Method == string(mcp.MethodInitialize),
			listen: isRequest(m) && m.Method == string(mcp.MethodSubscriptionsListen)}
	}
	var batch []one
	if err := json.Unmarshal(body, &batch); err != nil {
		return message{request: true}
	}
	return message{request: slices.ContainsFunc(batch, isRequest)}
}

// scanMessage reads the top-level members of body, valid JSON, for
// "method" and "id" as encoding/json matches them (case-insensitively, the
// last one winning), and reports false for what it leaves to
// decodeMessage: anything but an object, a key with an escape or a byte
// beyond ASCII, a method that is not a string free of escapes.
func scanMessage(body []byte) (message, bool) {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return message{}, false
	}
	var method []byte
	hasID := false
	i = skipSpace(body, i+1)
	for i < len(body) && body[i] == '"' {
		end := i + 1
		for end < len(body) && body[end] != '"' {
			if c := body[end]; c == '\\' || c >= 0x80 {
				return message{}, false
			}
			end++
		}
		key := body[i+1 : end]
		i = skipSpace(body, end+1) + 1 // past the colon
		i = skipSpace(body, i)
		vend := skipValue(body, i)
		switch {
		case bytes.EqualFold(key, []byte("method")):
			v := body[i:vend]
			if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
				return message{}, false // null, another type, or an escape
			}
			method = v[1 : len(v)-1]
		case bytes.EqualFold(key, []byte("id")):
			hasID = string(body[i:vend]) != "null"
		}
		i = skipSpace(body, vend)
		if i < len(body) && body[i] == ',' {
			i = skipSpace(body, i+1)
		}
	}
	request := len(method) > 0 && hasID
	return message{request: request, initialize: string(method) == string(mcp.MethodInitialize),
		listen: request && string(method) == string(mcp.MethodSubscriptionsListen)}, true
}

// skipSpace is the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just past the JSON value that starts at i, in
// valid JSON.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing object
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i // the end of a number or a literal
			}
		}
	}
	return i
}
