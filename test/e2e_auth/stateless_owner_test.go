package e2eauth

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// ownedCall is one 2026-07-28 request by token's subject with extra _meta members (JSON text
// after the required two, or "") and the given client capabilities.
func (s *server) ownedCall(token, method, params, caps, extraMeta string) answer {
	s.t.Helper()
	return s.stateless(1, method, params, caps, extraMeta, "Accept", "application/json", "Authorization", "Bearer "+token)
}

// A state handle and a task belong to the token subject that made them: another subject's
// request naming them is answered as if they did not exist, and touches neither.
func TestAStateHandleAndATaskAnswerOnlyTheirOwnSubject(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	alice := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	bob := is.Sign(is.Claims(s.resource(), "bob", "mcp:use"))
	const tasks = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`

	a := s.ownedCall(alice, "tools/call", `"name":"echo","arguments":{"text":"a"}`, `{}`, `"io.github.gemstone-mcp/state":"new"`)
	var res struct {
		Meta map[string]string `json:"_meta"`
	}
	if a.Status != 200 || json.Unmarshal(a.RPC.Result, &res) != nil || res.Meta["io.github.gemstone-mcp/state"] == "" {
		t.Fatalf("alice asking for state: %d %s", a.Status, a.Body)
	}
	handle := res.Meta["io.github.gemstone-mcp/state"]
	b := s.ownedCall(bob, "tools/call", `"name":"echo","arguments":{"text":"b"}`, `{}`, `"io.github.gemstone-mcp/state":"`+handle+`"`)
	if b.Status != 400 || b.RPC.Kind() != "stateGone" {
		t.Fatalf("bob with alice's handle: %d %s, want 400 stateGone", b.Status, b.Body)
	}
	if a = s.ownedCall(alice, "tools/call", `"name":"echo","arguments":{"text":"a"}`, `{}`, `"io.github.gemstone-mcp/state":"`+handle+`"`); a.Status != 200 || a.RPC.Error != nil {
		t.Fatalf("alice's handle after bob tried it: %d %s", a.Status, a.Body)
	}

	created := s.ownedCall(alice, "tools/call", `"name":"slow_compute","arguments":{"seconds":30,"label":"x"}`, tasks, "")
	var task struct {
		TaskID string `json:"taskId"`
	}
	if created.Status != 200 || json.Unmarshal(created.RPC.Result, &task) != nil || task.TaskID == "" {
		t.Fatalf("alice's task: %d %s", created.Status, created.Body)
	}
	if b = s.ownedCall(bob, "tasks/cancel", `"taskId":"`+task.TaskID+`"`, tasks, ""); b.Status != 400 || b.RPC.Error == nil || b.RPC.Error.Code != -32602 {
		t.Fatalf("bob cancelling alice's task: %d %s, want -32602", b.Status, b.Body)
	}
	got := s.ownedCall(alice, "tasks/get", `"taskId":"`+task.TaskID+`"`, tasks, "")
	if got.Status != 200 || !strings.Contains(string(got.RPC.Result), `"status":"working"`) {
		t.Fatalf("alice's task after bob's cancel: %d %s, want still working", got.Status, got.Body)
	}
	if c := s.ownedCall(alice, "tasks/cancel", `"taskId":"`+task.TaskID+`"`, tasks, ""); c.Status != 200 {
		t.Fatalf("alice cancelling her task: %d %s", c.Status, c.Body)
	}
}
