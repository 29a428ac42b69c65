//go:build proof

// Package load holds bounded load and fault tests: bin/mcp-gemstone as a process on the GCI
// test stand-in (real gem processes), driven over loopback. They are built only with the
// "proof" tag (make proof-test), so that the race-instrumented unit run of make test does not
// also carry 128,000 calls; each test bounds its own time.
package load

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

var binary string

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "load", &binary)) }

// start runs a server for one test; at cleanup it is stopped and must leave no gem behind.
func start(t *testing.T, env ...string) *harness.Server {
	t.Helper()
	s, err := harness.Start(harness.Options{Binary: binary, Dir: t.TempDir(), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		code := s.Stop(30 * time.Second)
		if left := s.LiveGems(); len(left) > 0 {
			harness.KillGems(left)
			t.Errorf("stand-in gems left alive after the server stopped: %v", left)
		}
		if code != 0 && !t.Failed() {
			t.Errorf("the server exited %d after SIGTERM, want 0", code)
		}
		if t.Failed() {
			log := s.Log()
			if len(log) > 20000 {
				log = "...\n" + log[len(log)-20000:]
			}
			t.Logf("server log:\n%s", log)
		}
	})
	return s
}

func client(s *harness.Server) *harness.Client {
	return &harness.Client{URL: s.URL, HTTP: harness.NewHTTPClient(8, 60*time.Second), Protocol: harness.ProtocolVersion}
}

func bounded(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
