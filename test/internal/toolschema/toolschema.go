// Package toolschema holds an MCP tool's inputSchema to JSON Schema and to what MCP asks of a
// tool's input: the end-to-end and client tests check every schema a server lists with it.
package toolschema

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// Problems answers what is wrong with an inputSchema, nothing when all holds: it must decode
// and resolve as a JSON Schema, be an object schema, be closed (additionalProperties false),
// declare every required member as a property, give every property a type, and refuse an
// undeclared member when used to validate.
func Problems(raw json.RawMessage) []string {
	resolved, err := Compile(raw)
	if err != nil {
		return []string{err.Error()}
	}
	schema := resolved.Schema()
	var problems []string
	if schema.Type != "object" {
		problems = append(problems, fmt.Sprintf("type %q, want object", schema.Type))
	}
	var members map[string]json.RawMessage
	_ = json.Unmarshal(raw, &members)
	if string(members["additionalProperties"]) != "false" {
		problems = append(problems, fmt.Sprintf("not closed (additionalProperties %s)", members["additionalProperties"]))
	}
	for _, name := range schema.Required {
		if _, ok := schema.Properties[name]; !ok {
			problems = append(problems, fmt.Sprintf("required %q is not a declared property", name))
		}
	}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if prop := schema.Properties[name]; prop.Type == "" && len(prop.Types) == 0 {
			problems = append(problems, fmt.Sprintf("property %q has no type", name))
		}
	}
	if resolved.Validate(map[string]any{"mcpUndeclaredMember": true}) == nil {
		problems = append(problems, "accepts an undeclared member")
	}
	return problems
}

// Compile decodes and resolves a schema (an input or an output schema) as JSON Schema.
func Compile(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("not a JSON Schema: %w", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("does not resolve as a JSON Schema: %w", err)
	}
	return resolved, nil
}

// Validate holds arguments to an inputSchema, as a client would before sending them.
func Validate(raw json.RawMessage, args map[string]any) error {
	resolved, err := Compile(raw)
	if err != nil {
		return err
	}
	return resolved.Validate(args)
}
