package wiring

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest/ssetest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func options(l *workertest.Launcher) router.Options {
	return router.Options{
		Launcher: l,
		Prepare:  worker.PrepareConfig{WorkerClass: "McpServer", FrontEnd: worker.FrontEnd{Name: "wiring-test", Version: "0"}},
		RouterID: "w",
		Log:      zerolog.New(io.Discard),
	}
}

func assemble(t *testing.T, metrics bool) *httptest.Server {
	t.Helper()
	l := workertest.New()
	asm, err := Assemble(options(l), Parts{Metrics: metrics, Lifetime: lifetime.Defaults(), Stone: &workertest.Control{L: l}, Log: zerolog.New(io.Discard)})
	if err != nil {
		t.Fatalf("Assemble: %v", err)
	}
	ts := httptest.NewServer(asm.Server.Handler())
	t.Cleanup(func() {
		asm.Engine.Stop()
		ts.Close()
		asm.Server.Close(t.Context())
		asm.CloseChannel()
	})
	return ts
}

// initialize opens a session of the given revision on the server at url (its /mcp).
func initialize(t testing.TB, url, version string) string {
	t.Helper()
	c := &mcptest.Client{URL: url}
	return c.Initialize(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`"}}`)
}

func TestAssemblyWithoutAStoneReaderIsRefusedNamingIt(t *testing.T) {
	l := workertest.New()
	_, err := Assemble(options(l), Parts{Lifetime: lifetime.Defaults(), Log: zerolog.New(io.Discard)})
	if err == nil || !strings.Contains(err.Error(), "stone reader") {
		t.Fatalf("Assemble without Stone: %v, want a refusal naming the stone reader", err)
	}
}

func TestTheGETStreamIsTheSSEPathwayWithItsPrimingEvent(t *testing.T) {
	ts := assemble(t, false)
	sid := initialize(t, ts.URL+"/mcp", "2025-11-25")
	s := ssetest.Open(t, ts.URL+"/mcp", sid, "", 8)
	if s.Resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /mcp: %d", s.Resp.StatusCode)
	}
	fr := s.Next(t, 5*time.Second, ssetest.AnyFrame)
	if fr.ID == "" || fr.Retry == "" {
		t.Fatalf("first frame %+v: want the priming event (an id and a retry) of router/internal/sse", fr)
	}
}

func TestMetricsAreServedOnlyWhenAskedFor(t *testing.T) {
	for _, on := range []bool{true, false} {
		ts := assemble(t, on)
		initialize(t, ts.URL+"/mcp", "2025-06-18")
		resp, err := http.Get(ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		served := resp.StatusCode == http.StatusOK && strings.Contains(string(b), "mcp_sessions_open 1")
		if served != on {
			t.Fatalf("Metrics %v: /metrics answered %d %.80q", on, resp.StatusCode, b)
		}
	}
}
