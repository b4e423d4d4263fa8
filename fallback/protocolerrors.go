package fallback

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback/state"
)

// Protocol 2026-07-28 answers two refusals of a tools/call as JSON-RPC
// errors rather than as tool results, and mcp-go v1.2.1 gives a tool
// handler no way to return either (every error a handler returns becomes
// -32603): a call that needs a client capability the request did not
// declare, and a requestState that fails its integrity check. ProtocolErrors
// is the HTTP layer that answers them, in front of mcp-go, with the same
// decisions the engine makes inside a call: Client.CannotAsk for the
// capability, the sealer for the state.
//
// It is opt-in: a server that would rather tell a model in words how to
// start over (an isError, which Call.open answers for every state it
// cannot use) leaves it out.

// Requirements name, per tool, what a modern client must declare for the
// tool to run at all: a tool whose whole point is to ask (a sampling demo)
// rather than one that falls back when it cannot.
type Requirements map[string][]AskKind

// maxInspected bounds the body ProtocolErrors reads; a larger one passes
// through untouched, for the layers behind to refuse.
const maxInspected = 4 << 20

// ProtocolErrors answers, for modern tools/call requests over HTTP:
//
//   - -32021 MissingRequiredClientCapability, HTTP 400, when the tool is in
//     req and the request's _meta does not declare what it needs; the
//     error's data.requiredCapabilities is a ClientCapabilities object
//     naming it ({"sampling": {}}, {"elicitation": {"form": {}}});
//   - -32602 Invalid params, HTTP 400, when the requestState was not
//     sealed by this server's key, is malformed or is too large (a state
//     sealed here but for another tool, other arguments, or expired, is
//     the call's to refuse: Call.open says how to start over).
//
// Everything else, legacy requests included, passes to next with its body
// intact.
func (e *Engine) ProtocolErrors(req Requirements, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.ContentLength > maxInspected {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxInspected+1))
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
		if err != nil || len(body) > maxInspected {
			next.ServeHTTP(w, r)
			return
		}
		if refusal := e.protocolError(req, body); refusal != nil {
			writeJSONRPCError(w, refusal)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// toolCall is what ProtocolErrors reads of a request.
type toolCall struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name         string          `json:"name"`
		RequestState string          `json:"requestState"`
		Meta         json.RawMessage `json:"_meta"`
	} `json:"params"`
}

// modernMeta is the part of a modern request's _meta the refusals read.
type modernMeta struct {
	ProtocolVersion    string                  `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities *mcp.ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities"`
}

// protocolError is the JSON-RPC error to answer body with, or nil.
func (e *Engine) protocolError(req Requirements, body []byte) *mcp.JSONRPCError {
	var call toolCall
	if json.Unmarshal(body, &call) != nil || call.Method != string(mcp.MethodToolsCall) || len(call.ID) == 0 {
		return nil
	}
	var meta modernMeta
	if len(call.Params.Meta) == 0 || json.Unmarshal(call.Params.Meta, &meta) != nil || !mcp.IsModernProtocol(meta.ProtocolVersion) {
		return nil
	}
	var id any
	_ = json.Unmarshal(call.ID, &id)
	if kinds := req[call.Params.Name]; len(kinds) > 0 && meta.ClientCapabilities != nil {
		client := Client{Era: Modern, ProtocolVersion: meta.ProtocolVersion, Known: true, Capabilities: *meta.ClientCapabilities}
		for _, kind := range kinds {
			if why, reason := client.CannotAsk(kind); why != "" {
				return rpcError(id, mcp.MISSING_REQUIRED_CLIENT_CAPABILITY,
					fmt.Sprintf("%s needs the client's %s, and %s: declare it in %s and call again", call.Params.Name, kind, reason, mcp.MetaKeyClientCapabilities),
					map[string]any{"requiredCapabilities": requiredCapability(kind)})
			}
		}
	}
	if token := call.Params.RequestState; token != "" {
		// Only the signature and the shape are checked here: they come
		// first in Open, before any binding, so no steps or digest are
		// needed to tell a forged state from one of ours used elsewhere.
		_, err := e.sealer.Open(token, call.Params.Name, "")
		if errors.Is(err, state.ErrForged) || errors.Is(err, state.ErrMalformed) || errors.Is(err, state.ErrTooLarge) {
			return rpcError(id, mcp.INVALID_PARAMS,
				fmt.Sprintf("requestState failed its integrity check (%s): call %s again without requestState and inputResponses to start over", err, call.Params.Name),
				nil)
		}
	}
	return nil
}

// requiredCapability is the ClientCapabilities object a kind of question
// needs: a form needs form-mode elicitation.
func requiredCapability(kind AskKind) map[string]any {
	switch kind {
	case AskSampling:
		return map[string]any{"sampling": map[string]any{}}
	case AskForm:
		return map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	default:
		return map[string]any{"roots": map[string]any{}}
	}
}

func rpcError(id any, code int, message string, data any) *mcp.JSONRPCError {
	return &mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id),
		Error: mcp.NewJSONRPCErrorDetails(code, message, data)}
}

// writeJSONRPCError answers with e and the HTTP status 2026-07-28 gives its
// code (both of ProtocolErrors' codes: 400 Bad Request).
func writeJSONRPCError(w http.ResponseWriter, e *mcp.JSONRPCError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(e)
}
