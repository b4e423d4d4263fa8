package tools

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/llm"
)

// The answer-shape corpus (ranking/answer/testdata/answers) through the whole
// server: each shape a model writes, sent by the client's model through
// sampling in both eras and by the server's own LLM endpoint, must count
// or not exactly as the reader decided, on every rung. One reader serves
// them all; this proves nothing in front of it (sampling content in either
// era, the endpoint's JSON) changes what it reads. A client that declared
// sampling.tools gets each shape that is one JSON value as the answer
// tool's input (structured), and the others as text from a model that
// ignored the tool: the same verdicts again.
func TestAnswerCorpusThroughBothLLMRungs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "ranking", "answer", "testdata", "answers", "*", "*.txt"))
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	template := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		template[f] = string(b)
	}
	// The corpus file a stand-in model answers with, set per case.
	var current string
	reply := func(prompt string) string {
		text, err := fakemodel.Fill(template[current], prompt)
		if err != nil {
			t.Errorf("%s: %v", current, err)
		}
		return text
	}

	endpoint := httptest.NewServer(&fakeendpoint.Endpoint{Behaviour: fakemodel.Answers, Reply: reply})
	t.Cleanup(endpoint.Close)
	withLLM := newServer(t, func(c *Config) {
		c.LLM = llm.Config{BaseURL: endpoint.URL + "/v1", APIKey: testAPIKey, Timeout: 5 * time.Second}
		c.Logger = zerolog.Nop()
	})
	// The model offered the tool calls it with the shape when the shape is
	// one JSON value, and writes it as text otherwise.
	input := func(prompt string) any {
		var v any
		if err := json.Unmarshal([]byte(reply(prompt)), &v); err != nil {
			t.Errorf("%s: not one JSON value, yet sent as the tool's input", current)
		}
		return v
	}
	structured := func(f string) bool { return json.Valid([]byte(template[f])) }
	sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers, Reply: reply}
	toolSampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers, Reply: reply, Input: input}
	type rung struct {
		name, method string
		c            *client.Client
		tools        bool
	}
	rungs := []rung{{"server_llm", "server_llm", connect(t, withLLM, "inprocess", eras[0].Version), false}}
	for _, era := range eras {
		rungs = append(rungs,
			rung{"client_sampling/" + era.Name, "client_sampling", connect(t, newServer(t), "inprocess", era.Version, client.WithSamplingHandler(sampler)), false},
			rung{"client_sampling+tools/" + era.Name, "client_sampling",
				connect(t, newServer(t), "inprocess", era.Version, client.WithSamplingHandler(toolSampler), withSamplingTools), true})
	}
	asInput := 0
	for _, f := range files {
		if structured(f) {
			asInput++
		}
	}
	if asInput < 20 {
		t.Fatalf("only %d corpus shapes are one JSON value: the structured path is hardly tested", asInput)
	}

	for _, f := range files {
		want, err := os.ReadFile(strings.TrimSuffix(f, ".txt") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		counts := !strings.HasPrefix(string(want), "error:")
		for _, r := range rungs {
			t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)+"/"+r.name, func(t *testing.T) {
				current = f
				form := "text"
				toolSampler.Tools = fakeclient.IgnoresTools
				if r.tools && structured(f) {
					form, toolSampler.Tools = "structured", fakeclient.CallsTool
				}
				var res FindResult
				decode(t, callTool(t, r.c, FindBestFlightName, jfkLHR), &res)
				a, _ := attemptAt(res.Attempts, r.method)
				if a.Answer != form {
					t.Errorf("the answer came as %q, want %s: attempt %+v", a.Answer, form, a)
				}
				switch {
				case counts && (res.Method != r.method || a.Outcome != "used"):
					t.Errorf("a shape that counts was not used: method %s, attempt %+v", res.Method, a)
				case !counts && (res.Method == r.method || a.Outcome != "failed" || a.Why != "unusable_answer"):
					t.Errorf("a shape that does not count was used, or failed for another reason: method %s, attempt %+v", res.Method, a)
				}
			})
		}
	}
}
