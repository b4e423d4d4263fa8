package fakeclient

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Form behaviours: what a host's user does with an elicitation form.
const (
	// Accepts: the user fills the form with Content and submits.
	Accepts Behaviour = "accepts"
	// Declines: the user says no.
	Declines Behaviour = "declines"
	// Cancels: the user dismisses the form.
	Cancels Behaviour = "cancels"
	// Silent and Fails (shared with sampling): the form is never
	// answered, or the host answers with an error of its own
	// (FormFailMessage).
)

// FormFailMessage is what a failing host says of a form.
const FormFailMessage = "the host's form renderer crashed"

// Form is an mcp-go client.ElicitationHandler with a scripted user. It
// records the requests so tests can check what the server asked.
type Form struct {
	Behaviour Behaviour
	// Content is what an accepting user submits.
	Content map[string]any
	// Contents, when set, are what an accepting user submits to each form
	// in turn (the last repeats): a user who gets it wrong, then right.
	Contents []map[string]any
	// Delay is how long the user takes to answer.
	Delay time.Duration

	requests received[mcp.ElicitationRequest]
}

// Requests returns the elicitation requests received so far.
func (f *Form) Requests() []mcp.ElicitationRequest { return f.requests.all() }

// Elicit implements client.ElicitationHandler.
func (f *Form) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	seen := f.requests.add(req)
	content := f.Content
	if n := len(f.Contents); n > 0 {
		content = f.Contents[min(seen, n)-1]
	}
	switch f.Behaviour {
	case Silent:
		<-ctx.Done()
		return nil, ctx.Err()
	case Fails:
		return nil, errors.New(FormFailMessage)
	}
	select {
	case <-time.After(f.Delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	res := &mcp.ElicitationResult{}
	switch f.Behaviour {
	case Accepts:
		res.Action, res.Content = mcp.ElicitationResponseActionAccept, content
	case Declines:
		res.Action = mcp.ElicitationResponseActionDecline
	default:
		res.Action = mcp.ElicitationResponseActionCancel
	}
	return res, nil
}
