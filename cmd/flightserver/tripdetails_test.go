package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/tools"
)

// findBestFlight without an origin and a date, through the real binary over
// stdio in both eras: the user fills them in (at once or at the second
// try), or the call ends saying why it could not search.
func TestStdioAsksForMissingTripDetails(t *testing.T) {
	good := map[string]any{"origin": "FRA", "date": travelDate()}
	bad := map[string]any{"origin": "QQX", "date": "2020-01-01"}
	for _, tc := range []struct {
		name  string
		form  *fakeclient.Form // nil: no form elicitation declared
		caps  *mcp.ClientCapabilities
		forms int
		why   string // "" when the search runs
	}{
		{name: "accepts valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: good}, forms: 1},
		{name: "invalid then valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Contents: []map[string]any{bad, good}}, forms: 2},
		{name: "invalid twice", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: bad}, forms: 2, why: tools.WhyStillInvalid},
		{name: "declines", form: &fakeclient.Form{Behaviour: fakeclient.Declines}, forms: 1, why: tools.WhyDeclined},
		{name: "cancels", form: &fakeclient.Form{Behaviour: fakeclient.Cancels}, forms: 1, why: tools.WhyCancelled},
		{name: "never answers", form: &fakeclient.Form{Behaviour: fakeclient.Silent}, forms: 1, why: tools.WhyNoAnswer},
		{name: "not declared", why: tools.WhyCannotAsk},
		{name: "url mode only", caps: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}}, why: tools.WhyURLModeOnly},
	} {
		for _, era := range eras {
			if tc.form != nil && tc.form.Behaviour == fakeclient.Silent && era.name == "modern" {
				// A modern host that never answers never retries: nothing
				// reaches the server to time out (tested in package tools).
				continue
			}
			t.Run(tc.name+"/"+era.name, func(t *testing.T) {
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				var form *fakeclient.Form
				if tc.form != nil {
					form = &fakeclient.Form{Behaviour: tc.form.Behaviour, Content: tc.form.Content, Contents: tc.form.Contents}
					opts = append(opts, client.WithElicitationHandler(form))
				}
				if tc.caps != nil {
					opts = append(opts, client.WithClientCapabilities(*tc.caps))
				}
				c := startStdio(t, nil, []string{"--log-level", "warn", "--elicitation-timeout", "300ms"}, nil, opts...)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
					Arguments: map[string]any{"destination": "SIN"}}})
				if err != nil {
					t.Fatal(err)
				}
				if form != nil && len(form.Requests()) != tc.forms {
					t.Errorf("%d forms shown, want %d", len(form.Requests()), tc.forms)
				}
				if tc.why == "" {
					var r struct {
						Trip    struct{ Origin, Destination, Date string }
						Flights []struct{ ID string }
					}
					b := structured(t, res, &r)
					if res.IsError || r.Trip.Origin != "FRA" || r.Trip.Destination != "SIN" || r.Trip.Date != travelDate() || len(r.Flights) == 0 {
						t.Errorf("result %s", b)
					}
					return
				}
				d := errorDetails(t, res)
				if d.Error != tools.ErrorTripDetailsNeeded || d.Why != tc.why || d.AskedUser == nil || *d.AskedUser != (tc.forms > 0) || len(d.Fields) != 2 {
					t.Errorf("want %s, got %+v", tc.why, d)
				}
				if txt := res.Content[0].(mcp.TextContent).Text; !strings.Contains(txt, "- origin:") || !strings.Contains(txt, "- date:") {
					t.Errorf("text does not name the fields: %s", txt)
				}
			})
		}
	}
}
