package tools

import (
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/tools/state"
)

// A 2026-07-28 tool call that needs the client first (a sampling answer,
// the user's form, the roots) answers input_required with a sealed
// requestState and is called again with the answers. Every tool here does
// it the same way: the state is bound to the tool, the exact arguments and
// the step, and a retry whose state does not verify is refused with the
// same clear error. These two functions are that one way.

// seal binds a question to this call: its tool, its arguments and the step
// the retry must be at. data is what the retry needs (nil for nothing).
func (t *Toolset) seal(req mcp.CallToolRequest, step string, data []byte) (string, error) {
	digest, err := state.Digest(req.Params.Arguments)
	if err != nil {
		return "", fmt.Errorf("digest arguments: %w", err)
	}
	token, err := t.sealer.Seal(state.Payload{Tool: req.Params.Name, ArgsDigest: digest, Step: step, Data: data})
	if err != nil {
		return "", fmt.Errorf("seal %s state: %w", step, err)
	}
	return token, nil
}

// reopen verifies a retry's requestState for this call at one of steps. When the
// state cannot be used, refused is the isError to return: it says why and
// how to start over, and nothing is built on the state.
func (t *Toolset) reopen(req mcp.CallToolRequest, steps ...string) (p state.Payload, refused *mcp.CallToolResult, err error) {
	digest, err := state.Digest(req.Params.Arguments)
	if err != nil {
		return p, nil, fmt.Errorf("digest arguments: %w", err)
	}
	p, err = t.sealer.Open(req.Params.RequestState, req.Params.Name, digest, steps...)
	if err != nil {
		t.log.Warn().Str("tool", req.Params.Name).Err(err).Msg("refused requestState")
		return p, mcp.NewToolResultError(fmt.Sprintf("This retry's requestState cannot be used: %v. "+
			"Call %s again without requestState and inputResponses to start over.", err, req.Params.Name)), nil
	}
	return p, nil, nil
}
