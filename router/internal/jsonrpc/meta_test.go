package jsonrpc

import (
	"encoding/json"
	"testing"
)

func TestMetaValueReadsParamsMetaExactly(t *testing.T) {
	cases := []struct {
		name, params, want string
	}{
		{"present", `{"_meta":{"k":"v"}}`, `"v"`},
		{"an escaped name is that name", `{"\u005fmeta":{"\u006b":7}}`, `7`},
		{"space around the object", " \n{\"_meta\" : { \"k\" : [1, 2] } } ", `[1, 2]`},
		{"no params", ``, ``},
		{"params null", `null`, ``},
		{"params not an object", `[1]`, ``},
		{"no _meta", `{"name":"x"}`, ``},
		{"_meta not an object", `{"_meta":"k"}`, ``},
		{"no such key", `{"_meta":{"other":1}}`, ``},
		{"a key differing in case", `{"_meta":{"K":1}}`, ``},
		{"params names _meta twice", `{"_meta":{"k":1},"_meta":{"k":2}}`, ``},
		{"_meta names the key twice", `{"_meta":{"k":1,"k":2}}`, ``},
		{"the key only outside _meta", `{"k":1,"_meta":{}}`, ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(MetaValue(json.RawMessage(c.params), "k")); got != c.want {
				t.Errorf("MetaValue(%s, k) = %q, want %q", c.params, got, c.want)
			}
		})
	}
}

func TestWithMetaRewritesOnlyParamsMeta(t *testing.T) {
	set := func(meta map[string]json.RawMessage) bool {
		meta["k"] = json.RawMessage(`"v"`)
		return true
	}
	cases := []struct {
		name, raw, want string
	}{
		{"adds to _meta, keeps the rest", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1, 2],"_meta":{"x":1}}}`,
			`{"id":1,"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":"v","x":1},"a":[1,2]}}`},
		{"no params", `{"jsonrpc":"2.0","method":"m"}`, `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":"v"}}}`},
		{"params null", `{"jsonrpc":"2.0","method":"m","params":null}`, `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":"v"}}}`},
		{"_meta null", `{"jsonrpc":"2.0","method":"m","params":{"_meta":null}}`, `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":"v"}}}`},
		{"replaces the key", `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":1}}}`, `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":"v"}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Message{Raw: []byte(c.raw)}
			got, err := WithMeta(m, set)
			if err != nil {
				t.Fatalf("WithMeta(%s): %v", c.raw, err)
			}
			if string(got.Raw) != c.want {
				t.Errorf("WithMeta(%s) = %s, want %s", c.raw, got.Raw, c.want)
			}
			if want := string(MetaValue(got.Params, "k")); want != `"v"` {
				t.Errorf("the rewritten Params read k as %q, want \"v\" (Params: %s)", want, got.Params)
			}
		})
	}
}

func TestWithMetaLeavesTheMessageAsSentWhenNothingChanges(t *testing.T) {
	raw := `{"jsonrpc":"2.0", "method":"m", "params":{"_meta":{"k":1}}}`
	got, err := WithMeta(Message{Raw: []byte(raw)}, func(map[string]json.RawMessage) bool { return false })
	if err != nil || string(got.Raw) != raw {
		t.Errorf("WithMeta with an edit that changes nothing = %s, %v; want the message as sent", got.Raw, err)
	}
}

func TestWithMetaRefusesWhatItCannotReadOneWay(t *testing.T) {
	cases := []struct{ name, raw string }{
		{"params not an object", `{"jsonrpc":"2.0","method":"m","params":[1]}`},
		{"_meta not an object", `{"jsonrpc":"2.0","method":"m","params":{"_meta":7}}`},
		{"_meta given twice", `{"jsonrpc":"2.0","method":"m","params":{"_meta":{},"_meta":{}}}`},
		{"a _meta key given twice", `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"k":1,"k":2}}}`},
		{"not JSON", `{"jsonrpc":`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			called := false
			got, err := WithMeta(Message{Raw: []byte(c.raw)}, func(map[string]json.RawMessage) bool { called = true; return true })
			if err == nil || called || string(got.Raw) != c.raw {
				t.Errorf("WithMeta(%s) = %s, %v (edit called: %v); want an error, no edit and the message as sent", c.raw, got.Raw, err, called)
			}
		})
	}
}
