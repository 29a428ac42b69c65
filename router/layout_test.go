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

// The layers of docs/architecture.md: the transport and the fake worker reach nothing below the
// worker seam, and the router reaches none of its plug-ins (they plug into its Options).
func TestTheTransportReachesNeitherTheBindingNorItsPlugIns(t *testing.T) {
	for _, p := range deps(t, "../router/...", "../worker/fakeworker") {
		if p == "gemstone" || p == "worker/gciworker" {
			t.Errorf("the router or the fake worker depends on %s", p)
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
