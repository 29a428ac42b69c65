package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestNetworkModeIsOffWithoutItsVariables(t *testing.T) {
	m, err := loadNetworkMode(nil, envOf(nil), surface{}, zerolog.Nop())
	if err != nil || m.authenticated() || m.scheme() != "http" {
		t.Fatalf("%v %+v", err, m)
	}
	var o router.Options
	m.apply(&o)
	if o.Auth != nil || o.Identity != nil {
		t.Fatal("the localhost mode got a token gate")
	}
}

func TestNetworkModeRefusesAWorkerUserFlagAndHalfATLSPair(t *testing.T) {
	oidc := map[string]string{"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "https://id.example", "MCP_RESOURCE": "https://gs.example/mcp"}
	if _, err := loadNetworkMode([]string{"-worker-user=McpReadOnly"}, envOf(oidc), surface{}, zerolog.Nop()); err == nil ||
		!strings.Contains(err.Error(), "-worker-user is refused with MCP_AUTH=oidc") {
		t.Fatalf("-worker-user: %v", err)
	}
	if _, err := loadNetworkMode(nil, envOf(map[string]string{"MCP_TLS_CERT": "/c.pem"}), surface{}, zerolog.Nop()); err == nil ||
		!strings.Contains(err.Error(), "MCP_TLS_CERT is set but MCP_TLS_KEY is not") {
		t.Fatalf("half a TLS pair: %v", err)
	}
	m, err := loadNetworkMode(nil, envOf(oidc), surface{}, zerolog.Nop())
	if err != nil || !m.authenticated() {
		t.Fatalf("%v", err)
	}
	o := router.Options{Metrics: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("m 1\n")) })}
	m.apply(&o)
	if o.Auth == nil || o.Identity == nil || len(o.AllowedHosts) != 1 || o.AllowedHosts[0] != "gs.example" {
		t.Fatalf("apply: %+v", o.AllowedHosts)
	}
	for addr, want := range map[string]int{"127.0.0.1:4000": 200, "[::1]:4000": 200, "10.1.2.3:4000": 404, "203.0.113.9:4000": 404} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.RemoteAddr = addr
		o.Metrics.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("/metrics from %s: %d, want %d", addr, rec.Code, want)
		}
	}
}
