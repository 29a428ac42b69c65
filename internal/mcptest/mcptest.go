// Package mcptest is what the tests of several packages need to talk to an MCP endpoint: one
// HTTP client (Client: a POST with the session and protocol headers, its JSON or SSE answer, a
// GET stream, DELETE, a 2026-07-28 request), the decoded JSON-RPC answer and its checks, a
// tools/call body and a bounded wait. Test code only; the router never imports it.
package mcptest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// Error is a JSON-RPC error object as the router and the workers write it.
type Error struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// RPC is a decoded JSON-RPC response.
type RPC struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Kind is error.data.kind, "" when there is none.
func (r RPC) Kind() string {
	if r.Error == nil {
		return ""
	}
	k, _ := r.Error.Data["kind"].(string)
	return k
}

// ToolCall is the body of a tools/call request; id is a number or a string, args the
// arguments object as JSON.
func ToolCall(id any, tool, args string) string {
	b, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, b, tool, args)
}

// Eventually polls cond every 5 ms and fails the test, naming what, if it is not true within d.
func Eventually(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// EndsWithin reads r, discarding what it reads, and says whether it ended (EOF or an error)
// within d. A reader that outlives d is left to its reading goroutine.
func EndsWithin(r io.Reader, d time.Duration) bool {
	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r)
		close(ended)
	}()
	select {
	case <-ended:
		return true
	case <-time.After(d):
		return false
	}
}

// ToolResult is a decoded tools/call result: its content and, for a tool error, the kind the
// worker put in structuredContent.error and, for a refused commit, the conflicts it named.
type ToolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError           bool `json:"isError"`
	StructuredContent *struct {
		Error *struct {
			Kind      string           `json:"kind"`
			Conflicts []map[string]any `json:"conflicts"`
		} `json:"error"`
	} `json:"structuredContent"`
}

// Text is every content item's text, joined.
func (r ToolResult) Text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// Conflicts is structuredContent.error.conflicts, nil when there are none.
func (r ToolResult) Conflicts() []map[string]any {
	if r.StructuredContent == nil || r.StructuredContent.Error == nil {
		return nil
	}
	return r.StructuredContent.Error.Conflicts
}

// Kind is structuredContent.error.kind, "" when there is none.
func (r ToolResult) Kind() string {
	if r.StructuredContent == nil || r.StructuredContent.Error == nil {
		return ""
	}
	return r.StructuredContent.Error.Kind
}
