package jsonrpc

import "testing"

func TestErrorKindReadsTheErrorsDataOnly(t *testing.T) {
	cases := []struct {
		raw, kind, value string
	}{
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x","data":{"kind":"toolNotGranted","toolset":"T"}}}`, "toolNotGranted", "T"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x","data":{"kind":"other"}}}`, "other", ""},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}`, "", ""},
		// A result that happens to hold the same members is a tool's business, not an error.
		{`{"jsonrpc":"2.0","id":1,"result":{"data":{"kind":"toolNotGranted","toolset":"T"}}}`, "", ""},
		{`not json`, "", ""},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","data":{"kind":7,"toolset":["T"]}}}`, "", ""},
	}
	for _, c := range cases {
		kind, value := ErrorKind([]byte(c.raw), "toolset")
		if kind != c.kind || value != c.value {
			t.Errorf("ErrorKind(%s) = %q, %q; want %q, %q", c.raw, kind, value, c.kind, c.value)
		}
	}
}
