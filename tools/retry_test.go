package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/mcptest"
	"github.com/flightserver/flightserver/ranking"
)

// These tests speak 2026-07-28 by hand, as an attacker or a buggy client
// can: requestState and inputResponses are whatever the caller sends.

var (
	declaresSampling = map[string]any{"sampling": map[string]any{}}
	declaresNothing  = map[string]any{}
)

type rawResult struct {
	ResultType        string                     `json:"resultType"`
	RequestState      string                     `json:"requestState"`
	InputRequests     map[string]json.RawMessage `json:"inputRequests"`
	IsError           bool                       `json:"isError"`
	Content           []struct{ Text string }    `json:"content"`
	StructuredContent *FindResult                `json:"structuredContent"`
}

func (r rawResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// rawCall sends one modern tools/call to findBestFlight.
func rawCall(t *testing.T, s *server.MCPServer, caps map[string]any, args map[string]any, requestState string, inputResponses map[string]any) rawResult {
	t.Helper()
	return rawCallTool(t, s, FindBestFlightName, caps, args, requestState, inputResponses)
}

// rawCallTool sends one modern tools/call to any tool (its
// structuredContent is read as findBestFlight's).
func rawCallTool(t *testing.T, s *server.MCPServer, tool string, caps map[string]any, args map[string]any, requestState string, inputResponses map[string]any) rawResult {
	t.Helper()
	var r rawResult
	raw := mcptest.ModernCall(t, s, tool, caps, args, requestState, inputResponses)
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	return r
}

// answerTo is a client's sampling answer naming ids.
func answerTo(ids ...string) map[string]any {
	return map[string]any{samplingKey: map[string]any{
		"role": "assistant", "model": "hand-written",
		"content": map[string]any{"type": "text", "text": fakemodel.Answer(ids...)},
	}}
}

// ask makes the first round and returns its state and the ids the prompt
// showed.
func ask(t *testing.T, s *server.MCPServer, args map[string]any) (string, []string) {
	t.Helper()
	r := rawCall(t, s, declaresSampling, args, "", nil)
	if r.ResultType != "input_required" || r.RequestState == "" || len(r.InputRequests) != 1 {
		t.Fatalf("first round: %+v", r)
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			IncludeContext string `json:"includeContext"`
			Tools          []any  `json:"tools"`
			Messages       []struct {
				Content struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(r.InputRequests[samplingKey], &req); err != nil || req.Method != "sampling/createMessage" ||
		req.Params.IncludeContext != "none" || req.Params.Tools != nil || len(req.Params.Messages) != 1 {
		t.Fatalf("input request %s: %v", r.InputRequests[samplingKey], err)
	}
	ids := fakemodel.Choose(flightIDs(req.Params.Messages[0].Content.Text))
	return r.RequestState, ids
}

func flightIDs(text string) []string {
	var ids []string
	for _, f := range strings.Fields(strings.NewReplacer("|", " ").Replace(text)) {
		if idPattern.MatchString(f) {
			ids = append(ids, f)
		}
	}
	return ids
}

func TestModernRoundTripByHand(t *testing.T) {
	s := newServer(t)
	st, ids := ask(t, s, jfkLHR)
	r := rawCall(t, s, declaresSampling, jfkLHR, st, answerTo(ids...))
	if r.StructuredContent == nil || r.StructuredContent.Method != "client_sampling" || r.StructuredContent.Model != "hand-written" ||
		r.StructuredContent.Flights[0].ID != ids[0] {
		t.Fatalf("retry: %+v %s", r.StructuredContent, r.text())
	}

	// Any replica with the same key finishes the call.
	other := newServer(t)
	if r := rawCall(t, other, declaresSampling, jfkLHR, st, answerTo(ids...)); r.StructuredContent == nil || r.StructuredContent.Method != "client_sampling" {
		t.Errorf("another replica with the same key: %+v %s", r.StructuredContent, r.text())
	}
	// One with another key refuses the state, clearly.
	stranger := newServer(t, func(c *Config) { c.StateKey = []byte("another key, 32 bytes long......") })
	if r := rawCall(t, stranger, declaresSampling, jfkLHR, st, answerTo(ids...)); !r.IsError || !strings.Contains(r.text(), "requestState cannot be used") {
		t.Errorf("a replica with another key: %s", r.text())
	}

	// A model that picks one flight gets it first, the rest completed.
	r = rawCall(t, s, declaresSampling, jfkLHR, st, answerTo(ids[2]))
	if f := r.StructuredContent.Flights; f[0].ID != ids[2] || !strings.Contains(f[1].Reason, "deterministic order") {
		t.Errorf("one pick: %+v", f)
	}
}

func TestModernRetryProblems(t *testing.T) {
	s := newServer(t)
	st, ids := ask(t, s, jfkLHR)
	sealerAt := func(now time.Time) *state.Sealer {
		sl, err := state.New(testStateKey, func() time.Time { return now }, DefaultStateTTL, maxStateBytes)
		if err != nil {
			t.Fatal(err)
		}
		return sl
	}
	digest, _ := state.Digest(jfkLHR)
	expired, _ := sealerAt(today().Add(-time.Hour)).Seal(state.Payload{Tool: FindBestFlightName, ArgsDigest: digest, Step: string(ranking.ClientSampling), Data: json.RawMessage(`{}`)})
	otherTool, _ := sealerAt(today()).Seal(state.Payload{Tool: "bookFlight", ArgsDigest: digest, Step: string(ranking.ClientSampling)})
	otherStep, _ := sealerAt(today()).Seal(state.Payload{Tool: FindBestFlightName, ArgsDigest: digest, Step: "elicit"})
	forged := st[:len(st)-3] + "AAA"
	if forged == st {
		forged = st[:len(st)-3] + "BBB"
	}

	for _, tc := range []struct {
		name  string
		state string
		args  map[string]any
		says  string
	}{
		{"forged", forged, jfkLHR, "signature"},
		{"expired", expired, jfkLHR, "expired"},
		{"for other arguments", st, map[string]any{"origin": "JFK", "destination": "CDG", "date": "2026-12-15"}, "other arguments"},
		{"for another tool", otherTool, jfkLHR, "another tool"},
		{"for another step", otherStep, jfkLHR, "another step"},
		{"oversized", strings.Repeat("v1.", 3000), jfkLHR, "too large"},
		{"garbage", "not a state", jfkLHR, "requestState cannot be used"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rawCall(t, s, declaresSampling, tc.args, tc.state, answerTo(ids...))
			if !r.IsError || !strings.Contains(r.text(), "requestState cannot be used") || !strings.Contains(r.text(), tc.says) {
				t.Errorf("want an isError saying %q, got isError=%v %q", tc.says, r.IsError, r.text())
			}
			if r.StructuredContent != nil {
				t.Error("a ranking was built on a refused state")
			}
			if len(r.text()) > 1000 {
				t.Errorf("%d bytes of error: the state must not be echoed", len(r.text()))
			}
		})
	}
}

// A retry without the answer is asked once more, as the spec prefers to
// failing; a second retry without it falls back.
func TestModernRetryWithoutAnswerAsksOnceMoreThenFallsBack(t *testing.T) {
	s := newServer(t)
	st, _ := ask(t, s, jfkLHR)
	for name, responses := range map[string]map[string]any{
		"no inputResponses":         nil,
		"an answer under other key": {"other": answerTo()[samplingKey]},
	} {
		again := rawCall(t, s, declaresSampling, jfkLHR, st, responses)
		if again.ResultType != "input_required" || again.RequestState == "" || again.RequestState == st || len(again.InputRequests) != 1 {
			t.Fatalf("%s: not asked again: %+v %s", name, again, again.text())
		}
		r := rawCall(t, s, declaresSampling, jfkLHR, again.RequestState, responses)
		if r.StructuredContent == nil || r.StructuredContent.Method != "deterministic" {
			t.Fatalf("%s: %+v %s", name, r, r.text())
		}
		if a := r.StructuredContent.Attempts[0]; a.Outcome != "failed" || a.Why != "no_answer" || a.Reason != "the retry carried no answer to the question" {
			t.Errorf("%s: attempt %+v", name, a)
		}
	}
	// A client that no longer declares sampling is not asked again.
	r := rawCall(t, s, declaresNothing, jfkLHR, st, nil)
	if r.StructuredContent == nil || r.StructuredContent.Method != "deterministic" || r.StructuredContent.Attempts[0].Why != "no_answer" {
		t.Errorf("not declared on the retry: %+v %s", r, r.text())
	}
}

// A retry whose answer is there but is no sampling result (its fields of
// the wrong types) is an unusable answer, as the same answer from a legacy
// client is: the client's model, and its user's approval, are not asked
// for again, and the next rung ranks.
func TestModernUnreadableSamplingAnswerIsUnusable(t *testing.T) {
	s := newServer(t)
	st, ids := ask(t, s, jfkLHR)
	for _, tc := range []struct {
		name   string
		answer func() any
	}{
		{"a model that is a number", func() any { a := answerTo(ids...)[samplingKey].(map[string]any); a["model"] = 42; return a }},
		{"a role that is a list", func() any {
			a := answerTo(ids...)[samplingKey].(map[string]any)
			a["role"] = []any{"assistant"}
			return a
		}},
		{"a string, not a result", func() any { return "picks: " + strings.Join(ids, ", ") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rawCall(t, s, declaresSampling, jfkLHR, st, map[string]any{samplingKey: tc.answer()})
			if r.ResultType == "input_required" || r.StructuredContent == nil {
				t.Fatalf("an answer that came was asked for again: %+v %s", r, r.text())
			}
			a := r.StructuredContent.Attempts[0]
			if r.StructuredContent.Method != "deterministic" || a.Step != "client_sampling" || a.Outcome != "failed" || a.Why != string(fallback.UnusableAnswer) ||
				!strings.Contains(a.Reason, "could not be read") {
				t.Errorf("method %s, attempt %+v: want client_sampling failed (unusable_answer), then the deterministic rung", r.StructuredContent.Method, a)
			}
		})
	}
}

// One chain of rounds asks at most fallback.MaxRounds questions: a client that keeps
// retrying without answers, or replays states, cannot make a call ask for
// ever.
func TestModernRoundsAreBounded(t *testing.T) {
	s := newServer(t)
	// The re-ask rule alone ends a chain of empty retries early...
	st, _ := ask(t, s, jfkLHR)
	asked := 1
	for range 2 * fallback.MaxRounds {
		r := rawCall(t, s, declaresSampling, jfkLHR, st, nil)
		if r.ResultType != "input_required" {
			break
		}
		st, asked = r.RequestState, asked+1
	}
	if asked > fallback.MaxRounds {
		t.Errorf("%d questions in one chain, at most %d allowed", asked, fallback.MaxRounds)
	}
	// ...so the limit itself is met by a chain that has already asked
	// fallback.MaxRounds questions (as a state says, sealed by this server): the
	// trip form's answer is used, and sampling is not asked for any more.
	caps := map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}}
	digest, _ := state.Digest(partialTrip)
	round, _ := json.Marshal(fallback.Round{AskedAtMs: today().UnixMilli(), Asked: map[string]int{stepTrip: 2, string(ranking.ClientSampling): fallback.MaxRounds - 2}, Data: json.RawMessage(`{}`)})
	sealer, err := state.New(testStateKey, today, DefaultStateTTL, maxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	full, err := sealer.Seal(state.Payload{Tool: FindBestFlightName, ArgsDigest: digest, Step: stepTrip, Data: round})
	if err != nil {
		t.Fatal(err)
	}
	r := rawCall(t, s, caps, partialTrip, full, map[string]any{tripKey: map[string]any{"action": "accept", "content": goodTrip}})
	if r.ResultType == "input_required" || r.StructuredContent == nil {
		t.Fatalf("a chain at its limit asked again: %+v %s", r, r.text())
	}
	if a := r.StructuredContent.Attempts; len(a) < 2 || a[1].Step != "client_sampling" || a[1].Outcome != "skipped" || a[1].Why != "too_many_rounds" ||
		r.StructuredContent.Method != "deterministic" {
		t.Errorf("at the limit: method %s, attempts %+v", r.StructuredContent.Method, a)
	}
}

// A 2025-11-25 call carrying the state of a 2026-07-28 round (a host that
// fell back to the handshake mid-call) asks its form directly, under the
// form's limit and the call budget: a user who never answers costs the
// call its limit, not a wait without end in mcp-go's MRTR bridge.
func TestLegacyCallWithModernStateIsBounded(t *testing.T) {
	s := newServer(t, func(c *Config) {
		c.CallBudget = time.Second
		c.ElicitationTimeout = 300 * time.Millisecond
		c.Logger = zerolog.Nop()
	})
	caps := map[string]any{"elicitation": map[string]any{}}
	first := rawCall(t, s, caps, partialTrip, "", nil)
	if first.ResultType != "input_required" {
		t.Fatalf("first round: %+v %s", first, first.text())
	}
	form := &fakeclient.Form{Behaviour: fakeclient.Silent}
	ctx := mcptest.LegacySession(t, s, caps, nil, form, nil)
	done := make(chan json.RawMessage, 1)
	go func() {
		done <- mcptest.LegacyCall(t, ctx, s, FindBestFlightName, partialTrip, first.RequestState, nil)
	}()
	var raw json.RawMessage
	select {
	case raw = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("a legacy call with a 1s budget has not answered after 5s (%d forms shown): its form went through mcp-go's MRTR bridge", len(form.Requests()))
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
	d := errorDetails(t, &res)
	if !res.IsError || d.Error != ErrorTripDetailsNeeded || d.Why != string(fallback.NoAnswer) || len(form.Requests()) != 1 {
		t.Fatalf("isError %v, details %+v, %d forms shown: want trip_details_needed (no_answer) after one form", res.IsError, d, len(form.Requests()))
	}
	if len(d.Attempts) != 2 || d.Attempts[0].Why != string(fallback.NotUsable) || d.Attempts[1].Why != string(fallback.NoAnswer) {
		t.Errorf("attempts %+v: want the ignored state, then the unanswered form", d.Attempts)
	}
}

// inputResponses without our sealed state prove nothing: a fabricated
// "answer" is never used.
func TestInputResponsesWithoutStateAreIgnored(t *testing.T) {
	s := newServer(t)
	_, ids := ask(t, s, jfkLHR)
	// A client that cannot sample, sending a made-up answer: deterministic.
	r := rawCall(t, s, declaresNothing, jfkLHR, "", answerTo(ids...))
	if r.StructuredContent == nil || r.StructuredContent.Method != "deterministic" {
		t.Errorf("fabricated answer, no state: %+v %s", r.StructuredContent, r.text())
	}
	// One that can: it is asked properly, as on a first call.
	if r := rawCall(t, s, declaresSampling, jfkLHR, "", answerTo(ids...)); r.ResultType != "input_required" {
		t.Errorf("fabricated answer with sampling declared: %+v", r)
	}
}

// Capabilities belong to one request: the same client may declare
// sampling on one call and not the next.
func TestModernCapabilitiesArePerRequest(t *testing.T) {
	s := newServer(t)
	if r := rawCall(t, s, declaresNothing, jfkLHR, "", nil); r.StructuredContent == nil || r.StructuredContent.Attempts[0].Reason != "client did not declare sampling" {
		t.Errorf("without sampling: %+v", r)
	}
	st, ids := ask(t, s, jfkLHR) // declares sampling: asked
	// The retry declares nothing: the state proves the question was ours,
	// and nothing more is asked, so the answer is used.
	if r := rawCall(t, s, declaresNothing, jfkLHR, st, answerTo(ids...)); r.StructuredContent == nil || r.StructuredContent.Method != "client_sampling" {
		t.Errorf("retry without the capability: %+v %s", r.StructuredContent, r.text())
	}
}

// An answer about other candidates than this round has (fares moved between
// the question and the retry, or a state sealed for another search) does
// not rank: stale_answer, and the fallback ranks the flights of now.
func TestModernStaleAnswer(t *testing.T) {
	s := newServer(t)
	_, ids := ask(t, s, jfkLHR)
	digest, _ := state.Digest(jfkLHR)
	round, _ := json.Marshal(fallback.Round{AskedAtMs: today().UnixMilli(), About: "other-candidates",
		Asked: map[string]int{string(ranking.ClientSampling): 1}, Data: json.RawMessage(`{}`)})
	sealer, err := state.New(testStateKey, today, DefaultStateTTL, maxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sealer.Seal(state.Payload{Tool: FindBestFlightName, ArgsDigest: digest, Step: string(ranking.ClientSampling), Data: round})
	if err != nil {
		t.Fatal(err)
	}
	r := rawCall(t, s, declaresSampling, jfkLHR, st, answerTo(ids...))
	if r.StructuredContent == nil {
		t.Fatalf("stale answer: %+v %s", r, r.text())
	}
	if a := r.StructuredContent.Attempts[0]; r.StructuredContent.Method != "deterministic" || a.Step != "client_sampling" || a.Outcome != "failed" || a.Why != "stale_answer" {
		t.Errorf("stale answer: method %s, attempts %+v", r.StructuredContent.Method, r.StructuredContent.Attempts)
	}
}

// A retry's state does not bring back a rung the operator of the replica
// serving it turned off: the state proves the client could be asked, not
// that this server may ask.
func TestResumeKeepsTheOperatorsSettings(t *testing.T) {
	st, ids := ask(t, newServer(t), jfkLHR)
	off := newServer(t, func(c *Config) { c.DisableSampling = true })
	r := rawCall(t, off, declaresSampling, jfkLHR, st, answerTo(ids...))
	if r.StructuredContent == nil {
		t.Fatalf("%+v %s", r, r.text())
	}
	if a, _ := attemptAt(r.StructuredContent.Attempts, "client_sampling"); r.StructuredContent.Method != "deterministic" || a.Why != "turned_off" {
		t.Errorf("sampling off on the replica that got the retry: method %s, attempts %+v", r.StructuredContent.Method, r.StructuredContent.Attempts)
	}
}

// A question the server cannot seal (a defect; here a state limit no
// question fits) is said to be the server's fault, never the client's:
// the rung records server_fault, the client is not asked, and the next
// rung answers in the same round.
func TestUnsealableQuestionIsServerFault(t *testing.T) {
	ts := newToolsetForTest(t)
	tiny, err := state.New(testStateKey, today, DefaultStateTTL, 64)
	if err != nil {
		t.Fatal(err)
	}
	if ts.engine, err = fallback.New(fallback.Config{Sealer: tiny, Logger: zerolog.Nop(), ErrorMetaKey: ErrorMetaKey}); err != nil {
		t.Fatal(err)
	}
	s, err := ts.server(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	r := rawCall(t, s, declaresSampling, jfkLHR, "", nil)
	if r.ResultType != "complete" || r.StructuredContent == nil {
		t.Fatalf("%+v %s", r, r.text())
	}
	a, _ := attemptAt(r.StructuredContent.Attempts, "client_sampling")
	if r.StructuredContent.Method != "deterministic" || a.Why != "server_fault" || !strings.Contains(a.Reason, "could not record the question") {
		t.Errorf("method %s, attempts %+v", r.StructuredContent.Method, r.StructuredContent.Attempts)
	}
}

// A state still carries the chain's question count as a total ("n") beside
// the per-step counts: replicas of earlier versions read the total for the
// round limit, and during a rolling update a retry may reach one.
func TestStateKeepsTheTotalForEarlierReplicas(t *testing.T) {
	st, _ := ask(t, newServer(t), jfkLHR)
	sealer, err := state.New(testStateKey, today, DefaultStateTTL, maxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	digest, _ := state.Digest(jfkLHR)
	p, err := sealer.Open(st, FindBestFlightName, digest, string(ranking.ClientSampling))
	if err != nil {
		t.Fatal(err)
	}
	var round fallback.Round
	if err := json.Unmarshal(p.Data, &round); err != nil {
		t.Fatal(err)
	}
	if round.Rounds != 1 || round.Asked[string(ranking.ClientSampling)] != 1 {
		t.Errorf("state after one question: n=%d, asked %v", round.Rounds, round.Asked)
	}
}
