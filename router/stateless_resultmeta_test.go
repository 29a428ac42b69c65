package router

import (
	"encoding/json"
	"testing"
)

func TestStampResultAddsOnlyWhatIsMissingAndKeepsTheResult(t *testing.T) {
	for _, c := range []struct {
		method, reply string
		want          map[string]any
	}{
		{"tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"say \"resultType\""}]}}`,
			map[string]any{"resultType": "complete"}},
		{"tools/call", `{"id":"result","jsonrpc":"2.0","note":{"result":[1,"}"]},"result":{"content":[]}}`,
			map[string]any{"resultType": "complete"}},
		{"tools/list", `{"id":"x","jsonrpc":"2.0","result":{}}`,
			map[string]any{"resultType": "complete", "ttlMs": float64(0), "cacheScope": "private"}},
		{"tools/list", `{"jsonrpc":"2.0","id":2,"result":{"tools":[],"ttlMs":5000,"resultType":"complete"}}`,
			map[string]any{"resultType": "complete", "ttlMs": float64(5000), "cacheScope": "private"}},
	} {
		out := stampResult(c.method, []byte(c.reply))
		var got struct {
			ID     any            `json:"id"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: stamped %s is not JSON: %v", c.reply, out, err)
		}
		for k, v := range c.want {
			if got.Result[k] != v {
				t.Errorf("%s: result.%s = %v, want %v (stamped %s)", c.reply, k, got.Result[k], v, out)
			}
		}
		if got.ID == nil {
			t.Errorf("%s: the id was lost: %s", c.reply, out)
		}
	}
	for _, reply := range []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, `not json`, `{"jsonrpc":"2.0","id":1,"result":[1]}`} {
		if out := stampResult("tools/list", []byte(reply)); string(out) != reply {
			t.Errorf("%s was changed to %s", reply, out)
		}
	}
	statusOf := func(reply string) int {
		_, code := stampReply("tools/call", []byte(reply))
		return statelessStatus(code)
	}
	if statusOf(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`) != 404 ||
		statusOf(`{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"no"}}`) != 400 ||
		statusOf(`{"jsonrpc":"2.0","id":1,"result":{}}`) != 200 {
		t.Error("stampReply and statelessStatus do not map -32601 to 404, -32021 to 400, a result to 200")
	}
}
