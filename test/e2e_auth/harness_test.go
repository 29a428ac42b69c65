// Package e2eauth drives bin/mcp-gemstone in the network-facing mode (MCP_AUTH=oidc, TLS)
// as a process against the GCI test stand-in, with a test OpenID provider (router/auth/
// authtest) issuing the tokens. It needs GEMSTONE_STANDIN (make test sets it); without it
// every test fails and says so. The stand-in accepts any JWT-shaped password under the JWT
// login flag and takes its sub as the user -- it does not verify it, a real stone does --
// and refuses the user "baduser", which is how a refused JWT login is tested.
package e2eauth

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

var binary string

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "e2e_auth", &binary)) }

// server is one bin/mcp-gemstone process.
type server struct {
	t      *testing.T
	proc   *binserver.Process
	addr   string // host:port
	url    string // as the server logged it
	log    *binserver.LogBuffer
	client *http.Client // trusts the server's throwaway certificate
}

// in is s for the subtest t: its helpers report to, and stop, t. A subtest that failed through
// its parent's *testing.T would stop the parent's goroutine from its own, which the testing
// package reports as a misuse instead of the failure.
func (s *server) in(t *testing.T) *server {
	c := *s
	c.t = t
	return &c
}

// freePort picks a port for the server, so MCP_RESOURCE can name it before the start.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// throwawayCert writes a self-signed certificate for 127.0.0.1 and answers its files and a
// pool that trusts it.
func throwawayCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	certFile, keyFile, cert := mcptest.SelfSignedCert(t, t.TempDir(), "mcp-e2e-auth", "127.0.0.1")
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// startAuth runs the server over TLS in the network-facing mode against issuer, with extra
// environment; it answers when the server says it listens.
func startAuth(t *testing.T, issuer string, env ...string) *server {
	t.Helper()
	port := freePort(t)
	certFile, keyFile, pool := throwawayCert(t)
	s := &server{t: t, addr: fmt.Sprintf("127.0.0.1:%d", port)}
	s.client = clientTrusting(pool)
	s.proc, s.url, _ = binserver.OnStandin(t, binary, func(p *binserver.Process) {
		if !p.Terminate(15 * time.Second) {
			t.Errorf("the server did not stop within 15 s of SIGTERM")
		}
	}, append([]string{fmt.Sprintf("MCP_PORT=%d", port), "MCP_LOG_LEVEL=debug",
		"MCP_AUTH=oidc", "MCP_OIDC_ISSUER=" + issuer, "MCP_RESOURCE=" + s.resource(),
		"MCP_REQUIRED_SCOPES=mcp:use", "MCP_EXTRA_SCOPES=profile",
		"MCP_TLS_CERT=" + certFile, "MCP_TLS_KEY=" + keyFile, "MCP_WORKER_USER="}, env...)...)
	s.log = s.proc.Log
	return s
}

// clientTrusting is an HTTPS client that trusts the throwaway certificate.
func clientTrusting(pool *x509.CertPool) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// resource is MCP_RESOURCE: the URL clients use for /mcp.
func (s *server) resource() string { return "https://" + s.addr + "/mcp" }

// answer is a decoded HTTP answer.
type answer = mcptest.Answer

// do sends one request with client; token "" sends no Authorization header.
func (s *server) do(client *http.Client, method, token, sid, body string) answer {
	s.t.Helper()
	c := &mcptest.Client{URL: s.resource(), HTTP: client, Protocol: "2025-11-25"}
	var auth []string
	if token != "" {
		auth = []string{"Authorization", "Bearer " + token}
	}
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	a, err := c.Do(context.Background(), method, sid, b, auth...)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

// stateless posts one 2026-07-28 request (mcptest.Client.Stateless) with client.
func (s *server) stateless(id int, method, params, caps, extraMeta string, headers ...string) answer {
	s.t.Helper()
	a, err := (&mcptest.Client{URL: s.resource(), HTTP: s.client}).Stateless(id, method, params, caps, extraMeta, headers...)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e-auth","version":"1"}}}`
