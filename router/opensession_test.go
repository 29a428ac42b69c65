package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// toolResult is a tools/call result as a model reads it.
type toolResult struct {
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	IsError           bool `json:"isError"`
	StructuredContent struct {
		Session string `json:"session"`
		Error   struct {
			Kind string `json:"kind"`
		} `json:"error"`
	} `json:"structuredContent"`
}

func resultOf(t *testing.T, r reply) toolResult {
	t.Helper()
	var res toolResult
	if r.Status != http.StatusOK || r.RPC.Error != nil || json.Unmarshal(r.RPC.Result, &res) != nil || len(res.Content) == 0 {
		t.Fatalf("want a tool result, got %d %s", r.Status, r.Body)
	}
	return res
}

func (r toolResult) text() string { return r.Content[0].Text }

// inSession is a tools/call's arguments with the session argument added.
func inSession(args, handle string) string {
	if handle == "" {
		return args
	}
	if args == "{}" {
		return `{"session":"` + handle + `"}`
	}
	return strings.Replace(args, "{", `{"session":"`+handle+`",`, 1)
}

// openStateless calls open_session on the 2026-07-28 wire and answers the handle.
func (f *fixture) openStateless() string {
	f.t.Helper()
	res := resultOf(f.t, f.stateless(statelessBody(1, "tools/call", `"name":"open_session","arguments":{}`)))
	if res.IsError || res.StructuredContent.Session == "" || !strings.Contains(res.text(), res.StructuredContent.Session) {
		f.t.Fatalf("open_session: %+v, want the handle in structuredContent and in the text", res)
	}
	return res.StructuredContent.Session
}

func (f *fixture) statelessCall(id int, tool, args, handle string) reply {
	f.t.Helper()
	return f.stateless(statelessBody(id, "tools/call", `"name":"`+tool+`","arguments":`+inSession(args, handle)))
}

func wantUnknownSession(t *testing.T, r reply) {
	t.Helper()
	res := resultOf(t, r)
	if !res.IsError || res.StructuredContent.Error.Kind != errkind.UnknownSession || !strings.Contains(res.text(), "open_session") {
		t.Fatalf("%s: want the tool error unknownSession naming open_session", r.Body)
	}
}

func TestOpenSessionGivesAGemOfTheCallersOwnThatCallsNamingItRunOn(t *testing.T) {
	f := newFixture(t)
	h := f.openStateless()
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins for open_session, want 1", f.l.Launches())
	}
	for i := range 3 {
		r := f.statelessCall(i+2, "echo", `{"text":"b"}`, h)
		if res := resultOf(t, r); res.IsError || res.text() != "b" {
			t.Fatalf("a call in the session: %s", r.Body)
		}
		if !strings.Contains(string(r.RPC.Result), `"resultType":"complete"`) {
			t.Fatalf("a 2026-07-28 result without resultType: %s", r.Body)
		}
	}
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins: every call naming the session runs on its own gem", f.l.Launches())
	}
	// The work stays in the session's gem: uncommitted there, nowhere else.
	wantStatus(t, f.statelessCall(5, "set_view_status", `{"uncommitted":true}`, h), http.StatusOK)
	// A handle is no session id, and a session id is no handle.
	wantError(t, f.post(h, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), http.StatusNotFound, -32001, errkind.SessionNotFound)
	sid := f.open()
	for _, bad := range []string{`"` + sid + `"`, `"forged-handle"`, `42`, `""`, `null`, `{"end":"x"}`} {
		wantUnknownSession(t, f.stateless(statelessBody(6, "tools/call", `"name":"echo","arguments":{"text":"x","session":`+bad+`}`)))
	}
	closed := resultOf(t, f.statelessCall(7, "close_session", `{}`, h))
	if closed.IsError || !strings.Contains(closed.text(), "uncommitted changes were discarded") {
		t.Fatalf("close_session of a session holding work: %+v, want it to say the work was discarded", closed)
	}
	if !strings.Contains(f.log.String(), "sessionClosed") {
		t.Errorf("the log does not record the session's end:\n%s", f.log.String())
	}
	wantUnknownSession(t, f.statelessCall(8, "echo", `{"text":"x"}`, h))
	wantUnknownSession(t, f.statelessCall(9, "close_session", `{}`, h))
	res := resultOf(t, f.statelessCall(10, "close_session", `{}`, ""))
	if !res.IsError || res.StructuredContent.Error.Kind != errkind.InvalidParams {
		t.Fatalf("close_session without a session: %+v", res)
	}
}

