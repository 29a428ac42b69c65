// Package e2e_workeruser drives bin/mcp-gemstone on the GCI test stand-in with a restricted
// worker user (MCP_WORKER_USER other than GS_USER, docs/read-only-user.md): every
// worker gem logs in with a one-time password the control session mints, and the router never
// holds a password for that user. It needs GEMSTONE_STANDIN (make test sets it); without it
// every test fails and says so.
package e2e_workeruser

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "e2e_workeruser", &binary)) }

// The stand-in starts every password it mints with this (test/standin/gem/onetime.go), so a
// log holding any minted password holds it.
const mintedPrefix = "standin-otp-"

// controlPassword is the control user's password; the worker user has none the router knows.
const controlPassword = "swordfish-control"

type server struct {
	proc     *binserver.Process
	url      string
	gemDir   string
	loginLog string // GCI_STANDIN_LOGIN_LOG: one JSON line per gem login
	log      *binserver.LogBuffer
}

// launch runs the server with extra environment; it answers once the server listens or exits.
func launch(t *testing.T, env ...string) *server {
	t.Helper()
	dir := t.TempDir()
	s := &server{gemDir: filepath.Join(dir, "sessions"), loginLog: filepath.Join(dir, "logins")}
	proc, err := binserver.Start(binary, append([]string{
		"GEMSTONE=" + binserver.StandinHome(t), "GCI_LIBRARY=", "GCI_STANDIN_DIR=" + s.gemDir, "GCI_STANDIN_LOGIN_LOG=" + s.loginLog,
		"GS_PASS=" + controlPassword, "MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=debug",
		"GS_USER=DataCurator"}, env...)...)
	if err != nil {
		t.Fatal(err)
	}
	s.proc, s.log = proc, proc.Log
	t.Cleanup(func() {
		if !proc.Terminate(15 * time.Second) {
			t.Error("the server did not stop within 15 s of SIGTERM")
		}
		if entries, _ := os.ReadDir(s.gemDir); len(entries) > 0 {
			t.Errorf("stand-in gems left registered after the server stopped: %d", len(entries))
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.log)
		}
	})
	url, exited := proc.WaitURL(45 * time.Second)
	if url == "" && !exited {
		_ = proc.Cmd.Process.Kill()
		t.Fatalf("the server neither listened nor exited within 45 s:\n%s", s.log)
	}
	s.url = url
	return s
}

// waitExit answers the exit code of a server that is expected to stop on its own.
func (s *server) waitExit(t *testing.T) int {
	t.Helper()
	select {
	case <-s.proc.Exited:
		return s.proc.Cmd.ProcessState.ExitCode()
	case <-time.After(45 * time.Second):
		t.Fatalf("the server did not exit within 45 s:\n%s", s.log)
		return -1
	}
}

// waitLog answers the log once it holds text (the router logs a failure as it answers it).
func (s *server) waitLog(t *testing.T, text string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.log.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the log did not say %q within 10 s:\n%s", text, s.log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s.log.String()
}

type rpcAnswer struct {
	Status  int
	Session string
	Result  json.RawMessage `json:"result"`
	Error   *mcptest.Error  `json:"error"`
}

func (s *server) initialize(t *testing.T) rpcAnswer {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e-workeruser","version":"0"}}}`
	c := &mcptest.Client{URL: s.url, HTTP: &http.Client{Timeout: 60 * time.Second}}
	raw, err := c.Post(context.Background(), "", []byte(body))
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	r, err := raw.Decode()
	if err != nil {
		t.Fatalf("initialize answered %d %q: %v", raw.Status, raw.Body, err)
	}
	return rpcAnswer{Status: raw.Status, Session: raw.Header.Get("Mcp-Session-Id"), Result: r.Result, Error: r.Error}
}

func (s *server) deleteSession(t *testing.T, id string) int {
	t.Helper()
	code, err := (&mcptest.Client{URL: s.url, HTTP: &http.Client{Timeout: 30 * time.Second}}).Delete(context.Background(), id)
	if err != nil {
		t.Fatalf("DELETE: %v", err)
	}
	return code
}

type loginRecord struct {
	Session int    `json:"session"`
	User    string `json:"user"`
	Flags   uint32 `json:"flags"`
}

