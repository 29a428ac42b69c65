// Package harness runs bin/mcp-gemstone as a process on the GCI test stand-in for the proof
// tests (test/load, test/clients, test/nginx) and the benchmarks (bench/): it builds the binary,
// starts it on a free loopback port with its gems registered in a private directory, counts the
// gems it leaves behind, and speaks just enough MCP over HTTP to open sessions and call tools.
// It never interprets a tool; it checks ids and bytes.
package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// RepoRoot finds the repository from the working directory (go test runs in the package's).
func RepoRoot() (string, error) { return binserver.RepoRoot() }

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

	proc *binserver.Process
}

// Options start a Server.
type Options struct {
	Binary string   // from BuildServer
	Dir    string   // scratch directory (the gem directory goes inside)
	Env    []string // extra NAME=value, after the defaults (so they win)
}

// Start runs the server on 127.0.0.1 with MCP_PORT=0 and waits until it says where it listens.
func Start(o Options) (*Server, error) {
	home, err := StandinHome()
	if err != nil {
		return nil, err
	}
	s := &Server{GemDir: filepath.Join(o.Dir, "gems")}
	if err := os.MkdirAll(s.GemDir, 0o755); err != nil {
		return nil, err
	}
	s.proc, err = binserver.Start(o.Binary, append([]string{
		"GEMSTONE=" + home, "GCI_LIBRARY=", "GCI_STANDIN_DIR=" + s.GemDir, "GS_PASS=standin-password",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=info"}, o.Env...)...)
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	s.Cmd = s.proc.Cmd
	url, exited := s.proc.WaitURL(15 * time.Second)
	switch {
	case exited:
		return nil, fmt.Errorf("harness: the server exited at start (%v):\n%s", s.proc.ExitErr, s.proc.Log)
	case url == "":
		_ = s.Cmd.Process.Kill()
		return nil, fmt.Errorf("harness: the server did not say it was listening within 15 s:\n%s", s.proc.Log)
	}
	s.URL = url
	return s, nil
}

// Log is everything the server wrote so far.
func (s *Server) Log() string { return s.proc.Log.String() }

// Stop sends SIGTERM and waits up to within; it answers the exit code (-1: killed after within).
func (s *Server) Stop(within time.Duration) int { return s.proc.Stop(within) }

// LiveGems lists the pids of live stand-in gem processes of this server: found in /proc by
// command line and GCI_STANDIN_DIR, so an orphaned gem is found too; zombies do not count.
func (s *Server) LiveGems() []int { return LiveGems(s.GemDir) }

// LiveGems lists the live stand-in gems registered under gemDir.
func LiveGems(gemDir string) []int { return binserver.StandinGems(gemDir) }

// KillGems SIGKILLs the given pids (cleanup after a failed test).
func KillGems(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
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
type LogBuffer = binserver.LogBuffer

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
