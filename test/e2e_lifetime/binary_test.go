package e2elifetime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the server binary as an operator does, configured only through MCP_*
// variables, on the stand-in: they prove the lifetime knobs reach the policy.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// serverBinary builds cmd/mcp-gemstone once per run.
func serverBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "e2e-lifetime-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "mcp-gemstone")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/mcp-gemstone")
		cmd.Dir = moduleRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build ./cmd/mcp-gemstone: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type server struct {
	t        *testing.T
	url      string
	sessions string // the stand-in session directory of this server's gems
	logs     *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the binary on a free port with env added to a stand-in environment, and
// stops it with SIGTERM at the end of the test, checking that no gem outlives it.
func startServer(t *testing.T, env ...string) *server {
	t.Helper()
	standin(t) // fails plainly when the stand-in is not built
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		home = filepath.Join(moduleRoot(), "build", "standin")
	}
	sessions := t.TempDir()
	logs := &syncBuf{}
	cmd := exec.Command(serverBinary(t))
	cmd.Env = append(os.Environ(),
		"GEMSTONE="+home, "GCI_STANDIN_DIR="+sessions, "GS_PASS=swordfish",
		"MCP_PORT=0", "MCP_WORKER_USER=DataCurator", "MCP_LOG_FORMAT=json")
	cmd.Env = append(cmd.Env, env...)
	pr, pw := io.Pipe()
	cmd.Stdout = logs
	cmd.Stderr = io.MultiWriter(logs, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, sessions: sessions, logs: logs}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var l struct {
				Message, URL string
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "listening" && l.URL != "" {
				urlc <- l.URL
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("server did not stop within 20s of SIGTERM")
		}
		pw.Close()
		if n := s.liveGems(); n != 0 {
			t.Errorf("%d stand-in gem(s) outlived the server", n)
		}
	})
	select {
	case s.url = <-urlc:
	case <-time.After(15 * time.Second):
		t.Fatalf("server did not report listening; log:\n%s", logs.String())
	}
	return s
}

// liveGems counts the stand-in gems of this server that are still running.
func (s *server) liveGems() int {
	entries, _ := os.ReadDir(s.sessions)
	n := 0
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(s.sessions, e.Name()))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && alive(pid) {
			n++
		}
	}
	return n
}

func (s *server) post(sid, body string) (int, http.Header, []byte) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func (s *server) open() string {
	s.t.Helper()
	code, h, b := s.post("", fmt.Sprintf(initBody, "2025-06-18"))
	if code != http.StatusOK {
		s.t.Fatalf("initialize: %d %s", code, b)
	}
	return h.Get("Mcp-Session-Id")
}

func TestBinaryReleasesAGemAfterMCPStreamLossGraceWhenTheClientHangsUp(t *testing.T) {
	s := startServer(t, "MCP_REAPER_INTERVAL=200ms", "MCP_STREAM_LOSS_GRACE=1500ms")
	sid := s.open()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || !strings.HasPrefix(line, ":") {
		cancel()
		t.Fatalf("first line of the stream %q (%v)", line, err)
	}
	cancel() // the editor tab closes
	closed := time.Now()
	// Watched through the log, not by requests: a request would itself retract the grace.
	eventually(t, 10*time.Second, "the session released after the grace", func() bool {
		return strings.Contains(s.logs.String(), `"reason":"streamLost"`)
	})
	if el := time.Since(closed); el < 1500*time.Millisecond {
		t.Fatalf("released %v after the hang-up, inside MCP_STREAM_LOSS_GRACE=1500ms", el)
	}
	t.Logf("released %v after the hang-up (grace 1.5s)", time.Since(closed))
	if code, _, _ := s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Fatalf("request after the release: %d, want 404", code)
	}
}

func TestBinaryRefusesAnUnworkableLifetimeNamingBothValues(t *testing.T) {
	standin(t)
	cmd := exec.Command(serverBinary(t))
	cmd.Env = append(os.Environ(), "MCP_PORT=0", "MCP_IDLE_TIMEOUT=5m", "MCP_PROBE_INTERVAL=10m")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("server started (err %v); output:\n%s", err, out)
	}
	for _, want := range []string{"MCP_PROBE_INTERVAL=10m0s", "MCP_IDLE_TIMEOUT=5m0s"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Fatalf("refusal does not name %s:\n%s", want, out)
		}
	}
}
