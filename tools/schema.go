package tools

import (
	"bytes"
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
//
// require, when not nil, replaces the list of required properties: one
// struct can then give the variants different clients see (listing.go).
func schemaFor[T any](refine map[string]func(*jsonschema.Schema), require []string) (json.RawMessage, error) {
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
	if require != nil {
		for _, name := range require {
			if _, ok := s.Properties[name]; !ok {
				return nil, fmt.Errorf("schema for %T: no property %q to require", *new(T), name)
			}
		}
		s.Required = require
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("schema for %T: %w", *new(T), err)
	}
	return raw, nil
}

// hints are a tool's behaviour annotations. All four are always set,
// because mcp.NewTool pre-fills destructive and open-world, the opposite of
// what most tools here are.
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

// defineTool builds a tool whose input schema comes from In (refined, and
// with require as its required properties when not nil) and whose output
// schema comes from Out, with every annotation set explicitly.
func defineTool[In, Out any](name, title, description string, refine map[string]func(*jsonschema.Schema), require []string, h hints) (mcp.Tool, error) {
	in, err := schemaFor[In](refine, require)
	if err != nil {
		return mcp.Tool{}, err
	}
	out, err := schemaFor[Out](nil, nil)
	if err != nil {
		return mcp.Tool{}, err
	}
	return mcp.NewTool(name,
		mcp.WithToolTitle(title),
		mcp.WithDescription(description),
		rawInputSchema(in),
		mcp.WithRawOutputSchema(out),
		mcp.WithReadOnlyHintAnnotation(h.readOnly),
		mcp.WithDestructiveHintAnnotation(h.destructive),
		mcp.WithIdempotentHintAnnotation(h.idempotent),
		mcp.WithOpenWorldHintAnnotation(h.openWorld),
	), nil
}

// flightIDPattern is the shape of a flight id findBestFlight hands out;
// optionIDPattern also admits a round trip's, two flight ids joined by "_".
const (
	flightIDPattern = `[A-Za-z]{3}-[A-Za-z]{3}-[0-9]{6}-[0-9A-Za-z]{5}`
	optionIDPattern = `^` + flightIDPattern + `(_` + flightIDPattern + `)?$`
)

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

func length(min, max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(min), ptr(max) }
}

// list bounds an array of strings.
func list(max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MaxItems = ptr(max) }
}

func pattern(p string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = p }
}

func format(f string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Format = f }
}

func ptr[T any](v T) *T { return &v }

// formSchema is an elicitation form's requestedSchema: a flat object whose
// properties go on the wire in the order they are given, which is the order
// hosts show the fields in. (A Go map would be sent sorted by name, and a
// person would see Cabin, Departure date, To, From.) mcp-go encodes the
// schema with encoding/json in both eras (a 2025-11-25 elicitation/create
// request and a 2026-07-28 input request alike), so MarshalJSON decides.
type formSchema struct {
	properties []formField
	required   []string
}

// formField is one property of a form: its name and its schema (a
// primitive type and its constraints).
type formField struct {
	name   string
	schema map[string]any
}

// field returns the schema of the named property, or nil.
func (s formSchema) field(name string) map[string]any {
	for _, f := range s.properties {
		if f.name == name {
			return f.schema
		}
	}
	return nil
}

// MarshalJSON writes {"type":"object","properties":{…},"required":[…]}
// with the properties in order; required is left out when empty.
func (s formSchema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, f := range s.properties {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(f.name)
		if err != nil {
			return nil, err
		}
		schema, err := json.Marshal(f.schema)
		if err != nil {
			return nil, fmt.Errorf("form field %s: %w", f.name, err)
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(schema)
	}
	b.WriteByte('}')
	if len(s.required) > 0 {
		required, err := json.Marshal(s.required)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"required":`)
		b.Write(required)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
