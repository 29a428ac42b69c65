package router_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// The origin gate: a foreign origin is refused before any login; an absent one, loopback and
// the allowed ones pass.
func TestOriginGate(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.AllowedOrigins = []string{"app.example.com", "https://exact.example.org"}
	})
	for _, origin := range []string{"https://evil.example", "null", "http://localhost.evil.example:8000", "https://exact.example.org:444"} {
		t.Run("refuses "+origin, func(t *testing.T) {
			wantError(t, f.in(t).post("", initBody, "Origin", origin), http.StatusForbidden, -32600, errkind.OriginRefused)
		})
	}
	if f.l.Launches() != 0 {
		t.Error("a refused origin reached a login")
	}
	for _, origin := range []string{"", "http://localhost:3000", "http://127.0.0.1", "http://[::1]:6274", "https://app.example.com", "https://exact.example.org"} {
		t.Run("passes "+origin, func(t *testing.T) {
			f := f.in(t)
			r := f.post("", initBody, "Origin", origin)
			wantStatus(t, r, http.StatusOK)
			f.do(http.MethodDelete, r.Header.Get("Mcp-Session-Id"), "")
		})
	}
}

// The host gate against DNS rebinding: a foreign Host is refused; loopback and the allowed
// hosts pass.
func TestHostGate(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.AllowedHosts = []string{"mcp.internal"} })
	for _, host := range []string{"evil.example.com", "evil.example.com:8000", "127.0.0.1.nip.io"} {
		t.Run("refuses "+host, func(t *testing.T) {
			wantError(t, f.in(t).post("", initBody, "Host", host), http.StatusForbidden, -32600, errkind.HostRefused)
		})
	}
	for _, host := range []string{"localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "mcp.internal:443"} {
		t.Run("passes "+host, func(t *testing.T) {
			f := f.in(t)
			r := f.post("", initBody, "Host", host)
			wantStatus(t, r, http.StatusOK)
			f.do(http.MethodDelete, r.Header.Get("Mcp-Session-Id"), "")
		})
	}
}

func TestHealthzAnswersWithoutTheMCPGates(t *testing.T) {
	f := newFixture(t)
	resp, err := http.Get(f.ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz %d", resp.StatusCode)
	}
}

// /metrics is behind the Host and Origin gates; /healthz is not.
func TestTheMetricsEndpointsGates(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Metrics = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("calls 0\n")) })
	})
	get := func(t *testing.T, path, host, origin string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, f.ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, c := range []struct{ host, origin string }{{"evil.example.com", ""}, {"evil.example.com:8000", ""}, {"", "https://evil.example"}} {
		t.Run("refuse Host "+c.host+" Origin "+c.origin, func(t *testing.T) {
			if r := get(t, "/metrics", c.host, c.origin); r.StatusCode != http.StatusForbidden {
				t.Errorf("/metrics with Host %q Origin %q: %d, want 403", c.host, c.origin, r.StatusCode)
			}
		})
	}
	for _, host := range []string{"", "localhost:8000", "[::1]:8000"} {
		t.Run("pass Host "+host, func(t *testing.T) {
			if r := get(t, "/metrics", host, ""); r.StatusCode != http.StatusOK {
				t.Errorf("/metrics with Host %q: %d, want 200", host, r.StatusCode)
			}
		})
	}
	t.Run("leave healthz to any name", func(t *testing.T) {
		// /healthz stays reachable by any name: probes from a proxy use their own.
		if r := get(t, "/healthz", "evil.example.com", ""); r.StatusCode != http.StatusOK {
			t.Errorf("/healthz with a foreign Host: %d, want 200", r.StatusCode)
		}
	})
}

// The recovery gate: a panic below it is answered -32603 and logged, never a dropped connection.
type panickyLauncher struct{}

func (panickyLauncher) Launch(context.Context, worker.LoginSpec, worker.PrepareConfig) (worker.Gem, error) {
	panic("a bug in a launcher")
}

func TestAPanicInALaunch(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Launcher = panickyLauncher{} })
	r := f.post("", initBody)
	t.Run("is answered, not a dropped connection", func(t *testing.T) {
		wantError(t, r, http.StatusInternalServerError, -32603, "")
	})
	t.Run("is logged", func(t *testing.T) {
		if !strings.Contains(f.log.String(), "a bug in a launcher") {
			t.Fatal("the panic is not in the log")
		}
	})
	t.Run("gives its slot back", func(t *testing.T) {
		if u := f.srv.Sessions().Used(); u != 0 {
			t.Fatalf("the panicking launch kept its slot (%d used)", u)
		}
	})
}
