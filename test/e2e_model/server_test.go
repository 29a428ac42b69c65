// Package e2e_model drives bin/mcp-gemstone as a process against the executable model of
// GemStone (internal/gsmodel, in this test's process) through the GCI stand-in's gems: the real
// 45 tools of the project's Smalltalk McpServer, on the sample application. It is a model of
// GemStone, not GemStone: what passes here says the worker's logic and the GCI path hold
// together, not that a real stone behaves so (docs/gsmodel.md). It needs GEMSTONE_STANDIN (the
// Makefile sets it).
package e2e_model

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "e2e_model", &binary)) }

const protocolVersion = "2025-11-25"

// server is one bin/mcp-gemstone whose gems run the model stone's Smalltalk.
type server struct {
	t      *testing.T
	url    string
	gemDir string
	log    *binserver.LogBuffer
	stone  *modelstone.Stone
}

// start runs a fresh model stone and a server on it; each test gets its own, so what one test
// commits no other sees.
func start(t *testing.T, env ...string) *server {
	t.Helper()
	return startOn(t, modelstone.Start(t), env...)
}

// startOn runs a server on stone.
func startOn(t *testing.T, stone *modelstone.Stone, env ...string) *server {
	t.Helper()
	s := &server{t: t, stone: stone}
	proc, url, gemDir := binserver.OnStandin(t, binary, func(p *binserver.Process) {
		if code := p.Stop(30 * time.Second); code != 0 {
			t.Errorf("the server exited %d after SIGTERM, want 0", code)
		}
	}, append([]string{stone.Env(), "MCP_LOG_LEVEL=debug", "MCP_MAX_SESSIONS=6"}, env...)...)
	s.url, s.log, s.gemDir = url, proc.Log, gemDir
	return s
}

var httpClient = &http.Client{Timeout: 120 * time.Second}

// session is one MCP session on the server.
type session struct {
	t      *testing.T // the test (or subtest) that uses the session
	s      *server
	id     string
	nextID int
}

// answer is one HTTP exchange, decoded: Message is the JSON-RPC payload (an SSE stream's
// response event), or nothing.
type answer struct {
	mcptest.Answer
	Err error
}

// client speaks to the server on the sessions' revision.
func (s *server) client() *mcptest.Client {
	return &mcptest.Client{URL: s.url, HTTP: httpClient, Protocol: protocolVersion}
}

// post sends body on the session (none while sid is empty) and reads the answer, JSON or SSE.
func (s *server) post(sid string, body []byte) (answer, error) {
	a, err := s.client().DoRPC(http.MethodPost, sid, string(body))
	return answer{Answer: a}, err
}

// open initializes a session for t and sends notifications/initialized; DELETE ends it at
// t's cleanup.
func (s *server) open(t *testing.T) *session {
	t.Helper()
	a, err := s.post("", []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+protocolVersion+
		`","capabilities":{},"clientInfo":{"name":"e2e_model","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	sid := a.Header.Get("Mcp-Session-Id")
	if a.Status != http.StatusOK || a.RPC.Error != nil || sid == "" {
		t.Fatalf("initialize: %d %s", a.Status, a.Body)
	}
	ss := &session{t: t, s: s, id: sid}
	if n, err := s.post(sid, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil || n.Status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %v %d %s", err, n.Status, n.Body)
	}
	t.Cleanup(ss.delete)
	return ss
}

// in makes the subtest t the test the session's checks fail, and answers the session. The
// subtests of one session run one after another, so they take turns.
func (ss *session) in(t *testing.T) *session {
	ss.t = t
	return ss
}

func (ss *session) delete() { _, _ = ss.s.client().Delete(context.Background(), ss.id) }

// request sends a JSON-RPC request with the session's next id and fails the test on a
// transport failure or a JSON-RPC error.
func (ss *session) request(method string, params any) json.RawMessage {
	ss.t.Helper()
	ss.nextID++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": ss.nextID, "method": method, "params": params})
	if err != nil {
		ss.t.Fatal(err)
	}
	a, err := ss.s.post(ss.id, body)
	if err != nil {
		ss.t.Fatal(err)
	}
	if a.Status != http.StatusOK || a.RPC.Error != nil {
		ss.t.Fatalf("%s: %d %s", method, a.Status, a.Body)
	}
	return a.RPC.Result
}

// toolResult is a tools/call result.
type toolResult = mcptest.ToolResult

// call runs a tool and answers its result, error or not.
func (ss *session) call(tool string, args map[string]any) toolResult {
	ss.t.Helper()
	raw := ss.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		ss.t.Fatalf("%s: not a tool result: %v: %s", tool, err, raw)
	}
	return r
}

// must runs a tool that must succeed and answers its text.
func (ss *session) must(tool string, args map[string]any) string {
	ss.t.Helper()
	r := ss.call(tool, args)
	if r.IsError {
		ss.t.Fatalf("%s %v: isError (%s): %s", tool, args, r.Kind(), r.Text())
	}
	return r.Text()
}
