package router_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
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

// testIdentity names the principal of the X-Principal header; the router keeps it on each
// session as its owner.
type testIdentity struct{}

func principal(ctx context.Context) string { p, _ := ctx.Value(principalKey{}).(string); return p }

func (i *testIdentity) WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error) {
	p := principal(ctx)
	if p == "" {
		return worker.LoginSpec{}, errors.New("no principal")
	}
	base.User, base.Password, base.PasswordKind = p, "token-of-"+p, worker.PasswordJWT
	return base, nil
}

func (i *testIdentity) Owner(ctx context.Context) (session.Owner, error) {
	p := principal(ctx)
	if p == "" {
		return session.Owner{}, errors.New("no principal")
	}
	return session.Owner{Issuer: "test", Subject: p}, nil
}

func (i *testIdentity) LoginRefusedHint(context.Context) string {
	return "the stone's administrator must provision that user for JWT login"
}

func TestWithAnIdentity(t *testing.T) {
	id := &testIdentity{}
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Auth, o.Identity = headerAuth, id })
	r := f.post("", initBody, "X-Principal", "alice")
	wantStatus(t, r, http.StatusOK)
	sid := r.Header.Get("Mcp-Session-Id")
	t.Run("gems log in as the principal", func(t *testing.T) {
		if l := f.l.Logins()[0]; l.User != "alice" || l.PasswordKind != worker.PasswordJWT {
			t.Fatalf("the gem logged in as %q (kind %v), want alice with a JWT", l.User, l.PasswordKind)
		}
	})
	t.Run("a session serves only its principal", func(t *testing.T) {
		f := f.in(t)
		wantStatus(t, f.post(sid, call(2, "echo", `{"text":"mine"}`), "X-Principal", "alice"), http.StatusOK)
		for _, verb := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			wantError(t, f.do(verb, sid, call(3, "echo", `{"text":"theirs"}`), "X-Principal", "mallory"), http.StatusNotFound, -32001, errkind.SessionNotFound)
		}
		wantError(t, f.post(sid, call(4, "echo", `{"text":"anon"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
		wantStatus(t, f.do(http.MethodDelete, sid, "", "X-Principal", "alice"), http.StatusNoContent)
		wantError(t, f.post(sid, call(5, "echo", `{"text":"after"}`), "X-Principal", "alice"), http.StatusNotFound, -32001, errkind.SessionNotFound)
	})
}

func TestWithAnIdentityARefusedLoginCarriesItsHint(t *testing.T) {
	f := newFixture(t, func(o *router.Options, l *workertest.Launcher) {
		o.Auth, o.Identity = headerAuth, &testIdentity{}
		l.LoginError = workertest.LoginDenied("login denied for bob")
	})
	r := f.post("", initBody, "X-Principal", "bob")
	if wantError(t, r, http.StatusOK, -32001, errkind.LoginDenied) &&
		(!strings.Contains(r.RPC.Error.Message, "provision") || strings.Contains(r.RPC.Error.Message, "MCP_WORKER_USER")) {
		t.Fatalf("message %q should carry the identity's hint", r.RPC.Error.Message)
	}
}

func TestWithAnIdentityNoPrincipalOpensNothing(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Auth, o.Identity = headerAuth, &testIdentity{} })
	wantError(t, f.post("", initBody), http.StatusOK, -32001, errkind.LoginFailed)
	if f.srv.Sessions().Used() != 0 {
		t.Fatal("a slot is still taken")
	}
}
