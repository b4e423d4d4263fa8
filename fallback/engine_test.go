package fallback_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/internal/mcptest"
)

// The ways a client reaches the servers of these tests.
var transports = []string{"inprocess", "http"}

// greet is the smallest tool the engine can run: it asks the user one
// question, their name, in a form, and greets them; when the form brings no
// name, it fails saying why. It knows nothing of the eras: the engine asks
// in the client's.
const (
	greetName = "greet"
	stepName  = "name_form"
)

// greeted counts the rounds the handler ran, so a test can tell the eras
// apart: one round in the legacy era, two (the question, the retry with
// the answer) in the modern one.
func greetServer(t *testing.T, rounds *atomic.Int32) *server.MCPServer {
	t.Helper()
	return greetServerSealing(t, rounds, sealerFor(t, testKey))
}

// testKey is the state key of the greet servers; otherKey is another
// replica's, which they do not share.
var (
	testKey  = []byte("0123456789abcdef0123456789abcdef")
	otherKey = []byte("fedcba9876543210fedcba9876543210")
)

func sealerFor(t *testing.T, key []byte) *state.Sealer {
	t.Helper()
	sealer, err := state.New(key, nil, time.Minute, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return sealer
}

func greetServerSealing(t *testing.T, rounds *atomic.Int32, sealer *state.Sealer) *server.MCPServer {
	t.Helper()
	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: zerolog.Nop(), CallBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("engine-test", "1", server.WithHooks(hooks))
	engine.Attach(s, hooks)
	s.AddTool(mcp.NewTool(greetName), fallback.Serve(engine, fallback.Spec[struct{}]{
		Name: greetName, Steps: []string{stepName},
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			rounds.Add(1)
			a := c.Ask(ctx, fallback.Question{Step: stepName, Key: "name", Limit: 5 * time.Second, Waiting: "waiting for your name",
				Form: &mcp.ElicitationParams{Message: "What is your name?", RequestedSchema: map[string]any{
					"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}}})
			switch {
			case a.Pending != nil:
				return a.Pending
			case a.Failed():
				c.Record(a.Attempt(stepName))
				return c.Fail("no_name", "no name: "+a.Reason, &fallback.ToolError{Why: string(a.Why), Reason: a.Reason})
			}
			name, _ := a.Answer.Content.(map[string]any)["name"].(string)
			c.Record(fallback.UsedBy(stepName, "the user gave their name", a.Elapsed))
			res := mcp.NewToolResultText("Hello, " + name)
			res.StructuredContent = map[string]any{"attempts": fallback.AttemptsOut(c.Attempts())}
			return res
		},
	}))
	return s
}

// user is a person answering the form: accept with a name, decline or
// cancel; shown counts the forms they saw.
type user struct {
	action mcp.ElicitationResponseAction
	mu     sync.Mutex
	shown  []mcp.ElicitationRequest
}

func (u *user) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	u.mu.Lock()
	u.shown = append(u.shown, req)
	u.mu.Unlock()
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: u.action}}
	if u.action == mcp.ElicitationResponseActionAccept {
		res.Content = map[string]any{"name": "Ada"}
	}
	return res, nil
}

// attemptsOf reads the attempts of a result as a client would: from
// structuredContent when it succeeded, from the error details otherwise.
func attemptsOf(t *testing.T, res *mcp.CallToolResult) (fallback.ToolError, []fallback.AttemptOut) {
	t.Helper()
	var from any = res.StructuredContent
	var d fallback.ToolError
	if res.IsError {
		from = res.Meta.AdditionalFields[fallback.DefaultErrorMetaKey]
	}
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return d, d.Attempts
}

// One question, one form, both eras: the tool's handler is the same, and
// the engine asks the way the client's era asks (a request while the call
// waits; input_required and a retry carrying the answer), records the
// decision in one vocabulary and says why a form brought nothing.
func TestOneQuestionToolAsksAFormInBothEras(t *testing.T) {
	for _, tc := range []struct {
		name    string
		user    *user // nil: a client without elicitation
		text    string
		outcome fallback.Outcome
		why     fallback.Why
	}{
		{"the user answers", &user{action: mcp.ElicitationResponseActionAccept}, "Hello, Ada", fallback.Used, ""},
		{"the user declines", &user{action: mcp.ElicitationResponseActionDecline}, "no name: the user declined", fallback.Failed, fallback.UserDeclined},
		{"the user cancels", &user{action: mcp.ElicitationResponseActionCancel}, "no name: the user dismissed the form", fallback.Failed, fallback.UserCancelled},
		{"the client cannot show a form", nil, "no name: client did not declare elicitation", fallback.Skipped, fallback.ClientCannotAsk},
	} {
		for _, via := range transports {
			for _, era := range mcptest.Eras {
				t.Run(fmt.Sprintf("%s/%s/%s", tc.name, via, era.Name), func(t *testing.T) {
					var opts []client.ClientOption
					var u *user
					if tc.user != nil {
						u = &user{action: tc.user.action}
						opts = append(opts, client.WithElicitationHandler(u))
					}
					var rounds atomic.Int32
					c := mcptest.Connect(t, greetServer(t, &rounds), via, era.Version, false, opts...)
					res := mcptest.CallTool(t, c, greetName, nil)
					if got := mcptest.Text(res); !strings.HasPrefix(got, tc.text) {
						t.Errorf("text %q, want it to start %q", got, tc.text)
					}
					if res.IsError != (tc.outcome != fallback.Used) {
						t.Errorf("isError %v for outcome %s", res.IsError, tc.outcome)
					}
					d, attempts := attemptsOf(t, res)
					if len(attempts) != 1 || attempts[0].Step != stepName || attempts[0].Outcome != string(tc.outcome) || attempts[0].Why != string(tc.why) {
						t.Fatalf("attempts %+v, want one %s at %s, why %q", attempts, tc.outcome, stepName, tc.why)
					}
					if res.IsError && (d.Error != "no_name" || d.Why != string(tc.why)) {
						t.Errorf("error details %+v", d)
					}
					// The form was shown once, and the era decided how:
					// the modern call was answered by a retry.
					shown, wantRounds := 0, int32(1)
					if u != nil {
						shown = len(u.shown)
						if era.Name == "modern" {
							wantRounds = 2
						}
					}
					if tc.user != nil && shown != 1 {
						t.Errorf("the user saw %d forms, want 1", shown)
					}
					if got := rounds.Load(); got != wantRounds {
						t.Errorf("the handler ran %d rounds, want %d", got, wantRounds)
					}
				})
			}
		}
	}
}

// A modern retry's requestState is the client's to echo, not to write: a
// state that is not one this server sealed, for this tool, these arguments
// and this step, is refused with an isError that says how to start over,
// and the handler never runs on it. The control, a state the server would
// have sealed with the user's answer, is read.
func TestModernRetryStatesAreChecked(t *testing.T) {
	args := map[string]any{"who": "me"}
	digest, err := state.Digest(args)
	if err != nil {
		t.Fatal(err)
	}
	otherDigest, err := state.Digest(map[string]any{"who": "someone else"})
	if err != nil {
		t.Fatal(err)
	}
	round, err := json.Marshal(fallback.Round{AskedAtMs: time.Now().UnixMilli(), Rounds: 1, Asked: map[string]int{stepName: 1}})
	if err != nil {
		t.Fatal(err)
	}
	seal := func(key []byte, p state.Payload) string {
		p.Data = round
		token, err := sealerFor(t, key).Seal(p)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	answer := map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}
	form := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	for _, tc := range []struct {
		name  string
		state string
		ok    bool
	}{
		{"sealed by this server, with the answer", seal(testKey, state.Payload{Tool: greetName, ArgsDigest: digest, Step: stepName}), true},
		{"not a state at all", "v1.bm90.YXN0YXRl", false},
		{"sealed with another key", seal(otherKey, state.Payload{Tool: greetName, ArgsDigest: digest, Step: stepName}), false},
		{"sealed for another tool", seal(testKey, state.Payload{Tool: "other", ArgsDigest: digest, Step: stepName}), false},
		{"sealed for other arguments", seal(testKey, state.Payload{Tool: greetName, ArgsDigest: otherDigest, Step: stepName}), false},
		{"sealed at another step", seal(testKey, state.Payload{Tool: greetName, ArgsDigest: digest, Step: "other_step"}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rounds atomic.Int32
			s := greetServerSealing(t, &rounds, sealerFor(t, testKey))
			var res mcp.CallToolResult
			raw := mcptest.ModernCall(t, s, greetName, form, args, tc.state, answer)
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatalf("%v in %s", err, raw)
			}
			if tc.ok {
				if res.IsError || mcptest.Text(&res) != "Hello, Ada" || rounds.Load() != 1 {
					t.Fatalf("a state this server sealed: isError %v, text %q, %d rounds (%s)", res.IsError, mcptest.Text(&res), rounds.Load(), raw)
				}
				return
			}
			d, _ := attemptsOf(t, &res)
			if !res.IsError || d.Error != fallback.ErrorStateRefused || !strings.Contains(mcptest.Text(&res), "without requestState") {
				t.Errorf("isError %v, code %q, text %q: want state_refused saying how to start over", res.IsError, d.Error, mcptest.Text(&res))
			}
			if n := rounds.Load(); n != 0 {
				t.Errorf("the handler ran %d times on a refused state", n)
			}
		})
	}
}

