package router

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// Each shape of error data writes its members in the order of their names, the order every
// error.data had when it was a map: a field declared out of order would change the bytes clients
// have always been sent.
func TestErrorDataWritesItsMembersInNameOrder(t *testing.T) {
	shapes := []errorData{
		kindOnly{Kind: "k"},
		numberData{Kind: "k", Number: 4065},
		limitData{Kind: "k", Limit: 3},
		limitsData{Kind: "k", Limit: 64, LimitBytes: 16 << 20},
		stopData{Ending: "ended by soft break", Kind: "k"},
		endedData{Ended: "gemDied", Kind: "k"},
		missingData{Kind: "k", Missing: []string{"a"}},
		versionData{Kind: "k", Requested: "2099-01-01", Supported: []string{"2025-11-25"}},
		capabilityData{Kind: "k", RequiredCapabilities: map[string]any{"sampling": map[string]any{}}},
		scopeData{Kind: "k", Scope: "mcp:write", Toolset: "T"},
	}
	for _, d := range shapes {
		body := errorBodyWith(json.RawMessage(`1`), -32001, "m", d)
		var env struct {
			Error struct {
				Data json.RawMessage `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &env); err != nil {
			t.Fatalf("%T: %v", d, err)
		}
		dec := json.NewDecoder(bytes.NewReader(env.Error.Data))
		_, _ = dec.Token()
		var names []string
		for dec.More() {
			name, _ := dec.Token()
			names = append(names, name.(string))
			var skip json.RawMessage
			_ = dec.Decode(&skip)
		}
		if !slices.IsSorted(names) || !slices.Contains(names, "kind") {
			t.Errorf("%T writes %s: its members must be in name order and include kind", d, env.Error.Data)
		}
		var asMap map[string]any
		_ = json.Unmarshal(env.Error.Data, &asMap)
		if again, _ := json.Marshal(asMap); !bytes.Equal(again, env.Error.Data) {
			t.Errorf("%T writes %s; the same data as a map writes %s", d, env.Error.Data, again)
		}
		if asMap["kind"] != d.errorKind() {
			t.Errorf("%T: data.kind %v, errorKind() %q", d, asMap["kind"], d.errorKind())
		}
	}
}
