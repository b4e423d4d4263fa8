package fallback_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
	"github.com/flightserver/flightserver/internal/mcptest"
)

// survey asks three things at once: the user's name, a greeting from the
// client's model, the client's roots. It answers with what it got and the
// attempts; rounds counts how often its handler ran.
const surveyName = "survey"

func surveyServer(t *testing.T, rounds *atomic.Int32) *server.MCPServer {
	t.Helper()
	engine, err := fallback.New(fallback.Config{Sealer: sealerFor(t, testKey), Logger: zerolog.Nop(), CallBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hooks := &server.Hooks{}
	s := server.NewMCPServer("engine-test", "1", server.WithHooks(hooks))
	engine.Attach(s, hooks)
	qs := []fallback.Question{
		{Step: "name", Key: "name", Limit: 5 * time.Second, Form: &mcp.ElicitationParams{Message: "What is your name?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}},
		{Step: "greeting", Key: "greeting", Limit: 5 * time.Second, Sampling: &mcp.CreateMessageParams{MaxTokens: 10,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("Say hello")}}}},
		{Step: "roots", Key: "roots", Limit: 5 * time.Second, Roots: true},
	}
	s.AddTool(mcp.NewTool(surveyName), fallback.Serve(engine, fallback.Spec[struct{}]{
		Name: surveyName, Steps: []string{"name"},
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			rounds.Add(1)
			asked, pending := c.AskAll(ctx, qs...)
			if pending != nil {
				return pending
			}
			var got []string
			for i, a := range asked {
				switch {
				case a.Failed():
					c.Record(a.Attempt(qs[i].Step))
				case a.Answer.Content != nil:
					c.Record(fallback.UsedBy(qs[i].Step, "answered", a.Elapsed))
					got = append(got, fmt.Sprint(a.Answer.Content.(map[string]any)["name"]))
				case a.Answer.Sampling != nil:
					c.Record(fallback.UsedBy(qs[i].Step, "answered", a.Elapsed))
					got = append(got, "greeted")
				default:
					c.Record(fallback.UsedBy(qs[i].Step, "answered", a.Elapsed))
					got = append(got, fmt.Sprintf("%d roots", len(a.Answer.Roots)))
				}
			}
			res := mcp.NewToolResultText(strings.Join(got, ", "))
			res.StructuredContent = map[string]any{"attempts": fallback.AttemptsOut(c.Attempts())}
			return res
		},
	}))
	return s
}

// everything is a client whose user, model and directories all answer; it
// counts what it was asked.
type everything struct {
	mu    sync.Mutex
	asked []string
}

func (e *everything) note(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, s)
}

func (e *everything) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.note("form")
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada"}}}, nil
}

func (e *everything) CreateMessage(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	e.note("sampling")
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("hello")}, Model: "m"}, nil
}

func (e *everything) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	e.note("roots")
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work", Name: "work"}}}, nil
}

// Several questions at once, both eras: a legacy client is asked each in
// turn while the call waits, a modern one gets them in one input_required
// result and answers with one retry. What the client did not declare is
// not asked, and says so.
func TestAskAllInBothEras(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declares []string // which handlers the client has
		text     string
		outcomes []string
	}{
		{"the client takes all three", []string{"form", "sampling", "roots"}, "Ada, greeted, 1 roots", []string{"name:used", "greeting:used", "roots:used"}},
		{"the client takes only forms", []string{"form"}, "Ada",
			[]string{"name:used", "greeting:skipped:client_cannot_ask", "roots:skipped:client_cannot_ask"}},
		{"the client takes nothing", nil, "",
			[]string{"name:skipped:client_cannot_ask", "greeting:skipped:client_cannot_ask", "roots:skipped:client_cannot_ask"}},
	} {
		for _, via := range transports {
			for _, era := range mcptest.Eras {
				t.Run(fmt.Sprintf("%s/%s/%s", tc.name, via, era.Name), func(t *testing.T) {
					e := &everything{}
					var opts []client.ClientOption
					for _, d := range tc.declares {
						switch d {
						case "form":
							opts = append(opts, client.WithElicitationHandler(e))
						case "sampling":
							opts = append(opts, client.WithSamplingHandler(e))
						case "roots":
							opts = append(opts, client.WithRootsHandler(e))
						}
					}
					var rounds atomic.Int32
					c := mcptest.Connect(t, surveyServer(t, &rounds), via, era.Version, via == "http" && era.Name == "legacy" && slices.Contains(tc.declares, "sampling"), opts...)
					res := mcptest.CallTool(t, c, surveyName, nil)
					if got := mcptest.Text(res); got != tc.text {
						t.Errorf("text %q, want %q", got, tc.text)
					}
					_, attempts := attemptsOf(t, res)
					var got []string
					for _, a := range attempts {
						got = append(got, strings.TrimSuffix(a.Step+":"+a.Outcome+":"+a.Why, ":"))
					}
					if !slices.Equal(got, tc.outcomes) {
						t.Errorf("attempts %q, want %q", got, tc.outcomes)
					}
					e.mu.Lock()
					defer e.mu.Unlock()
					slices.Sort(e.asked)
					want := slices.Clone(tc.declares)
					slices.Sort(want)
					if !slices.Equal(e.asked, want) {
						t.Errorf("the client was asked %q, want %q: each declared thing once", e.asked, want)
					}
					// Legacy: one round. Modern: the questions, then the
					// retry with every answer; nothing to ask, one round.
					wantRounds := int32(1)
					if era.Name == "modern" && len(tc.declares) > 0 {
						wantRounds = 2
					}
					if n := rounds.Load(); n != wantRounds {
						t.Errorf("the handler ran %d rounds, want %d", n, wantRounds)
					}
				})
			}
		}
	}
}

// The modern batch is one input_required result carrying only what the
// request declared, under one sealed state; a retry that leaves a question
// unanswered gets no_answer for it, and the answers it did bring count.
func TestAskAllModernRound(t *testing.T) {
	var rounds atomic.Int32
	s := surveyServer(t, &rounds)
	caps := map[string]any{"elicitation": map[string]any{}, "roots": map[string]any{}}
	var first struct {
		ResultType    string                    `json:"resultType"`
		InputRequests map[string]map[string]any `json:"inputRequests"`
		RequestState  string                    `json:"requestState"`
	}
	if err := json.Unmarshal(mcptest.ModernCall(t, s, surveyName, caps, nil, "", nil), &first); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(first.InputRequests))
	for k := range first.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if first.ResultType != "input_required" || !slices.Equal(keys, []string{"name", "roots"}) || first.RequestState == "" {
		t.Fatalf("first round %+v, want input_required asking name and roots (not the undeclared sampling) with a state", first)
	}
	// The retry answers the form only.
	var res mcp.CallToolResult
	raw := mcptest.ModernCall(t, s, surveyName, caps, nil, first.RequestState,
		map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}})
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	_, attempts := attemptsOf(t, &res)
	var got []string
	for _, a := range attempts {
		got = append(got, strings.TrimSuffix(a.Step+":"+a.Outcome+":"+a.Why, ":"))
	}
	want := []string{"name:used", "greeting:skipped:client_cannot_ask", "roots:failed:no_answer"}
	if mcptest.Text(&res) != "Ada" || !slices.Equal(got, want) {
		t.Errorf("retry: text %q, attempts %q; want Ada and %q (%s)", mcptest.Text(&res), got, want, raw)
	}
}
