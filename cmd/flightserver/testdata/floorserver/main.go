// Command floorserver is noopserver with every library flightserver must
// ship linked in and none of them used: openai-go (the server-side LLM),
// OpenTelemetry's OTLP trace exporters, prometheus/client_golang and
// zerolog. BenchmarkColdStart measures it beside both, so the part of
// flightserver's start-up and memory that linking them costs (package
// initialisation, a larger binary mapped in) is told apart from the part
// its own code costs.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/openai/openai-go/v3"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
)

func main() {
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
	s := server.NewMCPServer("floor", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("noop"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
