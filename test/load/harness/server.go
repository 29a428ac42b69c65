// Package harness runs bin/mcp-gemstone as a process on the GCI test stand-in for the proof
// tests (test/load, test/clients, test/nginx) and the benchmarks (bench/): it builds the binary,
// starts it on a free loopback port with its gems registered in a private directory, counts the
// gems it leaves behind, and speaks just enough MCP over HTTP to open sessions and call tools.
// It never interprets a tool; it checks ids and bytes.
package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// RepoRoot finds the repository from the working directory (go test runs in the package's).
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
			return "", errors.New("harness: no go.mod above the working directory")
		}
		dir = parent
	}
}

// BuildServer builds cmd/mcp-gemstone into dir and answers the binary's path.
func BuildServer(dir string, extraFlags ...string) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcp-gemstone")
	args := append([]string{"build"}, extraFlags...)
	args = append(args, "-o", bin, "./cmd/mcp-gemstone")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("harness: building cmd/mcp-gemstone: %v\n%s", err, out)
	}
	return bin, nil
}

// StandinHome is the stand-in product directory: GEMSTONE_STANDIN, else build/standin. It
// fails when there is no stand-in there.
func StandinHome() (string, error) {
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", err
		}
		home = filepath.Join(root, "build", "standin")
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "standin-gem")); err != nil {
		return "", fmt.Errorf("harness: no GCI stand-in at %s (bin/standin-gem): run make standin: %w", home, err)
	}
	return home, nil
}

// Server is one running bin/mcp-gemstone.
type Server struct {
	URL    string // http://127.0.0.1:PORT/mcp
	GemDir string // GCI_STANDIN_DIR of its gems
	Cmd    *exec.Cmd

	log     *LogBuffer
	exited  chan struct{}
	exitErr error
}

// Options start a Server.
type Options struct {
	Binary string   // from BuildServer
	Dir    string   // scratch directory (the gem directory goes inside)
	Env    []string // extra NAME=value, after the defaults (so they win)
}

var urlInLog = regexp.MustCompile(`"url":"(http://[^"]+)"`)

// Start runs the server on 127.0.0.1 with MCP_PORT=0 and waits until it says where it listens.
func Start(o Options) (*Server, error) {
	home, err := StandinHome()
	if err != nil {
		return nil, err
	}
	s := &Server{GemDir: filepath.Join(o.Dir, "gems"), log: &LogBuffer{}, exited: make(chan struct{})}
	if err := os.MkdirAll(s.GemDir, 0o755); err != nil {
		return nil, err
	}
	s.Cmd = exec.Command(o.Binary)
	s.Cmd.Env = append(os.Environ(),
		"GEMSTONE="+home, "GCI_LIBRARY=", "GCI_STANDIN_DIR="+s.GemDir, "GS_PASS=standin-password",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=info")
	s.Cmd.Env = append(s.Cmd.Env, o.Env...)
	pr, pw := io.Pipe()
	s.Cmd.Stdout, s.Cmd.Stderr = pw, pw
	if err := s.Cmd.Start(); err != nil {
		return nil, fmt.Errorf("harness: starting %s: %w", o.Binary, err)
	}
	go func() {
		s.exitErr = s.Cmd.Wait()
		pw.Close()
		close(s.exited)
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
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
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case s.URL = <-found:
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("harness: the server exited at start (%v):\n%s", s.exitErr, s.log)
	case <-time.After(15 * time.Second):
		_ = s.Cmd.Process.Kill()
		return nil, fmt.Errorf("harness: the server did not say it was listening within 15 s:\n%s", s.log)
	}
}

// Log is everything the server wrote so far.
func (s *Server) Log() string { return s.log.String() }

// Exited is closed when the process has exited.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// Stop sends SIGTERM and waits up to within; it answers the exit code (-1: killed after within).
func (s *Server) Stop(within time.Duration) int {
	select {
	case <-s.exited:
	default:
		_ = s.Cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-s.exited:
	case <-time.After(within):
		_ = s.Cmd.Process.Kill()
		<-s.exited
		return -1
	}
	return s.Cmd.ProcessState.ExitCode()
}

// Kill ends the server at once (and, by Cleanup, whatever gems it left).
func (s *Server) Kill() {
	_ = s.Cmd.Process.Kill()
	<-s.exited
}

// LiveGems lists the pids of live stand-in gem processes of this server: found in /proc by
// command line and GCI_STANDIN_DIR, so an orphaned gem is found too; zombies do not count.
func (s *Server) LiveGems() []int { return LiveGems(s.GemDir) }

// LiveGems lists the live stand-in gems registered under gemDir.
func LiveGems(gemDir string) []int {
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
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
			continue
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(environ, marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// KillGems SIGKILLs the given pids (cleanup after a failed test).
func KillGems(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// GemPIDs maps the stand-in's live session numbers (file names in GemDir) to gem pids.
func (s *Server) GemPIDs() map[int]int {
	out := map[int]int{}
	entries, _ := os.ReadDir(s.GemDir)
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.GemDir, e.Name()))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			out[n] = pid
		}
	}
	return out
}

// ProcStat reads a process's resident set (bytes) and CPU time (user+system) from /proc.
func ProcStat(pid int) (rss int64, cpu time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, errors.New("harness: unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+2:]))
	// Fields after the command: state is f[0]; utime f[11], stime f[12], rss (pages) f[21].
	if len(f) < 22 {
		return 0, 0, errors.New("harness: short /proc stat")
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	pages, _ := strconv.ParseInt(f[21], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return pages * int64(os.Getpagesize()), time.Duration(ut+st) * time.Second / ticks, nil
}

// LogBuffer is a goroutine-safe log sink.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// WaitFor polls cond every 10 ms until it holds or d passes.
func WaitFor(ctx context.Context, d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
