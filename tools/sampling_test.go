package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"
	"go.uber.org/goleak"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/ranking"
)

// samplingTimeout is short so the silent-client cells finish quickly; the
// tests assert outcomes, never durations.
const samplingTimeout = 300 * time.Millisecond

func withShortSampling(c *Config) { c.SamplingTimeout = samplingTimeout }

var jfkLHR = map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15"}

// The heart of the ladder: every client behaviour, in both eras, in-process
// and over HTTP, ends in a ranking that says how it was made. (The built
// binary over stdio runs the same matrix in cmd/flightserver.)
func TestSamplingMatrix(t *testing.T) {
	type want struct {
		method  string // the tier that ranked
		outcome string // of the client_sampling attempt
		why     fallback.Why
		reason  string // in that attempt's reason
		callErr string // modern cells where the client itself ends the call
	}
	for _, tc := range []struct {
		behaviour      fakeclient.Behaviour // "" = sampling not declared
		legacy, modern want
	}{
		{fakemodel.Answers,
			want{method: "client_sampling", outcome: "used", reason: "the client's model (scripted-llm-1) ranked the 47 candidates"},
			want{method: "client_sampling", outcome: "used", reason: "the client's model (scripted-llm-1) ranked the 47 candidates"}},
		{fakemodel.UnknownIDs,
			want{method: "deterministic", outcome: "failed", why: fallback.UnusableAnswer, reason: "answer named unknown flight ids"},
			want{method: "deterministic", outcome: "failed", why: fallback.UnusableAnswer, reason: "answer named unknown flight ids"}},
		{fakemodel.Garbage,
			want{method: "deterministic", outcome: "failed", why: fallback.UnusableAnswer, reason: "not the JSON object asked for"},
			want{method: "deterministic", outcome: "failed", why: fallback.UnusableAnswer, reason: "not the JSON object asked for"}},
		// A modern client whose user says no does not retry: the call ends
		// on the client's side, and the server, holding nothing, is not
		// waiting for it.
		{fakeclient.Rejects,
			want{method: "deterministic", outcome: "failed", why: fallback.UserRejected, reason: "the user rejected the request"},
			want{callErr: fakeclient.RejectMessage}},
		{fakeclient.Fails,
			want{method: "deterministic", outcome: "failed", why: fallback.ClientError, reason: fakeclient.FailMessage},
			want{callErr: fakeclient.FailMessage}},
		{fakeclient.Silent,
			want{method: "deterministic", outcome: "failed", why: fallback.NoAnswer, reason: "no answer within 300ms"},
			want{callErr: "context deadline exceeded"}},
		{"",
			want{method: "deterministic", outcome: "skipped", why: fallback.ClientCannotAsk, reason: "client did not declare sampling"},
			want{method: "deterministic", outcome: "skipped", why: fallback.ClientCannotAsk, reason: "client did not declare sampling"}},
	} {
		for _, via := range transports {
			for _, era := range eras {
				name := string(tc.behaviour)
				if name == "" {
					name = "undeclared"
				}
				t.Run(name+"/"+via+"/"+era.Name, func(t *testing.T) {
					w := tc.legacy
					if era.Name == "modern" {
						w = tc.modern
					}
					sampler := &fakeclient.Sampler{Behaviour: tc.behaviour}
					var opts []client.ClientOption
					if tc.behaviour != "" {
						opts = append(opts, client.WithSamplingHandler(sampler))
					}
					// Short only for the silent client: an answer must never be
					// mistaken for a timeout on a slow machine.
					cfg := func(*Config) {}
					if tc.behaviour == fakeclient.Silent {
						cfg = withShortSampling
					}
					c := connect(t, newServer(t, cfg), via, era.Version, opts...)

					// Long enough for the server's 300ms sampling timeout and its
					// fallback; a modern silent client gives up at this deadline.
					deadline := 3 * time.Second
					if w.callErr != "" {
						deadline = time.Second
					}
					ctx, cancel := context.WithTimeout(context.Background(), deadline)
					defer cancel()
					res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: jfkLHR}})
					if w.callErr != "" {
						if err == nil || !strings.Contains(err.Error(), w.callErr) {
							t.Fatalf("call error %v, want one containing %q", err, w.callErr)
						}
						if n := len(sampler.Requests()); n != 1 {
							t.Errorf("the client got %d sampling requests, want 1", n)
						}
						return
					}
					if err != nil {
						t.Fatalf("call: %v", err)
					}
					if res.IsError {
						t.Fatalf("isError: %s", text(res))
					}
					var r FindResult
					decode(t, res, &r)
					if r.Method != w.method || len(r.Flights) != 3 {
						t.Fatalf("method %s with %d flights, want %s with 3; attempts %+v", r.Method, len(r.Flights), w.method, r.Attempts)
					}
					a := r.Attempts[0]
					if a.Step != "client_sampling" || a.Outcome != w.outcome || a.Why != string(w.why) || !strings.Contains(a.Reason, w.reason) {
						t.Errorf("sampling attempt %+v, want %s (%q) with reason containing %q", a, w.outcome, w.why, w.reason)
					}
					if w.method == "deterministic" {
						// No server LLM in these tests: skipped, then deterministic.
						if len(r.Attempts) != 4 || r.Attempts[1].Step != "server_llm" || r.Attempts[1].Outcome != "skipped" ||
							r.Attempts[2].Step != "deterministic" || r.Attempts[2].Outcome != "used" {
							t.Errorf("attempts %+v, want the deterministic tier used after sampling", r.Attempts)
						}
						if r.Model != "" {
							t.Errorf("model %q reported for a deterministic ranking", r.Model)
						}
					}
					if w.method == "client_sampling" {
						// The stand-in model prefers the flights listed last.
						reqs := sampler.Requests()
						if len(reqs) != 1 {
							t.Fatalf("%d sampling requests, want 1", len(reqs))
						}
						wantIDs := fakemodel.Choose(fakeclient.PromptIDs(reqs[0]))
						for i, f := range r.Flights {
							if f.ID != wantIDs[i] || !strings.Contains(f.Reason, "scripted choice") {
								t.Errorf("flight %d = %s (%q), want the model's pick %s", i, f.ID, f.Reason, wantIDs[i])
							}
						}
						if r.Model != fakemodel.Model || !strings.Contains(r.Summary, "client_sampling") {
							t.Errorf("model %q, summary %q", r.Model, r.Summary)
						}
					}
					if tc.behaviour == "" {
						return
					}
					checkSamplingRequest(t, sampler.Requests())
				})
			}
		}
	}
}