// In a 2025-era session a call without session runs in the MCP session's own gem, unchanged;
// with session it runs in that GemStone session, batch members included.
func TestAnMCPSessionMayHoldASecondGemStoneSession(t *testing.T) {
	f := newFixture(t)
	sid := f.client(nil).Initialize(t, initWith("2025-03-26"))
	opened := resultOf(t, f.post(sid, call(2, "open_session", `{}`)))
	h := opened.StructuredContent.Session
	if h == "" || f.l.Launches() != 2 {
		t.Fatalf("open_session in a session: %+v after %d logins, want a handle and a second login", opened, f.l.Launches())
	}
	wantStatus(t, f.post(sid, call(3, "set_view_status", inSession(`{"uncommitted":true}`, h))), http.StatusOK)
	own, _ := f.l.Gem(1)
	other, _ := f.l.Gem(2)
	if v, _ := own.ViewStatus(t.Context()); v.Uncommitted {
		t.Fatalf("the call naming the GemStone session changed the MCP session's own gem")
	}
	if v, _ := other.ViewStatus(t.Context()); !v.Uncommitted {
		t.Fatalf("the call naming the GemStone session did not run on its gem")
	}
	batch := `[` + call(4, "echo", inSession(`{"text":"in"}`, h)) + `,` + call(5, "echo", `{"text":"own"}`) + `,` +
		call(6, "echo", inSession(`{"text":"x"}`, "forged")) + `]`
	r := f.post(sid, batch)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(string(r.Body), `"in"`) || !strings.Contains(string(r.Body), `"own"`) || !strings.Contains(string(r.Body), "unknownSession") {
		t.Fatalf("batch answer %s: want both echoes and the forged handle refused", r.Body)
	}
	if f.l.Launches() != 2 {
		t.Fatalf("%d logins: no call may log a gem in", f.l.Launches())
	}
	wantStatus(t, f.post(sid, call(7, "close_session", inSession(`{}`, h))), http.StatusOK)
	wantUnknownSession(t, f.post(sid, call(8, "echo", inSession(`{"text":"x"}`, h))))
}

// Issue 25 item 11: with the cap full, a stateless request waits for the pool's busy gem
// instead of failing at once with sessionLimit.
func TestAStatelessRequestAtTheCapWaitsForTheBusyPoolGem(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 2 })
	f.open()
	done := make(chan reply, 1)
	go func() {
		r, _ := f.client(pooled).Stateless(1, "tools/call", `"name":"sleep","arguments":{"ms":500}`, `{}`, "")
		done <- r
	}()
	time.Sleep(150 * time.Millisecond)
	r := f.stateless(statelessBody(2, "tools/call", `"name":"echo","arguments":{"text":"after"}`))
	if res := resultOf(t, r); res.text() != "after" {
		t.Fatalf("a stateless call at the cap while the pool gem was busy: %s, want it served once the gem was free", r.Body)
	}
	wantStatus(t, <-done, http.StatusOK)
}

// Issue 25 item 9 (local mode): a newcomer at the cap gets in: an idle pool gem beyond the
// pool's first gives its slot at once, and a handle's gem idle past HandleYield gives its slot
// (its discard logged); one used recently does not.
func TestAtTheCapOnlyIdleGemsYieldToANewcomer(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.MaxSessions = 3
		o.HandleYield = 300 * time.Millisecond
	})
	// Two pool gems, by two calls at once.
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = f.client(pooled).Stateless(i+1, "tools/call", `"name":"sleep","arguments":{"ms":200}`, `{}`, "")
		}()
	}
	wg.Wait()
	a := f.openStateless() // the cap was full of pool gems: an idle one yielded
	wantStatus(t, f.statelessCall(3, "set_view_status", `{"uncommitted":true}`, a), http.StatusOK)
	b := f.openStateless() // a full cap again; the pool keeps its last gem
	_ = b
	refused := resultOf(t, f.stateless(statelessBody(4, "tools/call", `"name":"open_session","arguments":{}`)))
	if !refused.IsError || refused.StructuredContent.Error.Kind != errkind.SessionLimit || !strings.Contains(refused.text(), "close_session") {
		t.Fatalf("open_session at the cap with no gem idle long enough: %+v, want sessionLimit naming close_session", refused)
	}
	time.Sleep(400 * time.Millisecond)
	wantStatus(t, f.statelessCall(5, "echo", `{"text":"b keeps"}`, b), http.StatusOK) // b was used just now
	c := f.openStateless()
	if c == "" {
		t.Fatal("no session for the newcomer")
	}
	wantUnknownSession(t, f.statelessCall(6, "echo", `{"text":"x"}`, a))
	wantStatus(t, f.statelessCall(7, "echo", `{"text":"x"}`, b), http.StatusOK)
	if log := f.log.String(); !strings.Contains(log, "yieldedToNewcomer") || !strings.Contains(log, "uncommitted work was discarded") {
		t.Errorf("the yield is not logged with its discard:\n%s", log)
	}
}
