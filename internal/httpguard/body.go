package httpguard

import (
	"bytes"
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
)

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
func ReadBody(max int64, timeout time.Duration, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			writeError(w, r, refusedTooLarge, fmt.Sprintf("request body of %d bytes is over the limit of %d (--max-body-bytes)", r.ContentLength, max))
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(timeout)); err != nil {
			// Only a ResponseWriter that hides its connection fails here;
			// ours is net/http's own.
			log.Error().Err(err).Msg("cannot bound the body read")
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
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
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, withBody(r, readMessage(body)))
	})
}

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

func readMessage(body []byte) message {
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
