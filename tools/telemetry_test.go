package tools

import (
	"context"
	"io"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/telemetry"
)

// scrape reads the metrics as Prometheus would.
func scrape(t *testing.T, m *telemetry.Metrics) string {
	t.Helper()
	ts := httptest.NewServer(m.Handler())
	defer ts.Close()
	resp, err := ts.Client().Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The fallback rate is the ladder's most important production signal:
// every decision of every tool is counted by rung and outcome, and every
// call by era, transport and outcome.
func TestMetricsCountEveryDecision(t *testing.T) {
	m := telemetry.NewMetrics()
	s := newServer(t, func(c *Config) { c.Metrics = m })
	for _, era := range eras {
		rejecting := connect(t, s, "inprocess", era.Version, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: fakeclient.Rejects}))
		if era.Name == "legacy" {
			callTool(t, rejecting, FindBestFlightName, jfkLHR)
		}
		plain := connect(t, s, "inprocess", era.Version)
		callTool(t, plain, FindBestFlightName, jfkLHR)
		callTool(t, plain, BookFlightName, map[string]any{"flightId": "JFK-LHR-261215-ZZZZZ"})
	}
	got := scrape(t, m)
	for _, want := range []string{
		`flightserver_rung_attempts_total{outcome="failed",rung="client_sampling",tool="findBestFlight"} 1`,
		`flightserver_rung_attempts_total{outcome="skipped",rung="client_sampling",tool="findBestFlight"} 2`,
		`flightserver_rung_attempts_total{outcome="skipped",rung="server_llm",tool="findBestFlight"} 3`,
		`flightserver_rung_attempts_total{outcome="used",rung="deterministic",tool="findBestFlight"} 3`,
		`flightserver_call_duration_seconds_count{era="legacy",outcome="ok",tool="findBestFlight",transport="stdio"} 2`,
		`flightserver_call_duration_seconds_count{era="modern",outcome="ok",tool="findBestFlight",transport="stdio"} 1`,
		`flightserver_call_duration_seconds_count{era="legacy",outcome="error",tool="bookFlight",transport="stdio"} 1`,
		`flightserver_inflight_calls 0`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// Labels come from the server's own words only: nothing the client sent.
	if strings.Contains(got, "ZZZZZ") || strings.Contains(got, "flightserver-test") {
		t.Error("a client-supplied string became a label value")
	}
}

// The tool label takes the registry's names and no others, every tool
// the server serves among them: the results view's listFlightOptions is
// counted like the tools a model calls, so the dashboards' contract
// (Names) must hold it.
func TestMetricsToolLabelIsTheRegistrysNames(t *testing.T) {
	m := telemetry.NewMetrics()
	c := connect(t, newServer(t, func(c *Config) { c.Metrics = m }), "inprocess", mcp.ProtocolVersion20251125, declaresView)
	for _, name := range Names {
		callTool(t, c, name, jfkLHR) // errors are counted too
	}
	got := scrape(t, m)
	labelled := map[string]bool{}
	for _, match := range regexp.MustCompile(`tool="([^"]*)"`).FindAllStringSubmatch(got, -1) {
		labelled[match[1]] = true
	}
	for name := range labelled {
		if !slices.Contains(Names, name) {
			t.Errorf("tool label %q is not in Names %v", name, Names)
		}
	}
	for _, d := range registry {
		if !labelled[d.name] {
			t.Errorf("a call of %s was not counted under its name", d.name)
		}
	}
}

