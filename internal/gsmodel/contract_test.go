package gsmodel

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The contract fixtures of test/contract, replayed by the project's own Smalltalk runner
// (McpContractFixtures) through the byte entry of a real McpServer in the model: the same files
// the Go tests hold the stand-in's fixture worker to.
func TestContractFixturesPassThroughTheSmalltalkWorker(t *testing.T) {
	root := repoRoot(t)
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	tz := NewTopaz(s, io.Discard)
	tz.Dir = root
	for _, f := range []string{"smalltalk/core/load.gs", "smalltalk/tests/load.gs"} {
		if err := tz.RunFile(f); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, "test", "contract")
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no contract cases in %s (%v)", dir, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, "'"+strings.TrimSuffix(filepath.Base(f), ".json")+"'")
	}
	src := "McpContractFixtures reportOn: '" + dir + "' cases: #(" + strings.Join(names, " ") + ") placeholders: " +
		"(Dictionary new at: 'WORKER_CLASS' put: 'McpServer'; at: 'ARGS_TOOL' put: 'get_class_definition'; " +
		"at: 'ARGS_TOOL_ARG' put: 'className'; yourself)"
	v, errText, _, ok := s.Execute(src)
	if !ok {
		t.Fatalf("the runner failed: %s", errText)
	}
	report, _ := s.str(v)
	want := "contract: " + strconv.Itoa(len(files)) + " passed, 0 failed"
	if !strings.HasSuffix(report, want) {
		t.Errorf("contract fixtures in the model:\n%s\nwant the last line %q", report, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "prepare.json")); err != nil {
		t.Fatal(err)
	}
}
