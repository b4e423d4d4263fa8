package llm

import "testing"

// A GenAI span names the endpoint a request goes to, and the provider
// when the host is a well-known one; any other host speaks OpenAI's API.
func TestEndpointOf(t *testing.T) {
	for _, tt := range []struct {
		base string
		want Endpoint
	}{
		{"", Endpoint{"api.openai.com", 443, "openai"}},
		{"https://api.openai.com/v1", Endpoint{"api.openai.com", 443, "openai"}},
		{"https://my-team.openai.azure.com/openai/deployments/gpt", Endpoint{"my-team.openai.azure.com", 443, "azure.ai.openai"}},
		{"https://generativelanguage.googleapis.com/v1beta/openai/", Endpoint{"generativelanguage.googleapis.com", 443, "gcp.gemini"}},
		{"https://API.Groq.com/openai/v1", Endpoint{"api.groq.com", 443, "groq"}},
		{"https://api.anthropic.com/v1/", Endpoint{"api.anthropic.com", 443, "anthropic"}},
		{"http://localhost:11434/v1", Endpoint{"localhost", 11434, "openai"}},
		{"http://127.0.0.1/v1", Endpoint{"127.0.0.1", 80, "openai"}},
		{"http://[::1]:8000/v1", Endpoint{"::1", 8000, "openai"}},
		// A look-alike is not the provider.
		{"https://api.openai.com.example.net/v1", Endpoint{"api.openai.com.example.net", 443, "openai"}},
		{"https://notapi.groq.com.evil/v1", Endpoint{"notapi.groq.com.evil", 443, "openai"}},
		{"https://evilapi.groq.com/v1", Endpoint{"evilapi.groq.com", 443, "openai"}},
		{"::not a url", Endpoint{"", 0, "openai"}},
		// Regional hosts, and what only looks like them.
		{"https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/endpoints/openapi", Endpoint{"us-central1-aiplatform.googleapis.com", 443, "gcp.vertex_ai"}},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/openai/v1", Endpoint{"bedrock-runtime.us-east-1.amazonaws.com", 443, "aws.bedrock"}},
		{"http://my-vllm-123.us-east-1.elb.amazonaws.com/v1", Endpoint{"my-vllm-123.us-east-1.elb.amazonaws.com", 80, "openai"}},
		{"https://bedrock.example.com/v1", Endpoint{"bedrock.example.com", 443, "openai"}},
	} {
		if got := endpointOf(tt.base); got != tt.want {
			t.Errorf("endpointOf(%q) = %+v, want %+v", tt.base, got, tt.want)
		}
	}
}
