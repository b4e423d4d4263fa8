package tools

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakeendpoint"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/llm"
	"github.com/flightserver/flightserver/ranking"
)

// testAPIKey must never show up in a log line, an error or a result.
const testAPIKey = "sk-test-SECRET-123"

// withEndpoint points the server-side LLM tier at a stand-in endpoint with
// the given behaviour and captures the server's logs.
func withEndpoint(t *testing.T, b fakeendpoint.Behaviour, logs *serverbin.Log) (*fakeendpoint.Endpoint, func(*Config)) {
	t.Helper()
	e := &fakeendpoint.Endpoint{Behaviour: b}
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	// Short only where the endpoint hangs: a retry (after a rejected
	// response format) needs time left, and -race on a loaded machine is slow.
	timeout := 5 * time.Second
	if b == fakeendpoint.Silent {
		timeout = 300 * time.Millisecond
	}
	return e, func(c *Config) {
		c.LLM = llm.Config{BaseURL: ts.URL + "/v1", APIKey: testAPIKey, Timeout: timeout}
		c.Logger = zerolog.New(logs)
	}
}

func TestServerLLMMatrix(t *testing.T) {
	for _, tc := range fakeendpoint.Outcomes {
		for _, era := range eras {
			t.Run(string(tc.Behaviour)+"/"+era.Name, func(t *testing.T) {
				var logs serverbin.Log
				e, cfg := withEndpoint(t, tc.Behaviour, &logs)
				c := connect(t, newServer(t, cfg), "inprocess", era.Version)
				res := callTool(t, c, FindBestFlightName, jfkLHR)
				var r FindResult
				decode(t, res, &r)
				if r.Method != tc.Method || len(r.Flights) != 3 {
					t.Fatalf("method %s with %d flights, want %s; attempts %+v", r.Method, len(r.Flights), tc.Method, r.Attempts)
				}
				// The client declared nothing: sampling skipped, then this tier.
				if len(r.Attempts) < 2 || r.Attempts[0].Reason != "client did not declare sampling" {
					t.Fatalf("attempts %+v", r.Attempts)
				}
				a := r.Attempts[1]
				if a.Step != "server_llm" || a.Outcome != tc.Outcome || a.Why != tc.Why || !strings.Contains(a.Reason, tc.Reason) {
					t.Errorf("server_llm attempt %+v, want %s (%q) with %q", a, tc.Outcome, tc.Why, tc.Reason)
				}
				if tc.Method == "server_llm" && r.Model != fakeendpoint.Model {
					t.Errorf("model %q", r.Model)
				}
				if e.Calls() == 0 {
					t.Error("the endpoint was never called")
				}
				if auth := e.Authorizations(); auth[0] != "Bearer "+testAPIKey {
					t.Errorf("Authorization %q", auth[0])
				}
				assertNoKey(t, logs.String(), text(res))
			})
		}
	}
}

func assertNoKey(t *testing.T, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		if strings.Contains(o, "SECRET") {
			t.Errorf("the API key leaked: %s", o)
		}
	}
}

// A refused key is a configuration problem: logged at error level once,
// not on every call.
func TestServerLLMBadCredentialsLoggedOnce(t *testing.T) {
	var logs serverbin.Log
	_, cfg := withEndpoint(t, fakeendpoint.Unauthorized, &logs)
	c := connect(t, newServer(t, cfg), "inprocess", mcp.ProtocolVersion20251125)
	for range 3 {
		callTool(t, c, FindBestFlightName, jfkLHR)
	}
	if n := strings.Count(logs.String(), `"level":"error"`); n != 1 {
		t.Errorf("%d error lines, want 1:\n%s", n, logs.String())
	}
	assertNoKey(t, logs.String())
}

// The ladder's order: a client that samples well is never passed over for
// the server's LLM (which costs the operator money); one whose user rejects
// is, in the same call.
func TestServerLLMOnlyAfterSampling(t *testing.T) {
	for _, tc := range []struct {
		behaviour fakeclient.Behaviour
		method    string
		calls     int
	}{
		{fakemodel.Answers, "client_sampling", 0},
		{fakeclient.Rejects, "server_llm", 1},
	} {
		var logs serverbin.Log
		e, cfg := withEndpoint(t, fakemodel.Answers, &logs)
		c := connect(t, newServer(t, cfg), "inprocess", mcp.ProtocolVersion20251125, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: tc.behaviour}))
		var r FindResult
		decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
		if r.Method != tc.method || e.Calls() != tc.calls {
			t.Errorf("sampling %s: method %s, endpoint called %d times; want %s and %d; attempts %+v", tc.behaviour, r.Method, e.Calls(), tc.method, tc.calls, r.Attempts)
		}
	}
}

