// Package e2e drives bin/mcp-gemstone as a process, over real sockets, against the GCI test
// stand-in (real dlopen, real gem processes that can be killed). It needs GEMSTONE_STANDIN
// (the Makefile sets it to build/standin); without it every test fails and says so.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "e2e", &binary)) }

func standinHome(t *testing.T) string {
	t.Helper()
	return binserver.StandinHome(t)
}

// server is one bin/mcp-gemstone process on the stand-in.
type server struct {
	t      *testing.T
	proc   *binserver.Process
	url    string
	gemDir string // GCI_STANDIN_DIR: one file per live gem, holding its pid
	log    *binserver.LogBuffer
}

// start runs the server with MCP_PORT=0 and the given extra environment (NAME=value).
func start(t *testing.T, env ...string) *server {
	t.Helper()
	home := standinHome(t)
	s := &server{t: t, gemDir: t.TempDir()}
	proc, url := binserver.StartListening(t, 15*time.Second, binary, append([]string{
		"GEMSTONE=" + home, "GCI_LIBRARY=", "GCI_STANDIN_DIR=" + s.gemDir, "GS_PASS=swordfish",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=debug"}, env...)...)
	s.proc, s.log = proc, proc.Log
	s.url = url
	t.Cleanup(func() {
		s.stop(10 * time.Second)
		if t.Failed() {
			t.Logf("server log:\n%s", s.log)
		}
		if left := s.ourGems(); len(left) > 0 {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Errorf("stand-in gems left behind after the server stopped: %v", left)
		}
	})
	return s
}

// stop sends SIGTERM and waits; it answers the exit code (-1: did not exit in time).
func (s *server) stop(within time.Duration) int { return s.proc.Stop(within) }

// ourGems lists the pids of live stand-in gem processes started for this server, orphans included.
func (s *server) ourGems() []int { return binserver.StandinGems(s.gemDir) }

// gemFiles maps the stand-in's live session numbers to gem pids.
func (s *server) gemFiles() map[string]int { return binserver.GemFiles(s.gemDir) }

// answer is a decoded HTTP answer.
type answer struct {
	mcptest.Answer
	Err error // set by async when the request itself failed
}

var client = &http.Client{Timeout: 60 * time.Second}

// do sends a request; headers are name, value pairs ("Host" sets the Host header).
func (s *server) do(method, sid, body string, headers ...string) answer {
	s.t.Helper()
	a, err := s.try(method, sid, body, headers...)
	if err != nil {
		s.t.Fatal(err)
	}
	return a
}

// try is do for goroutines other than the test's: it reports failure instead of stopping.
func (s *server) try(method, sid, body string, headers ...string) (answer, error) {
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	c := &mcptest.Client{URL: s.url, HTTP: client, Protocol: "2025-11-25"}
	a, err := c.Do(context.Background(), method, sid, b, headers...)
	if err != nil {
		return answer{Answer: a}, err
	}
	if len(a.Message) > 0 {
		if _, err := a.Decode(); err != nil {
			return answer{Answer: a}, fmt.Errorf("answer is not JSON-RPC: %v: %s", err, a.Body)
		}
	}
	return answer{Answer: a}, nil
}

// async runs a POST on its own goroutine; the answer (Status 0 and Err set if the request
// failed) arrives on the channel.
func (s *server) async(sid, body string) <-chan answer {
	ch := make(chan answer, 1)
	go func() {
		a, err := s.try(http.MethodPost, sid, body)
		if err != nil {
			a.Err = err
		}
		ch <- a
	}()
	return ch
}

func (s *server) post(sid, body string, headers ...string) answer {
	s.t.Helper()
	return s.do(http.MethodPost, sid, body, headers...)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`

func initWith(v string) string { return strings.Replace(initBody, "2025-11-25", v, 1) }

// open initializes a session (and sends notifications/initialized) and answers its id.
func (s *server) open() string {
	s.t.Helper()
	a := s.post("", initBody)
	if a.Status != http.StatusOK || a.RPC.Error != nil || a.Header.Get("Mcp-Session-Id") == "" {
		s.t.Fatalf("initialize: %d %s", a.Status, a.Body)
	}
	sid := a.Header.Get("Mcp-Session-Id")
	if n := s.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); n.Status != http.StatusAccepted {
		s.t.Fatalf("notifications/initialized: %d %s", n.Status, n.Body)
	}
	return sid
}

func call(id any, tool, args string) string {
	b, _ := json.Marshal(id)
	return `{"jsonrpc":"2.0","id":` + string(b) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

func cancelOf(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`
}

func wantStatus(t *testing.T, a answer, status int) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("status %d, want %d; body %s", a.Status, status, a.Body)
	}
}

func wantError(t *testing.T, a answer, status, code int, kind string) {
	t.Helper()
	wantStatus(t, a, status)
	if a.RPC.Error == nil || a.RPC.Error.Code != code {
		t.Fatalf("want JSON-RPC error %d, got %s", code, a.Body)
	}
	if kind != "" && a.RPC.Kind() != kind {
		t.Fatalf("data.kind %q, want %q; body %s", a.RPC.Kind(), kind, a.Body)
	}
}