// A modern retry tells an answer that is absent (asked once more) from one
// that is there but cannot be read as the question's kind (unusable, as a
// legacy client's would be): the user is not shown the form again for an
// answer that did come.
func TestModernRetryTellsAnUnreadableAnswerFromNone(t *testing.T) {
	form := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	for _, tc := range []struct {
		name      string
		responses map[string]any
		why       fallback.Why // "": asked once more
	}{
		{"no answer", nil, ""},
		{"an answer under another key", map[string]any{"other": map[string]any{"action": "accept"}}, ""},
		{"an action that is a number", map[string]any{"name": map[string]any{"action": 5}}, fallback.UnusableAnswer},
		{"a string, not a result", map[string]any{"name": "Ada"}, fallback.UnusableAnswer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rounds atomic.Int32
			s := greetServer(t, &rounds)
			var first, retry mcp.CallToolResult
			if err := json.Unmarshal(mcptest.ModernCall(t, s, greetName, form, nil, "", nil), &first); err != nil || first.RequestState == "" {
				t.Fatalf("first round: %+v (%v)", first, err)
			}
			if err := json.Unmarshal(mcptest.ModernCall(t, s, greetName, form, nil, first.RequestState, tc.responses), &retry); err != nil {
				t.Fatal(err)
			}
			if tc.why == "" {
				if retry.ResultType != mcp.ResultTypeInputRequired {
					t.Errorf("result %+v: want the form asked once more", retry)
				}
				return
			}
			d, attempts := attemptsOf(t, &retry)
			if !retry.IsError || d.Why != string(tc.why) || len(attempts) != 1 || attempts[0].Outcome != string(fallback.Failed) ||
				!strings.Contains(attempts[0].Reason, "could not be read") {
				t.Errorf("result type %q, details %+v: want the form failed (%s), not asked again", retry.ResultType, d, tc.why)
			}
		})
	}
}

