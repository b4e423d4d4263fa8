package fallback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// SchemaFor derives a JSON schema from a Go struct (names, types, required
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
// struct can then give the variants different clients see (tools/listing.go).
func SchemaFor[T any](refine map[string]func(*jsonschema.Schema), require []string) (json.RawMessage, error) {
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

// Hints are a tool's behaviour annotations. All four are always set,
// because mcp.NewTool pre-fills destructive and open-world, the opposite of
// what most tools here are.
type Hints struct{ ReadOnly, Destructive, Idempotent, OpenWorld bool }

// Definition is what DefineTool builds a tool from.
type Definition struct {
	Name, Title, Description string
	// Refine and Require shape the input schema, as in SchemaFor.
	Refine  map[string]func(*jsonschema.Schema)
	Require []string
	// RefineOutput refines the output schema's properties: a tool that
	// returns attempts names its own steps there.
	RefineOutput map[string]func(*jsonschema.Schema)
	Hints        Hints
}

// DefineTool builds a tool whose input schema comes from In and whose
// output schema comes from Out, each refined as d says, with every
// annotation set explicitly.
//
// In must also be a struct DecodeArguments can read, so that a tool whose
// arguments cannot be read fails here, when the server starts, and not on a
// client's call.
func DefineTool[In, Out any](d Definition) (mcp.Tool, error) {
	if _, err := planFor(reflect.TypeFor[In]()); err != nil {
		return mcp.Tool{}, fmt.Errorf("tool %s: %w", d.Name, err)
	}
	in, err := SchemaFor[In](d.Refine, d.Require)
	if err != nil {
		return mcp.Tool{}, err
	}
	out, err := SchemaFor[Out](d.RefineOutput, nil)
	if err != nil {
		return mcp.Tool{}, err
	}
	h := d.Hints
	return mcp.NewTool(d.Name,
		mcp.WithToolTitle(d.Title),
		mcp.WithDescription(d.Description),
		rawInputSchema(in),
		mcp.WithRawOutputSchema(out),
		mcp.WithReadOnlyHintAnnotation(h.ReadOnly),
		mcp.WithDestructiveHintAnnotation(h.Destructive),
		mcp.WithIdempotentHintAnnotation(h.Idempotent),
		mcp.WithOpenWorldHintAnnotation(h.OpenWorld),
	), nil
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

// Refinements for SchemaFor and DefineTool: the constraints struct tags
// cannot say.

// Integer is a whole number in [min, max].
func Integer(min, max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Type, s.Types = "integer", nil
		s.Minimum, s.Maximum = ptr(float64(min)), ptr(float64(max))
	}
}

// PositiveNumber is a number above zero.
func PositiveNumber(s *jsonschema.Schema) {
	s.Type, s.Types = "number", nil
	s.ExclusiveMinimum = ptr(0.0)
}

// Enum is one of values.
func Enum[T ~string](values ...T) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Enum = make([]any, len(values))
		for i, v := range values {
			s.Enum[i] = string(v)
		}
	}
}

// Length bounds a string's length.
func Length(min, max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(min), ptr(max) }
}

// List bounds an array of strings.
func List(max int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MaxItems = ptr(max) }
}

// Pattern is a string matching the regular expression p.
func Pattern(p string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = p }
}

// Format is a string of the JSON Schema format f ("date").
func Format(f string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Format = f }
}

func ptr[T any](v T) *T { return &v }

// FormSchema is an elicitation form's requestedSchema: a flat object whose
// properties go on the wire in the order they are given, which is the order
// hosts show the fields in. (A Go map would be sent sorted by name, and a
// person would see Cabin, Departure date, To, From.) mcp-go encodes the
// schema with encoding/json in both eras (a 2025-11-25 elicitation/create
// request and a 2026-07-28 input request alike), so MarshalJSON decides.
type FormSchema struct {
	Properties []FormField
	Required   []string
}

// FormField is one property of a form: its name and its schema (a
// primitive type and its constraints).
type FormField struct {
	Name   string
	Schema map[string]any
}

// Field returns the schema of the named property, or nil.
func (s FormSchema) Field(name string) map[string]any {
	for _, f := range s.Properties {
		if f.Name == name {
			return f.Schema
		}
	}
	return nil
}

// MarshalJSON writes {"type":"object","properties":{…},"required":[…]}
// with the properties in order; required is left out when empty.
func (s FormSchema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, f := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		schema, err := json.Marshal(f.Schema)
		if err != nil {
			return nil, fmt.Errorf("form field %s: %w", f.Name, err)
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(schema)
	}
	b.WriteByte('}')
	if len(s.Required) > 0 {
		required, err := json.Marshal(s.Required)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"required":`)
		b.Write(required)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
