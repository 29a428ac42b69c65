//go:build proof

// Package nginx puts a real nginx (Debian's) in front of bin/mcp-gemstone on the stand-in, with
// the configuration in deploy/nginx/mcp-gemstone.conf turned into a loopback test setup (ports,
// a generated certificate, log paths; the several-routers block uncommented for scale-out), and
// drives the server through it: TLS termination, a call, the GET stream staying open past two
// keepalives, Last-Event-ID, DELETE, and two routers with session affinity.
//
// It needs nginx on the PATH (apt-get install nginx; .ci/run installs it); without it every
// test fails and says so.
package nginx

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

var binary string

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "nginx", &binary)) }

// ServerName is the public name in deploy/nginx/mcp-gemstone.conf.
const ServerName = "mcp.example.com"

func startRouter(t *testing.T, env ...string) *harness.Server {
	t.Helper()
	env = append([]string{"MCP_MAX_SESSIONS=none", "MCP_ALLOWED_HOSTS=" + ServerName}, env...)
	return harness.StartForTest(t, "router", harness.Options{Binary: binary, Dir: t.TempDir(), Env: env})
}

func port(t *testing.T, rawURL string) string {
	t.Helper()
	u := strings.TrimPrefix(rawURL, "http://")
	_, p, err := net.SplitHostPort(strings.TrimSuffix(u, "/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	return p
}

// proxy is one running nginx.
type proxy struct {
	httpPort, httpsPort string
	pool                *x509.CertPool
	dir                 string
}

// startNginx runs nginx with deploy/nginx/mcp-gemstone.conf adapted to loopback: its listen
// ports, certificate, log files and upstream ports. routers maps router ids to ports; with one
// entry under "" the single-router upstream is used, otherwise the several-routers block.
func startNginx(t *testing.T, routers map[string]string) *proxy {
	t.Helper()
	nginxBin, err := exec.LookPath("nginx")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/nginx"); statErr == nil {
			nginxBin = "/usr/sbin/nginx"
		} else {
			t.Fatal("nginx is not installed (apt-get install nginx; .ci/run installs it)")
		}
	}
	root, err := harness.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	deploy, err := os.ReadFile(filepath.Join(root, "deploy", "nginx", "mcp-gemstone.conf"))
	if err != nil {
		t.Fatalf("deploy/nginx/mcp-gemstone.conf: %v", err)
	}
	p := &proxy{httpPort: freePort(t), httpsPort: freePort(t), dir: t.TempDir()}
	certFile, keyFile, pool := makeCert(t, p.dir)
	p.pool = pool

	conf := string(deploy)
	replace := func(old, new string) {
		t.Helper()
		if !strings.Contains(conf, old) {
			t.Fatalf("deploy/nginx/mcp-gemstone.conf no longer holds %q: update this test's adaptation", old)
		}
		conf = strings.ReplaceAll(conf, old, new)
	}
	replace("listen 80;", "listen 127.0.0.1:"+p.httpPort+";")
	replace("listen [::]:80;", "")
	replace("listen 443 ssl;", "listen 127.0.0.1:"+p.httpsPort+" ssl;")
	replace("listen [::]:443 ssl;", "")
	replace("/etc/letsencrypt/live/mcp.example.com/fullchain.pem", certFile)
	replace("/etc/letsencrypt/live/mcp.example.com/privkey.pem", keyFile)
	replace("/var/log/nginx/mcp-gemstone.access.log", filepath.Join(p.dir, "access.log"))
	if single, ok := routers[""]; ok && len(routers) == 1 {
		replace("server 127.0.0.1:8000;", "server 127.0.0.1:"+single+";")
	} else {
		// Scale-out: uncomment the several-routers block and route on it, as its comment says.
		lines := strings.Split(conf, "\n")
		inBlock := false
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "# map $http_mcp_session_id"):
				inBlock = true
			case inBlock && strings.HasPrefix(l, "# ...and in"):
				inBlock = false
				lines[i] = ""
				continue
			}
			if inBlock {
				lines[i] = strings.TrimPrefix(strings.TrimPrefix(l, "# "), "#")
			}
		}
		conf = strings.Join(lines, "\n")
		for id, port := range routers {
			conf = regexp.MustCompile(`~\^`+id+`-\s+127\.0\.0\.1:\d+;`).ReplaceAllString(conf, "~^"+id+"-    127.0.0.1:"+port+";")
		}
		n := 0
		conf = regexp.MustCompile(`(?m)^(\s+)server 127\.0\.0\.1:800[12];`).ReplaceAllStringFunc(conf, func(s string) string {
			n++
			return strings.Replace(s, "800"+strconv.Itoa(n), routers["r"+strconv.Itoa(n)], 1)
		})
		replace("proxy_pass http://mcp_gemstone;\n\n", "proxy_pass http://$mcp_router;\n\n")
		replace("server 127.0.0.1:8000;", "server 127.0.0.1:"+routers["r1"]+";")
	}
	site := filepath.Join(p.dir, "mcp-gemstone.conf")
	if err := os.WriteFile(site, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`daemon off;
master_process on;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log info;
events { worker_connections 1024; }
http {
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[2]s;
}
`, p.dir, site)
	if os.Geteuid() == 0 {
		main = "user root;\n" + main
	}
	mainConf := filepath.Join(p.dir, "nginx.conf")
	if err := os.WriteFile(mainConf, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(nginxBin, "-t", "-p", p.dir, "-e", filepath.Join(p.dir, "error.log"), "-c", mainConf).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t refused the adapted configuration: %v\n%s\n%s", err, out, conf)
	}
	cmd := exec.Command(nginxBin, "-p", p.dir, "-e", filepath.Join(p.dir, "error.log"), "-c", mainConf)
	var stderr harness.LogBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt) // SIGINT: fast shutdown
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(p.dir, "error.log"))
			t.Logf("nginx error log:\n%s%s", stderr.String(), log)
		}
	})
	if !harness.WaitFor(context.Background(), 10*time.Second, func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+p.httpsPort)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("nginx did not listen on %s", p.httpsPort)
	}
	return p
}

// client reaches https://mcp.example.com/mcp through the proxy, trusting only the generated
// certificate (so the test proves TLS termination, not a skipped verification).
func (p *proxy) client(conns int) *harness.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: p.pool, ServerName: ServerName, MinVersion: tls.VersionTLS12},
		MaxIdleConnsPerHost: conns,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			port := p.httpsPort
			if strings.HasSuffix(addr, ":80") {
				port = p.httpPort
			}
			return dialer.DialContext(ctx, "tcp", "127.0.0.1:"+port)
		},
	}
	return &harness.Client{URL: "https://" + ServerName + "/mcp", HTTP: &http.Client{Transport: tr, Timeout: 60 * time.Second}, Protocol: harness.ProtocolVersion}
}

func makeCert(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	// localhost: the conformance suite's URL. evil.example.com: the suite's DNS-rebinding
	// check forges that Host, and Node checks the certificate against it; naming it here
	// lets the forged request reach nginx and the router, whose Host gate must refuse it.
	certFile, keyFile, cert := mcptest.SelfSignedCert(t, dir, ServerName, ServerName, "localhost", "evil.example.com")
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// openStream opens GET /mcp through the proxy and answers a reader of its lines.
func openStream(t *testing.T, ctx context.Context, c *harness.Client, sid string, headers ...string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", harness.ProtocolVersion)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		t.Fatalf("GET stream through nginx: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp, bufio.NewReader(resp.Body)
}
