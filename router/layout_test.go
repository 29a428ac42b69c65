package router_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gemstone-mcp/mcp-gemstone/"

// deps lists the module's packages that pkgs depend on, their own included (go list -deps).
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v", pkgs, err)
	}
	var ours []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module) {
			ours = append(ours, strings.TrimPrefix(p, module))
		}
	}
	return ours
}

// The layers of docs/architecture.md: the transport and the in-process test worker reach
// nothing below the worker seam, and the router reaches none of its plug-ins (they plug into
// its Options).
func TestTheTransportReachesNeitherTheBindingNorItsPlugIns(t *testing.T) {
	for _, p := range deps(t, "../router/...", "../worker/workertest/...") {
		if p == "gemstone" || p == "worker/gciworker" {
			t.Errorf("the router or the test worker depends on %s", p)
		}
	}
	for _, p := range deps(t, ".") {
		for _, plugin := range []string{"router/auth", "router/channel", "router/metrics", "internal/wiring"} {
			if p == plugin {
				t.Errorf("package router depends on its plug-in %s", p)
			}
		}
	}
}

// Everything outside test/ is product: it may be built into a binary or imported by one, so
// none of it (its tests aside) may import a package under test/, directly or through another.
func TestNoProductPackageImportsTest(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list ../...: %v", err)
	}
	var product []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, module+"test/") {
			product = append(product, p)
		}
	}
	if len(product) < 10 {
		t.Fatalf("go list found only %d product packages: %v", len(product), product)
	}
	for _, p := range deps(t, product...) {
		if strings.HasPrefix(p, "test/") {
			t.Errorf("a product package depends on %s (go list -deps names it)", p)
		}
	}
}
