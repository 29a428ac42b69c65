package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// tokenMembers is a second reading of an object's top-level members, by encoding/json's
// tokenizer (names decoded exactly, no case folding): the reference eachMember must agree with.
func tokenMembers(raw []byte) (names []string, values [][]byte, dup bool, ok bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false, false
	}
	seen := map[string]bool{}
	for d.More() {
		tok, err := d.Token()
		name, isName := tok.(string)
		if err != nil || !isName {
			return nil, nil, false, false
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return nil, nil, false, false
		}
		if seen[name] {
			return names, values, true, true
		}
		seen[name] = true
		names, values = append(names, name), append(values, v)
	}
	return names, values, false, true
}

// FuzzMembersAgreeWithTheTokenizer: on every valid JSON object, the hand split reads the
// same names and value bytes (the body is valid UTF-8, which Parse checks first) as encoding/json's tokenizer, and finds a duplicate exactly
// when there is one.
func FuzzMembersAgreeWithTheTokenizer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"h\"i}"}}}`,
		`{ "jsonrpc" : "2.0" , "id" : "a\"b" , "method" : "x" , "params" : [1,{"a":[]}] }`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"JSONRPC":"2.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","id":2}`,
		`{"jsonrpc":"2.0","\u0069d":1,"method":"x","id":3}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
		`{}`, `{"a":1,}`, `{"id":1}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) || !utf8.Valid(raw) { // Parse refuses bad UTF-8 first
			return
		}
		wantNames, wantValues, wantDup, wantOK := tokenMembers(raw)
		var names []string
		var values [][]byte
		dup, ok := eachMember(raw, func(n, v []byte) { names, values = append(names, string(n)), append(values, v) })
		if ok != wantOK || (dup != nil) != wantDup {
			t.Fatalf("split ok=%v dup=%q, tokenizer ok=%v dup=%v: %s", ok, dup, wantOK, wantDup, raw)
		}
		if len(names) != len(wantNames) {
			t.Fatalf("split %q, tokenizer %q: %s", names, wantNames, raw)
		}
		for i := range names {
			if names[i] != wantNames[i] || !bytes.Equal(values[i], wantValues[i]) {
				t.Fatalf("member %d: split %q=%s, tokenizer %q=%s", i, names[i], values[i], wantNames[i], wantValues[i])
			}
		}
	})
}
