package e2e_model

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// stateless sends one 2026-07-28 tools/call (caps: the request's client capabilities) and
// answers the tool result it carried.
func (s *server) stateless(t *testing.T, tool, args, caps string) (mcptest.Answer, toolResult) {
	t.Helper()
	a, err := (&mcptest.Client{URL: s.url, HTTP: httpClient}).Stateless(1, "tools/call", `"name":"`+tool+`","arguments":`+args, caps, "", "Accept", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	var r toolResult
	_ = json.Unmarshal(a.RPC.Result, &r)
	return a, r
}

// No 2026-07-28 path runs a write on a pooled gem: a plain request, one from a client that
// declared tasks (run_test_class would continue as a task), and one carrying an input round's
// fields are each refused before anything runs, the text naming open_session.
func TestNoStatelessPathRunsAWriteOnAPooledGem(t *testing.T) {
	s := start(t)
	const tasks = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	for _, c := range []struct{ what, tool, args, caps string }{
		{"a 2026-07-28 request", "compile_method", `{"className":"SampleSavingsAccount","source":"addInterest\n  ^0"}`, `{}`},
		{"a task-capable client", "run_test_class", `{"className":"SampleAccountTest"}`, tasks},
		{"a request with inputResponses", "execute_code", `{"code":"3+4"},"inputResponses":{}`, `{"elicitation":{}}`},
	} {
		a, r := s.stateless(t, c.tool, c.args, c.caps)
		if a.Status != http.StatusOK || !r.IsError || r.Kind() != errkind.SessionRequired || !strings.Contains(r.Text(), "open_session") {
			t.Errorf("%s (%s): %d %s, want the tool error sessionRequired naming open_session", c.what, c.tool, a.Status, a.Body)
		}
		if strings.Contains(string(a.Body), `"resultType":"task"`) {
			t.Errorf("%s: a write became a task on a pooled gem: %s", c.what, a.Body)
		}
	}
}

// On a 2025-era MCP session, calls without session run in the session's own gem, unchanged; a
// second GemStone session opened with open_session holds its own transaction beside it.
func TestAnMCPSessionHoldsASecondGemStoneSessionWithTheRealTools(t *testing.T) {
	s := start(t)
	ss := s.open(t)
	raw := ss.request("tools/call", map[string]any{"name": "open_session", "arguments": map[string]any{}})
	var sc struct {
		StructuredContent struct {
			Session string `json:"session"`
		} `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &sc) != nil || sc.StructuredContent.Session == "" {
		t.Fatalf("open_session on an MCP session: %s", raw)
	}
	handle := sc.StructuredContent.Session
	fix := compileArgs("addInterest\n  self deposit: 1")
	ss.must("get_method_source", addInterest())
	ss.must("compile_method", fix) // in the MCP session's own gem
	inSecond := map[string]any{"session": handle}
	for k, v := range addInterest() {
		inSecond[k] = v
	}
	if got := ss.must("get_method_source", inSecond); strings.Contains(got, "deposit: 1") {
		t.Errorf("the second GemStone session sees the MCP session's uncommitted change: %q", got)
	}
	if got := ss.must("get_method_source", addInterest()); !strings.Contains(got, "deposit: 1") {
		t.Errorf("the MCP session's own gem lost its change: %q", got)
	}
	closed := ss.call("close_session", map[string]any{"session": handle})
	if closed.IsError || !strings.Contains(closed.Text(), "Closed") {
		t.Errorf("close_session: %+v", closed)
	}
	if gone := ss.call("get_method_source", inSecond); !gone.IsError || gone.Kind() != errkind.UnknownSession {
		t.Errorf("a call with the closed session: %+v, want unknownSession", gone)
	}
}
