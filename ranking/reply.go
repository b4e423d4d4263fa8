package ranking

import (
	"fmt"

	"github.com/flightserver/flightserver/ranking/answer"
)

// Reply is what a model answered to a Prompt, whoever asked it: the
// client's model through sampling, or the server's own LLM. Both LLM rungs
// end in FromReply, so an answer counts, or does not, for the same reasons
// whichever model wrote it.
type Reply struct {
	// Text is the answer as the model wrote it: untrusted.
	Text string
	// Inputs, when the model answered by calling the answer tool
	// (AnswerTool) instead of writing, are the inputs of its calls in the
	// order it made them, as decoded JSON: untrusted. Text is then not read.
	Inputs []any
	// Model is the model that answered, as its side reports it (cleaned by
	// the caller); empty when nobody said.
	Model string
	// CutOff says the answer stopped at its token limit, which explains a
	// truncated JSON object better than "not the object asked for".
	CutOff bool
}

// read reads the reply's picks among the options ids: the answer tool's
// inputs when the model called it, else the text.
func (r Reply) read(ids []string) ([]answer.Pick, error) {
	if r.Inputs != nil {
		return answer.ParseInputs(r.Inputs, ids)
	}
	return answer.Parse(r.Text, ids)
}

// AnswerTool is the name of the one tool a model may be offered to answer
// with (MCP sampling with tools): calling it is the answer, and its input
// schema is AnswerSchema, the contract the prompt states and the server's
// LLM is asked to follow.
const AnswerTool = "submit_ranking"

// AnswerToolDescription tells a model what the answer tool is for.
const AnswerToolDescription = "Submit your ranking: up to three flights from the data, best first, each by its id exactly as given with a reason of under 15 words. Call this once; it is your whole answer."

// AnswerSchema is the answer contract of the system prompt as a strict JSON
// schema, for endpoints that can be asked to follow one (OpenAI's
// response_format). Strict mode needs every property required and no others
// allowed. answer.Parse reads the same object from plain text just as well:
// the schema only makes a well-formed answer more likely.
func AnswerSchema() map[string]any {
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"picks"},
		"properties": map[string]any{
			"picks": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type":                 "object",
					"additionalProperties": false,
					"required":             []string{"id", "reason"},
					"properties": map[string]any{
						"id":     map[string]any{"type": "string"},
						"reason": map[string]any{"type": "string"},
					},
				},
			},
		},
	}
}

// RankedBy says, in the words every result uses, which model ranked how
// many candidates: "the client's model (haiku) ranked the 47 candidates".
func RankedBy(who string, r Ranking) string {
	noun := "candidates"
	if r.Considered == 1 {
		noun = "candidate"
	}
	if r.Model != "" {
		return fmt.Sprintf("%s (%s) ranked the %d %s", who, r.Model, r.Considered, noun)
	}
	return fmt.Sprintf("%s ranked the %d %s", who, r.Considered, noun)
}