// A 2025-11-25 call that carries a requestState (a client that began the
// call in 2026-07-28 and went on in 2025-11-25) is not resumed: its
// question is asked directly, in the one round, under its limit, never
// through mcp-go's MRTR bridge (an input_required it would send with no
// time limit), and an answer in its inputResponses is not read. A state
// this server sealed names its step, and the decision is recorded there;
// one that does not verify is only ignored. (mcp-go's client fills
// requestState itself, so the calls are sent by hand.)
func TestLegacyCallIgnoresRequestState(t *testing.T) {
	args := map[string]any{"who": "me"}
	digest, err := state.Digest(args)
	if err != nil {
		t.Fatal(err)
	}
	round, err := json.Marshal(fallback.Round{AskedAtMs: time.Now().UnixMilli(), Rounds: 1, Asked: map[string]int{stepName: 1}})
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := sealerFor(t, testKey).Seal(state.Payload{Tool: greetName, ArgsDigest: digest, Step: stepName, Data: round})
	if err != nil {
		t.Fatal(err)
	}
	fabricated := map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Mallory"}}}
	ignored := fallback.AttemptOut{Step: stepName, Outcome: string(fallback.Skipped), Why: string(fallback.NotUsable)}
	used := fallback.AttemptOut{Step: stepName, Outcome: string(fallback.Used)}
	for _, tc := range []struct {
		name      string
		state     string
		responses map[string]any
		attempts  []fallback.AttemptOut // compared without reasons and times
	}{
		{"a state this server sealed, without an answer", sealed, nil, []fallback.AttemptOut{ignored, used}},
		{"a state this server sealed, with an answer", sealed, fabricated, []fallback.AttemptOut{ignored, used}},
		{"a state that does not verify", "v1.bm90.YXN0YXRl", fabricated, []fallback.AttemptOut{used}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rounds atomic.Int32
			s := greetServer(t, &rounds)
			u := &user{action: mcp.ElicitationResponseActionAccept}
			ctx := mcptest.LegacySession(t, s, map[string]any{"elicitation": map[string]any{}}, nil, u, nil)
			var res mcp.CallToolResult
			raw := mcptest.LegacyCall(t, ctx, s, greetName, args, tc.state, tc.responses)
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatalf("%v in %s", err, raw)
			}
			if got := mcptest.Text(&res); got != "Hello, Ada" {
				t.Errorf("text %q, want the name the user gave in the form", got)
			}
			if n := rounds.Load(); n != 1 || len(u.shown) != 1 {
				t.Errorf("the handler ran %d rounds and the user saw %d forms, want one each: the form asked directly", n, len(u.shown))
			}
			_, attempts := attemptsOf(t, &res)
			var got []fallback.AttemptOut
			for _, a := range attempts {
				got = append(got, fallback.AttemptOut{Step: a.Step, Outcome: a.Outcome, Why: a.Why})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.attempts) {
				t.Errorf("attempts %+v, want %+v", attempts, tc.attempts)
			}
		})
	}
}