// checkSamplingRequest asserts what every sampling request must look like:
// no tools, no context, a bounded answer, the shared prompt.
func checkSamplingRequest(t *testing.T, reqs []mcp.CreateMessageRequest) {
	t.Helper()
	if len(reqs) != 1 {
		t.Fatalf("%d sampling requests, want 1", len(reqs))
	}
	p := reqs[0].CreateMessageParams
	if p.IncludeContext != "none" || p.Tools != nil || p.ToolChoice != nil || p.MaxTokens != DefaultSamplingPreferences.MaxTokens ||
		p.SystemPrompt == "" || len(p.Messages) != 1 || p.ModelPreferences == nil || len(p.ModelPreferences.Hints) == 0 {
		t.Errorf("sampling request %+v", p)
	}
	if ids := fakeclient.PromptIDs(reqs[0]); len(ids) != 47 {
		t.Errorf("prompt lists %d flights, want the 47 candidates", len(ids))
	}
}

// On legacy streamable HTTP mcp-go delivers sampling only on the GET
// stream. A client without one could never see the request: the tier is
// skipped at once instead of waiting out its timeout.
func TestSamplingLegacyHTTPWithoutGETStream(t *testing.T) {
	sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
	// A long timeout: falling back by waiting would show as "no answer".
	s := newServer(t, func(c *Config) { c.SamplingTimeout = 30 * time.Second })
	c := connectWith(t, s, "http", mcp.ProtocolVersion20251125, false, client.WithSamplingHandler(sampler))
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	if a := r.Attempts[0]; r.Method != "deterministic" || a.Outcome != "skipped" || !strings.Contains(a.Reason, "no GET stream") {
		t.Errorf("method %s, attempt %+v; want sampling skipped for the missing GET stream", r.Method, a)
	}
	if n := len(sampler.Requests()); n != 0 {
		t.Errorf("the client received %d sampling requests", n)
	}
}

