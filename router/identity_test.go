package router_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/fakeworker"
)

type principalKey struct{}

// headerAuth stands in for router/auth's middleware: the principal is the X-Principal header.
func headerAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.Header.Get("X-Principal"); p != "" {
			r = r.WithContext(context.WithValue(r.Context(), principalKey{}, p))
		}
		next.ServeHTTP(w, r)
	})
}

type testIdentity struct {
	mu     sync.Mutex
	owners map[string]string
	forgot []string
}

func principal(ctx context.Context) string { p, _ := ctx.Value(principalKey{}).(string); return p }

func (i *testIdentity) WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error) {
	p := principal(ctx)
	if p == "" {
		return worker.LoginSpec{}, errors.New("no principal")
	}
	base.User, base.Password, base.PasswordKind = p, "token-of-"+p, worker.PasswordJWT
	return base, nil
}

func (i *testIdentity) Bind(ctx context.Context, sid string) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.owners[sid] = principal(ctx)
	return nil
}

func (i *testIdentity) Owns(ctx context.Context, sid string) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	o, ok := i.owners[sid]
	return ok && o == principal(ctx)
}

func (i *testIdentity) Forget(sid string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	delete(i.owners, sid)
	i.forgot = append(i.forgot, sid)
}

func (i *testIdentity) LoginRefusedHint(context.Context) string {
	return "the stone's administrator must provision that user for JWT login"
}

func TestWithAnIdentityGemsLogInAsThePrincipalAndSessionsAreTheirs(t *testing.T) {
	id := &testIdentity{owners: map[string]string{}}
	f := newFixture(t, func(o *router.Options, _ *fakeworker.Launcher) { o.Auth, o.Identity = headerAuth, id })
	r := f.post("", initBody, "X-Principal", "alice")
	wantStatus(t, r, http.StatusOK)
	sid := r.Header.Get("Mcp-Session-Id")
	if l := f.l.Logins()[0]; l.User != "alice" || l.PasswordKind != worker.PasswordJWT {
		t.Fatalf("the gem logged in as %q (kind %v), want alice with a JWT", l.User, l.PasswordKind)
	}
	wantStatus(t, f.post(sid, call(2, "echo", `{"text":"mine"}`), "X-Principal", "alice"), http.StatusOK)
	for _, verb := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		wantError(t, f.do(verb, sid, call(3, "echo", `{"text":"theirs"}`), "X-Principal", "mallory"), http.StatusNotFound, -32001, "sessionNotFound")
	}
	wantError(t, f.post(sid, call(4, "echo", `{"text":"anon"}`)), http.StatusNotFound, -32001, "sessionNotFound")
	wantStatus(t, f.do(http.MethodDelete, sid, "", "X-Principal", "alice"), http.StatusNoContent)
	if len(id.forgot) != 1 || id.forgot[0] != sid {
		t.Fatalf("the ended session was not forgotten: %v", id.forgot)
	}
}

func TestWithAnIdentityARefusedLoginCarriesItsHintAndNoPrincipalOpensNothing(t *testing.T) {
	id := &testIdentity{owners: map[string]string{}}
	f := newFixture(t, func(o *router.Options, l *fakeworker.Launcher) {
		o.Auth, o.Identity = headerAuth, id
		l.LoginError = &gemstone.Error{Number: 4051, Category: gemstone.KernelErrorCategory}
	})
	r := f.post("", initBody, "X-Principal", "bob")
	wantError(t, r, http.StatusOK, -32001, "loginDenied")
	if !strings.Contains(r.RPC.Error.Message, "provision") || strings.Contains(r.RPC.Error.Message, "MCP_WORKER_USER") {
		t.Fatalf("message %q should carry the identity's hint", r.RPC.Error.Message)
	}
	f.l.LoginError = nil
	wantError(t, f.post("", initBody), http.StatusOK, -32001, "loginFailed")
	if f.srv.Sessions().Used() != 0 {
		t.Fatal("a slot is still taken")
	}
}
