package mcptest

import (
	"encoding/json"
	"testing"
)

func TestKindIsTheErrorsDataKindOrNothing(t *testing.T) {
	var r RPC
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"m","data":{"kind":"sessionGone"}}}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind() != "sessionGone" || r.Error.Code != -32001 || string(r.ID) != "3" {
		t.Fatalf("decoded %+v, kind %q", r, r.Kind())
	}
	for _, body := range []string{`{"id":1,"result":{}}`, `{"id":1,"error":{"code":-32600,"message":"m"}}`} {
		var r RPC
		_ = json.Unmarshal([]byte(body), &r)
		if k := r.Kind(); k != "" {
			t.Fatalf("%s: kind %q, want none", body, k)
		}
	}
}

func TestToolCallIsAValidRequestNamingTheToolWithItsArguments(t *testing.T) {
	var req struct {
		ID     int    `json:"id"`
		Method string `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(ToolCall(7, `say "hi"`, `{"text":"x"}`)), &req); err != nil {
		t.Fatal(err)
	}
	if req.ID != 7 || req.Method != "tools/call" || req.Params.Name != `say "hi"` || req.Params.Arguments["text"] != "x" {
		t.Fatalf("decoded %+v", req)
	}
}
