package gciworker

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the stand-in a private session directory for this run (test/standin/README.md),
// so that session numbers and stopSession: never meet another package's gems.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gciworker-test-sessions-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GCI_STANDIN_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
