package e2echannel

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// statelessServer is the front end assembled as bin/mcp-gemstone assembles it (wiring.Assemble:
// the lifetime policy, the channel), on in-process fixture workers that reach the channel over
// TCP; it answers the URL of /mcp.
func statelessServer(t *testing.T) string {
	t.Helper()
	return assembled(t) + "/mcp"
}

// assembled serves an assembled front end for the test's life and answers its base URL; tune
// adjusts the options.
func assembled(t *testing.T, tune ...func(*router.Options)) string {
	t.Helper()
	l := workertest.New()
	o := router.Options{
		Launcher: l,
		Prepare:  worker.PrepareConfig{WorkerClass: "McpServer"},
		RouterID: "r1",
		Log:      zerolog.Nop(),
	}
	for _, f := range tune {
		f(&o)
	}
	asm, err := wiring.Assemble(o, wiring.Parts{Lifetime: lifetime.Defaults(), Stone: &workertest.Control{L: l}, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if asm.Hub == nil {
		t.Fatal("the assembly opened no worker-to-router channel")
	}
	ts := httptest.NewServer(asm.Server.Handler())
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		asm.Server.Close(ctx)
		asm.CloseChannel()
	})
	return ts.URL
}
