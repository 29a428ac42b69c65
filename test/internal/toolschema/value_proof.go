//go:build proof

package toolschema

import "encoding/json"

// ValidateValue holds any decoded JSON value (a tool's structuredContent) to a schema.
func ValidateValue(raw json.RawMessage, value any) error {
	resolved, err := Compile(raw)
	if err != nil {
		return err
	}
	return resolved.Validate(value)
}
