//go:build proof

package harness

import (
	"encoding/json"
	"errors"
)

// ToolText is the text of a tool result's first content item.
func ToolText(result json.RawMessage) (string, bool, error) {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return "", false, err
	}
	if len(r.Content) == 0 {
		return "", r.IsError, errors.New("a tool result with no content")
	}
	return r.Content[0].Text, r.IsError, nil
}
