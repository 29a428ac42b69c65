// Package e2e drives bin/mcp-gemstone as a process, over real sockets, against the GCI test
// stand-in (real dlopen, real gem processes that can be killed). It needs GEMSTONE_STANDIN
// (the Makefile sets it to build/standin); without it every test fails and says so.
package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "mcp-e2e-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "mcp-gemstone")
		build := exec.Command("go", "build", "-o", binary, "./cmd/mcp-gemstone")
		build.Dir = "../.."
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: building bin/mcp-gemstone failed:", err)
			return 1
		}
		return m.Run()
	}())
}

func standinHome(t *testing.T) string {
	t.Helper()
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		t.Fatal("GEMSTONE_STANDIN is not set: run `make standin` and set GEMSTONE_STANDIN=$PWD/build/standin (make test does both)")
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "standin-gem")); err != nil {
		t.Fatalf("GEMSTONE_STANDIN=%s holds no stand-in (bin/standin-gem): %v; run `make standin`", home, err)
	}
	return home
}

// server is one bin/mcp-gemstone process on the stand-in.
type server struct {
	t       *testing.T
	cmd     *exec.Cmd
	url     string
	gemDir  string // GCI_STANDIN_DIR: one file per live gem, holding its pid
	log     *logBuffer
	exited  chan struct{}
	exitErr error
}

type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var urlInLog = regexp.MustCompile(`"url":"(http://[^"]+)"`)

// start runs the server with MCP_PORT=0 and the given extra environment (NAME=value).
func start(t *testing.T, env ...string) *server {
	t.Helper()
	home := standinHome(t)
	s := &server{t: t, gemDir: t.TempDir(), log: &logBuffer{}, exited: make(chan struct{})}
	s.cmd = exec.Command(binary)
	s.cmd.Env = append(os.Environ(),
		"GEMSTONE="+home, "GCI_LIBRARY=", "GCI_STANDIN_DIR="+s.gemDir, "GS_PASS=swordfish",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=debug")
	s.cmd.Env = append(s.cmd.Env, env...)
	pr, pw := io.Pipe()
	s.cmd.Stderr = pw
	s.cmd.Stdout = s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", binary, err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		pw.Close()
		close(s.exited)
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			s.log.Write([]byte(line + "\n"))
			if m := urlInLog.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case s.url = <-found:
	case <-s.exited:
		t.Fatalf("the server exited at start (%v):\n%s", s.exitErr, s.log)
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		t.Fatalf("the server did not say it was listening within 15 s:\n%s", s.log)
	}
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
func (s *server) stop(within time.Duration) int {
	if s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-s.exited:
	case <-time.After(within):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return -1
	}
	return s.cmd.ProcessState.ExitCode()
}

// ourGems lists the pids of live stand-in gem processes started for this server: found in
// /proc by their command line and their GCI_STANDIN_DIR, so a gem orphaned by a crash (its
// parent gone) is found too.
func (s *server) ourGems() []int {
	entries, _ := os.ReadDir("/proc")
	marker := []byte("GCI_STANDIN_DIR=" + s.gemDir + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if !bytes.Contains(cmdline, []byte("standin-gem")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
			continue // a zombie is dead; its parent has not reaped it yet
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(environ, marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// gemFiles maps the stand-in's live session numbers to gem pids.
func (s *server) gemFiles() map[string]int {
	out := map[string]int{}
	entries, _ := os.ReadDir(s.gemDir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(s.gemDir, e.Name()))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			out[e.Name()] = pid
		}
	}
	return out
}

// answer is a decoded HTTP answer.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
	RPC    struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int            `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		} `json:"error"`
	}
	Took time.Duration
	Err  error // set by async when the request itself failed
}

func (a answer) kind() string {
	if a.RPC.Error == nil {
		return ""
	}
	k, _ := a.RPC.Error.Data["kind"].(string)
	return k
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
	var rdr io.Reader
	if body != "" {
		rdr = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url, rdr)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", method, s.url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Header: resp.Header, Body: b, Took: time.Since(start)}
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &a.RPC); err != nil {
			return a, fmt.Errorf("answer is not JSON-RPC: %v: %s", err, b)
		}
	}
	return a, nil
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
	if kind != "" && a.kind() != kind {
		t.Fatalf("data.kind %q, want %q; body %s", a.kind(), kind, a.Body)
	}
}

func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
