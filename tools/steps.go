package tools

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/ranking"
)

// A step is declared once, here: every decision a call of these tools can
// record, in ladder order. Everything that names steps reads this list:
//
//   - Steps, the values of the rung label on
//     flightserver_rung_attempts_total and of attempts[].step (the
//     deployment's contract test holds the dashboards and alerts to it);
//   - the output schemas' descriptions of attempts[].step and
//     attempts[].answer, findBestFlight's strategy (its values and what
//     each means) and method, and the server's instructions;
//   - the single-rung strategies of the ranking ladder (rungsFor);
//   - the results view's labels (web/src/steps.js, written from this list
//     by TestViewStepLabels) and the table in docs/FALLBACKS.md (checked
//     by TestFallbacksDocListsSteps).
//
// So a new rung of the ranking ladder is the rung and one entry.
type declaredStep struct {
	// name is the step: attempts[].step, the metrics' rung label and, for a
	// rung that ranks, the result's method (ranking.Ranking.Method).
	name string
	// tool is the tool that records it, and about what it decides.
	tool, about string
	// label names it for people in the results view, beside the name.
	label string
	// rung, for a rung of the ranking ladder, is that rung on a toolset;
	// nil for the other tools' steps.
	rung func(*Toolset) ladderRung
	// method says what the result's method means when this rung ranked.
	method string
	// strategy, when set, is the value of findBestFlight's strategy that
	// ranks with this rung alone, and strategyDoc what it means there.
	strategy    Strategy
	strategyDoc string
	// instructed, when set, is what the server's instructions say of this
	// method beside its name, for a method a host's model must not mistake
	// for a ranking.
	instructed string
}

// steps is every step the tools record.
var steps = []declaredStep{
	{name: string(ranking.ClientSampling), tool: FindBestFlightName, about: "ranks with the client's model, through sampling", label: "your assistant's model (sampling)",
		rung: func(t *Toolset) ladderRung { return samplingRung{t} }, method: "the client's LLM",
		strategy: StrategySampling, strategyDoc: "your client's LLM only"},
	{name: string(ranking.ServerLLMTier), tool: FindBestFlightName, about: "ranks with the server's own OpenAI-compatible endpoint", label: "the server's LLM",
		rung: func(t *Toolset) ladderRung { return serverLLMRung{t} }, method: "the server's LLM",
		strategy: StrategyServerLLM, strategyDoc: "the server's own LLM only"},
	{name: string(ranking.Deterministic), tool: FindBestFlightName, about: "ranks by a score of fare, stops and time; always ranks", label: "deterministic score",
		rung: func(t *Toolset) ladderRung { return deterministicRung{t, ""} }, method: "price + stops + duration",
		strategy: StrategyDeterministic, strategyDoc: "price + stops + duration"},
	{name: string(ranking.Candidates), tool: FindBestFlightName, about: "returns a shortlist, unranked, for the host's model; always answers", label: "shortlist for your assistant",
		rung: func(t *Toolset) ladderRung { return candidatesRung{t, ""} }, method: "a shortlist, not a ranking",
		strategy: StrategyCandidates, strategyDoc: "a shortlist for you to choose from with the user",
		instructed: "an unranked shortlist for you to choose from with the user"},
	{name: stepTrip, tool: FindBestFlightName, about: "asks the user for a missing origin, destination or date, in a form"},
	{name: stepConfirmForm, tool: BookFlightName, about: "asks the user to confirm the booking, in a form"},
	{name: stepConfirmArgs, tool: BookFlightName, about: "takes the confirmation from the call's arguments (confirm: true, passengerName)"},
	{name: stepRoots, tool: SaveItineraryName, about: "writes inside a directory the client shares (roots)"},
	{name: stepExportDir, tool: SaveItineraryName, about: "writes inside the operator's --export-dir"},
	{name: stepView, tool: FindBestFlightName, about: "shows the result in the results view, for a host that renders MCP Apps"},
}

// Steps is every step a call can record, in ladder order: the values of
// the rung label on flightserver_rung_attempts_total and of attempts[].step
// in results. Dashboards and alerts may name these and no others.
var Steps = func() []string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.name
	}
	return names
}()

// rankers are the steps that are rungs of the ranking ladder, in order.
func rankers() []declaredStep {
	var out []declaredStep
	for _, s := range steps {
		if s.rung != nil {
			out = append(out, s)
		}
	}
	return out
}

// strategies are the values findBestFlight's strategy accepts: auto, then
// each rung that may rank alone.
var strategies = func() []Strategy {
	out := []Strategy{Auto}
	for _, s := range rankers() {
		if s.strategy != "" {
			out = append(out, s.strategy)
		}
	}
	return out
}()

// stepFor is the step a single-rung strategy ranks with.
func stepFor(strategy Strategy) (declaredStep, bool) {
	// steps itself, not rankers(): every call asks, and rankers copies.
	for i := range steps {
		if steps[i].rung != nil && steps[i].strategy == strategy {
			return steps[i], true
		}
	}
	return declaredStep{}, false
}

// strategyDescription is findBestFlight's strategy in words: each value and
// what it means.
func strategyDescription() string {
	parts := []string{string(Auto) + " (default: the best method available, falling back in order)"}
	for _, s := range rankers() {
		if s.strategy != "" {
			parts = append(parts, fmt.Sprintf("%s (%s)", s.strategy, s.strategyDoc))
		}
	}
	return "how to rank: " + strings.Join(parts, ", ")
}

// methodDescription is findBestFlight's method in words: each rung that may
// have ranked, and what its ranking is.
func methodDescription() string {
	var parts []string
	for _, s := range rankers() {
		parts = append(parts, fmt.Sprintf("%s (%s)", s.name, s.method))
	}
	return "how the flights were chosen: " + orList(parts, " or ")
}

// instructedMethods are the methods as the server's instructions list them.
func instructedMethods() string {
	var parts []string
	for _, s := range rankers() {
		if s.instructed != "" {
			parts = append(parts, s.name+": "+s.instructed)
		} else {
			parts = append(parts, s.name)
		}
	}
	return orList(parts, ", or ")
}

// orList joins parts with commas, and the last with last.
func orList(parts []string, last string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + last + parts[len(parts)-1]
}

// withAttempts refines a result's "attempts" with this server's words:
// which steps there are and which rungs ask a model, offered the answer
// tool.
var withAttempts = map[string]func(*jsonschema.Schema){"attempts": func(s *jsonschema.Schema) {
	item := s.Items.Properties
	item["step"].Description = "the rung this decision is about, e.g. " + strings.Join(Steps, ", ")
	var asking []string
	for _, r := range rankers() {
		if r.rung(nil).AsksModel() {
			asking = append(asking, r.name)
		}
	}
	item["answer"].Description = fmt.Sprintf("for a rung that asked a model and got an answer (%s): how the answer came, "+
		"structured (the model called the %s tool it was offered, because the client declared sampling.tools) or text (what the model wrote, read leniently)",
		strings.Join(asking, ", "), ranking.AnswerTool)
}}

// findOutput refines findBestFlight's result: its attempts, and which
// methods there are.
func findOutput() map[string]func(*jsonschema.Schema) {
	return map[string]func(*jsonschema.Schema){
		"attempts": withAttempts["attempts"],
		"method":   func(s *jsonschema.Schema) { s.Description = methodDescription() },
	}
}

// strategyRefinement is the strategy argument's values and their meaning.
func strategyRefinement(s *jsonschema.Schema) {
	fallback.Enum(strategies...)(s)
	s.Description = strategyDescription()
}
