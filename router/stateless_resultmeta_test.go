package router

import (
	"encoding/json"
	"strconv"
	"testing"
)

func TestStampResultAddsOnlyWhatIsMissing(t *testing.T) {
	for _, c := range []struct {
		name, method, reply string
		want                map[string]any
	}{
		{"resultType named in a text", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"say \"resultType\""}]}}`,
			map[string]any{"resultType": "complete"}},
		{"result named by another member", "tools/call", `{"id":"result","jsonrpc":"2.0","note":{"result":[1,"}"]},"result":{"content":[]}}`,
			map[string]any{"resultType": "complete"}},
		{"a list's cache members", "tools/list", `{"id":"x","jsonrpc":"2.0","result":{}}`,
			map[string]any{"resultType": "complete", "ttlMs": float64(0), "cacheScope": "private"}},
		{"a list's own ttlMs kept", "tools/list", `{"jsonrpc":"2.0","id":2,"result":{"tools":[],"ttlMs":5000,"resultType":"complete"}}`,
			map[string]any{"resultType": "complete", "ttlMs": float64(5000), "cacheScope": "private"}},
	} {
		t.Run(c.name, func(t *testing.T) {
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
		})
	}
}

func TestStampResultLeavesAnythingButAnObjectResultAlone(t *testing.T) {
	for _, reply := range []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, `not json`, `{"jsonrpc":"2.0","id":1,"result":[1]}`} {
		t.Run(reply, func(t *testing.T) {
			if out := stampResult("tools/list", []byte(reply)); string(out) != reply {
				t.Errorf("%s was changed to %s", reply, out)
			}
		})
	}
}

func TestStampReplyGivesTheHTTPStatusOfItsCode(t *testing.T) {
	for _, c := range []struct {
		reply  string
		status int
	}{
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, 404},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"no"}}`, 400},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 200},
	} {
		t.Run(strconv.Itoa(c.status), func(t *testing.T) {
			_, code := stampReply("tools/call", []byte(c.reply))
			if got := statelessStatus(code); got != c.status {
				t.Errorf("%s: status %d, want %d", c.reply, got, c.status)
			}
		})
	}
}
