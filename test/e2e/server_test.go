// Package e2e drives bin/mcp-gemstone as a process, over real sockets, against the GCI test
// stand-in (real dlopen, real gem processes that can be killed). It needs GEMSTONE_STANDIN
// (the Makefile sets it to build/standin); without it every test fails and says so.
package e2e

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "e2e", &binary)) }

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
	s := &server{t: t}
	s.proc, s.url, s.gemDir = binserver.OnStandin(t, binary, func(p *binserver.Process) { p.Stop(10 * time.Second) },
		append([]string{"MCP_LOG_LEVEL=debug"}, env...)...)
	s.log = s.proc.Log
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

// client speaks to the server with the sessions' revision.
func (s *server) client() *mcptest.Client {
	return &mcptest.Client{URL: s.url, HTTP: client, Protocol: "2025-11-25"}
}

// stream opens the session's GET stream, to be read within 10 s.
func (s *server) stream(sid string) *http.Response {
	s.t.Helper()
	c := s.client()
	c.HTTP = &http.Client{Timeout: 10 * time.Second}
	return c.Stream(s.t, sid, "")
}

// try is do for goroutines other than the test's: it reports failure instead of stopping.
func (s *server) try(method, sid, body string, headers ...string) (answer, error) {
	a, err := s.client().DoRPC(method, sid, body, headers...)
	return answer{Answer: a}, err
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

// started is async for a call the test then acts on: it answers once the call has had 300 ms
// to reach its gem.
func (s *server) started(sid, body string) <-chan answer {
	done := s.async(sid, body)
	time.Sleep(300 * time.Millisecond)
	return done
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
	sid := s.client().Initialize(s.t, initBody)
	if n := s.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); n.Status != http.StatusAccepted {
		s.t.Fatalf("notifications/initialized: %d %s", n.Status, n.Body)
	}
	return sid
}

func call(id any, tool, args string) string { return mcptest.ToolCall(id, tool, args) }

func cancelOf(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`
}

func wantStatus(t *testing.T, a answer, status int) {
	t.Helper()
	mcptest.WantStatus(t, a.Answer, status)
}

func wantError(t *testing.T, a answer, status, code int, kind string) bool {
	t.Helper()
	return mcptest.WantError(t, a.Answer, status, code, kind)
}

// in is s for the subtest t: its helpers report to, and stop, t. A subtest that failed through
// its parent's *testing.T would stop the parent's goroutine from its own, which the testing
// package reports as a misuse instead of the failure.
func (s *server) in(t *testing.T) *server {
	c := *s
	c.t = t
	return &c
}
