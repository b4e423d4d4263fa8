package main

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/internal/serverproc"
)

// otlpReceiver is an OTLP/HTTP trace receiver, as a collector runs one: it
// decodes every export request and keeps the spans' names and parents, and
// every word the spans carry.
type otlpReceiver struct {
	mu     sync.Mutex
	spans  map[string][]byte   // name -> parent span id
	ids    map[string][]byte   // name -> span id
	traces map[string][][]byte // name -> the trace id of each span of that name
	// text holds each span's name, status message, and its attributes' and
	// events' keys and values, one a line.
	text []string
	// attrs holds every value of each attribute key.
	attrs map[string][]string
}

func newOTLPReceiver() *otlpReceiver {
	return &otlpReceiver{spans: map[string][]byte{}, ids: map[string][]byte{}, traces: map[string][][]byte{}, attrs: map[string][]string{}}
}

// keep notes what a span says; o.mu is held.
func (o *otlpReceiver) keep(s *tracev1.Span) {
	o.text = append(o.text, s.Name, s.GetStatus().GetMessage())
	add := func(kvs []*commonv1.KeyValue) {
		for _, kv := range kvs {
			v := kv.GetValue().String()
			if sv, ok := kv.GetValue().GetValue().(*commonv1.AnyValue_StringValue); ok {
				v = sv.StringValue
			}
			o.text = append(o.text, kv.Key+"="+v)
			o.attrs[kv.Key] = append(o.attrs[kv.Key], v)
		}
	}
	add(s.Attributes)
	for _, e := range s.Events {
		o.text = append(o.text, e.Name)
		add(e.Attributes)
	}
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var req coltrace.ExportTraceServiceRequest
	if err != nil || r.URL.Path != "/v1/traces" || proto.Unmarshal(b, &req) != nil {
		http.Error(w, "not an OTLP trace export", http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				o.spans[s.Name] = s.ParentSpanId
				o.ids[s.Name] = s.SpanId
				o.traces[s.Name] = append(o.traces[s.Name], s.TraceId)
				o.keep(s)
			}
		}
	}
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// startTraced starts the binary over HTTP with the standard OTEL_*
// variables naming an OTLP/HTTP receiver, and returns the receiver.
func startTraced(t *testing.T) (*otlpReceiver, string, *serverproc.Process, *serverbin.Log) {
	t.Helper()
	rec := newOTLPReceiver()
	collector := httptest.NewServer(rec)
	t.Cleanup(collector.Close)
	addr, proc, logs := serverbin.StartHTTP(t, binary, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_SERVICE_NAME=flightserver-test",
	}, "--rate-limit", "0")
	return rec, addr, proc, logs
}

// With the standard OTEL_* variables set, the binary sends its spans to an
// OTLP/HTTP receiver: the tools/call span with a child per decision, every
// one flushed by the time the process has exited.
func TestTracesReachAnOTLPReceiver(t *testing.T) {
	rec, addr, proc, logs := startTraced(t)
	res := modernCall(t, "http://"+addr+"/mcp", "findBestFlight", map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}, map[string]any{}, "", nil)
	if res["isError"] == true {
		t.Fatalf("call: %v", res)
	}
	_ = proc.Cmd.Process.Signal(syscall.SIGTERM)
	exits(t, proc, logs, 20*time.Second, "SIGTERM")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	call, ok := rec.ids["tools/call findBestFlight"]
	if !ok {
		t.Fatalf("no tools/call span arrived; got %v\n%s", keys(rec.spans), logs.String())
	}
	for _, child := range []string{"rung client_sampling", "rung server_llm", "rung deterministic"} {
		if parent, ok := rec.spans[child]; !ok || !slices.Equal(parent, call) {
			t.Errorf("%s: arrived %v, child of the call %v", child, ok, slices.Equal(parent, call))
		}
	}
}

// A call over HTTP continues the trace its request's traceparent header
// names (an ingress or a gateway sends one), unless its params._meta names
// its own, which wins: the MCP client knows its trace better than a proxy.
func TestTracesContinueTheHTTPTraceparent(t *testing.T) {
	rec, addr, proc, logs := startTraced(t)
	const fromHeader, fromMeta = "4bf92f3577b34da6a3ce929d0e0e4736", "0af7651916cd43dd8448eb211c80319c"
	args := map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
	for _, meta := range []map[string]any{{}, {"traceparent": "00-" + fromMeta + "-b7ad6b7169203331-01"}} {
		meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
		meta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": "findBestFlight", "arguments": args, "_meta": meta}})
		r := send(t, "http://"+addr+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "findBestFlight",
			"traceparent": "00-" + fromHeader + "-00f067aa0ba902b7-01"}, string(body))
		if r.status != http.StatusOK {
			t.Fatalf("call: %d %s", r.status, r.body)
		}
	}
	_ = proc.Cmd.Process.Signal(syscall.SIGTERM)
	exits(t, proc, logs, 20*time.Second, "SIGTERM")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var got []string
	for _, id := range rec.traces["tools/call findBestFlight"] {
		got = append(got, hex.EncodeToString(id))
	}
	slices.Sort(got)
	if want := []string{fromMeta, fromHeader}; !slices.Equal(got, want) {
		t.Errorf("the two calls' spans are in traces %v, want %v (the header's, then _meta's over the header's)", got, want)
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// Traces asked for in a way this server cannot send (an exporter it does
// not have) are off, and the log says so at warn, where an operator looks.
func TestUnsupportedTraceExporterIsWarned(t *testing.T) {
	_, _, logs := serverbin.StartHTTP(t, binary, []string{"OTEL_TRACES_EXPORTER=console", "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1"})
	if !logs.Await(`"level":"warn","why":"OTEL_TRACES_EXPORTER=\"console\" is not supported (use otlp or none)"`, 5*time.Second) {
		t.Errorf("no warning for an exporter the server does not have:\n%s", logs.String())
	}
}

// A collector that cannot be reached is said in the log as the rest of it
// is, one JSON line at warn (sampled: one export fails every batch), not
// as the OpenTelemetry SDK's own plain-text line, which a log pipeline
// reading JSON cannot parse.
func TestTraceExportFailuresAreLoggedAsJSON(t *testing.T) {
	addr, proc, logs := serverbin.StartHTTP(t, binary, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_BSP_SCHEDULE_DELAY=50", "OTEL_EXPORTER_OTLP_TIMEOUT=500",
	}, "--rate-limit", "0")
	for range 3 {
		if res := modernCall(t, "http://"+addr+"/mcp", "findAirports", map[string]any{"query": "JFK"}, map[string]any{}, "", nil); res["isError"] == true {
			t.Fatalf("call: %v", res)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if !logs.Await(`"message":"tracing: could not export spans"`, 5*time.Second) {
		t.Errorf("no warning that the spans could not be exported:\n%s", logs.String())
	}
	_ = proc.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-proc.Exited():
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	var warned int
	for line := range strings.Lines(logs.String()) {
		var entry struct{ Level, Message string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("a log line that is not JSON: %q", line)
		} else if entry.Message == "tracing: could not export spans" {
			warned++
			if entry.Level != "warn" {
				t.Errorf("level %q: %s", entry.Level, line)
			}
		}
	}
	if warned > 2 {
		t.Errorf("%d warnings about the exports in a few seconds: want them sampled", warned)
	}
}