// The operator can turn the tier off; strategy sampling then says so as an
// error naming the other strategies, and so does a client that cannot.
func TestSamplingOffAndStrategySampling(t *testing.T) {
	sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
	off := newServer(t, func(c *Config) { c.DisableSampling = true })
	for _, era := range eras {
		c := connect(t, off, "inprocess", era.Version, client.WithSamplingHandler(sampler))
		var r FindResult
		decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
		if a := r.Attempts[0]; r.Method != "deterministic" || a.Outcome != "skipped" || a.Why != "turned_off" || !strings.Contains(a.Reason, "--sampling off") {
			t.Errorf("%s: method %s attempt %+v", era.Name, r.Method, a)
		}
		res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "sampling"})
		if !res.IsError || !strings.Contains(text(res), "--sampling off") || !strings.Contains(text(res), "strategy auto") {
			t.Errorf("%s: strategy sampling with sampling off: %s", era.Name, text(res))
		}
	}
	if n := len(sampler.Requests()); n != 0 {
		t.Errorf("sampling off, yet the client received %d requests", n)
	}

	// A working client with strategy sampling ranks with its model; one that
	// garbles gets an error, not a silent fallback it did not ask for.
	for _, b := range []fakeclient.Behaviour{fakemodel.Answers, fakemodel.Garbage} {
		c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: b}))
		res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "strategy": "sampling"})
		if b == fakemodel.Answers {
			var r FindResult
			decode(t, res, &r)
			if r.Method != "client_sampling" || len(r.Attempts) != 2 || r.Attempts[1].Step != stepView {
				t.Errorf("strategy sampling with a good client: method %s attempts %+v", r.Method, r.Attempts)
			}
		} else if !res.IsError || !strings.Contains(text(res), "not the JSON object") {
			t.Errorf("strategy sampling with a garbling client: %s", text(res))
		}
	}
}

// A client that hangs up while the server waits for its sampling answer
// leaves nothing behind: the wait ends with the request, and no goroutine
// of the call outlives it.
func TestNoGoroutineLeftWhenClientLeavesMidSampling(t *testing.T) {
	// Registered first, so it runs last: after the clean-ups that close the
	// client, then the server.
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })

	sampler := &fakeclient.Sampler{Behaviour: fakeclient.Silent}
	// The server would wait 30 s; the client leaves after 300 ms.
	var logs serverbin.Log
	s := newServer(t, func(c *Config) {
		c.SamplingTimeout = 30 * time.Second
		c.Logger = zerolog.New(&logs)
	})
	c := connectWith(t, s, "http", mcp.ProtocolVersion20251125, true, client.WithSamplingHandler(sampler))

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: jfkLHR}}); err == nil {
		t.Fatal("the call succeeded; the client was meant to give up")
	}
	if len(sampler.Requests()) != 1 {
		t.Fatal("the sampling request never reached the client")
	}
	// The server stops waiting when the request ends, not when its own
	// 30 s timeout would: the sampling tier reports the call ended.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "while waiting for the client"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server is still waiting for the departed client; log:\n%s", logs.String())
		}
	}
}

// The shared skip rules, with a client that would answer: nothing within
// the trip's limits leaves no model anything to rank (no_candidates, both
// eras), and a budget with no time left to wait is not spent waiting
// (no_time: 2025-11-25 only, since a 2026-07-28 question holds nothing
// open and waits for nothing). Either way the client is not asked.
func TestSamplingSkipRules(t *testing.T) {
	for _, era := range eras {
		t.Run(era.Name, func(t *testing.T) {
			for _, tc := range []struct {
				name string
				cfg  func(*Config)
				args map[string]any
				why  string
			}{
				{"nothing within limits", func(*Config) {}, with(jfkLHR, "maxPrice", 1), "no_candidates"},
				{"no time left", func(c *Config) { c.CallBudget = 400 * time.Millisecond }, jfkLHR, "no_time"},
			} {
				if tc.why == "no_time" && era.Name == "modern" {
					continue
				}
				sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
				c := connect(t, newServer(t, tc.cfg), "inprocess", era.Version, client.WithSamplingHandler(sampler))
				var r FindResult
				decode(t, callTool(t, c, FindBestFlightName, tc.args), &r)
				if a, _ := attemptAt(r.Attempts, "client_sampling"); a.Outcome != "skipped" || a.Why != tc.why || r.Method != "deterministic" {
					t.Errorf("%s: method %s, sampling attempt %+v", tc.name, r.Method, a)
				}
				if n := len(sampler.Requests()); n != 0 {
					t.Errorf("%s: the client was asked %d times", tc.name, n)
				}
			}
		})
	}
}

