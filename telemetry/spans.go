package telemetry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Span names and attributes follow the OpenTelemetry semantic conventions
// for MCP (a server span "tools/call findBestFlight" with mcp.method.name,
// gen_ai.tool.name, mcp.protocol.version, mcp.session.id, error.type) and
// for GenAI clients (a client span "chat <model>" for the server-LLM
// request). Each fallback decision is a child span "rung <step>", each
// question to the client "ask <kind>".

// The attribute keys used here, as the conventions spell them.
const (
	keyMethod          = attribute.Key("mcp.method.name")
	keyProtocolVersion = attribute.Key("mcp.protocol.version")
	keySessionID       = attribute.Key("mcp.session.id")
	keyToolName        = attribute.Key("gen_ai.tool.name")
	keyOperation       = attribute.Key("gen_ai.operation.name")
	keyProvider        = attribute.Key("gen_ai.provider.name")
	keyRequestModel    = attribute.Key("gen_ai.request.model")
	keyResponseModel   = attribute.Key("gen_ai.response.model")
	keyInputTokens     = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens    = attribute.Key("gen_ai.usage.output_tokens")
	keyErrorType       = attribute.Key("error.type")
	keyServerAddress   = attribute.Key("server.address")
	keyServerPort      = attribute.Key("server.port")
	keyStep            = attribute.Key("flightserver.step")
	keyOutcome         = attribute.Key("flightserver.outcome")
	keyWhy             = attribute.Key("flightserver.why")
	keyEra             = attribute.Key("flightserver.era")
	keyErrorCode       = attribute.Key("flightserver.error")
)

func tracer() trace.Tracer { return otel.Tracer("github.com/flightserver/flightserver") }

// StartToolCall starts the server span of one tools/call, a child of the
// trace context the request carried in params._meta (traceparent,
// tracestate), if any. With tracing off it costs a no-op span. sessionID,
// a legacy session's id, goes into mcp.session.id as SessionRef, never as
// it is.
func StartToolCall(ctx context.Context, meta map[string]any, tool, protocolVersion, sessionID, era string) (context.Context, trace.Span) {
	if len(meta) > 0 {
		carrier := propagation.MapCarrier{}
		for _, k := range []string{"traceparent", "tracestate", "baggage"} {
			if v, ok := meta[k].(string); ok && len(v) <= 1024 {
				carrier[k] = v
			}
		}
		if len(carrier) > 0 {
			ctx = otel.GetTextMapPropagator().Extract(ctx, carrier)
		}
	}
	ctx, span := tracer().Start(ctx, "tools/call "+tool, trace.WithSpanKind(trace.SpanKindServer))
	if !span.IsRecording() {
		// Tracing off, or this trace not sampled: nothing would keep the
		// attributes, so they are not built (nor the session's digest).
		return ctx, span
	}
	attrs := []attribute.KeyValue{keyMethod.String("tools/call"), keyToolName.String(tool), keyOperation.String("execute_tool"), keyEra.String(era)}
	if isVersion(protocolVersion) {
		attrs = append(attrs, keyProtocolVersion.String(protocolVersion))
	}
	if sessionID != "" {
		attrs = append(attrs, keySessionID.String(SessionRef(sessionID)))
	}
	span.SetAttributes(attrs...)
	return ctx, span
}

// isVersion reports whether v has the shape of an MCP protocol version
// (YYYY-MM-DD). The version a request reports is the client's text: mcp-go
// checks it only on a 2026-07-28 request, and a 2025-11-25 call may carry
// any string in its _meta, up to the body limit. Anything else is left out
// of the span rather than copied into every trace.
func isVersion(v string) bool {
	if len(v) != len("2025-11-25") {
		return false
	}
	for i := range len(v) {
		if i == 4 || i == 7 {
			if v[i] != '-' {
				return false
			}
		} else if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// SessionRef is what telemetry says of a legacy session: the first 16 hex
// digits of the SHA-256 of its id. The id itself is the session's handle:
// whoever reads it in a trace backend could send requests in the session
// and answer the server's questions to it. The digest still groups one
// session's spans, and cannot be turned back into the id (128 random
// bits).
func SessionRef(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:8])
}

// EndToolCall ends a tool call's span: a result with isError is a
// "tool_error", with the server's own error code beside it.
func EndToolCall(span trace.Span, outcome, errorCode string) {
	span.SetAttributes(keyOutcome.String(outcome))
	if outcome == "error" {
		span.SetAttributes(keyErrorType.String("tool_error"), keyErrorCode.String(errorCode))
		span.SetStatus(codes.Error, errorCode)
	}
	span.End()
}

// Rung records one fallback decision as a child span of the call, after the
// fact: it began elapsed ago and ends now.
func Rung(parent trace.SpanContext, step, outcome, why string, elapsed time.Duration) {
	if !parent.IsValid() {
		return
	}
	now := time.Now()
	ctx := trace.ContextWithSpanContext(context.Background(), parent)
	attrs := []attribute.KeyValue{keyStep.String(step), keyOutcome.String(outcome)}
	if why != "" {
		attrs = append(attrs, keyWhy.String(why))
	}
	_, span := tracer().Start(ctx, "rung "+step, trace.WithTimestamp(now.Add(-elapsed)), trace.WithAttributes(attrs...))
	if outcome == "failed" {
		span.SetStatus(codes.Error, why)
	}
	span.End(trace.WithTimestamp(now))
}

// StartAsk starts the span of one question to the client (kind: sampling,
// form, roots).
func StartAsk(ctx context.Context, kind, step string) (context.Context, trace.Span) {
	return tracer().Start(ctx, "ask "+kind, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(keyStep.String(step)))
}

// EndAsk ends a question's span with what came of it (why is empty for an
// answer).
func EndAsk(span trace.Span, why string) {
	if why != "" {
		span.SetAttributes(keyWhy.String(why))
		span.SetStatus(codes.Error, why)
	}
	span.End()
}

// StartChat starts the GenAI client span of one request to the server-side
// LLM endpoint: model at provider, on host and port (none when 0).
func StartChat(ctx context.Context, model, provider, host string, port int) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{keyOperation.String("chat"), keyProvider.String(provider), keyRequestModel.String(model)}
	if host != "" {
		attrs = append(attrs, keyServerAddress.String(host))
	}
	if port > 0 {
		attrs = append(attrs, keyServerPort.Int(port))
	}
	return tracer().Start(ctx, "chat "+model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// EndChat ends it with the model that answered and the tokens used, or the
// failure kind.
func EndChat(span trace.Span, responseModel string, inputTokens, outputTokens int64, failure string) {
	if responseModel != "" {
		span.SetAttributes(keyResponseModel.String(responseModel))
	}
	if inputTokens > 0 || outputTokens > 0 {
		span.SetAttributes(keyInputTokens.Int64(inputTokens), keyOutputTokens.Int64(outputTokens))
	}
	if failure != "" {
		span.SetAttributes(keyErrorType.String(failure))
		span.SetStatus(codes.Error, failure)
	}
	span.End()
}

// TraceHeaders passes each request on with the trace its HTTP headers
// carry (W3C traceparent, tracestate, baggage, as an ingress, a gateway or
// a plain HTTP client sends them) as its context's parent: a tools/call
// span is then a child of that trace, unless the call's params._meta
// names one of its own, which wins (StartToolCall). A request without a
// traceparent header is passed on as it is. With tracing off the global
// propagator reads nothing.
func TraceHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("traceparent") != "" {
			r = r.WithContext(otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
		}
		next.ServeHTTP(w, r)
	})
}
