package e2eauth

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// ownedCall is one 2026-07-28 request by token's subject with extra _meta members (JSON text
// after the required two, or "") and the given client capabilities.
func (s *server) ownedCall(token, method, params, caps, extraMeta string) answer {
	s.t.Helper()
	return s.stateless(1, method, params, caps, extraMeta, "Accept", "application/json", "Authorization", "Bearer "+token)
}

// openSession calls open_session by token's subject and answers the handle.
func (s *server) openSession(token string) string {
	s.t.Helper()
	a := s.ownedCall(token, "tools/call", `"name":"open_session","arguments":{}`, `{}`, "")
	var res struct {
		StructuredContent struct {
			Session string `json:"session"`
		} `json:"structuredContent"`
	}
	if a.Status != 200 || json.Unmarshal(a.RPC.Result, &res) != nil || res.StructuredContent.Session == "" {
		s.t.Fatalf("open_session: %d %s", a.Status, a.Body)
	}
	return res.StructuredContent.Session
}

// A GemStone session opened with open_session and a task belong to the token subject that
// made them: another subject's request naming them is answered as if they did not exist (the
// same answer as for a handle never issued), and touches neither.
func TestWhatAStatelessSubjectMadeIsItsOwn(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	alice := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	bob := is.Sign(is.Claims(s.resource(), "bob", "mcp:use"))
	const tasks = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`

	t.Run("a session handle", func(t *testing.T) { handleIsOwned(t, s.in(t), alice, bob) })
	t.Run("a task", func(t *testing.T) { taskIsOwned(t, s.in(t), alice, bob, tasks) })
}

func handleIsOwned(t *testing.T, s *server, alice, bob string) {
	handle := s.openSession(alice)
	b := s.ownedCall(bob, "tools/call", `"name":"echo","arguments":{"text":"b","session":"`+handle+`"}`, `{}`, "")
	forged := s.ownedCall(bob, "tools/call", `"name":"echo","arguments":{"text":"b","session":"0123456789abcdef0123456789abcdef"}`, `{}`, "")
	if b.Status != 200 || !strings.Contains(string(b.RPC.Result), `"unknownSession"`) || string(b.RPC.Result) != string(forged.RPC.Result) {
		t.Fatalf("bob with alice's handle: %d %s; with a forged one: %s; want the same unknownSession tool error", b.Status, b.Body, forged.Body)
	}
	if c := s.ownedCall(bob, "tools/call", `"name":"close_session","arguments":{"session":"`+handle+`"}`, `{}`, ""); !strings.Contains(string(c.RPC.Result), `"unknownSession"`) {
		t.Fatalf("bob closing alice's session: %s", c.Body)
	}
	if a := s.ownedCall(alice, "tools/call", `"name":"echo","arguments":{"text":"a","session":"`+handle+`"}`, `{}`, ""); a.Status != 200 || a.RPC.Error != nil || strings.Contains(string(a.RPC.Result), `"isError":true`) {
		t.Fatalf("alice's handle after bob tried it: %d %s", a.Status, a.Body)
	}
}

func taskIsOwned(t *testing.T, s *server, alice, bob, tasks string) {
	created := s.ownedCall(alice, "tools/call", `"name":"slow_compute","arguments":{"seconds":30,"label":"x"}`, tasks, "")
	var task struct {
		TaskID string `json:"taskId"`
	}
	if created.Status != 200 || json.Unmarshal(created.RPC.Result, &task) != nil || task.TaskID == "" {
		t.Fatalf("alice's task: %d %s", created.Status, created.Body)
	}
	if b := s.ownedCall(bob, "tasks/cancel", `"taskId":"`+task.TaskID+`"`, tasks, ""); b.Status != 400 || b.RPC.Error == nil || b.RPC.Error.Code != -32602 {
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

// Scopes still decide which tools a session's calls may use: a tool of a toolset the token
// does not grant is the 403 step-up challenge with the session argument as without it, and a
// token with the scope continues in the same GemStone session.
func TestScopesApplyToCallsInAnOpenedSession(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), scopeEnv...)
	reader := is.Sign(is.Claims(s.resource(), "alice", "mcp:use mcp:read"))
	writer := is.Sign(is.Claims(s.resource(), "alice", "mcp:use mcp:read mcp:write"))
	handle := s.openSession(reader)
	note := `"name":"note","arguments":{"text":"kept","session":"` + handle + `"}`
	a := s.ownedCall(reader, "tools/call", note, `{}`, "")
	if a.Status != 403 || a.RPC.Kind() != errkind.InsufficientScope || !strings.Contains(a.Header.Get("WWW-Authenticate"), "mcp:write") {
		t.Fatalf("a call outside the token's scopes in the session: %d %q %s, want the 403 step-up", a.Status, a.Header.Get("WWW-Authenticate"), a.Body)
	}
	if a = s.ownedCall(writer, "tools/call", note, `{}`, ""); a.Status != 200 || strings.Contains(string(a.RPC.Result), `"isError":true`) {
		t.Fatalf("the same call with the stepped-up token: %d %s", a.Status, a.Body)
	}
}
