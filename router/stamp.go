package router

import (
	"bytes"
	"encoding/json"
	"io"
)

// replyShape reads what the stateless wire needs of a worker's answer without decoding it
// whole: the offset just past the '{' that opens its result object (-1 when it has none) and
// its error code (0 when it has no error). Only the top level is walked; a result member's
// value is never copied, so the cost does not grow with the result as long as the result comes
// after the small members (as workers write it).
func replyShape(reply []byte) (resultAt int, errCode int) {
	resultAt = -1
	dec := json.NewDecoder(bytes.NewReader(reply))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return -1, 0
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return -1, 0
		}
		key, _ := t.(string)
		switch key {
		case "result":
			if t, err := dec.Token(); err != nil || t != json.Delim('{') {
				return -1, errCode
			}
			return int(dec.InputOffset()), errCode
		case "error":
			var e struct {
				Code int `json:"code"`
			}
			if dec.Decode(&e) != nil {
				return -1, 0
			}
			errCode = e.Code
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil && err != io.EOF {
				return -1, 0
			}
		}
	}
	return resultAt, errCode
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
