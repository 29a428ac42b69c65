package gciworker

import (
	"os"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// TestMain runs the tests with a stand-in session directory of their own.
func TestMain(m *testing.M) { os.Exit(mcptest.RunWithSessionDir(m, "gciworker")) }
