package router_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// fixture is a router on an httptest server with fake gems behind it.
type fixture struct {
	t   *testing.T
	srv *router.Server
	ts  *httptest.Server
	l   *workertest.Launcher
	log *mcptest.LogBuffer
}

func newFixture(t *testing.T, tune ...func(*router.Options, *workertest.Launcher)) *fixture {
	t.Helper()
	l := workertest.New()
	logs := &mcptest.LogBuffer{}
	o := router.Options{
		Launcher:    l,
		Login:       worker.LoginSpec{StoneNRS: "!tcp@secret-host#server!gs64stone", User: "SecretUser", Password: "hunter2"},
		Prepare:     worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID:    "r1",
		MaxSessions: 3,
		Log:         zerolog.New(logs),
	}
	for _, f := range tune {
		f(&o, l)
	}
	srv := router.New(o)
	ts := httptest.NewServer(srv.Handler())
	f := &fixture{t: t, srv: srv, ts: ts, l: l, log: logs}
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		done := make(chan struct{})
		go func() {
			srv.Close(t.Context())
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("router Close did not return within 10 s")
		}
	})
	return f
}

// in is the fixture for the subtest t: the same router, its requests failing t, not the parent.
func (f *fixture) in(t *testing.T) *fixture {
	g := *f
	g.t = t
	return &g
}

// reply is a decoded HTTP answer.
type reply = mcptest.Answer

// client sends the fixture's requests; it names no protocol revision, so a session's own holds.
func (f *fixture) client(hc *http.Client) *mcptest.Client {
	return &mcptest.Client{URL: f.ts.URL + "/mcp", HTTP: hc}
}

// do sends one request; headers are name, value pairs.
func (f *fixture) do(method, sid, body string, headers ...string) reply {
	f.t.Helper()
	return f.client(nil).Send(f.t, method, sid, body, headers...)
}

// try is a POST for goroutines other than the test's: it reports failure instead of stopping.
func (f *fixture) try(sid, body string) (reply, error) {
	return f.client(pooled).Post(context.Background(), sid, []byte(body))
}

// pooled keeps a connection per concurrent client instead of dialling for every request.
var pooled = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}

func (f *fixture) post(sid, body string, headers ...string) reply {
	f.t.Helper()
	return f.do(http.MethodPost, sid, body, headers...)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func initWith(version string) string {
	return strings.Replace(initBody, "2025-11-25", version, 1)
}

// open initializes a session and answers its id.
func (f *fixture) open() string {
	f.t.Helper()
	return f.client(nil).Initialize(f.t, initBody)
}

func call(id any, tool, args string) string { return mcptest.ToolCall(id, tool, args) }

func wantStatus(t *testing.T, r reply, status int) { t.Helper(); mcptest.WantStatus(t, r, status) }

func wantError(t *testing.T, r reply, status, code int, kind string) bool {
	t.Helper()
	return mcptest.WantError(t, r, status, code, kind)
}