// A search that leaves nothing within the trip's limits uses no ranking
// rung: the rung that always answers (the score, or the shortlist) ends
// the ladder with an empty ranking but records itself skipped for
// no_candidates, as a model rung would be, so no attempt claims to have
// ranked nothing. Every strategy that can end there, both eras.
func TestNothingToRankUsesNoRung(t *testing.T) {
	for _, era := range eras {
		for _, tc := range []struct {
			name, strategy string
			cfg            func(*Config)
			method         string
		}{
			{"auto", "auto", func(*Config) {}, "deterministic"},
			{"auto, falling back to candidates", "auto", func(c *Config) { c.Fallback = ranking.Candidates }, "candidates"},
			{"deterministic", "deterministic", func(*Config) {}, "deterministic"},
			{"candidates", "candidates", func(*Config) {}, "candidates"},
		} {
			t.Run(era.Name+"/"+tc.name, func(t *testing.T) {
				c := connect(t, newServer(t, tc.cfg), "inprocess", era.Version)
				res := callTool(t, c, FindBestFlightName, with(with(jfkLHR, "maxPrice", 1), "strategy", tc.strategy))
				if res.IsError {
					t.Fatalf("an empty result is an error: %+v", res.Content)
				}
				var r FindResult
				decode(t, res, &r)
				if r.Candidates != 0 || len(r.Flights) != 0 || r.Method != tc.method {
					t.Fatalf("candidates %d, %d flights, method %s", r.Candidates, len(r.Flights), r.Method)
				}
				rungs := 0
				for _, a := range r.Attempts {
					if !slices.Contains([]string{"client_sampling", "server_llm", "deterministic", "candidates"}, a.Step) {
						continue
					}
					rungs++
					if a.Outcome != "skipped" || a.Reason == "" || (a.Step == tc.method && a.Why != "no_candidates") {
						t.Errorf("%s: %s (%s) %q; want skipped, the last for no_candidates", a.Step, a.Outcome, a.Why, a.Reason)
					}
				}
				if a, ok := attemptAt(r.Attempts, tc.method); !ok || rungs == 0 {
					t.Errorf("no attempt of %s among %+v (%v)", tc.method, r.Attempts, a)
				}
			})
		}
	}
}

// withSamplingTools declares sampling.tools, as a client that can be
// offered tools in a sampling request does (its sampling handler declares
// sampling itself).
var withSamplingTools = client.WithClientCapabilities(mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{Tools: &struct{}{}}})

// Sampling with tools: a client that declared sampling.tools is offered
// the answer tool and required to call it, and its model's tool_use input
// is the answer (structured); a model that answers in text anyway is read
// as text; a call of another tool is no answer. A client that declared
// plain sampling is offered no tools. Both eras, in-process and over HTTP;
// the attempt says which way the answer came.
func TestSamplingWithTools(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declared bool // sampling.tools
		tools    fakeclient.ToolUse
		preamble string
		method   string
		form     string // the client_sampling attempt's answer
		reason   string // in its reason
	}{
		{"the model calls the tool", true, fakeclient.CallsTool, "", "client_sampling", "structured", "the client's model (scripted-llm-1) ranked the 47 candidates"},
		{"after a sentence of its own", true, fakeclient.CallsTool, "I'll submit my ranking now.", "client_sampling", "structured", "ranked the 47 candidates"},
		{"the model writes text anyway", true, fakeclient.IgnoresTools, "", "client_sampling", "text", "ranked the 47 candidates"},
		{"the model calls another tool", true, fakeclient.CallsOtherTool, " ", "deterministic", "structured",
			`the model called the tool "search_web" instead of submit_ranking, and wrote no answer`},
		{"plain sampling", false, fakeclient.CallsTool, "", "client_sampling", "text", "ranked the 47 candidates"},
	} {
		for _, via := range transports {
			for _, era := range eras {
				t.Run(tc.name+"/"+via+"/"+era.Name, func(t *testing.T) {
					sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers, Tools: tc.tools, Preamble: tc.preamble}
					opts := []client.ClientOption{client.WithSamplingHandler(sampler)}
					if tc.declared {
						opts = append(opts, withSamplingTools)
					}
					var r FindResult
					decode(t, callTool(t, connect(t, newServer(t), via, era.Version, opts...), FindBestFlightName, jfkLHR), &r)
					a, _ := attemptAt(r.Attempts, "client_sampling")
					if r.Method != tc.method || a.Answer != tc.form || !strings.Contains(a.Reason, tc.reason) {
						t.Fatalf("method %s, sampling attempt %+v; want %s, answer %s, reason containing %q", r.Method, a, tc.method, tc.form, tc.reason)
					}
					reqs := sampler.Requests()
					if len(reqs) != 1 {
						t.Fatalf("%d sampling requests, want 1", len(reqs))
					}
					if tc.declared {
						checkToolOffer(t, reqs[0])
					} else {
						checkSamplingRequest(t, reqs)
					}
					if tc.method != "client_sampling" {
						if a.Outcome != "failed" || a.Why != "unusable_answer" {
							t.Errorf("sampling attempt %+v, want failed with unusable_answer", a)
						}
						return
					}
					wantIDs := fakemodel.Choose(fakeclient.PromptIDs(reqs[0]))
					for i, f := range r.Flights {
						if f.ID != wantIDs[i] || f.Reason != "scripted choice" {
							t.Errorf("flight %d = %s (%q), want the model's pick %s", i, f.ID, f.Reason, wantIDs[i])
						}
					}
				})
			}
		}
	}
}

