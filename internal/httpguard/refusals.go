package httpguard

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/telemetry"
)

// The HTTP layer's refusals answer with a JSON-RPC error body, so an MCP
// client shows the message instead of a bare status code. None of them is
// -32600 Invalid Request: the request was well formed, and a client (or a
// person reading its log) told "invalid" looks for a bug in its request
// instead of slowing down, authenticating or starting a new session.
//
// JSON-RPC leaves -32000..-32099 to the implementation, and protocol
// 2026-07-28 narrows what servers may use to -32000..-32019 (-32020 and up
// belong to the MCP specification: -32020 header mismatch, -32021 missing
// capability, -32022 unsupported version). The official TypeScript SDK's
// streamable HTTP server answers its own transport refusals (a forbidden
// Origin or Host, 406, 409, a missing session id) with -32000 and an unknown
// session with 404 and -32001; those two keep that meaning here, so a client
// written against the SDK reads them the same way. The rest get a code of
// their own in that range, each paired with one HTTP status, and every
// message says what to do. -32002 is skipped: earlier MCP revisions use it
// for "resource not found".
const (
	CodeRefused         = -32000 // 403, 400: a request this transport does not serve (a foreign Origin or Host, a GET stream naming no session, a body on a method that takes none)
	CodeSessionNotFound = -32001 // 404: a 2025-11-25 session this process does not hold
	CodeUnauthorized    = -32003 // 401: no bearer token, or the wrong one
	CodeTooLarge        = -32004 // 413: a body over --max-body-bytes
	CodeTooSlow         = -32005 // 408: a body not sent within --read-body-timeout
	CodeSlowDown        = -32006 // 429: one client over its rate, its sessions or its share of the requests in flight
	CodeBusy            = -32007 // 503: the server at its limit of requests in flight, sessions, GET streams or bodies being read
)

// refusal is one way the HTTP layer refuses a request: its status, its
// JSON-RPC code and the reason the metrics count it under
// (flightserver_http_refusals_total{reason}; "" is not counted).
type refusal struct {
	status, code int
	reason       string
}

// The refusals, each with the one status and code it answers with.
var (
	refusedHost           = refusal{http.StatusForbidden, CodeRefused, telemetry.RefusedOrigin}
	refusedOrigin         = refusal{http.StatusForbidden, CodeRefused, telemetry.RefusedOrigin}
	refusedNoSession      = refusal{http.StatusBadRequest, CodeRefused, ""}
	refusedUnreadable     = refusal{http.StatusBadRequest, mcp.PARSE_ERROR, ""}
	refusedStrayBody      = refusal{http.StatusBadRequest, CodeRefused, ""}
	refusedUnknownSession = refusal{http.StatusNotFound, CodeSessionNotFound, telemetry.RefusedUnknownSession}
	refusedAuth           = refusal{http.StatusUnauthorized, CodeUnauthorized, telemetry.RefusedAuth}
	refusedTooLarge       = refusal{http.StatusRequestEntityTooLarge, CodeTooLarge, telemetry.RefusedBodySize}
	refusedTooSlow        = refusal{http.StatusRequestTimeout, CodeTooSlow, telemetry.RefusedBodySize}
	refusedRate           = refusal{http.StatusTooManyRequests, CodeSlowDown, telemetry.RefusedRate}
	refusedClientSessions = refusal{http.StatusTooManyRequests, CodeSlowDown, telemetry.RefusedSessions}
	refusedSessions       = refusal{http.StatusServiceUnavailable, CodeBusy, telemetry.RefusedSessions}
	refusedInflight       = refusal{http.StatusServiceUnavailable, CodeBusy, telemetry.RefusedInflight}
	refusedClientInflight = refusal{http.StatusTooManyRequests, CodeSlowDown, telemetry.RefusedInflight}
	refusedStreams        = refusal{http.StatusServiceUnavailable, CodeBusy, telemetry.RefusedStreams}
	refusedDraining       = refusal{http.StatusServiceUnavailable, CodeBusy, telemetry.RefusedDraining}
	refusedBodiesBusy     = refusal{http.StatusServiceUnavailable, CodeBusy, telemetry.RefusedBodySize}
)

// metricsKey carries the metrics in a request's context, so that every
// refusal, wherever it happens, is counted by writeError.
type metricsKey struct{}

// CountRefusals makes the metrics available to every refusal of the
// requests it serves (the layers behind it), which counts itself in
// flightserver_http_refusals_total. m nil: nothing is counted.
func CountRefusals(m *telemetry.Metrics, next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), metricsKey{}, m)))
	})
}

// writeError answers r with the refusal's status and a JSON-RPC error, and
// counts it.
//
// When the request's body has not been read in full (a refusal before
// ReadBody, or ReadBody's own), the connection is not reused: net/http
// would otherwise read the rest of the body first, to find the next request
// on the connection, and a client that sends its body slowly, or never,
// would hold back the refusal (without Connection: close) or the
// connection and its goroutine (with it: net/http still reads up to 256 KB
// of body when the handler returns). So the answer says Connection: close,
// and once it is written, reading the connection ends at once.
func writeError(w http.ResponseWriter, r *http.Request, why refusal, message string) {
	status, code := why.status, why.code
	if m, ok := r.Context().Value(metricsKey{}).(*telemetry.Metrics); ok && why.reason != "" {
		m.Refused(why.reason)
	}
	unread := !bodyRead(r) && r.ContentLength != 0
	if unread {
		w.Header().Set("Connection", "close")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": message},
	})
	if unread {
		rc := http.NewResponseController(w)
		_ = rc.Flush()
		_ = rc.SetReadDeadline(time.Now())
	}
}

// bodyReadKey marks a request whose body ReadBody has read in full, with
// what the layers need to know of it (a message). It travels in the
// context, not with the body, so that a layer that wraps the body again
// (fallback's ProtocolErrors reads it too) does not lose it.
type bodyReadKey struct{}

// readBody is a POST's body once ReadBody has read it in full, as mcp-go
// reads it next.
type readBody struct{ bytes.Reader }

func (*readBody) Close() error { return nil }

// withBody is r with its body, read in full, put back, and marked with
// what the layers need to know of it.
func withBody(r *http.Request, body []byte) *http.Request {
	rb := &readBody{}
	rb.Reset(body)
	r.Body = rb
	return r.WithContext(context.WithValue(r.Context(), bodyReadKey{}, readMessage(body)))
}

// bodyRead reports whether ReadBody has read r's body.
func bodyRead(r *http.Request) bool {
	_, ok := r.Context().Value(bodyReadKey{}).(message)
	return ok
}

// messageOf is what ReadBody found in r's body. A body nobody read counts
// as a request, like one that is not JSON.
func messageOf(r *http.Request) message {
	m, ok := r.Context().Value(bodyReadKey{}).(message)
	if !ok {
		return message{request: true}
	}
	return m
}
