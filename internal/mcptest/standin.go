package mcptest

import (
	"fmt"
	"os"
	"testing"
)

// RunWithSessionDir runs a package's tests with the GCI stand-in's session directory
// (GCI_STANDIN_DIR, test/standin/README.md) a fresh one of their own, so that session numbers
// and stopSession: never meet another package's gems; it answers the exit code for os.Exit.
func RunWithSessionDir(m *testing.M, name string) int {
	dir, err := os.MkdirTemp("", name+"-test-sessions-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	os.Setenv("GCI_STANDIN_DIR", dir)
	return m.Run()
}
