package fallback_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/fallback/state"
)

// words is a job of words to pick from; a picker rung picks the first.
type words []string

func (w words) Empty() string {
	if len(w) == 0 {
		return "no word was given"
	}
	return ""
}

// picker is a rung whose every property a test sets.
type picker struct {
	step        string
	unavailable fallback.Why
	asksModel   bool
	waits       bool
	fails       bool // tried, nothing usable
	ran         *int
}

func (p picker) Step() string { return p.step }
func (p picker) Unavailable(*fallback.Call) (fallback.Why, string) {
	if p.unavailable != "" {
		return p.unavailable, "set by the test"
	}
	return "", ""
}
func (p picker) AsksModel() bool           { return p.asksModel }
func (p picker) Waits(*fallback.Call) bool { return p.waits }
func (p picker) Run(_ context.Context, _ *fallback.Call, job words) fallback.Reached[string] {
	*p.ran++
	if p.fails {
		return fallback.Reached[string]{Attempt: fallback.FailedFor(p.step, fallback.UnusableAnswer, "nothing usable", 0)}
	}
	picked := ""
	if len(job) > 0 {
		picked = job[0]
	}
	return fallback.Reached[string]{Result: &picked, Attempt: fallback.UsedBy(p.step, "picked the first", 0)}
}

// walk runs a ladder inside a real call (a legacy one, with no client
// behind it) with the given budget, and returns what Walk returned and the
// attempts the call recorded.
func walk(t *testing.T, budget time.Duration, rungs []fallback.Rung[words, string], job words) (*string, []fallback.Attempt) {
	t.Helper()
	sealer, err := state.New([]byte("0123456789abcdef0123456789abcdef"), nil, time.Minute, 4096)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := fallback.New(fallback.Config{Sealer: sealer, Logger: zerolog.Nop(), CallBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	var got *string
	var attempts []fallback.Attempt
	handle := fallback.Serve(engine, fallback.Spec[struct{}]{Name: "pick",
		Handle: func(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
			var pending *mcp.CallToolResult
			got, pending = fallback.Walk(ctx, c, rungs, job)
			if pending != nil {
				t.Errorf("a legacy call without questions got a pending result")
			}
			attempts = c.Attempts()
			return mcp.NewToolResultText("done")
		}})
	if _, err := handle(context.Background(), mcp.CallToolRequest{}); err != nil {
		t.Fatal(err)
	}
	return got, attempts
}

// The rules every rung shares, once, in Walk: the operator's settings and
// what the call cannot do skip a rung; a model rung is skipped when there
// is nothing to show it, a waiting rung when there is no time; a failed
// rung lets the next one run; the first to rank ends the ladder; a rung
// that always answers still ends it on an empty job, recorded as skipped.
func TestWalkAppliesTheSharedRules(t *testing.T) {
	type want struct {
		step    string
		outcome fallback.Outcome
		why     fallback.Why
	}
	for _, tc := range []struct {
		name   string
		budget time.Duration
		job    words
		rungs  []picker
		picked string // "" with none: no rung ranked
		none   bool
		want   []want
		ran    []int
	}{
		{
			name: "turned off, not configured, not declared, failed, then used", budget: 10 * time.Second, job: words{"a", "b"},
			rungs: []picker{{step: "off", unavailable: fallback.TurnedOff}, {step: "unset", unavailable: fallback.NotConfigured},
				{step: "undeclared", unavailable: fallback.ClientCannotAsk}, {step: "bad", fails: true}, {step: "good"}, {step: "never"}},
			picked: "a",
			want: []want{{"off", fallback.Skipped, fallback.TurnedOff}, {"unset", fallback.Skipped, fallback.NotConfigured},
				{"undeclared", fallback.Skipped, fallback.ClientCannotAsk}, {"bad", fallback.Failed, fallback.UnusableAnswer}, {"good", fallback.Used, ""}},
			ran: []int{0, 0, 0, 1, 1, 0},
		},
		{
			name: "nothing to show a model, and the last rung answers with nothing", budget: 10 * time.Second, job: nil,
			rungs:  []picker{{step: "model", asksModel: true}, {step: "score"}},
			picked: "",
			want:   []want{{"model", fallback.Skipped, fallback.NoCandidates}, {"score", fallback.Skipped, fallback.NoCandidates}},
			ran:    []int{0, 1},
		},
		{
			name: "no time to wait", budget: 100 * time.Millisecond, job: words{"a"},
			rungs:  []picker{{step: "slow", waits: true}, {step: "fast"}},
			picked: "a",
			want:   []want{{"slow", fallback.Skipped, fallback.NoTime}, {"fast", fallback.Used, ""}},
			ran:    []int{0, 1},
		},
		{
			name: "no rung ranks", budget: 10 * time.Second, job: words{"a"},
			rungs: []picker{{step: "bad", fails: true}},
			none:  true,
			want:  []want{{"bad", fallback.Failed, fallback.UnusableAnswer}},
			ran:   []int{1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := make([]int, len(tc.rungs))
			rungs := make([]fallback.Rung[words, string], len(tc.rungs))
			for i, p := range tc.rungs {
				p.ran = &ran[i]
				rungs[i] = p
			}
			got, attempts := walk(t, tc.budget, rungs, tc.job)
			switch {
			case tc.none && got != nil:
				t.Errorf("ranked %q, want no rung to rank", *got)
			case !tc.none && (got == nil || *got != tc.picked):
				t.Errorf("ranked %v, want %q", got, tc.picked)
			}
			if len(attempts) != len(tc.want) {
				t.Fatalf("attempts %+v, want %+v", attempts, tc.want)
			}
			for i, w := range tc.want {
				if a := attempts[i]; a.Step != w.step || a.Outcome != w.outcome || a.Why != w.why || (a.Outcome != fallback.Used && a.Reason == "") {
					t.Errorf("attempt %d = %+v, want %+v with a reason", i, a, w)
				}
			}
			for i, n := range tc.ran {
				if ran[i] != n {
					t.Errorf("rung %s ran %d times, want %d", tc.rungs[i].step, ran[i], n)
				}
			}
		})
	}
}
