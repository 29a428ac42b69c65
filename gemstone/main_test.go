package gemstone

import (
	"os"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// TestMain runs the echo child when asked to, and otherwise the tests with a stand-in session
// directory of their own.
func TestMain(m *testing.M) {
	if os.Getenv(echoChildEnv) == "1" {
		os.Exit(echoChild())
	}
	os.Exit(mcptest.RunWithSessionDir(m, "gemstone"))
}
