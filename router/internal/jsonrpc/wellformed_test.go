package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

// wellFormed must say of every body what encoding/json.Valid says: the front end refuses with
// -32700 exactly what the Go code behind it could not read.
func TestWellFormedAnswersAsEncodingJSON(t *testing.T) {
	cases := []string{
		``, ` `, `{}`, `[]`, ` {} `, `{}x`, `{} {}`, `{`, `}`, `[`, `]`, `{]`, `[}`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`,
		`{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `{"a":1 "b":2}`, `{"a":1,"b":[true,false,null]}`,
		`"x"`, `"`, `"\"`, `"\\"`, `"\/\b\f\n\r\t"`, `"\u00e9\uD83D\uDE00"`, `"\u00g0"`, `"\u12"`, `"\x"`, `"a` + "\x01" + `b"`,
		`"a` + "\x7f\xff\xfe" + `b"`, "\xff", `"tab` + "\t" + `"`,
		`true`, `false`, `null`, `tru`, `truex`, `nul`, `nulll`, `True`, `[true false]`,
		`0`, `-0`, `01`, `-`, `-a`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-1.5e-10`, `0.0e0`, `1.e5`, `+1`, `0x10`,
		"\t\r\n[1]\n", "[1]\x00", `[[[[]]]]`, `[[[[]]]`, `{"a":{"b":{"c":[{}]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"session":"h","text":"w3 h\u00e9llo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	}
	for _, depth := range []int{maxNesting - 1, maxNesting, maxNesting + 1} {
		cases = append(cases, strings.Repeat("[", depth)+strings.Repeat("]", depth),
			strings.Repeat(`{"a":`, depth-1)+"{}"+strings.Repeat("}", depth-1))
	}
	for _, c := range cases {
		if got, want := wellFormed([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("wellFormed(%.80q) = %v, encoding/json.Valid says %v", c, got, want)
		}
	}
}

func FuzzWellFormedAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\u00e9\n",true,false,null,{}]}`, `[01]`, `"\ud800"`, `{"a":1,}`, ` [ ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := wellFormed(b), json.Valid(b); got != want {
			t.Errorf("wellFormed(%q) = %v, encoding/json.Valid says %v", b, got, want)
		}
	})
}
