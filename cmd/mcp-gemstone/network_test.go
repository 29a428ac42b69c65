package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// modeFor is the network mode the binary builds for these settings: through the one
// configuration path, then newNetworkMode.
func modeFor(t *testing.T, args []string, env map[string]string) (*networkMode, error) {
	t.Helper()
	cfg, err := config.Load(args, envOf(env), io.Discard)
	if err != nil {
		return nil, err
	}
	return newNetworkMode(cfg, zerolog.Nop())
}

var oidc = map[string]string{"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "https://id.example", "MCP_RESOURCE": "https://gs.example/mcp"}

func TestNetworkModeIsOffWithoutItsSettings(t *testing.T) {
	m, err := modeFor(t, nil, nil)
	if err != nil || m.authenticated() || m.scheme() != "http" {
		t.Fatalf("%v %+v", err, m)
	}
	var o router.Options
	m.apply(&o)
	if o.Auth != nil || o.Identity != nil {
		t.Fatal("the localhost mode got a token gate")
	}
}

func TestNetworkModeRefusesABadSetting(t *testing.T) {
	t.Run("a worker user", func(t *testing.T) {
		if _, err := modeFor(t, []string{"-worker-user=McpReadOnly"}, oidc); err == nil ||
			!strings.Contains(err.Error(), "-worker-user is refused with MCP_AUTH=oidc") {
			t.Fatalf("-worker-user: %v", err)
		}
	})
	t.Run("a bad key pair", func(t *testing.T) {
		cert, _, _ := mcptest.SelfSignedCert(t, t.TempDir(), "x", "127.0.0.1")
		if _, err := modeFor(t, []string{"-tls-cert", cert, "-tls-key", cert}, nil); err == nil ||
			!strings.Contains(err.Error(), "MCP_TLS_CERT / MCP_TLS_KEY: cannot load the key pair") {
			t.Fatalf("a certificate as its own key: %v", err)
		}
	})
}

func TestTheNetworkMode(t *testing.T) {
	cert, key, _ := mcptest.SelfSignedCert(t, t.TempDir(), "x", "127.0.0.1")
	env := map[string]string{"MCP_TLS_CERT": cert, "MCP_TLS_KEY": key}
	for k, v := range oidc {
		env[k] = v
	}
	m, err := modeFor(t, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("serves HTTPS behind the token gate", func(t *testing.T) {
		if !m.authenticated() || m.scheme() != "https" {
			t.Fatalf("authenticated %v, scheme %s", m.authenticated(), m.scheme())
		}
	})
	o := router.Options{Metrics: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("m 1\n")) })}
	m.apply(&o)
	t.Run("wires the gate, the identity and the allowed host", func(t *testing.T) {
		if o.Auth == nil || o.Identity == nil || len(o.AllowedHosts) != 1 || o.AllowedHosts[0] != "gs.example" {
			t.Fatalf("apply: %+v", o.AllowedHosts)
		}
	})
	for addr, want := range map[string]int{"127.0.0.1:4000": 200, "[::1]:4000": 200, "10.1.2.3:4000": 404, "203.0.113.9:4000": 404} {
		t.Run("serves /metrics to "+addr+" "+strconv.Itoa(want), func(t *testing.T) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			req.RemoteAddr = addr
			o.Metrics.ServeHTTP(rec, req)
			if rec.Code != want {
				t.Errorf("/metrics from %s: %d, want %d", addr, rec.Code, want)
			}
		})
	}
}
