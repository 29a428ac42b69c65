package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
)

// stateless sends a 2026-07-28 request with token and answers the tool result it carried.
func (ar *authRouter) stateless(t *testing.T, token string, id int, params string) (int, toolResult, string) {
	t.Helper()
	a, err := (&mcptest.Client{URL: ar.ts.URL + "/mcp"}).Stateless(id, "tools/call", params, `{}`, "", "Authorization", "Bearer "+token)
	if err != nil {
		t.Fatal(err)
	}
	var res toolResult
	_ = json.Unmarshal(a.RPC.Result, &res)
	return a.Status, res, string(a.Body)
}

// Issue 25 item 9 (network-facing mode): one subject may hold at most its share of the
// logins; another subject still gets in. A handle presented by another subject is refused
// exactly as an unknown one.
func TestOneSubjectHoldsAtMostItsShareOfTheLogins(t *testing.T) {
	ar := newAuthRouterWith(t, "sub", func(o *router.Options) { o.MaxSessions = 4 })
	alice, bob := ar.token("alice"), ar.token("bob")
	var handles []string
	for i := range 2 {
		_, res, body := ar.stateless(t, alice, i+1, `"name":"open_session","arguments":{}`)
		if res.IsError || res.StructuredContent.Session == "" {
			t.Fatalf("alice's open_session %d: %s", i+1, body)
		}
		handles = append(handles, res.StructuredContent.Session)
	}
	_, res, body := ar.stateless(t, alice, 3, `"name":"open_session","arguments":{}`)
	if !res.IsError || res.StructuredContent.Error.Kind != errkind.SessionLimit || !strings.Contains(body, "close_session") {
		t.Fatalf("alice's third open_session under a cap of 4: %s, want sessionLimit naming close_session", body)
	}
	if _, res, body := ar.stateless(t, bob, 4, `"name":"open_session","arguments":{}`); res.IsError {
		t.Fatalf("bob's open_session: %s, want a session of his own", body)
	}
	// Bob presenting alice's handle learns what a forged one tells him, and nothing more.
	_, theirs, _ := ar.stateless(t, bob, 5, `"name":"echo","arguments":{"text":"x","session":"`+handles[0]+`"}`)
	_, forged, _ := ar.stateless(t, bob, 5, `"name":"echo","arguments":{"text":"x","session":"r1-00000000000000000000000000000000"}`)
	if !theirs.IsError || theirs.StructuredContent.Error.Kind != errkind.UnknownSession || theirs.text() != forged.text() {
		t.Fatalf("bob with alice's handle: %+v; with a forged one: %+v; want the same unknownSession answer", theirs, forged)
	}
	if _, res, body := ar.stateless(t, alice, 6, `"name":"echo","arguments":{"text":"mine","session":"`+handles[0]+`"}`); res.IsError || res.text() != "mine" {
		t.Fatalf("alice with her own handle: %s", body)
	}
}

// Issue 25 item 12: a pool gem serves one principal and the GemStone user its token named: a
// token of the same subject naming another user gets a gem of its own; and more principals than
// pool gems take turns on the pool instead of logging a gem in for every request.
func TestPoolGemsAcrossPrincipals(t *testing.T) {
	ar := newAuthRouterWith(t, "preferred_username", func(o *router.Options) {
		o.StatelessPool = 2
		o.PoolDwell = 300 * time.Millisecond
	})
	named := func(sub, user string) string {
		c := ar.is.Claims(ar.resource, sub, "mcp:use")
		c["preferred_username"] = user
		return ar.is.Sign(c)
	}
	echo := `"name":"echo","arguments":{"text":"x"}`
	t.Run("a gem serves one principal and user", func(t *testing.T) { poolGemServesOneUser(t, ar, named, echo) })
	t.Run("principals take turns without a login per request", func(t *testing.T) { poolGemsDoNotThrash(t, ar, named, echo) })
}

func poolGemServesOneUser(t *testing.T, ar *authRouter, named func(sub, user string) string, echo string) {
	if s, _, body := ar.stateless(t, named("s1", "alice"), 1, echo); s != http.StatusOK {
		t.Fatalf("alice: %d %s", s, body)
	}
	if s, _, body := ar.stateless(t, named("s1", "mallory"), 2, echo); s != http.StatusOK {
		t.Fatalf("mallory: %d %s", s, body)
	}
	logins := ar.launcher.all()
	if len(logins) != 2 || logins[0].User != "alice" || logins[1].User != "mallory" {
		var users []string
		for _, l := range logins {
			users = append(users, l.User)
		}
		t.Fatalf("logins as %v: a token naming mallory must not reuse the gem logged in as alice", users)
	}
}

func poolGemsDoNotThrash(t *testing.T, ar *authRouter, named func(sub, user string) string, echo string) {
	// Three principals on a pool of two, each sending request after request for 1.5 s.
	tokens := []string{named("a", "ann"), named("b", "ben"), named("c", "cy")}
	before := len(ar.launcher.all())
	start := time.Now()
	var wg sync.WaitGroup
	var served atomic.Int64
	for i, tok := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; time.Since(start) < 1500*time.Millisecond; n++ {
				a, err := (&mcptest.Client{URL: ar.ts.URL + "/mcp", HTTP: pooled}).Stateless(100*i+n, "tools/call", echo, `{}`, "", "Authorization", "Bearer "+tok)
				if err != nil || a.Status != http.StatusOK {
					t.Errorf("principal %d, request %d: %v %d %s", i, n, err, a.Status, a.Body)
					return
				}
				served.Add(1)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	n := len(ar.launcher.all()) - before
	// Each gem changes principal at most once a dwell: the pool's two gems once, then two per
	// dwell. Without the dwell every request of the principal without a gem logged one in.
	if most := 2 + 2*int(took/(300*time.Millisecond)+1); n > most {
		t.Fatalf("%d logins for %d requests of 3 principals on a pool of 2 in %v, want at most %d", n, served.Load(), took, most)
	}
	if served.Load() < 6 {
		t.Fatalf("only %d requests served in %v: every principal must get its turns", served.Load(), took)
	}
}
