//go:build proof

package harness

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// StartForTest starts a server for one test. At cleanup it is stopped with SIGTERM and must
// exit 0 within 30 s and leave no gem alive; its log is printed when the test failed. what
// names the process in those messages ("server", "router").
func StartForTest(t testing.TB, what string, o Options) *Server {
	t.Helper()
	s, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		code := s.Stop(30 * time.Second)
		if left := s.LiveGems(); len(left) > 0 {
			KillGems(left)
			t.Errorf("stand-in gems left alive after the %s stopped: %v", what, left)
		}
		if code != 0 {
			t.Errorf("the %s exited %d after SIGTERM, want 0", what, code)
		}
		if t.Failed() {
			t.Logf("%s log:\n%s", what, s.Log())
		}
	})
	return s
}

// Kill ends the server at once (and, by Cleanup, whatever gems it left).
func (s *Server) Kill() {
	_ = s.Cmd.Process.Kill()
	<-s.proc.Exited
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
