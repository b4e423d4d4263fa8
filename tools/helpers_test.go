package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/mcptest"
)

// today is the fixed clock of these tests.
var today = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// testStateKey is shared by the servers of a test, like replicas sharing
// --state-key.
var testStateKey = []byte("0123456789abcdef0123456789abcdef")

func testConfig(t testing.TB, configure ...func(*Config)) Config {
	t.Helper()
	cfg := Config{Catalog: mustCatalog(t), Now: today, Logger: zerolog.Nop(), Version: "test", StateKey: testStateKey}
	for _, f := range configure {
		f(&cfg)
	}
	return cfg
}

func newServer(t testing.TB, configure ...func(*Config)) *server.MCPServer {
	t.Helper()
	s, err := NewServer(testConfig(t, configure...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newToolsetForTest is the tools' state without a server, for tests of
// what lies under the protocol.
func newToolsetForTest(t testing.TB, configure ...func(*Config)) *Toolset {
	t.Helper()
	ts, err := newToolset(testConfig(t, configure...))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// The eras every end-to-end test runs in.
var eras = mcptest.Eras

// The ways a client reaches the server in these tests; stdio (the real
// binary) is tested in cmd/flightserver. connect also knows
// "stateless-http": HTTP without sessions, which cmd/flightserver never
// serves but mcp-go offers.
var transports = []string{"inprocess", "http"}

// connect starts a real mcp-go client on the given transport and era and
// checks the era was actually negotiated. A legacy HTTP client opens the
// standalone GET stream, as the official SDKs do.
func connect(t testing.TB, s *server.MCPServer, via, version string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return connectWith(t, s, via, version, via == "http" && !mcp.IsModernProtocol(version), opts...)
}

// connectWith is connect with the choice of opening the legacy GET stream.
func connectWith(t testing.TB, s *server.MCPServer, via, version string, getStream bool, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return mcptest.Connect(t, s, via, version, getStream, opts...)
}

// callWithForm calls tool with args from a client of the given era over
// via whose user does what script says (a fresh copy of it, returned, so
// that no two subtests share what it was shown; nil: the client declares
// no form elicitation), with opts added. callErr is set only for a user who
// never answers: the server then waits 300 ms, and a modern client, which
// never retries, ends the call on its side; callWithForm checks that it
// did, with callErr, and returns a nil result.
func callWithForm(t *testing.T, via, version string, script *fakeclient.Form, callErr, tool string, args map[string]any, opts ...client.ClientOption) (*mcp.CallToolResult, *fakeclient.Form) {
	t.Helper()
	cfg := func(*Config) {}
	if callErr != "" {
		cfg = func(c *Config) { c.ElicitationTimeout = 300 * time.Millisecond }
	}
	var form *fakeclient.Form
	if script != nil {
		form = &fakeclient.Form{Behaviour: script.Behaviour, Content: script.Content, Contents: script.Contents}
		opts = append(opts[:len(opts):len(opts)], client.WithElicitationHandler(form))
	}
	c := connect(t, newServer(t, cfg), via, version, opts...)
	givesUp := mcp.IsModernProtocol(version) && callErr != ""
	deadline := 10 * time.Second
	if givesUp {
		deadline = time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if givesUp {
		// The server holds nothing for it.
		if err == nil || !strings.Contains(err.Error(), callErr) {
			t.Fatalf("call error %v", err)
		}
		return nil, form
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, form
}

func callTool(t testing.TB, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res := mcptest.CallTool(t, c, tool, args)
	checkErrorShape(t, res)
	return res
}

// checkErrorShape holds every isError result to what validating clients
// (the TypeScript SDK 1.x in most desktop hosts) accept: no
// structuredContent, since it would be checked against the output schema,
// and the machine-readable details under ErrorMetaKey instead.
func checkErrorShape(t testing.TB, res *mcp.CallToolResult) {
	t.Helper()
	if res == nil || !res.IsError {
		return
	}
	if res.StructuredContent != nil {
		t.Errorf("an isError result carries structuredContent, which validating clients reject: %v", res.StructuredContent)
	}
	if d := errorDetails(t, res); d.Error == "" {
		t.Errorf("an isError result without an error code under %s: %s", ErrorMetaKey, text(res))
	}
}

// errorDetails reads an isError result's machine-readable details, as a
// client would: from JSON.
func errorDetails(t testing.TB, res *mcp.CallToolResult) ToolError {
	t.Helper()
	var d ToolError
	if res.Meta == nil {
		return d
	}
	b, err := json.Marshal(res.Meta.AdditionalFields[ErrorMetaKey])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v in %s", ErrorMetaKey, err, b)
	}
	return d
}

// usedStep is the step of the attempt marked used, or "".
func usedStep(as []AttemptOut) string {
	for _, a := range as {
		if a.Outcome == "used" {
			return a.Step
		}
	}
	return ""
}

// attemptAt is the attempt at step, and whether there is one.
func attemptAt(as []AttemptOut, step string) (AttemptOut, bool) {
	for _, a := range as {
		if a.Step == step {
			return a, true
		}
	}
	return AttemptOut{}, false
}

func text(res *mcp.CallToolResult) string { return mcptest.Text(res) }

// outputSchemaOf compiles a tool's published output schema.
func outputSchemaOf(tool mcp.Tool, err error) (*jsonschema.Schema, error) {
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.RawOutputSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("output.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("output.json")
}

// The published output schemas, compiled once.
var (
	outputSchema         = sync.OnceValues(func() (*jsonschema.Schema, error) { return outputSchemaOf(findBestFlightTool()) })
	saveOutputSchema     = sync.OnceValues(func() (*jsonschema.Schema, error) { return outputSchemaOf(saveItineraryTool()) })
	bookOutputSchema     = sync.OnceValues(func() (*jsonschema.Schema, error) { return outputSchemaOf(bookFlightTool()) })
	airportsOutputSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return outputSchemaOf(findAirportsTool()) })
)

// decode checks a findBestFlight result against its published output
// schema, as a strict client does, and reads it into v the way a client
// would: from JSON.
func decode(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	decodeWith(t, outputSchema, res, v)
}

// decodeInto is decode for a saveItinerary result.
func decodeInto(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	decodeWith(t, saveOutputSchema, res, v)
}

func decodeWith(t testing.TB, compiled func() (*jsonschema.Schema, error), res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := compiled()
	if err != nil {
		t.Fatalf("output schema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("structuredContent does not match the published output schema: %v\n%s", err, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
}

func mustCatalog(t testing.TB) *flights.Catalog {
	t.Helper()
	c, err := flights.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	// Built once, before any call is timed: a test of a call's budget must
	// not spend it on the network model (much slower under -race).
	c.Prepare(today())
	return c
}

// wireForm is a form's requestedSchema as a client reads it off the wire,
// and the order of its properties there when the test can see it: from a
// client in the same process the server's own value arrives and is encoded
// here as any transport would; over HTTP mcp-go's client has already decoded
// it into a map, whose order is lost (order is nil; the raw wire is checked
// in TestFormsGoOutInFillingOrder).
func wireForm(t testing.TB, p mcp.ElicitationParams) (schema map[string]any, order []string) {
	t.Helper()
	_, decoded := p.RequestedSchema.(map[string]any)
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		t.Fatalf("encode the form: %v", err)
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("decode the form: %v", err)
	}
	if !decoded {
		order = propertyOrder(t, raw)
	}
	return schema, order
}

// propertyOrder reads the names of a schema's properties in the order the
// JSON text has them.
func propertyOrder(t testing.TB, schema []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil {
		t.Fatalf("decode the schema: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("properties is not an object: %s", top["properties"])
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return names
}
