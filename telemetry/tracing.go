package telemetry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// Tracing is off unless the standard OpenTelemetry variables ask for it:
// OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); and
// OTEL_SDK_DISABLED=true turns it off whatever else is set.
// The protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf (the default) or grpc. The
// exporters read the endpoint, headers, timeout and TLS settings from the
// same variables themselves; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
// name the service (flightserver by default).

// TracingEnabled reports whether the environment asks for traces, and says
// why not when it does not.
func TracingEnabled(getenv func(string) string) (bool, string) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, "OTEL_SDK_DISABLED=true"
	}
	switch exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return false, "OTEL_TRACES_EXPORTER=none"
	case "otlp":
		return true, ""
	case "":
	default:
		return false, fmt.Sprintf("OTEL_TRACES_EXPORTER=%q is not supported (use otlp or none)", exp)
	}
	if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" {
		return true, ""
	}
	return false, "no OTLP endpoint configured"
}

// SetupTracing installs a global tracer provider exporting over OTLP, and
// the W3C trace-context propagator, when the environment asks for traces.
// onError is told of what the SDK cannot do (an export that failed, spans
// dropped), in place of the SDK's own plain-text line on stderr, which
// would sit among the server's JSON log lines unparsed. The returned
// shutdown flushes what is buffered; it is a no-op when tracing is off.
func SetupTracing(ctx context.Context, getenv func(string) string, version string, onError func(error)) (shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if on, _ := TracingEnabled(getenv); !on {
		return noop, nil
	}
	if onError != nil {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(onError))
	}
	protocol := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	var exporter sdktrace.SpanExporter
	switch protocol {
	case "", "http/protobuf":
		exporter, err = otlptracehttp.New(ctx)
	case "grpc":
		exporter, err = otlptracegrpc.New(ctx)
	default:
		return noop, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q: use http/protobuf or grpc", protocol)
	}
	if err != nil {
		return noop, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName(serviceName(getenv)), semconv.ServiceVersion(version)))
	if err != nil && !errors.Is(err, resource.ErrSchemaURLConflict) {
		return noop, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp.Shutdown, nil
}

func serviceName(getenv func(string) string) string {
	if s := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); s != "" {
		return s
	}
	return "flightserver"
}