func TestServerLLMStrategiesAndFallback(t *testing.T) {
	// Not configured: auto says why it skipped; strategy server_llm is an error.
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20260728)
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	if a := r.Attempts[1]; a.Step != "server_llm" || a.Outcome != "skipped" || a.Reason != "no server-side LLM configured" {
		t.Errorf("attempt %+v", a)
	}
	res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "server_llm"})
	if !res.IsError || !strings.Contains(text(res), "no server-side LLM configured") {
		t.Errorf("strategy server_llm unconfigured: %s", text(res))
	}

	// --fallback candidates: when nothing ranks, the host's model gets the shortlist.
	c = connect(t, newServer(t, func(c *Config) { c.Fallback = ranking.Candidates; c.Shortlist = 5 }), "inprocess", mcp.ProtocolVersion20251125)
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	if r.Method != "candidates" || r.Ranked || len(r.Flights) != 5 || !strings.Contains(r.Summary, "choose with the user") {
		t.Errorf("fallback candidates: method %s ranked %v flights %d summary %q", r.Method, r.Ranked, len(r.Flights), r.Summary)
	}

	// A local endpoint without a key works, and sends no Authorization.
	e := &fakeendpoint.Endpoint{Behaviour: fakemodel.Answers}
	ts := httptest.NewServer(e)
	defer ts.Close()
	c = connect(t, newServer(t, func(c *Config) { c.LLM = llm.Config{BaseURL: ts.URL + "/v1"} }), "inprocess", mcp.ProtocolVersion20251125)
	decode(t, callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "server_llm"}), &r)
	if r.Method != "server_llm" || e.Authorizations()[0] != "" {
		t.Errorf("keyless endpoint: method %s, Authorization %q", r.Method, e.Authorizations()[0])
	}
}

// --server-llm-first modern: for 2026-07-28 clients, where sampling is
// deprecated and a user who rejects it ends the call on the client's side,
// the server's LLM is tried first; legacy clients keep their own model first.
func TestServerLLMFirstForModernClients(t *testing.T) {
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			var logs serverbin.Log
			e, cfg := withEndpoint(t, fakemodel.Answers, &logs)
			sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
			s := newServer(t, cfg, func(c *Config) { c.ServerLLMFirst = ServerLLMFirstModern })
			c := connect(t, s, "inprocess", era.Version, client.WithSamplingHandler(sampler))
			var r FindResult
			decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
			want, asked, calls := "client_sampling", 1, 0
			if era.Name == "modern" {
				want, asked, calls = "server_llm", 0, 1
			}
			if r.Method != want || len(sampler.Requests()) != asked || e.Calls() != calls || r.Attempts[0].Step != want {
				t.Errorf("ranked by %s (attempts %+v); sampled %d times, endpoint called %d times", r.Method, r.Attempts, len(sampler.Requests()), e.Calls())
			}
		})
	}
	// When the server's LLM fails first, the modern client is asked to
	// sample; its retry resumes at that question: the endpoint is not
	// called again (nor its timeout waited out again), and the answer the
	// user approved is the one that ranks.
	var logs serverbin.Log
	e, cfg := withEndpoint(t, fakeendpoint.ServerError, &logs)
	sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
	c := connect(t, newServer(t, cfg, func(c *Config) { c.ServerLLMFirst = ServerLLMFirstModern }), "inprocess", mcp.ProtocolVersion20260728,
		client.WithSamplingHandler(sampler))
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	calls := e.Calls()
	if r.Method != "client_sampling" || len(r.Attempts) != 3 || r.Attempts[0].Step != "server_llm" || r.Attempts[0].Outcome != "failed" ||
		r.Attempts[1].Step != "client_sampling" || len(sampler.Requests()) != 1 || calls > 2 {
		t.Errorf("server LLM failing first: ranked by %s, attempts %+v, sampled %d times, endpoint called %d times (once, and its one retry)",
			r.Method, r.Attempts, len(sampler.Requests()), calls)
	}
	if _, err := NewServer(Config{Catalog: mustCatalog(t), ServerLLMFirst: "sometimes", Logger: zerolog.Nop()}); err == nil {
		t.Error("an unknown --server-llm-first value was accepted")
	}
}

// An endpoint nobody listens on is unreachable: the rung fails with that
// why, the reason names no address detail beyond it, and the fallback ranks.
func TestServerLLMUnreachable(t *testing.T) {
	gone := httptest.NewServer(nil)
	url := gone.URL
	gone.Close()
	c := connect(t, newServer(t, func(c *Config) {
		c.LLM = llm.Config{BaseURL: url + "/v1", APIKey: testAPIKey, Timeout: 2 * time.Second}
	}), "inprocess", mcp.ProtocolVersion20251125)
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	if a, _ := attemptAt(r.Attempts, "server_llm"); r.Method != "deterministic" || a.Outcome != "failed" || a.Why != "unreachable" {
		t.Errorf("ranked by %s, server_llm attempt %+v", r.Method, a)
	}
}
