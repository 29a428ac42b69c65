package e2echannel

import (
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring/wiringtest"
)

// statelessServer is the front end assembled as bin/mcp-gemstone assembles it
// (wiringtest.Serve: the lifetime policy, the channel), on in-process fixture workers that reach
// the channel over TCP; it answers the URL of /mcp.
func statelessServer(t *testing.T) string {
	t.Helper()
	_, base := wiringtest.Serve(t)
	return base + "/mcp"
}
