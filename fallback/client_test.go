package fallback_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/mcptest"
)

// probeName is the one tool of the probe server: it reports what
// ClientFrom saw for the call.
const probeName = "probeClient"

type probed struct {
	Era                                  fallback.Era
	Name                                 string
	Known, Sample, ElicitForm, ListRoots bool
}

// probeServer is a server with nothing but the probe.
func probeServer() *server.MCPServer {
	s := server.NewMCPServer("engine-test", "1")
	s.AddTool(mcp.NewTool(probeName), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := fallback.ClientFrom(ctx)
		b, err := json.Marshal(probed{c.Era, c.Name, c.Known, c.CanSample(), c.CanElicitForm(), c.CanListRoots()})
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(string(b)), nil
	})
	return s
}

func probe(t *testing.T, c *client.Client) probed {
	t.Helper()
	var p probed
	if err := json.Unmarshal([]byte(mcptest.Text(mcptest.CallTool(t, c, probeName, nil))), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClientFromReadsCapabilitiesInBothEras(t *testing.T) {
	form := &mcp.ElicitationCapability{Form: &struct{}{}}
	urlOnly := &mcp.ElicitationCapability{URL: &struct{}{}}
	roots := &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	for _, tc := range []struct {
		name string
		caps mcp.ClientCapabilities
		want probed
	}{
		{"nothing declared", mcp.ClientCapabilities{}, probed{}},
		{"sampling", mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}}, probed{Sample: true}},
		{"empty elicitation means form", mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}}, probed{ElicitForm: true}},
		{"form elicitation", mcp.ClientCapabilities{Elicitation: form}, probed{ElicitForm: true}},
		{"url-only elicitation is not form", mcp.ClientCapabilities{Elicitation: urlOnly}, probed{}},
		{"roots", mcp.ClientCapabilities{Roots: roots}, probed{ListRoots: true}},
		{"everything", mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}, Elicitation: form, Roots: roots}, probed{Sample: true, ElicitForm: true, ListRoots: true}},
	} {
		for _, via := range transports {
			for _, era := range mcptest.Eras {
				t.Run(tc.name+"/"+via+"/"+era.Name, func(t *testing.T) {
					c := mcptest.Connect(t, probeServer(), via, era.Version, via == "http" && era.Name == "legacy", client.WithClientCapabilities(tc.caps))
					want := tc.want
					want.Era, want.Name, want.Known = fallback.Legacy, mcptest.ClientName, true
					if era.Name == "modern" {
						want.Era = fallback.Modern
					}
					if got := probe(t, c); got != want {
						t.Errorf("ClientFrom = %+v, want %+v", got, want)
					}
				})
			}
		}
	}
}

// Legacy stateless HTTP keeps no session, so mcp-go reports empty
// capabilities without an error; ClientFrom must say it cannot know rather
// than claim the client declared nothing.
func TestClientFromUnknownOnLegacyStatelessHTTP(t *testing.T) {
	c := mcptest.Connect(t, probeServer(), "stateless-http", mcp.ProtocolVersion20251125, false,
		client.WithClientCapabilities(mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}}))
	if got := probe(t, c); got.Known || got.Sample || got.Era != fallback.Legacy {
		t.Errorf("ClientFrom = %+v, want legacy, unknown, nothing usable", got)
	}
}
