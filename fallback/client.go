package fallback

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Era is the protocol era of one request. The server serves both on one
// endpoint, so every decision that depends on the client is made per request.
type Era string

const (
	// Legacy (2025-11-25 and earlier): capabilities were declared once at
	// initialize and hold for the session; the server asks the client
	// through requests of its own while a call is in flight.
	Legacy Era = "legacy"
	// Modern (2026-07-28 and later): stateless; every request carries its
	// own capabilities in _meta, and the server asks through input_required
	// results that the client answers by calling again.
	Modern Era = "modern"
)

// Client is what the server knows about the client behind one request.
type Client struct {
	Era             Era
	ProtocolVersion string
	// Name is the client's self-reported name (clientInfo.name); it is for
	// logs only and never decides anything.
	Name string
	// Capabilities are those declared for this request (modern) or this
	// session (legacy). The zero value declares nothing.
	Capabilities mcp.ClientCapabilities
	// Known is false when a legacy request arrived without an initialized
	// session (legacy stateless HTTP, an unknown session id): mcp-go then
	// reports empty capabilities without an error, and this flag is the only
	// way to tell "declared nothing" from "we cannot know".
	Known bool
}

// ClientFrom reads the client's era and declared capabilities from a
// request's context, in either era. mcp-go keeps them in different places
// (per-request _meta for modern, the session for legacy) and has no single
// accessor; every capability check in this server goes through here.
func ClientFrom(ctx context.Context) Client {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		c := Client{Era: Modern, ProtocolVersion: info.ProtocolVersion, Known: true}
		if info.ClientCapabilities != nil {
			c.Capabilities = *info.ClientCapabilities
		}
		if info.ClientInfo != nil {
			c.Name = info.ClientInfo.Name
		}
		return c
	}
	c := Client{Era: Legacy, ProtocolVersion: server.RequestProtocolVersion(ctx)}
	session := server.ClientSessionFromContext(ctx)
	// A request before initialize, or an ephemeral session (mcp-go's
	// stateless mode; the binary's session guard answers an unknown id with
	// 404 first) has no negotiated version: nothing was declared to it, so
	// nothing about the client is known.
	if session == nil || !session.Initialized() || c.ProtocolVersion == "" {
		return c
	}
	c.Known = true
	if s, ok := session.(server.SessionWithClientInfo); ok {
		c.Capabilities = s.GetClientCapabilities()
		c.Name = s.GetClientInfo().Name
	}
	return c
}

// CanSample reports whether the client declared sampling.
func (c Client) CanSample() bool { return c.Capabilities.Sampling != nil }

// CanSampleWithTools reports whether the client declared sampling.tools:
// then, and only then, a sampling request may offer tools and a toolChoice
// (docs/PROTOCOL.md#what-a-server-may-ask-of-a-client), in either era.
func (c Client) CanSampleWithTools() bool {
	return c.Capabilities.Sampling != nil && c.Capabilities.Sampling.Tools != nil
}

// CanElicitForm reports whether the client accepts form-mode elicitation.
// An empty elicitation capability ({}) means form mode only.
func (c Client) CanElicitForm() bool {
	e := c.Capabilities.Elicitation
	return e != nil && (e.Form != nil || e.URL == nil)
}

// CanListRoots reports whether the client declared roots.
func (c Client) CanListRoots() bool { return c.Capabilities.Roots != nil }

// AskKind is what a question asks the client for: the three client
// primitives the server uses.
type AskKind string

const (
	AskSampling AskKind = "sampling"
	AskForm     AskKind = "form"
	AskRoots    AskKind = "roots"
)

// CannotAsk says why this client must not be asked for kind, or "" when it
// may be. A server MUST NOT use a capability the client did not declare, in
// either era; this is the one place that decides it, for the ask mechanism
// and for the rungs that want to skip early with the same words.
func (c Client) CannotAsk(kind AskKind) (Why, string) {
	if !c.Known {
		return UnknownClient, "cannot tell what this client can do: a legacy request without an initialized session"
	}
	switch kind {
	case AskSampling:
		if !c.CanSample() {
			return ClientCannotAsk, "client did not declare sampling"
		}
	case AskForm:
		switch {
		case c.Capabilities.Elicitation == nil:
			return ClientCannotAsk, "client did not declare elicitation"
		case !c.CanElicitForm():
			return URLModeOnly, "client declared only URL-mode elicitation, and this needs a form"
		}
	case AskRoots:
		if !c.CanListRoots() {
			return ClientCannotAsk, "client did not declare roots"
		}
	}
	return "", ""
}
