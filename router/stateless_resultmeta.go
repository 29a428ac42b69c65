package router

import (
	"bytes"
	"encoding/json"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// replyShape reads what the stateless wire needs of a worker's answer without decoding it:
// the offset just past the '{' that opens its result object (-1 when it has none) and its error
// code (0 when it has no error). Only the top level is walked and no value is copied; an answer
// that is not a JSON object with string keys answers (-1, 0).
func replyShape(reply []byte) (resultAt int, errCode int) {
	i := jsonrpc.SkipSpace(reply, 0)
	if i >= len(reply) || reply[i] != '{' {
		return -1, 0
	}
	i++
	for {
		i = jsonrpc.SkipSpace(reply, i)
		if i >= len(reply) || reply[i] != '"' {
			return -1, errCode
		}
		keyEnd, ok := jsonrpc.SkipString(reply, i)
		if !ok {
			return -1, errCode
		}
		key := reply[i+1 : keyEnd-1]
		i = jsonrpc.SkipSpace(reply, keyEnd)
		if i >= len(reply) || reply[i] != ':' {
			return -1, errCode
		}
		i = jsonrpc.SkipSpace(reply, i+1)
		if string(key) == "result" {
			// Found before its value is walked: the stamps go in right after its brace.
			if i >= len(reply) || reply[i] != '{' {
				return -1, errCode
			}
			return i + 1, errCode
		}
		valueEnd, ok := jsonrpc.SkipValue(reply, i)
		if !ok {
			return -1, errCode
		}
		switch string(key) {
		case "error":
			var e struct {
				Code int `json:"code"`
			}
			if json.Unmarshal(reply[i:valueEnd], &e) == nil {
				errCode = e.Code
			}
		}
		i = jsonrpc.SkipSpace(reply, valueEnd)
		if i >= len(reply) || reply[i] != ',' {
			return -1, errCode
		}
		i++
	}
}

// hasMember says whether the object that opens just before at names key at its top level. A
// cheap search answers "no" for nearly every result; only a result whose text contains the
// quoted key pays for a walk of its members.
func hasMember(reply []byte, at int, key string) bool {
	quoted := []byte(`"` + key + `"`)
	if !bytes.Contains(reply[at:], quoted) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(reply[at-1:]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		if name, _ := t.(string); name == key {
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
