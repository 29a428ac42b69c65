package router

import "testing"

// isStringOf may only say yes when decoding raw would give s: the header's value is compared
// with the JSON text of _meta's version without decoding it.
func TestIsStringOfSaysYesOnlyForTheSameStringWithoutEscapes(t *testing.T) {
	for _, c := range []struct {
		raw, s string
		want   bool
	}{
		{`"2026-07-28"`, "2026-07-28", true},
		{`"2026-07-28"`, "2025-11-25", false},
		{`"2026\u002d07-28"`, "2026-07-28", false}, // the same string, but only once decoded
		{`"a\u0041"`, `a\u0041`, false},            // equal bytes, different strings
		{`"a\"b"`, `a\"b`, false},
		{`null`, "null", false},
		{`""`, "", true},
		{`"x`, "x", false},
	} {
		if got := isStringOf([]byte(c.raw), c.s); got != c.want {
			t.Errorf("isStringOf(%s, %q) = %v, want %v", c.raw, c.s, got, c.want)
		}
	}
}
