package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/tools/scripted"
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
					opts = append(opts, client.WithElicitationHandler(&scripted.Form{Behaviour: scripted.Accepts,
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
					Reference, PassengerName, ConfirmedBy string
					Simulated                             bool
				}
				b := structured(t, res, &r)
				by := "arguments"
				if withForm {
					by = "form"
				}
				if !r.Simulated || r.PassengerName != "Ada Lovelace" || r.ConfirmedBy != by || !strings.HasPrefix(r.Reference, "BK-"+id) {
					t.Errorf("booking %s", b)
				}
			})
		}
	}
}