// An isError's details sit under the _meta key the server configured, or
// the engine's own default, and nowhere else; a key that is not one, or
// that sits under a prefix MCP reserves, is refused at start with why.
func TestErrorMetaKeyIsTheServersOwn(t *testing.T) {
	for _, tc := range []struct {
		name, key, want, refused string
	}{
		{"the default", "", fallback.DefaultErrorMetaKey, ""},
		{"a server's own", "io.github.example/error", "io.github.example/error", ""},
		{"no prefix", "error", "error", ""},
		{"not a key", "io.github.example/", "", "not a _meta key"},
		{"a space in it", "my error", "", "not a _meta key"},
		{"reserved for MCP", "io.modelcontextprotocol.example/error", "", "reserved"},
		{"reserved for MCP, short", "mcp.dev/error", "", "reserved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			engine, err := fallback.New(fallback.Config{Sealer: sealerFor(t, testKey), Logger: zerolog.Nop(), ErrorMetaKey: tc.key})
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("New with error meta key %q: %v, want it refused (%s)", tc.key, err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := engine.ErrorMetaKey(); got != tc.want {
				t.Errorf("ErrorMetaKey() = %q, want %q", got, tc.want)
			}
			s := server.NewMCPServer("engine-test", "1")
			s.AddTool(mcp.NewTool("fails"), fallback.Serve(engine, fallback.Spec[struct{}]{Name: "fails",
				Handle: func(_ context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
					return c.Fail("no_luck", "it failed", &fallback.ToolError{Reason: "always"})
				}}))
			res := mcptest.CallTool(t, mcptest.Connect(t, s, "inprocess", mcptest.Eras[0].Version, false), "fails", nil)
			if !res.IsError || res.Meta == nil {
				t.Fatalf("isError %v, _meta %v", res.IsError, res.Meta)
			}
			var d fallback.ToolError
			b, _ := json.Marshal(res.Meta.AdditionalFields[tc.want])
			if err := json.Unmarshal(b, &d); err != nil || d.Error != "no_luck" || d.Reason != "always" {
				t.Errorf("_meta[%q] = %s (%v), want the details", tc.want, b, err)
			}
			if len(res.Meta.AdditionalFields) != 1 {
				t.Errorf("_meta %v, want the details under %q alone", res.Meta.AdditionalFields, tc.want)
			}
		})
	}
}
