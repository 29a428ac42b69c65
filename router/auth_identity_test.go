package router_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// loginRecorder remembers the login of every launch.
type loginRecorder struct {
	*workertest.Launcher
	mu     sync.Mutex
	logins []worker.LoginSpec
}

func (r *loginRecorder) Launch(ctx context.Context, login worker.LoginSpec, cfg worker.PrepareConfig) (worker.Gem, error) {
	r.mu.Lock()
	r.logins = append(r.logins, login)
	r.mu.Unlock()
	return r.Launcher.Launch(ctx, login, cfg)
}

func (r *loginRecorder) all() []worker.LoginSpec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]worker.LoginSpec(nil), r.logins...)
}

type authRouter struct {
	ts       *httptest.Server
	is       *authtest.Issuer
	launcher *loginRecorder
	identity auth.Identity
	resource string
	srv      *router.Server
}

func newAuthRouter(t *testing.T) *authRouter {
	t.Helper()
	return newAuthRouterWith(t, "sub", nil)
}

// newAuthRouterWith is newAuthRouter whose worker user comes from userClaim, tune adjusting
// the options.
func newAuthRouterWith(t *testing.T, userClaim string, tune func(*router.Options)) *authRouter {
	t.Helper()
	ar := &authRouter{is: authtest.NewIssuer(t), launcher: &loginRecorder{Launcher: workertest.New()}, identity: auth.NewIdentity(userClaim, zerolog.Nop())}
	var h http.Handler = http.NotFoundHandler()
	ar.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(ar.ts.Close)
	ar.resource = ar.ts.URL + "/mcp"
	a, err := auth.New(auth.Config{Issuer: ar.is.URL(), Resource: ar.resource, RequiredScopes: []string{"mcp:use"}, UserIDClaim: userClaim}, zerolog.Nop(), auth.VerifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := router.Options{
		Launcher: ar.launcher,
		Login:    worker.LoginSpec{StoneNRS: "!tcp@h#server!gs64stone", GemNRS: "!tcp@h#netldi:ldi#task!gemnetobject", User: "DataCurator", Password: "swordfish"},
		Prepare:  worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "r1", Log: zerolog.Nop(),
		Auth: a.Middleware, Identity: ar.identity, Public: a.PublicRoutes(),
	}
	if tune != nil {
		tune(&o)
	}
	srv := router.New(o)
	t.Cleanup(func() { srv.Close(context.Background()) })
	h = srv.Handler()
	ar.srv = srv
	return ar
}

func (ar *authRouter) token(sub string) string {
	return ar.is.Sign(ar.is.Claims(ar.resource, sub, "mcp:use"))
}

func (ar *authRouter) post(t *testing.T, method, token, sid, body string) (int, string, string) {
	t.Helper()
	var auth []string
	if token != "" {
		auth = []string{"Authorization", "Bearer " + token}
	}
	a, err := (&mcptest.Client{URL: ar.ts.URL + "/mcp"}).Do(context.Background(), method, sid, []byte(body), auth...)
	if err != nil {
		t.Fatal(err)
	}
	return a.Status, a.Header.Get("Mcp-Session-Id"), string(a.Body)
}

const authInitBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestWorkerGemLogsInAsTheTokensUserWithTheTokenAsJWTPassword(t *testing.T) {
	ar := newAuthRouter(t)
	if status, _, _ := ar.post(t, http.MethodPost, "", "", authInitBody); status != 401 || len(ar.launcher.all()) != 0 {
		t.Fatalf("no token: %d, %d launches (none may happen before the token is checked)", status, len(ar.launcher.all()))
	}
	tok := ar.token("alice")
	status, sid, body := ar.post(t, http.MethodPost, tok, "", authInitBody)
	if status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", status, body)
	}
	logins := ar.launcher.all()
	want := worker.LoginSpec{StoneNRS: "!tcp@h#server!gs64stone", GemNRS: "!tcp@h#netldi:ldi#task!gemnetobject",
		User: "alice", Password: tok, PasswordKind: worker.PasswordJWT}
	if len(logins) != 1 || logins[0] != want {
		t.Fatalf("the gem's login is not the token's user with the token as a JWT password (the router's own password must never be used): %+v", logins)
	}
}

// A session belongs to the subject whose token opened it; each subtest is one step of the same
// session's life, in order.
func TestASessionServesOnlyItsOwnSubject(t *testing.T) {
	ar := newAuthRouter(t)
	_, sid, _ := ar.post(t, http.MethodPost, ar.token("alice"), "", authInitBody)
	if sess, ok := ar.srv.Sessions().Get(sid); !ok || sess.Owner().Subject != "alice" || sess.Owner().Issuer != ar.is.URL() {
		t.Fatalf("session %q not opened and bound to alice of the issuer (found %v)", sid, ok)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	t.Run("another subject is answered as for an unknown session", func(t *testing.T) {
		s1, _, theirs := ar.post(t, http.MethodPost, ar.token("bob"), sid, ping)
		s2, _, unknown := ar.post(t, http.MethodPost, ar.token("bob"), "r1-00000000000000000000000000000000", ping)
		if s1 != 404 || s2 != 404 || theirs != unknown {
			t.Errorf("bob on alice's session: %d %s\nunknown session: %d %s", s1, theirs, s2, unknown)
		}
		if s, _, _ := ar.post(t, http.MethodDelete, ar.token("bob"), sid, ""); s != 404 {
			t.Errorf("bob's DELETE: %d", s)
		}
		if s, _, b := ar.post(t, http.MethodPost, ar.token("alice"), sid, ping); s != 200 {
			t.Errorf("alice's ping after bob's attempts: %d %s", s, b)
		}
	})
	t.Run("why it ended is told to its owner only", func(t *testing.T) {
		if s, _, _ := ar.post(t, http.MethodDelete, ar.token("alice"), sid, ""); s != 200 && s != 204 {
			t.Fatalf("alice's DELETE: %d", s)
		}
		s, _, mine := ar.post(t, http.MethodPost, ar.token("alice"), sid, ping)
		if s != 404 || ar.srv.Sessions().Len() != 0 || !strings.Contains(mine, "ended it with DELETE") {
			t.Errorf("alice's ping on her ended session: %d %s, sessions %d", s, mine, ar.srv.Sessions().Len())
		}
		_, _, unknownAfter := ar.post(t, http.MethodPost, ar.token("bob"), "r1-00000000000000000000000000000001", ping)
		if _, _, theirsAfter := ar.post(t, http.MethodPost, ar.token("bob"), sid, ping); theirsAfter != unknownAfter {
			t.Errorf("bob on alice's ended session: %s\nunknown session: %s", theirsAfter, unknownAfter)
		}
	})
}