// checkToolOffer asserts what a sampling request to a client that declared
// sampling.tools looks like: the one answer tool, whose input schema is
// the server LLM's answer contract, required; the prompt naming it; the
// rest as for any sampling request.
func checkToolOffer(t *testing.T, req mcp.CreateMessageRequest) {
	t.Helper()
	p := req.CreateMessageParams
	if len(p.Tools) != 1 || p.Tools[0].Name != ranking.AnswerTool || p.ToolChoice == nil || p.ToolChoice.Mode != mcp.ToolChoiceModeRequired {
		t.Fatalf("tools %+v, toolChoice %+v: want %s alone, required", p.Tools, p.ToolChoice, ranking.AnswerTool)
	}
	got, err := json.Marshal(p.Tools[0].InputSchema)
	if len(p.Tools[0].RawInputSchema) > 0 {
		got, err = p.Tools[0].RawInputSchema, nil
	}
	want, _ := json.Marshal(ranking.AnswerSchema())
	if err != nil || !jsonEqual(t, got, want) {
		t.Errorf("the tool's inputSchema is %s, want the answer contract %s", got, want)
	}
	if !strings.Contains(p.SystemPrompt, "calling the "+ranking.AnswerTool+" tool") || p.IncludeContext != "none" || len(p.Messages) != 1 {
		t.Errorf("sampling request %+v", p)
	}
	if ids := fakeclient.PromptIDs(req); len(ids) != 47 {
		t.Errorf("prompt lists %d flights, want the 47 candidates", len(ids))
	}
}

// jsonEqual reports whether two JSON documents hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// The answer tool's input is checked like any other answer: faults refuse
// it with the reader's reason (and the next rung ranks), in both eras; an
// input encoded once more is read for what it holds.
func TestSamplingToolInputIsChecked(t *testing.T) {
	picks := func(ids ...string) map[string]any { return fakemodel.AnswerInput(ids...) }
	for _, tc := range []struct {
		name   string
		input  func(ids []string) any
		reason string // "" = used
	}{
		{"encoded once more", func(ids []string) any { b, _ := json.Marshal(picks(ids[46], ids[45])); return string(b) }, ""},
		{"unknown ids", func([]string) any { return picks("XX-YY-000000-X9X9X", "Q1") }, `answer named unknown flight ids: "XX-YY-000000-X9X9X", "Q1"`},
		{"placeholders", func([]string) any { return picks("<flight id exactly as given>") },
			`answer copies the example from the prompt ("<flight id exactly as given>") instead of naming flights`},
		{"an empty list", func([]string) any { return picks() }, "answer named no flights"},
		{"most of the flights", func(ids []string) any { return picks(ids[5:35]...) }, "answer lists 30 of the 47 flights instead of choosing up to three"},
		{"too long", func(ids []string) any {
			in := picks(ids[46])
			in["notes"] = strings.Repeat("x", 70<<10)
			return in
		}, "answer too long (71 KB; at most 64 KB is read)"},
		{"not an object", func([]string) any { return 42 }, `answer tool's input is not the object asked for`},
		{"picks without ids", func([]string) any { return map[string]any{"picks": []any{map[string]any{"reason": "cheap"}}} }, `answer pick 1 has no flight id`},
	} {
		for _, era := range eras {
			t.Run(tc.name+"/"+era.Name, func(t *testing.T) {
				sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers, Input: func(prompt string) any { return tc.input(fakemodel.IDs(prompt)) }}
				c := connect(t, newServer(t), "inprocess", era.Version, client.WithSamplingHandler(sampler), withSamplingTools)
				var r FindResult
				decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
				a, _ := attemptAt(r.Attempts, "client_sampling")
				if tc.reason == "" {
					if r.Method != "client_sampling" || a.Answer != "structured" {
						t.Fatalf("method %s, attempt %+v: want the structured answer used", r.Method, a)
					}
					return
				}
				if r.Method != "deterministic" || a.Outcome != "failed" || a.Why != "unusable_answer" || a.Answer != "structured" || !strings.Contains(a.Reason, tc.reason) {
					t.Errorf("method %s, attempt %+v; want it failed (unusable_answer, structured) with a reason containing %q", r.Method, a, tc.reason)
				}
			})
		}
	}
}
