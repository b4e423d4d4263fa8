package fallback_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/flightserver/flightserver/fallback"
)

type greetArgs struct {
	Name  string `json:"name" jsonschema:"who to greet"`
	Times *int   `json:"times,omitempty"`
}

type greetResult struct {
	Text string `json:"text"`
}

// A form's fields go on the wire in the order given, the order a host
// shows them in, not sorted by name; required is left out when empty.
func TestFormSchemaKeepsFieldOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		form fallback.FormSchema
		want string
	}{
		{"in order, with required", fallback.FormSchema{Properties: []fallback.FormField{
			{Name: "to", Schema: map[string]any{"type": "string"}}, {Name: "from", Schema: map[string]any{"type": "string"}}},
			Required: []string{"to"}},
			`{"type":"object","properties":{"to":{"type":"string"},"from":{"type":"string"}},"required":["to"]}`},
		{"nothing required", fallback.FormSchema{Properties: []fallback.FormField{{Name: "b", Schema: map[string]any{"type": "boolean"}}}},
			`{"type":"object","properties":{"b":{"type":"boolean"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.form)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}

// A tool's schemas come from its Go types, refined where tags cannot say
// enough; a refinement or a requirement naming no property is an error,
// not a silently looser schema; every annotation is set.
func TestDefineTool(t *testing.T) {
	tool, err := fallback.DefineTool[greetArgs, greetResult](fallback.Definition{Name: "greet", Title: "Greet", Description: "Greets someone.",
		Refine:       map[string]func(*jsonschema.Schema){"name": fallback.Length(1, 40), "times": fallback.Integer(1, 3)},
		Require:      []string{"name"},
		RefineOutput: map[string]func(*jsonschema.Schema){"text": func(s *jsonschema.Schema) { s.Description = "the greeting" }},
		Hints:        fallback.Hints{ReadOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	in := string(tool.RawInputSchema)
	for _, want := range []string{`"maxLength":40`, `"minimum":1`, `"maximum":3`, `"required":["name"]`, `"who to greet"`} {
		if !strings.Contains(in, want) {
			t.Errorf("input schema %s lacks %s", in, want)
		}
	}
	if out := string(tool.RawOutputSchema); !strings.Contains(out, `"the greeting"`) {
		t.Errorf("output schema %s lacks its refinement", out)
	}
	a := tool.Annotations
	if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.IdempotentHint == nil {
		t.Errorf("annotations %+v: want every hint set, read-only and nothing else", a)
	}
	for name, d := range map[string]fallback.Definition{
		"a refinement of no input property":  {Refine: map[string]func(*jsonschema.Schema){"nmae": fallback.Length(1, 2)}},
		"a requirement of no input property": {Require: []string{"nmae"}},
		"a refinement of no output property": {RefineOutput: map[string]func(*jsonschema.Schema){"txet": fallback.Length(1, 2)}},
	} {
		d.Name = "greet"
		if _, err := fallback.DefineTool[greetArgs, greetResult](d); err == nil {
			t.Errorf("%s was accepted", name)
		}
	}
}
