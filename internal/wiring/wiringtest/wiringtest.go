// Package wiringtest serves the front end assembled as bin/mcp-gemstone assembles it, on the
// in-process fake worker, for tests in other packages: what needs the worker-to-router channel
// (a question during a call, a call that becomes a task) is tested on it.
package wiringtest

import (
	"context"
	"net/http"
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

// Serve serves the assembly (wiring.Assemble: the lifetime policy and the channel, whose fake
// gems reach it over TCP) for the test's life and answers its router and base URL; tune adjusts
// the router's options.
func Serve(t testing.TB, tune ...func(*router.Options)) (*router.Server, string) {
	t.Helper()
	srv, ts := serve(t, false, tune...)
	return srv, ts.URL
}

// ServeHTTP2 is Serve over TLS with HTTP/2, as bin/mcp-gemstone serves with MCP_TLS_CERT set; it
// answers the router, the base URL and a client that trusts the test certificate and speaks
// HTTP/2.
func ServeHTTP2(t testing.TB, tune ...func(*router.Options)) (*router.Server, string, *http.Client) {
	t.Helper()
	srv, ts := serve(t, true, tune...)
	return srv, ts.URL, ts.Client()
}

func serve(t testing.TB, h2 bool, tune ...func(*router.Options)) (*router.Server, *httptest.Server) {
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
		t.Fatal("the assembly opened no worker-to-router channel, so no call can ask its client or become a task")
	}
	ts := httptest.NewUnstartedServer(asm.Server.Handler())
	if h2 {
		ts.EnableHTTP2 = true
		ts.StartTLS()
	} else {
		ts.Start()
	}
	t.Cleanup(func() {
		// As bin/mcp-gemstone stops: the HTTP server waits for the running calls for a grace
		// (short here), then the router breaks the rest, which lets their requests end.
		asm.Server.BeginShutdown()
		closed := make(chan struct{})
		go func() {
			ts.CloseClientConnections()
			ts.Close()
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(500 * time.Millisecond):
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		asm.Server.Close(ctx)
		<-closed
		asm.CloseChannel()
	})
	return asm.Server, ts
}
