// Package e2elifetime tests the server-to-client stream and the session lifetime end to end:
// the real router on a real socket, assembled with its lifetime policy and worker-to-router
// channel as the server assembles it (internal/wiring), with worker gems that are processes of
// the GCI test stand-in (test/standin, built by `make standin`; NOT GemStone). Intervals are
// scaled down so every rule is reached in seconds; the rules themselves are the production code.
// binary_test.go and stalled_test.go also run bin/mcp-gemstone itself (through
// test/internal/binserver), configured only by MCP_* variables.
package e2elifetime

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// readingsFile is where the stand-in's control session reads the stone readings on every call.
var readingsFile string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "e2e-lifetime-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// A private session directory: session numbers and stopSession: never meet another
	// package's gems.
	sessions := filepath.Join(dir, "sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GCI_STANDIN_DIR", sessions)
	readingsFile = filepath.Join(dir, "readings")
	if err := os.WriteFile(readingsFile, []byte("0 -1"), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GCI_STANDIN_STONE_READINGS_FILE", readingsFile)
	code := binserver.Main(m, "e2e_lifetime", &binary)
	os.RemoveAll(dir)
	os.Exit(code)
}
