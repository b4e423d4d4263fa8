package tools

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// schemaFor derives a JSON schema from a Go struct (names, types, required
// fields and descriptions come from the struct and its tags) and then lets
// the caller add the constraints struct tags cannot say: enums, bounds,
// formats. The struct stays the single source of the argument names; the
// refinements sit next to the tool that needs them.
//
// mcp.WithInputSchema[T] would do the first half, but its tags cannot carry
// minimum/maximum/format, and a schema that tells a model the accepted range
// up front saves a failed call.
func schemaFor[T any](refine map[string]func(*jsonschema.Schema)) (json.RawMessage, error) {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{})
	if err != nil {
		return nil, fmt.Errorf("schema for %T: %w", *new(T), err)
	}
	for name, f := range refine {
		p, ok := s.Properties[name]
		if !ok {
			return nil, fmt.Errorf("schema for %T: no property %q to refine", *new(T), name)
		}
		f(p)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("schema for %T: %w", *new(T), err)
	}
	return raw, nil
}

// rawInputSchema sets a derived input schema. mcp.WithRawInputSchema keeps
// the object schema mcp.NewTool pre-fills, and mcp-go then refuses to list a
// tool that has both.
func rawInputSchema(raw json.RawMessage) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.InputSchema = mcp.ToolInputSchema{}
		t.RawInputSchema = raw
	}
}

// Refinements used by the tools' schemas.

func integer(min, max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Type, s.Types = "integer", nil
		s.Minimum, s.Maximum = ptr(float64(min)), ptr(float64(max))
	}
}

func positiveNumber(s *jsonschema.Schema) {
	s.Type, s.Types = "number", nil
	s.ExclusiveMinimum = ptr(0.0)
}

func enum[T ~string](values ...T) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Enum = make([]any, len(values))
		for i, v := range values {
			s.Enum[i] = string(v)
		}
	}
}

func pattern(p string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = p }
}

func format(f string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Format = f }
}

func all(fs ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, f := range fs {
			f(s)
		}
	}
}

func ptr[T any](v T) *T { return &v }
