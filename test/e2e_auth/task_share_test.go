package e2eauth

import (
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// One subject's tasks take at most its share of the task table (64 of 256): past it its calls
// answer as plain calls, and another subject's calls still become tasks.
func TestOneSubjectsTasksTakeOnlyItsShareOfTheTable(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	alice := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	bob := is.Sign(is.Claims(s.resource(), "bob", "mcp:use"))
	const tasks = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	const compute = `"name":"slow_compute","arguments":{"seconds":0,"label":"x"}`
	asTask := 0
	for range 70 {
		a := s.ownedCall(alice, "tools/call", compute, tasks, "")
		if a.Status != 200 {
			t.Fatalf("alice's call: %d %s", a.Status, a.Body)
		}
		if strings.Contains(string(a.RPC.Result), `"resultType":"task"`) {
			asTask++
		}
	}
	if asTask != 64 {
		t.Fatalf("%d of alice's 70 calls became tasks, want her share of 64", asTask)
	}
	b := s.ownedCall(bob, "tools/call", compute, tasks, "")
	if !strings.Contains(string(b.RPC.Result), `"resultType":"task"`) {
		t.Fatalf("bob's call after alice took her share: %d %s, want a task", b.Status, b.Body)
	}
}
