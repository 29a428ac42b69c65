package router

import (
	"bytes"
	"encoding/json"
)

// replyShape reads what the stateless wire needs of a worker's answer without decoding it:
// the offset just past the '{' that opens its result object (-1 when it has none) and its error
// code (0 when it has no error). Only the top level is walked and no value is copied; an answer
// that is not a JSON object with string keys answers (-1, 0).
func replyShape(reply []byte) (resultAt int, errCode int) {
	i := skipWS(reply, 0)
	if i >= len(reply) || reply[i] != '{' {
		return -1, 0
	}
	i++
	for {
		i = skipWS(reply, i)
		if i >= len(reply) || reply[i] != '"' {
			return -1, errCode
		}
		keyEnd, ok := skipStr(reply, i)
		if !ok {
			return -1, errCode
		}
		key := reply[i+1 : keyEnd-1]
		i = skipWS(reply, keyEnd)
		if i >= len(reply) || reply[i] != ':' {
			return -1, errCode
		}
		i = skipWS(reply, i+1)
		valueEnd, ok := skipVal(reply, i)
		if !ok {
			return -1, errCode
		}
		switch string(key) {
		case "result":
			if reply[i] != '{' {
				return -1, errCode
			}
			return i + 1, errCode
		case "error":
			var e struct {
				Code int `json:"code"`
			}
			if json.Unmarshal(reply[i:valueEnd], &e) == nil {
				errCode = e.Code
			}
		}
		i = skipWS(reply, valueEnd)
		if i >= len(reply) || reply[i] != ',' {
			return -1, errCode
		}
		i++
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipStr answers the index just past the string that opens at i.
func skipStr(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipVal answers the index just past the JSON value that starts at i (strings, and brackets
// and braces nested to any depth, are followed; scalars run to the next delimiter).
func skipVal(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipStr(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipStr(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j, j > i
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
