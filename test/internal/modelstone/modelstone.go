// Package modelstone starts the executable model of GemStone (test/gsmodel) in the test's own
// process, seeded as `make demo` seeds it: the project's Smalltalk worker (smalltalk/core) and
// the sample application (test/gsmodel/sample). The GCI stand-in's gems reach it through
// GSMODEL_STONE, so a bin/mcp-gemstone started with Env serves the real tools. It is a model of
// GemStone for tests, not GemStone.
package modelstone

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/test/gsmodel"
)

// Files are the topaz files the stone files in, relative to the repository root.
var Files = []string{"smalltalk/core/load.gs", "test/gsmodel/sample/load.gs"}

// Stone is one running model stone.
type Stone struct {
	Sock string // the Unix socket its gems dial
	log  *lines
}

// Env is the environment a bin/mcp-gemstone on the stand-in needs to serve this stone's tools.
func (s *Stone) Env() string { return "GSMODEL_STONE=" + s.Sock }

// GemLog is what the worker wrote to its gem log (GsFile gciLogServer:) so far.
func (s *Stone) GemLog() string { return s.log.String() }

// RepoRoot finds the repository root (the directory holding go.mod) above the working directory.
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
			return "", errors.New("modelstone: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Start files the worker and the sample in, commits and serves gems until the test ends. The
// socket lives in a short directory of its own: a Unix socket path is limited to about 100
// bytes, which a t.TempDir() under a long test name can exceed. Start it before the server, so
// the server (and its gems) stop first at cleanup.
func Start(t testing.TB) *Stone {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "gsm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &Stone{Sock: filepath.Join(dir, "stone.sock"), log: &lines{}}
	var fileIn strings.Builder
	st, err := gsmodel.StartStone(root, Files, s.Sock, &fileIn, s.log.add)
	if err != nil {
		t.Fatalf("the model stone did not start: %v\nfile-in output:\n%s", err, fileIn.String())
	}
	t.Cleanup(func() {
		if err := st.Stop(); err != nil {
			t.Errorf("stopping the model stone: %v", err)
		}
		if t.Failed() {
			t.Logf("model gem log:\n%s", s.GemLog())
		}
	})
	return s
}

// lines collects log lines from the stone's sessions, which run on goroutines of their own.
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(&l.b, line)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
