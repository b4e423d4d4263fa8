package main

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
)

// A profile is one kind of host: what it declares, which protocol era it
// speaks, how its user and its model behave, and what it asks the server to
// do. The profiles follow what real hosts did in late 2026 (see
// docs/HOSTS.md#what-each-host-declares-and-the-path-it-takes); the server
// decides its path per request from exactly these differences.
type profile struct {
	Name string
	// Like names the real hosts that behave this way.
	Like string
	// What the reader should notice.
	Shows string
	Era   string

	// What the host declares, and how it behaves. An empty behaviour means
	// the capability is not declared at all.
	Sampling fakeclient.Behaviour
	Form     fakeclient.Behaviour
	URLOnly  bool // declares elicitation in URL mode only
	Roots    bool
	// Apps declares the MCP Apps extension: the host renders the results
	// view beside the text.
	Apps bool

	// ServerLLM starts the stand-in OpenAI-compatible endpoint and points
	// the server's --llm-base-url at it.
	ServerLLM bool
	// ServerArgs are extra server flags (ignored with --url).
	ServerArgs []string

	Steps []step
}

// step is one tool call. Args may use "{date}" (a date a month ahead) and
// "{flight}" (the first flight of the previous search) and "{booking}" (the
// reference of the previous booking).
type step struct {
	Tool string
	Args map[string]any
}

var (
	search       = step{"findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": "{date}"}}
	searchNoDate = step{"findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR"}}
	searchOnlyTo = step{"findBestFlight", map[string]any{"destination": "LHR"}}
	save         = step{"saveItinerary", map[string]any{"flightId": "{flight}", "format": "ics"}}
	book         = step{"bookFlight", map[string]any{"flightId": "{flight}"}}
	saveBooking  = step{"saveItinerary", map[string]any{"bookingRef": "{booking}", "format": "markdown"}}
)

const (
	legacy = mcp.ProtocolVersion20251125
	modern = mcp.ProtocolVersion20260728
)

// profiles are played in this order.
var profiles = []profile{
	{
		Name: "plain-desktop", Like: "Claude Desktop, Cursor (no sampling; forms not shown)", Era: legacy,
		Shows: "no client LLM and no server LLM: the deterministic ranker, and the attempts say why the others were skipped",
		Steps: []step{search},
	},
	{
		Name: "plain-desktop-server-llm", Like: "Claude Desktop with an operator-configured LLM", Era: legacy, ServerLLM: true,
		Shows: "the server's own LLM ranks when the client cannot",
		Steps: []step{search},
	},
	{
		Name: "plain-desktop-missing-date", Like: "Claude Desktop, Cursor", Era: legacy,
		Shows: "a missing date with no way to ask the user: an error naming the field, for the host's model to ask in the conversation",
		Steps: []step{searchNoDate},
	},
	{
		Name: "form-user-fills", Like: "Claude Code (CLI), VS Code", Era: legacy, Form: fakeclient.Accepts,
		Shows: "origin and date missing: the server asks in a form, the user fills it, the search runs",
		Steps: []step{searchOnlyTo},
	},
	{
		Name: "form-user-declines", Like: "Claude Code IDE extension (auto-declines)", Era: legacy, Form: fakeclient.Declines,
		Shows: "the user declines the form: an error that says so, distinct from \"cannot ask\"",
		Steps: []step{searchNoDate},
	},
	{
		Name: "sampling-approves", Like: "VS Code (Copilot), Goose", Era: legacy, Sampling: fakemodel.Answers,
		Shows: "the client's LLM ranks through sampling",
		Steps: []step{search},
	},
	{
		Name: "sampling-rejects", Like: "VS Code, user clicks Deny", Era: legacy, Sampling: fakeclient.Rejects,
		Shows: "a rejected sampling request falls through to the next tier instead of failing the call",
		Steps: []step{search},
	},
	{
		Name: "sampling-never-answers", Like: "a host whose approval dialog nobody sees", Era: legacy, Sampling: fakeclient.Silent,
		ServerArgs: []string{"--sampling-timeout", "1s"},
		Shows:      "a silent host costs at most --sampling-timeout, then the ladder goes on",
		Steps:      []step{search},
	},
	{
		Name: "shares-roots", Like: "Claude Desktop, VS Code, Cursor (roots)", Era: legacy, Roots: true,
		Shows: "saveItinerary writes inside the client's first root",
		Steps: []step{search, save},
	},
	{
		Name: "modern-everything", Like: "Goose, MCP Inspector (2026-07-28)", Era: modern,
		Sampling: fakemodel.Answers, Form: fakeclient.Accepts, Roots: true,
		Shows: "stateless rounds: form for the missing date, then sampling, then a booking form, then roots, each an input_required round with signed state",
		Steps: []step{searchNoDate, book, saveBooking},
	},
	{
		Name: "modern-sampling-rejects", Like: "a 2026-07-28 host whose user clicks Deny", Era: modern, Sampling: fakeclient.Rejects,
		Shows: "in 2026-07-28 a rejected sampling request ends the call on the host: no retry comes, and the server, holding nothing, is not waiting",
		Steps: []step{search},
	},
	{
		Name: "modern-server-llm-first", Like: "the same host, with an operator LLM and --server-llm-first modern", Era: modern,
		Sampling: fakeclient.Rejects, ServerLLM: true, ServerArgs: []string{"--server-llm-first", "modern"},
		Shows: "the operator puts its own LLM before sampling for 2026-07-28 clients (sampling is deprecated there): it ranks, and the user is never asked",
		Steps: []step{search},
	},
	{
		Name: "apps-host", Like: "Claude Desktop, VS Code Copilot, Goose (MCP Apps)", Era: legacy, Apps: true,
		Shows: "a host that renders MCP Apps gets the results view linked beside the same text and data every host gets",
		Steps: []step{search},
	},
	{
		Name: "modern-nothing", Like: "a minimal 2026-07-28 client", Era: modern,
		Shows: "nothing declared: deterministic ranking, and saving refused with how to enable it",
		Steps: []step{search, save},
	},
	{
		Name: "url-elicitation-only", Like: "a host that declares only URL-mode elicitation", Era: modern, URLOnly: true,
		Shows: "a form is never sent to a client that did not declare form mode",
		Steps: []step{searchNoDate},
	},
}

func findProfile(name string) (profile, bool) {
	for _, p := range profiles {
		if p.Name == name {
			return p, true
		}
	}
	return profile{}, false
}
