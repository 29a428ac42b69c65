package router_test

import (
	"net/http"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/fakeworker"
)

func TestForeignOriginIs403AndLoopbackOrAbsentOriginPasses(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *fakeworker.Launcher) {
		o.AllowedOrigins = []string{"app.example.com", "https://exact.example.org"}
	})
	for _, origin := range []string{"https://evil.example", "null", "http://localhost.evil.example:8000", "https://exact.example.org:444"} {
		wantError(t, f.post("", initBody, "Origin", origin), http.StatusForbidden, -32600, "originRefused")
	}
	if f.l.Launches() != 0 {
		t.Fatal("a refused origin reached a login")
	}
	for _, origin := range []string{"", "http://localhost:3000", "http://127.0.0.1", "http://[::1]:6274", "https://app.example.com", "https://exact.example.org"} {
		r := f.post("", initBody, "Origin", origin)
		wantStatus(t, r, http.StatusOK)
		f.do(http.MethodDelete, r.Header.Get("Mcp-Session-Id"), "")
	}
}

func TestForeignHostIs403AgainstDNSRebinding(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *fakeworker.Launcher) { o.AllowedHosts = []string{"mcp.internal"} })
	for _, host := range []string{"evil.example.com", "evil.example.com:8000", "127.0.0.1.nip.io"} {
		wantError(t, f.post("", initBody, "Host", host), http.StatusForbidden, -32600, "hostRefused")
	}
	for _, host := range []string{"localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "mcp.internal:443"} {
		r := f.post("", initBody, "Host", host)
		wantStatus(t, r, http.StatusOK)
		f.do(http.MethodDelete, r.Header.Get("Mcp-Session-Id"), "")
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
