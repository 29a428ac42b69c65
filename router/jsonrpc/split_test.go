package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSplitAgreesWithTheDecoder: wherever the hand split of a message's members accepts a
// valid JSON object, it reads exactly the members encoding/json's decoder reads, byte for
// byte; and the parse answers the same as with the decoder alone.
func FuzzSplitAgreesWithTheDecoder(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"h\"i}"}}}`,
		`{ "jsonrpc" : "2.0" , "id" : "a\"b" , "method" : "x" , "params" : [1,{"a":[]}] }`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":-1.5e3,"error":{"code":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"JSONRPC":"2.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","id":2}`,
		`{"jsonrpc":"2.0","\u0069d":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"\u0070ing"}`,
		`{"jsonrpc":"2.0","id":true,"method":"x","extra":{"}":"{"}}`,
		`{}`, `{"a":1,}`, `{"a" 1}`, `{"a":tru}`, `{"a":"\"}`, `{"id":1}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' {
			return
		}
		if env, ok := splitEnvelope(raw); ok && json.Valid(raw) {
			want, err := decodeEnvelope(raw)
			if err != nil {
				t.Fatalf("the split accepted what the decoder refuses (%v): %s", err, raw)
			}
			for _, p := range [][2][]byte{{env.JSONRPC, want.JSONRPC}, {env.ID, want.ID}, {env.Method, want.Method},
				{env.Params, want.Params}, {env.Result, want.Result}, {env.Error, want.Error}} {
				if !bytes.Equal(p[0], p[1]) || (p[0] == nil) != (p[1] == nil) {
					t.Fatalf("split %q, decoder %q in %s", p[0], p[1], raw)
				}
			}
		}
		got, gotErr := parseOne(raw, 0)
		var want Message
		var wantErr *Error
		if env, err := decodeEnvelope(raw); err != nil {
			wantErr = notJSONOr(err, raw, 0, "a JSON-RPC message must be an object with string "+`"jsonrpc" and "method" members`)
		} else {
			want, wantErr = classify(raw, env)
		}
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && (gotErr.Code != wantErr.Code || gotErr.Message != wantErr.Message)) {
			t.Fatalf("parse error %v, with the decoder alone %v: %s", gotErr, wantErr, raw)
		}
		if got.Kind != want.Kind || got.Method != want.Method || !bytes.Equal(got.ID, want.ID) || !bytes.Equal(got.Params, want.Params) {
			t.Fatalf("parse %+v, with the decoder alone %+v", got, want)
		}
	})
}
