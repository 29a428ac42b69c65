package router_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func TestStatelessCallRunsOnAPoolGemThatIsNobodysSession(t *testing.T) {
	f := newFixture(t)
	for i := range 5 {
		r := f.stateless(statelessBody(i+1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`))
		wantStatus(t, r, http.StatusOK)
		if !strings.Contains(string(r.RPC.Result), `"hi"`) || !strings.Contains(string(r.RPC.Result), `"resultType":"complete"`) {
			t.Fatalf("call %d: result %s, want the echo with resultType complete", i, r.RPC.Result)
		}
	}
	if n := len(f.l.Configs()); n < 1 || n > router.DefaultStatelessPool {
		t.Fatalf("%d logins for five sequential stateless calls, want 1 to %d (the pool)", n, router.DefaultStatelessPool)
	}
	for _, sess := range f.srv.Sessions().All() {
		r := f.post(sess.ID(), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		wantError(t, r, http.StatusNotFound, -32001, errkind.SessionNotFound)
	}
}

func TestUncommittedWorkOfAStatelessCallDoesNotSurviveIntoTheNext(t *testing.T) {
	f := newFixture(t)
	// A write on a pooled request is refused by the worker (worker contract), as the
	// Smalltalk worker refuses it.
	r := f.stateless(statelessBody(1, "tools/call", `"name":"set_view_status","arguments":{"uncommitted":true}`))
	if !strings.Contains(string(r.RPC.Result), `"kind":"sessionRequired"`) {
		t.Fatalf("a write on a pool gem: %s, want the worker's sessionRequired refusal", r.Body)
	}
	g, ok := f.l.Gem(1)
	if !ok {
		t.Fatal("no pool gem")
	}
	leaveInPoolGem(t, g, `{"uncommitted":true}`)
	// The next stateless request begins with the worker's abort (worker contract).
	wantStatus(t, f.stateless(statelessBody(2, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins: want the one pool gem, reused", f.l.Launches())
	}
	if v, err := g.ViewStatus(t.Context()); err != nil || v.Uncommitted {
		t.Fatalf("the pool gem after the next call: %+v %v, want no uncommitted work", v, err)
	}
}

func TestPoolGemBehindTheRepositorySeesTheCurrentCommitInItsNextCall(t *testing.T) {
	f := newFixture(t)
	wantStatus(t, f.stateless(statelessBody(1, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	g, ok := f.l.Gem(1)
	if !ok {
		t.Fatal("no gem 1")
	}
	leaveInPoolGem(t, g, `{"commitsBehind":3}`)
	wantStatus(t, f.stateless(statelessBody(2, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins: a gem whose view is behind is refreshed, not replaced", f.l.Launches())
	}
	if v, err := g.ViewStatus(t.Context()); err != nil || v.CommitsBehind != 0 {
		t.Fatalf("the pool gem's view after its next call: %+v %v, want refreshed (0 behind)", v, err)
	}
}

// leaveInPoolGem puts a pool gem's fixture view in the state set_view_status args describes,
// through the gem itself: the worker refuses that write on a pooled request, and the state
// stands for whatever an earlier request could leave behind.
func leaveInPoolGem(t *testing.T, g *workertest.Gem, args string) {
	t.Helper()
	if _, err := g.Handle(t.Context(), []byte(`{"jsonrpc":"2.0","id":"setup","method":"tools/call","params":{"name":"set_view_status","arguments":`+args+`}}`)); err != nil {
		t.Fatal(err)
	}
}
