// Package binserver runs bin/mcp-gemstone as a child process for the end-to-end tests: it builds
// the binary once per test binary, starts it with extra environment, waits for the URL it logs
// when it listens, stops it with SIGTERM and lists the stand-in gem processes a run left behind.
// It holds no opinion on what a test asserts; each test package keeps its own messages.
package binserver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// mainPackage is built by import path, so the build works from any test package's directory.
const mainPackage = "github.com/gemstone-mcp/mcp-gemstone/cmd/mcp-gemstone"

// Main builds bin/mcp-gemstone into a temporary directory, sets *binary to it, runs the tests
// and answers the exit code for os.Exit; name prefixes what it reports on stderr.
func Main(m *testing.M, name string, binary *string) int {
	dir, err := os.MkdirTemp("", "mcp-"+strings.ReplaceAll(name, "_", "-")+"-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	defer os.RemoveAll(dir)
	*binary = filepath.Join(dir, "mcp-gemstone")
	if err := Build(*binary); err != nil {
		fmt.Fprintln(os.Stderr, name+": building bin/mcp-gemstone failed:", err)
		return 1
	}
	return m.Run()
}

// Build compiles cmd/mcp-gemstone to the path out; the compiler's output goes to stderr.
func Build(out string) error {
	build := exec.Command("go", "build", "-o", out, mainPackage)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	return build.Run()
}

// StandinHome answers GEMSTONE_STANDIN, failing the test when it is unset or holds no stand-in.
func StandinHome(t testing.TB) string {
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

// LogBuffer collects a process's output; it is safe for the copying goroutines and the test.
type LogBuffer = mcptest.LogBuffer

// urlInLog finds the URL the server logs when it listens.
var urlInLog = regexp.MustCompile(`"url":"(https?://[^"]+)"`)

// Process is one running server. Exited is closed once it has exited; ExitErr (what Wait
// answered) and Cmd.ProcessState may be read only after that.
type Process struct {
	Cmd     *exec.Cmd
	Log     *LogBuffer
	Exited  chan struct{}
	ExitErr error
	found   chan string
}

// Start runs binary with the test's environment plus env (NAME=value, later ones win). Its
// stdout and stderr go to Log line by line (so lines of the two never interleave) and are
// watched for the listening URL (see WaitURL).
func Start(binary string, env ...string) (*Process, error) {
	p := &Process{Cmd: exec.Command(binary), Log: &LogBuffer{}, Exited: make(chan struct{}), found: make(chan string, 1)}
	p.Cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	p.Cmd.Stdout, p.Cmd.Stderr = pw, pw
	if err := p.Cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	// Exited closes only once every line is in Log: Wait returns when the last write reached
	// the pipe, which can be before the scanner has appended it, and a test that reads the log
	// of an exited server must find its last words there.
	logged := make(chan struct{})
	go func() {
		p.ExitErr = p.Cmd.Wait()
		pw.Close()
		<-logged
		close(p.Exited)
	}()
	go func() {
		defer close(logged)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			line := sc.Text()
			p.Log.Write([]byte(line + "\n"))
			if m := urlInLog.FindStringSubmatch(line); m != nil {
				select {
				case p.found <- m[1]:
				default:
				}
			}
		}
		// A line too long for the scanner must not block the server's writes.
		_, _ = io.Copy(io.Discard, pr)
	}()
	return p, nil
}

// WaitURL answers the URL the server logged on listening. It answers "" and exited true when
// the server exited first, and "" and false when neither happened within d (the server is
// left running: the caller decides whether to kill it).
func (p *Process) WaitURL(d time.Duration) (url string, exited bool) {
	select {
	case url = <-p.found:
		return url, false
	case <-p.Exited:
		return "", true
	case <-time.After(d):
		return "", false
	}
}

// StartListening is Start then WaitURL for a test: a server that cannot start, exits first or
// does not report listening within d fails the test with its log (and is killed).
func StartListening(t testing.TB, d time.Duration, binary string, env ...string) (*Process, string) {
	t.Helper()
	p, err := Start(binary, env...)
	if err != nil {
		t.Fatal(err)
	}
	url, exited := p.WaitURL(d)
	switch {
	case exited:
		t.Fatalf("the server exited at start (%v):\n%s", p.ExitErr, p.Log)
	case url == "":
		_ = p.Cmd.Process.Kill()
		<-p.Exited
		t.Fatalf("the server did not report listening within %v; log:\n%s", d, p.Log)
	}
	return p, url
}

// OnStandin starts binary on the GCI test stand-in and waits up to 15 s for it to listen: the
// stand-in's home, its gems registered in a directory of their own (gemDir), the control
// password, an ephemeral loopback port and JSON logs, then env (later entries win). At the
// test's end stop ends the server (and reports what was wrong with how it ended); the test's
// log then gets the server's when the test failed, and a gem that outlived the server is
// killed and fails the test.
func OnStandin(t testing.TB, binary string, stop func(*Process), env ...string) (p *Process, url, gemDir string) {
	t.Helper()
	home := StandinHome(t)
	gemDir = t.TempDir()
	p, url = StartListening(t, 15*time.Second, binary, append([]string{
		"GEMSTONE=" + home, "GCI_LIBRARY=", "GCI_STANDIN_DIR=" + gemDir, "GS_PASS=swordfish",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json"}, env...)...)
	t.Cleanup(func() {
		stop(p)
		if t.Failed() {
			t.Logf("server log:\n%s", p.Log)
		}
		if left := StandinGems(gemDir); len(left) > 0 {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Errorf("%d stand-in gem(s) outlived the server: %v", len(left), left)
		}
	})
	return p, url, gemDir
}

// Stop sends SIGTERM (unless the server has exited already) and waits up to within; it
// answers the exit code, or -1 when the server had to be killed (or was ended by a signal).
func (p *Process) Stop(within time.Duration) int {
	if !p.Terminate(within) {
		return -1
	}
	return p.Cmd.ProcessState.ExitCode()
}

// Terminate sends SIGTERM (unless the server has exited already) and waits up to within; when
// the server has not exited by then it is killed and Terminate answers false.
func (p *Process) Terminate(within time.Duration) bool {
	select {
	case <-p.Exited:
	default:
		_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-p.Exited:
		return true
	case <-time.After(within):
		_ = p.Cmd.Process.Kill()
		<-p.Exited
		return false
	}
}

// StandinGems lists the pids of live stand-in gem processes whose GCI_STANDIN_DIR is gemDir:
// found in /proc by command line and environment, so a gem orphaned by a crash (its parent
// gone) is found too.
func StandinGems(gemDir string) []int {
	entries, _ := os.ReadDir("/proc")
	marker := []byte("GCI_STANDIN_DIR=" + gemDir + "\x00")
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
		if !mcptest.Alive(pid) {
			continue // gone, or a zombie: dead, its parent has not reaped it yet
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(environ, marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// GemFiles maps the stand-in's live session numbers to gem pids, as the stand-in records
// them in gemDir (one file per live gem, holding its pid).
func GemFiles(gemDir string) map[string]int {
	out := map[string]int{}
	entries, _ := os.ReadDir(gemDir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(gemDir, e.Name()))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			out[e.Name()] = pid
		}
	}
	return out
}

// RepoRoot finds the repository root (the directory holding go.mod) above the working directory;
// go test runs in the package's own directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("binserver: no go.mod above the working directory")
		}
		dir = parent
	}
}
