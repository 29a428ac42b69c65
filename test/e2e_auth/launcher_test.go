package e2eauth

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// launcherSandbox copies the launcher scripts into a directory of their own, with the fake
// gslist (test/fakes) finding a stone and a netldi through lock files, and the real server
// binary on the stand-in; it answers the environment to run them with.
func launcherSandbox(t *testing.T, port int, extra ...string) (dir string, env []string) {
	t.Helper()
	home := binserver.StandinHome(t)
	repo, _ := filepath.Abs("../..")
	dir = t.TempDir()
	for _, d := range []string{"repo", "srv/locks", "home", "none"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"gs-env.sh", "server-process.sh", "run-auth-server.sh", "stop-server.sh"} {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "repo", f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(dir, "srv/locks/gs64stone..LCK"), []byte("Stone 3.7.5 56820\n"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "srv/locks/gs64ldi..LCK"), []byte("Netldi 3.7.5 65166\n"), 0o644)
	env = append(os.Environ(),
		"PATH="+filepath.Join(repo, "test/fakes")+":"+os.Getenv("PATH"), "HOME="+filepath.Join(dir, "home"),
		"GEMSTONE="+home, "GCI_LIBRARY=", "GCI_STANDIN_DIR="+t.TempDir(), "GS_ENV_DEFAULT_GLOBAL_DIRS="+filepath.Join(dir, "none"),
		"GEMSTONE_GLOBAL_DIR="+filepath.Join(dir, "srv"), "GS_STONE=gs64stone", "GS_USER=DataCurator", "GS_PASS=swordfish",
		"MCP_BIN="+binary, fmt.Sprintf("MCP_PORT=%d", port), "MCP_START_TIMEOUT=20", "MCP_STOP_GRACE=10", "MCP_WORKER_USER=")
	return dir, append(env, extra...)
}

func runScript(t *testing.T, dir string, env []string, script string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("timeout", append([]string{"90", "./" + script}, args...)...)
	cmd.Dir, cmd.Env = filepath.Join(dir, "repo"), env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// run-auth-server.sh starts the TLS server and stop-server.sh stops it; the subtests run in order.
func TestTheAuthServersScripts(t *testing.T) {
	is := authtest.NewIssuer(t)
	port := freePort(t)
	certFile, keyFile, pool := throwawayCert(t)
	resource := fmt.Sprintf("https://127.0.0.1:%d/mcp", port)
	dir, env := launcherSandbox(t, port, "MCP_HOST=0.0.0.0", "MCP_OIDC_ISSUER="+is.URL(), "MCP_RESOURCE="+resource,
		"MCP_REQUIRED_SCOPES=mcp:use", "MCP_TLS_CERT="+certFile, "MCP_TLS_KEY="+keyFile)
	out, code := runScript(t, dir, env, "run-auth-server.sh")
	t.Cleanup(func() { runScript(t, dir, env, "stop-server.sh", fmt.Sprint(port)) })
	if code != 0 || !strings.Contains(out, fmt.Sprintf("serving https://127.0.0.1:%d/mcp", port)) ||
		!strings.Contains(out, fmt.Sprintf("metadata  https://127.0.0.1:%d/.well-known/oauth-protected-resource/mcp", port)) {
		t.Fatalf("run-auth-server.sh: %d\n%s", code, out)
	}
	s := &server{t: t, addr: fmt.Sprintf("127.0.0.1:%d", port)}
	s.client = clientTrusting(pool)
	t.Run("the server started refuses a request without a token", func(t *testing.T) {
		s := s.in(t)
		if a := s.do(s.client, http.MethodPost, "", "", initializeBody); a.Status != 401 {
			t.Fatalf("no token: %d", a.Status)
		}
	})
	t.Run("the server started serves a token of its issuer", func(t *testing.T) {
		s := s.in(t)
		a := s.do(s.client, http.MethodPost, is.Sign(is.Claims(resource, "alice", "mcp:use")), "", initializeBody)
		if a.Status != 200 || a.Header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("initialize: %d %s", a.Status, a.Body)
		}
	})
	t.Run("stop-server.sh stops it cleanly", func(t *testing.T) {
		out, code := runScript(t, dir, env, "stop-server.sh", fmt.Sprint(port))
		if code != 0 || !strings.Contains(out, "stopped") {
			t.Fatalf("stop-server.sh: %d\n%s", code, out)
		}
		log, _ := os.ReadFile(filepath.Join(dir, "repo/build/run", fmt.Sprintf("mcp-gemstone-%d.log", port)))
		if !strings.Contains(string(log), "every worker gem logged out") || !strings.Contains(string(log), "OpenID discovery done") {
			t.Fatalf("the server log lacks the clean stop or the discovery:\n%s", log)
		}
	})
}

func TestRunAuthServerRefusesABadSetting(t *testing.T) {
	port := freePort(t)
	base := []string{"MCP_OIDC_ISSUER=https://id.example", "MCP_RESOURCE=https://gs.example/mcp"}
	for _, c := range []struct {
		name string
		env  []string
		want string
	}{
		{"a worker user", append(base[:2:2], "MCP_WORKER_USER=McpReadOnly"), "MCP_WORKER_USER=McpReadOnly is refused in the network-facing mode"},
		{"plaintext off loopback", append(base[:2:2], "MCP_HOST=0.0.0.0"), "MCP_HOST=0.0.0.0 is not loopback and no TLS is configured"},
		{"no issuer", []string{"MCP_RESOURCE=https://gs.example/mcp"}, "MCP_OIDC_ISSUER is not set"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, env := launcherSandbox(t, port, c.env...)
			out, code := runScript(t, dir, env, "run-auth-server.sh")
			if code != 1 || !strings.Contains(out, c.want) {
				t.Fatalf("%s: %d\n%s", c.name, code, out)
			}
			if _, err := os.Stat(filepath.Join(dir, "repo/build/run")); err == nil {
				t.Fatal("a refused start left a pid file or log directory")
			}
		})
	}
}
