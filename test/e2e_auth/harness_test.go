// Package e2eauth drives bin/mcp-gemstone in the network-facing mode (MCP_AUTH=oidc, TLS)
// as a process against the GCI test stand-in, with a test OpenID provider (router/auth/
// authtest) issuing the tokens. It needs GEMSTONE_STANDIN (make test sets it); without it
// every test fails and says so. The stand-in accepts any JWT-shaped password under the JWT
// login flag and takes its sub as the user -- it does not verify it, a real stone does --
// and refuses the user "baduser", which is how a refused JWT login is tested.
package e2eauth

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binary string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "mcp-e2e-auth-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e_auth:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "mcp-gemstone")
		build := exec.Command("go", "build", "-o", binary, "./cmd/mcp-gemstone")
		build.Dir = "../.."
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e_auth: building bin/mcp-gemstone failed:", err)
			return 1
		}
		return m.Run()
	}())
}

func standinHome(t *testing.T) string {
	t.Helper()
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		t.Fatal("GEMSTONE_STANDIN is not set: run `make standin` and set GEMSTONE_STANDIN=$PWD/build/standin (make test does both)")
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "standin-gem")); err != nil {
		t.Fatalf("GEMSTONE_STANDIN=%s holds no stand-in (bin/standin-gem): %v", home, err)
	}
	return home
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server is one bin/mcp-gemstone process.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	addr   string // host:port
	url    string // as the server logged it
	log    *syncBuffer
	exited chan struct{}
	client *http.Client // trusts the server's throwaway certificate
}

var urlInLog = regexp.MustCompile(`"url":"(https?://[^"]+)"`)

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
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mcp-e2e-auth"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// startAuth runs the server over TLS in the network-facing mode against issuer, with extra
// environment; it answers when the server says it listens.
func startAuth(t *testing.T, issuer string, env ...string) *server {
	t.Helper()
	home := standinHome(t)
	port := freePort(t)
	certFile, keyFile, pool := throwawayCert(t)
	s := &server{t: t, log: &syncBuffer{}, exited: make(chan struct{}), addr: fmt.Sprintf("127.0.0.1:%d", port)}
	s.client = clientTrusting(pool)
	s.cmd = exec.Command(binary)
	s.cmd.Env = append(os.Environ(),
		"GEMSTONE="+home, "GCI_LIBRARY=", "GCI_STANDIN_DIR="+t.TempDir(), "GS_PASS=swordfish",
		fmt.Sprintf("MCP_PORT=%d", port), "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=debug",
		"MCP_AUTH=oidc", "MCP_OIDC_ISSUER="+issuer, "MCP_RESOURCE="+s.resource(),
		"MCP_REQUIRED_SCOPES=mcp:use", "MCP_EXTRA_SCOPES=profile",
		"MCP_TLS_CERT="+certFile, "MCP_TLS_KEY="+keyFile, "MCP_WORKER_USER=")
	s.cmd.Env = append(s.cmd.Env, env...)
	pr, pw := io.Pipe()
	s.cmd.Stderr, s.cmd.Stdout = pw, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = s.cmd.Wait()
		pw.Close()
		close(s.exited)
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			s.log.Write([]byte(sc.Text() + "\n"))
			if m := urlInLog.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case s.url = <-found:
	case <-s.exited:
		t.Fatalf("the server exited at start:\n%s", s.log)
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		t.Fatalf("the server did not say it was listening within 15 s:\n%s", s.log)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
			t.Errorf("the server did not stop within 15 s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.log)
		}
	})
	return s
}

// clientTrusting is an HTTPS client that trusts the throwaway certificate.
func clientTrusting(pool *x509.CertPool) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// resource is MCP_RESOURCE: the URL clients use for /mcp.
func (s *server) resource() string { return "https://" + s.addr + "/mcp" }

// answer is a decoded HTTP answer.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
	RPC    struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int            `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		} `json:"error"`
	}
}

func (a answer) kind() string {
	if a.RPC.Error == nil {
		return ""
	}
	k, _ := a.RPC.Error.Data["kind"].(string)
	return k
}

// do sends one request with client; token "" sends no Authorization header.
func (s *server) do(client *http.Client, method, token, sid, body string) answer {
	s.t.Helper()
	var rdr io.Reader
	if body != "" {
		rdr = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.resource(), rdr)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, s.resource(), err)
	}
	defer resp.Body.Close()
	a := answer{Status: resp.StatusCode, Header: resp.Header}
	a.Body, _ = io.ReadAll(resp.Body)
	_ = json.Unmarshal(a.Body, &a.RPC)
	return a
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e-auth","version":"1"}}}`
