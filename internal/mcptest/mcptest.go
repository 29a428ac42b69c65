// Package mcptest is what the tests of several packages need to talk to an MCP endpoint: the
// decoded JSON-RPC answer, a tools/call body and a bounded wait. Test code only; the router
// never imports it.
package mcptest

import (
	"encoding/json"
	"fmt"
	"io"
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

// ToolCall is the body of a tools/call request; args is the arguments object as JSON.
func ToolCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
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
