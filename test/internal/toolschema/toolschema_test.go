package toolschema

import (
	"encoding/json"
	"testing"
)

const good = `{"type":"object","properties":{"className":{"type":"string"}},"required":["className"],"additionalProperties":false}`

func TestProblemsPassesAClosedObjectSchema(t *testing.T) {
	if p := Problems(json.RawMessage(good)); len(p) != 0 {
		t.Fatalf("a good schema has problems: %v", p)
	}
}

func TestProblemsCatchesWhatMCPRefuses(t *testing.T) {
	for why, bad := range map[string]string{
		"not an object schema": `{"type":"string","additionalProperties":false}`,
		"open":                 `{"type":"object","properties":{}}`,
		"undeclared required":  `{"type":"object","properties":{},"required":["x"],"additionalProperties":false}`,
		"untyped property":     `{"type":"object","properties":{"x":{}},"additionalProperties":false}`,
		"not JSON Schema":      `{"type":7}`,
		"an unresolvable $ref": `{"type":"object","properties":{"x":{"$ref":"#/nowhere"}},"additionalProperties":false}`,
	} {
		t.Run(why, func(t *testing.T) {
			if len(Problems(json.RawMessage(bad))) == 0 {
				t.Errorf("a schema that is %s passed: %s", why, bad)
			}
		})
	}
}

func TestValidateHoldsArgumentsToTheSchema(t *testing.T) {
	if err := Validate(json.RawMessage(good), map[string]any{"className": "Object"}); err != nil {
		t.Fatalf("good arguments refused: %v", err)
	}
	for why, args := range map[string]map[string]any{
		"a missing required member": {},
		"a wrong type":              {"className": 3},
		"an undeclared member":      {"className": "Object", "x": 1},
	} {
		if Validate(json.RawMessage(good), args) == nil {
			t.Errorf("arguments with %s passed: %v", why, args)
		}
	}
}
