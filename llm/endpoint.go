package llm

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Endpoint is where a Client sends its requests, as a GenAI client span
// names it: the host and port (server.address, server.port) and the
// provider behind them (gen_ai.provider.name).
type Endpoint struct {
	Host string
	Port int
	// Provider is the OpenTelemetry name of a well-known provider the
	// host belongs to ("openai", "azure.ai.openai", "gcp.gemini", ...),
	// and "openai", the API spoken, for any other host (a local Ollama
	// or vLLM, a gateway): Host says which it is.
	Provider string
}

// providers are the hosts of well-known providers with an
// OpenAI-compatible API, by the name OpenTelemetry's GenAI conventions give
// them, matched on the host or a suffix after a dot.
var providers = []struct{ host, name string }{
	{"api.openai.com", "openai"},
	{"openai.azure.com", "azure.ai.openai"},
	{"api.anthropic.com", "anthropic"},
	{"generativelanguage.googleapis.com", "gcp.gemini"},
	{"aiplatform.googleapis.com", "gcp.vertex_ai"},
	{"api.groq.com", "groq"},
	{"api.mistral.ai", "mistral_ai"},
	{"api.deepseek.com", "deepseek"},
	{"api.x.ai", "x_ai"},
	{"api.perplexity.ai", "perplexity"},
	{"api.cohere.com", "cohere"},
}

// endpointOf is the Endpoint of an API root; "" is OpenAI's.
func endpointOf(base string) Endpoint {
	if base == "" {
		return Endpoint{Host: "api.openai.com", Port: 443, Provider: "openai"}
	}
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return Endpoint{Provider: "openai"}
	}
	host := strings.ToLower(u.Hostname())
	e := Endpoint{Host: host, Provider: "openai"}
	switch p, err := strconv.Atoi(u.Port()); {
	case err == nil && p > 0 && p <= 65535:
		e.Port = p
	case u.Scheme == "https":
		e.Port = 443
	case u.Scheme == "http":
		e.Port = 80
	}
	if net.ParseIP(host) != nil {
		return e
	}
	for _, p := range providers {
		if host == p.host || strings.HasSuffix(host, "."+p.host) {
			e.Provider = p.name
			return e
		}
	}
	// Two providers name their regional hosts another way: Vertex AI's
	// "us-central1-aiplatform.googleapis.com", and Bedrock's
	// "bedrock-runtime.us-east-1.amazonaws.com" (any other host under
	// amazonaws.com, a load balancer in front of a model of one's own, is
	// not Bedrock).
	first, _, _ := strings.Cut(host, ".")
	switch {
	case strings.HasSuffix(host, "-aiplatform.googleapis.com"):
		e.Provider = "gcp.vertex_ai"
	case strings.HasPrefix(first, "bedrock") && strings.HasSuffix(host, ".amazonaws.com"):
		e.Provider = "aws.bedrock"
	}
	return e
}

// Endpoint is where c sends its requests.
func (c *Client) Endpoint() Endpoint { return c.endpoint }
