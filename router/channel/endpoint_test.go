package channel

import (
	"encoding/json"
	"testing"
)

// A worker echoes a call's id through its own JSON writer; every spelling of the same value
// must find the call, and different values must not.
func TestCallKeyMatchesAnIDByValue(t *testing.T) {
	same := [][]string{
		{`7`, `7.0`, `7e0`, `70e-1`},
		{`-12`, `-12.0`, `-1.2e1`},
		{`10000001`, `10000001.0`, `1.0000001e7`},
		{`123456789012345`, `1.23456789012345e14`},
		{`"a"`, `"\u0061"`},
	}
	var keys []string
	for _, spellings := range same {
		want := callKey(json.RawMessage(spellings[0]))
		for _, s := range spellings[1:] {
			if got := callKey(json.RawMessage(s)); got != want {
				t.Errorf("id %s keyed %q, id %s %q: the same value", s, got, spellings[0], want)
			}
		}
		keys = append(keys, want)
	}
	keys = append(keys, callKey(json.RawMessage(`8`)), callKey(json.RawMessage(`"7"`)), callKey(json.RawMessage(`1234567890123456`)))
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("two different ids share the key %q", k)
		}
		seen[k] = true
	}
}
