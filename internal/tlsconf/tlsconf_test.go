package tlsconf

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"time"
)

// serve runs an HTTPS server with the Load configuration; reached counts handler calls.
func serve(t *testing.T, cfg *tls.Config) (addr string, reached *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	reached = &atomic.Int64{}
	hs := &http.Server{
		TLSConfig: cfg, ReadHeaderTimeout: 5 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reached.Add(1)
			_, _ = io.WriteString(w, "over "+r.Proto)
		}),
		ErrorLog: nil,
	}
	go func() { _ = hs.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { _ = hs.Close() })
	return ln.Addr().String(), reached
}

// writePair writes a throwaway self-signed certificate for 127.0.0.1 and localhost.
func writePair(t *testing.T, dir, cn string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	return mcptest.SelfSignedCert(t, dir, cn, "127.0.0.1", "localhost")
}

// servePair serves HTTPS with a fresh throwaway key pair loaded through Load.
func servePair(t *testing.T, cn string) (addr string, reached *atomic.Int64, cert *x509.Certificate) {
	t.Helper()
	certFile, keyFile, cert := writePair(t, t.TempDir(), cn)
	cfg, err := Load(Config{CertFile: certFile, KeyFile: keyFile})
	if err != nil {
		t.Fatal(err)
	}
	addr, reached = serve(t, cfg)
	return addr, reached, cert
}

func clientFor(cert *x509.Certificate, edit func(*tls.Config)) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	cfg := &tls.Config{RootCAs: pool}
	if edit != nil {
		edit(cfg)
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

func TestHTTPSServesWithTheThrowawayCertificate(t *testing.T) {
	addr, reached, cert := servePair(t, "first")
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		t.Run(tls.VersionName(v), func(t *testing.T) {
			resp, err := clientFor(cert, func(c *tls.Config) { c.MinVersion, c.MaxVersion = v, v }).Get("https://" + addr + "/mcp")
			if err != nil {
				t.Fatalf("TLS %x: %v", v, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.TLS == nil || resp.TLS.Version != v || !strings.HasPrefix(string(b), "over HTTP/") {
				t.Errorf("TLS %x: %d %q", v, resp.StatusCode, b)
			}
		})
	}
	if reached.Load() != 2 {
		t.Fatalf("handler reached %d times", reached.Load())
	}
}

// Old protocols and weak cipher suites are refused in the handshake.
func TestAWeakHandshakeIsRefused(t *testing.T) {
	addr, reached, cert := servePair(t, "x")
	refused := []struct {
		name string
		edit func(*tls.Config)
	}{
		{"TLS 1.1", func(c *tls.Config) { c.MinVersion, c.MaxVersion = tls.VersionTLS10, tls.VersionTLS11 }},
		{"TLS 1.2 with a static-RSA, CBC suite only", func(c *tls.Config) {
			c.MaxVersion = tls.VersionTLS12
			c.CipherSuites = []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_AES_128_GCM_SHA256}
		}},
	}
	for _, r := range refused {
		t.Run(r.name, func(t *testing.T) {
			if _, err := clientFor(cert, r.edit).Get("https://" + addr + "/mcp"); err == nil {
				t.Fatalf("%s: accepted", r.name)
			}
		})
	}
	if reached.Load() != 0 {
		t.Fatal("a refused handshake reached the handler")
	}
}

// Plaintext HTTP on the TLS port gets 400 and never reaches the handler.
func TestPlaintextHTTPOnTheTLSPortIsRefused(t *testing.T) {
	addr, reached, _ := servePair(t, "x")
	t.Run("on a raw connection", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		_, _ = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no HTTP answer to plaintext: %v", err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(b), "Client sent an HTTP request to an HTTPS server") {
			t.Fatalf("%d %q", resp.StatusCode, b)
		}
	})
	t.Run("from a plain http client", func(t *testing.T) {
		r2, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + addr + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		r2.Body.Close()
		if r2.StatusCode != 400 || reached.Load() != 0 {
			t.Fatalf("plain client: %d, handler reached %d times", r2.StatusCode, reached.Load())
		}
	})
}

func TestRenewedCertificateIsServedWithoutRestart(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := writePair(t, dir, "before")
	var offset atomic.Int64
	cfg, err := load(Config{CertFile: certFile, KeyFile: keyFile}, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	if err != nil {
		t.Fatal(err)
	}
	cn := func() string {
		c, err := cfg.GetCertificate(&tls.ClientHelloInfo{})
		if err != nil {
			t.Fatal(err)
		}
		leaf, _ := x509.ParseCertificate(c.Certificate[0])
		return leaf.Subject.CommonName
	}
	if cn() != "before" {
		t.Fatal("first certificate not served")
	}
	writePair(t, dir, "after")
	_ = os.Chtimes(certFile, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if got := cn(); got != "before" {
		t.Fatalf("the files were read again within %s: %q", checkEvery, got)
	}
	offset.Add(int64(checkEvery + time.Second))
	if got := cn(); got != "after" {
		t.Fatalf("after renewal: %q", got)
	}
	if err := os.WriteFile(certFile, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	offset.Add(int64(checkEvery + time.Second))
	if got := cn(); got != "after" {
		t.Fatalf("a broken renewal replaced the working certificate: %q", got)
	}
}

func TestLoadNamesWhatItCannotRead(t *testing.T) {
	t.Run("a missing file", func(t *testing.T) {
		_, err := Load(Config{CertFile: "/nonexistent/cert.pem", KeyFile: "/nonexistent/key.pem"})
		if err == nil || !strings.HasPrefix(err.Error(), "cannot read /nonexistent/cert.pem") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("a certificate given as its own key", func(t *testing.T) {
		certFile, _, _ := writePair(t, t.TempDir(), "x")
		if _, err := Load(Config{CertFile: certFile, KeyFile: certFile}); err == nil || !strings.Contains(err.Error(), "cannot load the key pair") {
			t.Fatalf("a certificate given as its own key: %v", err)
		}
	})
}

func TestAnyNamedFileEnablesTLS(t *testing.T) {
	if (Config{}).Enabled() || !(Config{KeyFile: "/k.pem"}).Enabled() {
		t.Fatal("Enabled: the zero Config is plain HTTP, any named file is TLS")
	}
}
