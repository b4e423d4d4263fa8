//go:build floor

// Built with -tags floor, noopserver also links every library flightserver
// must ship, and uses none of them: openai-go (the server-side LLM),
// OpenTelemetry's OTLP trace exporters, prometheus/client_golang and
// zerolog. BenchmarkColdStart measures that build beside the plain one and
// flightserver, so what linking the libraries costs at start (package
// initialisation, a larger binary mapped in) is told apart from what
// flightserver's own code costs.

package main

import (
	"context"
	"os"

	"github.com/openai/openai-go/v3"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
)

func init() {
	if len(os.Args) > 1 && os.Args[1] == "--use-the-libraries" {
		// Never taken: it keeps the linker from dropping what flightserver
		// reaches, without running any of it.
		_ = openai.NewClient()
		_ = promhttp.Handler()
		_, _ = otlptracehttp.New(context.Background())
		_, _ = otlptracegrpc.New(context.Background())
		log := zerolog.New(os.Stderr)
		log.Info().Msg("")
	}
}
