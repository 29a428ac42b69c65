package jsonrpc

import "encoding/json"

// ErrorKind reads data.kind of an error response, and the string member named member of
// the same data ("" when absent): the envelope of an answer, never a result.
func ErrorKind(raw []byte, member string) (kind, value string) {
	var env struct {
		Error *struct {
			Data map[string]json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &env) != nil || env.Error == nil {
		return "", ""
	}
	_ = json.Unmarshal(env.Error.Data["kind"], &kind)
	if member != "" {
		_ = json.Unmarshal(env.Error.Data[member], &value)
	}
	return kind, value
}
