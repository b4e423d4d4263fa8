package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
)

// bookFlight through the real binary over stdio in both eras: confirmed in
// a form by a client that can show one, or by arguments from one that cannot.
func TestStdioBookFlight(t *testing.T) {
	for _, era := range eras {
		for _, withForm := range []bool{true, false} {
			name := era.name + "/arguments"
			if withForm {
				name = era.name + "/form"
			}
			t.Run(name, func(t *testing.T) {
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				if withForm {
					opts = append(opts, client.WithElicitationHandler(&fakeclient.Form{Behaviour: fakeclient.Accepts,
						Content: map[string]any{"confirm": true, "passengerName": "Ada Lovelace", "seat": "aisle"}}))
				}
				c := startStdio(t, nil, []string{"--log-level", "warn"}, nil, opts...)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				id := firstFlightID(t, ctx, c, "FRA", "SIN")
				args := map[string]any{"flightId": id}
				if !withForm {
					res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "bookFlight", Arguments: args}})
					if err != nil || !res.IsError {
						t.Fatalf("booking without approval: %v %+v", err, res)
					}
					args["confirm"], args["passengerName"] = true, "Ada Lovelace"
				}
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "bookFlight", Arguments: args}})
				if err != nil || res.IsError {
					t.Fatalf("book: %v %+v", err, res)
				}
				var r struct {
					Reference, PassengerName string
					Simulated                bool
					Attempts                 []struct{ Step, Outcome string }
				}
				b := structured(t, res, &r)
				by := "confirm_arguments"
				if withForm {
					by = "confirm_form"
				}
				if !r.Simulated || r.PassengerName != "Ada Lovelace" || usedStep(r.Attempts) != by || !strings.HasPrefix(r.Reference, "BK-"+id) {
					t.Errorf("booking %s", b)
				}
			})
		}
	}
}