// Traces follow the MCP semantic conventions, continue the trace a request
// carries in params._meta, and have a child span per decision and per
// question to the client, and a GenAI span for the server's LLM.
func TestTracesFollowTheConventions(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prevTP, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTracerProvider(prevTP); otel.SetTextMapPropagator(prevProp) })

	var logs serverbin.Log
	_, cfg := withEndpoint(t, fakemodel.Answers, &logs)
	s := newServer(t, cfg)
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: fakeclient.Rejects}))
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: jfkLHR,
		Meta: &mcp.Meta{AdditionalFields: map[string]any{"traceparent": "00-" + traceID + "-00f067aa0ba902b7-01"}}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, sp := range rec.Ended() {
		spans[sp.Name()] = sp
	}
	call, ok := spans["tools/call findBestFlight"]
	if !ok {
		t.Fatalf("no tools/call span; got %v", keysOf(spans))
	}
	if call.SpanContext().TraceID().String() != traceID || call.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("the call did not continue the request's trace: %s parent %s", call.SpanContext().TraceID(), call.Parent().SpanID())
	}
	want := map[attribute.Key]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": FindBestFlightName,
		"mcp.protocol.version": mcp.ProtocolVersion20251125, "gen_ai.operation.name": "execute_tool"}
	for _, kv := range call.Attributes() {
		if v, ok := want[kv.Key]; ok && kv.Value.AsString() == v {
			delete(want, kv.Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("the call span lacks %v: %v", want, call.Attributes())
	}
	for _, name := range []string{"rung client_sampling", "rung server_llm", "ask sampling", "chat gpt-4o-mini"} {
		sp, ok := spans[name]
		if !ok {
			t.Errorf("no span %q; got %v", name, keysOf(spans))
			continue
		}
		if sp.SpanContext().TraceID() != call.SpanContext().TraceID() {
			t.Errorf("%s is in another trace", name)
		}
	}
	if chat, ok := spans["chat gpt-4o-mini"]; ok {
		var tokens int64
		for _, kv := range chat.Attributes() {
			if kv.Key == "gen_ai.usage.input_tokens" {
				tokens = kv.Value.AsInt64()
			}
		}
		if tokens != 900 { // what the stand-in endpoint reports
			t.Errorf("chat span input tokens %d, want 900: %v", tokens, chat.Attributes())
		}
		// The stand-in listens on 127.0.0.1: a host no provider owns, so
		// the provider is the API it speaks, and the address says where.
		got := map[attribute.Key]string{}
		for _, kv := range chat.Attributes() {
			got[kv.Key] = kv.Value.String()
		}
		if got["gen_ai.provider.name"] != "openai" || got["server.address"] != "127.0.0.1" || got["server.port"] == "" || got["server.port"] == "0" {
			t.Errorf("chat span names provider %q at %q port %q; want openai at 127.0.0.1 and its port", got["gen_ai.provider.name"], got["server.address"], got["server.port"])
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// A span's attributes are bounded whatever the client sends: a 2025-11-25
// call may carry any protocolVersion in its _meta, and mcp-go reports it
// as the request's version without checking it (only a 2026-07-28 one is
// checked). mcp.protocol.version takes only a version's shape; anything
// else would put the client's text, up to the body limit, into every span.
func TestTraceAttributesAreBounded(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prevTP := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prevTP) })

	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	huge := "1999-01-01" + strings.Repeat("\x1bA", 50_000)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: jfkLHR,
		Meta: &mcp.Meta{AdditionalFields: map[string]any{"io.modelcontextprotocol/protocolVersion": huge}}}}); err != nil {
		t.Fatal(err)
	}
	var calls int
	for _, sp := range rec.Ended() {
		if sp.Name() != "tools/call "+FindBestFlightName {
			continue
		}
		calls++
		for _, kv := range sp.Attributes() {
			if v := kv.Value.String(); len(v) > 100 || strings.ContainsRune(v, 0x1b) {
				t.Errorf("attribute %s has %d bytes of the client's text", kv.Key, len(v))
			}
		}
	}
	if calls != 1 {
		t.Fatalf("%d tools/call spans, want 1", calls)
	}
}

// A legacy call that waits on the user's form counts that wait in
// flightserver_call_duration_seconds and not in
// flightserver_call_server_seconds: the alert on the server's own time
// does not fire for users slow to answer. A call that asks nothing has
// the same time in both.
func TestMetricsTellTheUsersTimeFromTheServers(t *testing.T) {
	const typing = 300 * time.Millisecond
	m := telemetry.NewMetrics()
	s := newServer(t, func(c *Config) { c.Metrics = m })
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm, Delay: typing}
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
	if res := callTool(t, c, BookFlightName, map[string]any{"flightId": aFlight(t)}); res.IsError {
		t.Fatalf("bookFlight: %s", text(res))
	}
	callTool(t, c, FindBestFlightName, jfkLHR)
	got := scrape(t, m)
	sum := func(metric, tool string) float64 {
		t.Helper()
		re := regexp.MustCompile(metric + `_sum\{era="legacy",outcome="ok",tool="` + tool + `",transport="stdio"\} (\S+)`)
		match := re.FindStringSubmatch(got)
		if match == nil {
			t.Fatalf("no %s_sum for %s:\n%s", metric, tool, got)
		}
		v, err := strconv.ParseFloat(match[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	whole, server := sum("flightserver_call_duration_seconds", "bookFlight"), sum("flightserver_call_server_seconds", "bookFlight")
	if server < 0 || whole-server < typing.Seconds() {
		t.Errorf("bookFlight took %.3fs, %.3fs of it the server's: the user's %s at the form is not set apart", whole, server, typing)
	}
	if whole, server := sum("flightserver_call_duration_seconds", "findBestFlight"), sum("flightserver_call_server_seconds", "findBestFlight"); whole != server {
		t.Errorf("findBestFlight asked no form, but took %vs in all and %vs of the server's", whole, server)
	}
}
