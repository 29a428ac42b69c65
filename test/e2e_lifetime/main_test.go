// Package e2elifetime tests the server-to-client stream and the session lifetime end to end:
// the real router on a real socket, wired to router/sse and router/lifetime exactly as the
// server wires them (router/lifetime/wire), with worker gems that are processes of the GCI
// test stand-in (test/standin, built by `make standin`; NOT GemStone). Intervals are scaled
// down so every rule is reached in seconds; the rules themselves are the production code.
// binary_test.go also runs bin/mcp-gemstone itself, configured only by MCP_* variables.
package e2elifetime

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
