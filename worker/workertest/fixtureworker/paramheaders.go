package fixtureworker

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// SEP-2243 custom headers: a tool's inputSchema may mirror an argument into an HTTP header
// (property member x-mcp-header: the header is Mcp-Param-<name>). The router carries a
// 2026-07-28 call's Mcp-Param-* headers to the worker in params._meta (names lower-cased past
// the prefix), and only when there are some; the worker holds each to its argument.

const (
	metaParamHeaders    = "io.github.gemstone-mcp/paramHeaders"
	codeHeaderMismatch  = -32020
	base64Open          = "=?base64?"
	base64Close         = "?="
	customHeaderFixture = `{"type":"object","properties":{"region":{"type":"string","description":"mirrored into Mcp-Param-Region","x-mcp-header":"Region"}},"required":["region"],"additionalProperties":false}`
)

func init() {
	fixtureTools = append(fixtureTools, &tool{name: "test_custom_header",
		doc:    "Conformance fixture: its region argument is mirrored into the Mcp-Param-Region header (SEP-2243).",
		schema: json.RawMessage(customHeaderFixture),
		run: func(c *call, a map[string]any) (any, error) {
			region, _ := a["region"].(string)
			return content(textItem("region " + region)), nil
		}})
}

// checkParamHeaders holds a 2026-07-28 call's mirrored headers to its arguments: -32020 when a
// mirrored argument has no header, or a header differs from it (a =?base64?...?= value decoded
// first, strictly; any other value taken literally).
func (c *call) checkParamHeaders(t *tool, args map[string]any) error {
	if !c.stateless() || len(t.schema) == 0 {
		return nil
	}
	var schema struct {
		Properties map[string]struct {
			Header string `json:"x-mcp-header"`
		} `json:"properties"`
	}
	if json.Unmarshal(t.schema, &schema) != nil {
		return nil
	}
	var sent map[string]string
	_ = json.Unmarshal(c.meta.paramHeaders, &sent)
	for name, p := range schema.Properties {
		if p.Header == "" {
			continue
		}
		arg, ok := args[name]
		if !ok || arg == nil {
			continue
		}
		header := "Mcp-Param-" + p.Header
		raw, ok := sent[strings.ToLower(p.Header)]
		if !ok {
			return mismatch("the " + header + " header is required: the argument " + name + " is mirrored into it")
		}
		value, err := headerValue(strings.TrimSpace(raw))
		if err != nil {
			return mismatch(header + " is not valid Base64: " + err.Error())
		}
		if want := fmt.Sprint(arg); value != want {
			return mismatch(header + " does not match the argument " + name)
		}
	}
	return nil
}

func headerValue(v string) (string, error) {
	if len(v) < len(base64Open)+len(base64Close) || !strings.HasPrefix(v, base64Open) || !strings.HasSuffix(v, base64Close) {
		return v, nil
	}
	b, err := base64.StdEncoding.Strict().DecodeString(v[len(base64Open) : len(v)-len(base64Close)])
	return string(b), err
}

func mismatch(why string) error {
	return &replyError{code: codeHeaderMismatch, message: "Header mismatch: " + why}
}