func (s *server) logins(t *testing.T) []loginRecord {
	t.Helper()
	data, err := os.ReadFile(s.loginLog)
	if err != nil {
		t.Fatalf("the stand-in's login log: %v", err)
	}
	var out []loginRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r loginRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("login log line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

const (
	loginQuiet   = 0x10
	loginOneTime = 0x400
)

func TestWorkerGemsLogInAsTheWorkerUserWithOneTimePasswordsThatNeverReachTheLog(t *testing.T) {
	s := launch(t, "MCP_WORKER_USER=McpReadOnly")
	if s.url == "" {
		t.Fatalf("the server exited at start (%v):\n%s", s.proc.ExitErr, s.log)
	}
	if !strings.Contains(s.log.String(), "checked: the grant is in place") {
		t.Errorf("the start did not report the grant check:\n%s", s.log)
	}
	var sessions []string
	for i := 0; i < 2; i++ {
		a := s.initialize(t)
		if a.Status != http.StatusOK || a.Error != nil || a.Session == "" || !bytes.Contains(a.Result, []byte(`"protocolVersion"`)) {
			t.Fatalf("initialize %d: status %d session %q error %+v result %s", i+1, a.Status, a.Session, a.Error, a.Result)
		}
		sessions = append(sessions, a.Session)
	}
	var workers, controls int
	for _, r := range s.logins(t) {
		switch {
		case r.User == "McpReadOnly" && r.Flags&loginOneTime != 0 && r.Flags&loginQuiet != 0:
			workers++
		case r.User == "DataCurator" && r.Flags&loginOneTime == 0:
			controls++
		default:
			t.Errorf("a gem logged in as %q with flags %#x: want McpReadOnly one-time (workers) or DataCurator plain (control)", r.User, r.Flags)
		}
	}
	if workers != 2 || controls != 1 {
		t.Errorf("logins: %d one-time McpReadOnly workers, %d DataCurator control sessions; want 2 and 1", workers, controls)
	}
	for _, id := range sessions {
		if code := s.deleteSession(t, id); code != http.StatusOK && code != http.StatusNoContent && code != http.StatusAccepted {
			t.Errorf("DELETE %s: %d", id, code)
		}
	}
	_ = s.proc.Cmd.Process.Signal(syscall.SIGTERM)
	if code := s.waitExit(t); code != 0 {
		t.Errorf("exit code after SIGTERM: %d", code)
	}
	log := s.log.String()
	if strings.Contains(log, mintedPrefix) || strings.Contains(log, controlPassword) {
		t.Fatalf("the log holds a password:\n%s", log)
	}
	if data, _ := os.ReadFile(s.loginLog); bytes.Contains(data, []byte(mintedPrefix)) || bytes.Contains(data, []byte(controlPassword)) {
		t.Fatalf("the gems' login records hold a password:\n%s", data)
	}
}

func TestAMissingGrantStopsTheStartNamingTheScriptToRun(t *testing.T) {
	s := launch(t, "MCP_WORKER_USER=baduser") // the stand-in has no grant for baduser
	if code := s.waitExit(t); code != 1 {
		t.Fatalf("exit code %d, want 1 (refused start):\n%s", code, s.log)
	}
	log := s.log.String()
	if !strings.Contains(log, "./setup-read-only-user.sh") || !strings.Contains(log, "2151") {
		t.Fatalf("the log must name the script to run and the GemStone error:\n%s", log)
	}
	if s.url != "" {
		t.Fatalf("the server listened (%s) although the grant is missing", s.url)
	}
}

func TestAnUnreachableStone(t *testing.T) {
	s := launch(t, "MCP_WORKER_USER=McpReadOnly", "GS_STONE=nostone")
	if s.url == "" {
		t.Fatalf("the server refused to start on an unreachable stone (%v):\n%s", s.proc.ExitErr, s.log)
	}
	t.Run("only warns at start", func(t *testing.T) {
		if !strings.Contains(s.log.String(), "could not check the one-time-password grant") {
			t.Errorf("no warning that the grant could not be checked:\n%s", s.log)
		}
	})
	t.Run("is named by each session's refusal", func(t *testing.T) { unreachableStoneRefusal(t, s) })
}

func unreachableStoneRefusal(t *testing.T, s *server) {
	a := s.initialize(t)
	if a.Error == nil || a.Session != "" {
		t.Fatalf("initialize on an unreachable stone: status %d session %q error %+v", a.Status, a.Session, a.Error)
	}
	if n, _ := a.Error.Data["number"].(float64); int(n) != 4065 || strings.Contains(a.Error.Message, "nostone") {
		t.Errorf("initialize error %q data %v: want GemStone 4065 and no stone name", a.Error.Message, a.Error.Data)
	}
}

func TestAWorkerUserThatCannotBeMintedForRefusesTheStart(t *testing.T) {
	s := launch(t, "MCP_WORKER_USER=Mcp.ReadOnly")
	if code := s.waitExit(t); code != 2 {
		t.Fatalf("exit code %d, want 2 (bad configuration):\n%s", code, s.log)
	}
	if !strings.Contains(s.log.String(), "letters, digits and _") {
		t.Fatalf("the log must say what a worker user id may hold:\n%s", s.log)
	}
}

// A refused one-time login tells the client what to provision, and nothing more.
func TestARefusedOneTimeLoginTellsOnlyWhatToProvision(t *testing.T) {
	// The grant check at start passes (it only mints); every worker login is then refused.
	s := launch(t, "MCP_WORKER_USER=McpReadOnly", "GCI_STANDIN_ONETIME_LOGINS=refused")
	if s.url == "" {
		t.Fatalf("the server exited at start (%v):\n%s", s.proc.ExitErr, s.log)
	}
	a := s.initialize(t)
	if a.Error == nil || a.Session != "" {
		t.Fatalf("initialize with refused one-time logins: status %d session %q error %+v", a.Status, a.Session, a.Error)
	}
	msg := a.Error.Message
	if kind, _ := a.Error.Data["kind"].(string); kind != errkind.WorkerUserNotProvisioned {
		t.Errorf("data.kind %q, want workerUserNotProvisioned", kind)
	}
	if n, _ := a.Error.Data["number"].(float64); int(n) != 4051 {
		t.Errorf("data.number %v, want 4051", a.Error.Data["number"])
	}
	if !strings.Contains(msg, "4051") || !strings.Contains(msg, "./setup-read-only-user.sh") || !strings.Contains(msg, "MCP_WORKER_USER") {
		t.Errorf("message %q must name 4051, the setting and the script to run", msg)
	}
	if strings.Contains(msg, "McpReadOnly") || strings.Contains(msg, "DataCurator") || strings.Contains(msg, mintedPrefix) {
		t.Errorf("message %q names a user or a password", msg)
	}
	if log := s.waitLog(t, "refused the worker login as McpReadOnly"); strings.Contains(log, mintedPrefix) {
		t.Errorf("the log must name the refused user and hold no password:\n%s", log)
	}
}
