package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// Metrics count sessions, calls and escalation steps, and carry no session id.
func TestMetricsThroughTheAssembly(t *testing.T) {
	cfg, err := config.Load([]string{"-request-timeout", "100ms"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	launcher := workertest.New()
	opts := routerOptions(cfg, launcher, zerolog.New(io.Discard))
	asm, err := wiring.Assemble(opts, wiring.Parts{Metrics: true, Lifetime: cfg.Lifetime, Stone: &workertest.Control{L: launcher}, Version: buildVersion(), Log: zerolog.New(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	defer asm.CloseChannel()
	defer asm.Engine.Stop()
	srv := asm.Server
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Close(t.Context())
	c := &mcptest.Client{URL: ts.URL + "/mcp"}
	post := func(sid, body string) mcptest.Answer { return c.Send(t, http.MethodPost, sid, body) }
	sid := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`).Header.Get("Mcp-Session-Id")
	post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
	post(sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":5000}}}`)
	deadline := time.Now().Add(3 * time.Second)
	var text string
	for time.Now().Before(deadline) {
		resp, err := http.Get(ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text = string(b)
		if strings.Contains(text, `mcp_call_endings_total{step="softBreak"} 1`) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, want := range []string{
		"mcp_sessions_open 1",
		`mcp_calls_total{method="tools/call",outcome="ok"} 1`,
		`mcp_calls_total{method="tools/call",outcome="requestTimeout"} 1`,
		`mcp_calls_total{method="initialize",outcome="ok"} 1`,
		`mcp_call_endings_total{step="softBreak"} 1`,
		`mcp_build_info{version="` + buildVersion() + `"} 1`,
	} {
		t.Run(want, func(t *testing.T) {
			if !strings.Contains(text, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		})
	}
	t.Run("no session id", func(t *testing.T) {
		if strings.Contains(text, sid) {
			t.Fatal("a session id reached /metrics")
		}
	})
}
