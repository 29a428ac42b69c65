package gemstone

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the stand-in a private session directory for this run (test/standin/README.md),
// so that session numbers and stopSession: never meet another package's gems.
func TestMain(m *testing.M) {
	if os.Getenv(echoChildEnv) == "1" {
		os.Exit(echoChild())
	}
	dir, err := os.MkdirTemp("", "gemstone-test-sessions-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GCI_STANDIN_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
