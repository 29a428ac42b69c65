// Package modelstone starts the executable model of GemStone (internal/gsmodel) in the test's own
// process, seeded as `make demo` seeds it: the project's Smalltalk worker (smalltalk/core) and
// the sample application (internal/gsmodel/sample). The GCI stand-in's gems reach it through
// GSMODEL_STONE, so a bin/mcp-gemstone started with Env serves the real tools. It is a model of
// GemStone for tests, not GemStone.
package modelstone

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gsmodel"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// RealTools is the default tool surface of the Smalltalk McpServer the stone serves (docs/tools.md).
var RealTools = []string{
	"abort", "add_dictionary", "clear_breakpoint", "close_session", "commit", "compile_class_definition", "compile_method",
	"debug_abandon", "debug_code", "debug_evaluate", "debug_restart_frame", "debug_resume", "debug_set_temp",
	"debug_step", "debug_test", "delete_class",
	"delete_method", "describe_class", "describe_test_failure", "execute_code", "export_class_source",
	"find_implementors", "find_references_to", "find_senders", "get_class_definition", "get_class_hierarchy",
	"get_method_source", "list_all_classes", "list_breakpoints", "list_classes", "list_dictionaries", "list_dictionary_entries",
	"list_failing_tests", "list_methods", "list_test_classes", "open_session", "pending_changes", "refresh", "remove_dictionary", "run_test_class",
	"run_test_method", "search_method_source", "set_breakpoint", "set_class_comment", "status",
}

// The sample application's defect (internal/gsmodel/sample): SampleSavingsAccount>>addInterest
// rounds down, so FailingTest fails until FixedAddInterest is compiled.
const (
	FailingTest      = "testInterestIsRoundedUp"
	FixedAddInterest = "addInterest\n  self deposit: (self balance * self ratePercent + 99) // 100"
)

// Files are the topaz files the stone files in, relative to the repository root.
var Files = []string{"smalltalk/core/load.gs", "internal/gsmodel/sample/load.gs"}

// GrailFiles are Files with the optional Grail toolset (smalltalk/grail) and, before it, the test
// double of Grail's API it runs against in the model (smalltalk/tests/grail/double). The stone
// then holds McpGrailToolset; a server serves it only when MCP_TOOLSETS names it.
var GrailFiles = []string{"smalltalk/core/load.gs", "internal/gsmodel/sample/load.gs",
	"smalltalk/tests/grail/double/load.gs", "smalltalk/grail/load.gs"}

// GrailCheckout is the double's stand-in Grail checkout, relative to the repository root.
const GrailCheckout = "smalltalk/tests/grail/double/checkout"

// GrailTools are the nine tools of McpGrailToolset (docs/tools.md).
var GrailTools = []string{"compile_python", "describe_python_class", "eval_python", "find_python_senders",
	"get_python_source", "list_python_methods", "python_module_state", "run_python_tests", "search_python_source"}

// Stone is one running model stone.
type Stone struct {
	Sock string // the Unix socket its gems dial
	log  *lines
}

// Env is the environment a bin/mcp-gemstone on the stand-in needs to serve this stone's tools.
func (s *Stone) Env() string { return "GSMODEL_STONE=" + s.Sock }

// GemLog is what the worker wrote to its gem log (GsFile gciLogServer:) so far.
func (s *Stone) GemLog() string { return s.log.String() }

// Start files the worker and the sample in, commits and serves gems until the test ends. The
// socket lives in a short directory of its own: a Unix socket path is limited to about 100
// bytes, which a t.TempDir() under a long test name can exceed. Start it before the server, so
// the server (and its gems) stop first at cleanup.
func Start(t testing.TB) *Stone {
	t.Helper()
	return StartFiles(t, Files)
}

// StartFiles is Start filing in files (relative to the repository root) instead of Files.
func StartFiles(t testing.TB, files []string) *Stone {
	t.Helper()
	root, err := binserver.RepoRoot()
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
	st, err := gsmodel.StartStone(root, files, s.Sock, &fileIn, gsmodel.Options{Log: s.log.add})
	if err != nil {
		t.Fatalf("the model stone did not start: %v\nfile-in output:\n%s", err, fileIn.String())
	}
	t.Cleanup(func() {
		if err := st.Stop(); err != nil {
			t.Errorf("stopping the model stone: %v", err)
		}
		if t.Failed() {
			t.Logf("model gem log:\n%s", s.GemLog())
			t.Logf("the model's hashed collections iterated in the order of seed %d (replay: %s=%d)",
				st.Image.HashSeed(), gsmodel.HashSeedEnv, st.Image.HashSeed())
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
