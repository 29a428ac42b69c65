package e2e_model

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/toolschema"
)

// The sample application's defect and its fix (internal/gsmodel/sample): interest rounds down.
const (
	sampleClass = "SampleSavingsAccount"
	sampleTests = "SampleAccountTest"
	failingTest = modelstone.FailingTest
	fixedSource = modelstone.FixedAddInterest
	rivalSource = "addInterest\n  self deposit: self balance * self ratePercent // 100 + 1"
)

func addInterest() map[string]any {
	return map[string]any{"className": sampleClass, "selector": "addInterest"}
}

func compileArgs(source string) map[string]any {
	return map[string]any{"className": sampleClass, "source": source}
}

func testClassArgs() map[string]any { return map[string]any{"className": sampleTests} }

func TestToolsListListsTheRealToolsEachWithAValidClosedObjectSchema(t *testing.T) {
	s := start(t)
	ss := s.open(t)
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(ss.request("tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	if list.NextCursor != nil {
		t.Errorf("tools/list answered a nextCursor %q: the surface is one page", *list.NextCursor)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		for _, p := range toolschema.Problems(tool.InputSchema) {
			t.Errorf("%s: inputSchema %s: %s", tool.Name, p, tool.InputSchema)
		}
		if tool.OutputSchema != nil {
			if _, err := toolschema.Compile(tool.OutputSchema); err != nil {
				t.Errorf("%s: outputSchema %v: %s", tool.Name, err, tool.OutputSchema)
			}
		}
	}
	sort.Strings(names)
	if !slices.Equal(names, modelstone.RealTools) {
		t.Fatalf("tools/list named %d tools %v, want the %d real tools %v", len(names), names, len(modelstone.RealTools), modelstone.RealTools)
	}
}

func TestCompileRunTestCommitLoopFixesTheSamplesFailingTest(t *testing.T) {
	s := start(t)
	a := s.open(t)
	before := a.must("run_test_class", testClassArgs())
	if !strings.Contains(before, "1 failed") || !strings.Contains(before, failingTest) {
		t.Fatalf("run_test_class before the fix: %q, want 1 failure naming %s", before, failingTest)
	}
	if got := a.must("list_failing_tests", map[string]any{"classNames": []string{sampleTests}}); !strings.Contains(got, failingTest) {
		t.Fatalf("list_failing_tests before the fix: %q, want %s", got, failingTest)
	}
	// The guardrail: a method this session has not read cannot be changed.
	if r := a.call("compile_method", compileArgs(fixedSource)); !r.IsError || r.Kind() != "refused" {
		t.Fatalf("compile_method before reading the method: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
	}
	if src := a.must("get_method_source", addInterest()); !strings.Contains(src, "// 100") || strings.Contains(src, "+ 99") {
		t.Fatalf("get_method_source: %q, want the sample's rounding-down addInterest", src)
	}
	a.must("compile_method", compileArgs(fixedSource))
	after := a.must("run_test_class", testClassArgs())
	if !strings.Contains(after, "4 passed") || !strings.Contains(after, "0 failed") {
		t.Fatalf("run_test_class after the fix: %q, want 4 passed, 0 failed", after)
	}
	if st := a.must("status", map[string]any{}); !strings.Contains(st, "uncommitted changes: true") {
		t.Errorf("status before the commit: %q, want uncommitted changes", st)
	}
	if r := a.call("commit", map[string]any{}); r.IsError || !strings.Contains(r.Text(), "Committed") {
		t.Fatalf("commit: isError %v: %s", r.IsError, r.Text())
	}
	if st := a.must("status", map[string]any{}); !strings.Contains(st, "uncommitted changes: false") {
		t.Errorf("status after the commit: %q, want no uncommitted changes", st)
	}
	// A session opened after the commit runs the fixed code.
	b := s.open(t)
	if got := b.must("run_test_class", testClassArgs()); !strings.Contains(got, "0 failed") {
		t.Fatalf("a new session after the commit: %q, want 0 failed", got)
	}
	if got := b.must("list_failing_tests", map[string]any{"classNames": []string{sampleTests}}); strings.Contains(got, failingTest) {
		t.Errorf("list_failing_tests after the commit still names %s: %q", failingTest, got)
	}
}

func TestASecondSessionSeesACommitOnlyAfterRefreshOrAbort(t *testing.T) {
	s := start(t)
	a, viaRefresh, viaAbort := s.open(t), s.open(t), s.open(t)
	// Both readers take their view before the commit.
	for _, reader := range []*session{viaRefresh, viaAbort} {
		if got := reader.must("get_method_source", addInterest()); strings.Contains(got, "+ 99") {
			t.Fatalf("before any commit a reader sees the fix: %q", got)
		}
	}
	a.must("get_method_source", addInterest())
	a.must("compile_method", compileArgs(fixedSource))
	a.must("commit", map[string]any{})
	for name, reader := range map[string]*session{"refresh": viaRefresh, "abort": viaAbort} {
		if got := reader.must("get_method_source", addInterest()); strings.Contains(got, "+ 99") {
			t.Errorf("the %s reader sees the commit before moving its view: %q", name, got)
		}
		if got := reader.must("run_test_class", testClassArgs()); !strings.Contains(got, "1 failed") {
			t.Errorf("the %s reader's tests see the commit before moving its view: %q", name, got)
		}
	}
	viaRefresh.must("refresh", map[string]any{})
	viaAbort.must("abort", map[string]any{})
	for name, reader := range map[string]*session{"refresh": viaRefresh, "abort": viaAbort} {
		if got := reader.must("get_method_source", addInterest()); !strings.Contains(got, "+ 99") {
			t.Errorf("after %s the reader does not see the commit: %q", name, got)
		}
		if got := reader.must("run_test_class", testClassArgs()); !strings.Contains(got, "0 failed") {
			t.Errorf("after %s the reader's tests do not run the committed fix: %q", name, got)
		}
	}
}

func TestTheSecondOfTwoConflictingCommitsIsRefused(t *testing.T) {
	s := start(t)
	_, b, r := conflictingCommits(t, s)
	// The refusal names what conflicted (System transactionConflicts): a method compiled in two
	// sessions conflicts on its class's method dictionary.
	if !strings.Contains(r.Text(), "Write-Write on the method dictionary of "+sampleClass) {
		t.Errorf("the conflict refusal does not name the conflict: %s", r.Text())
	}
	// Nothing of the refused commit was written: a fresh session sees the first one's method.
	c := s.open(t)
	if got := c.must("get_method_source", addInterest()); !strings.Contains(got, "+ 99") || strings.Contains(got, "+ 1") {
		t.Fatalf("after the refused commit a new session sees %q, want the first commit's method", got)
	}
	// Abort recovers the refused session onto the committed state.
	b.must("abort", map[string]any{})
	if got := b.must("get_method_source", addInterest()); !strings.Contains(got, "+ 99") {
		t.Fatalf("after abort the refused session sees %q, want the committed method", got)
	}
	if st := b.must("status", map[string]any{}); !strings.Contains(st, "uncommitted changes: false") {
		t.Errorf("status after abort: %q", st)
	}
}

// A long execute_code cancelled by its client; the subtests are the steps, in order.
func TestACancelledLongExecuteCode(t *testing.T) {
	s := start(t)
	ss := s.open(t)
	loop := mcptest.ToolCall(41, "execute_code", `{"code":"| n | n := 0. [true] whileTrue: [n := n + 1]. n"}`)
	done := make(chan answer, 1)
	go func() {
		a, err := s.post(ss.id, []byte(loop))
		a.Err = err
		done <- a
	}()
	// The loop is running in the model once the gem has had it a moment.
	time.Sleep(500 * time.Millisecond)
	t.Run("runs on, a ping answered beside it", func(t *testing.T) {
		if p, err := s.post(ss.id, []byte(`{"jsonrpc":"2.0","id":42,"method":"ping"}`)); err != nil || p.Status != http.StatusOK {
			t.Fatalf("ping beside the running loop: %v %d %s", err, p.Status, p.Body)
		}
		select {
		case a := <-done:
			t.Fatalf("the endless loop answered before it was cancelled: %d %s %v", a.Status, a.Body, a.Err)
		default:
		}
	})
	t.Run("ends at a break", func(t *testing.T) {
		c, err := s.post(ss.id, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41}}`))
		if err != nil || c.Status != http.StatusAccepted {
			t.Fatalf("notifications/cancelled: %v %d %s", err, c.Status, c.Body)
		}
		select {
		case a := <-done:
			if a.Err != nil || a.Status != http.StatusAccepted || len(a.Body) != 0 {
				t.Fatalf("the cancelled call answered %d %q (%v), want 202 and no body", a.Status, a.Body, a.Err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the cancelled loop did not end within 30 s")
		}
		mcptest.Eventually(t, 5*time.Second, "the log says a break ended the cancelled call", func() bool {
			log := s.log.String()
			return strings.Contains(log, "cancelled call ended") &&
				(strings.Contains(log, "ended by soft break") || strings.Contains(log, "ended by hard break"))
		})
	})
	t.Run("leaves the session serving", func(t *testing.T) {
		if got := ss.in(t).must("execute_code", map[string]any{"code": "3 + 4"}); strings.TrimSpace(got) != "7" {
			t.Fatalf("the next call after the cancellation answered %q, want 7", got)
		}
	})
}

// conflictingCommits has two sessions read and recompile the same method, then commit in turn:
// the first commits, and the second's commit, its result answered, must be refused as a
// conflict.
func conflictingCommits(t *testing.T, s *server) (a, b *session, refused toolResult) {
	t.Helper()
	a, b = s.open(t), s.open(t)
	a.must("get_method_source", addInterest())
	b.must("get_method_source", addInterest())
	a.must("compile_method", compileArgs(fixedSource))
	b.must("compile_method", compileArgs(rivalSource))
	a.must("commit", map[string]any{})
	refused = b.call("commit", map[string]any{})
	if !refused.IsError || refused.Kind() != "commitConflict" {
		t.Fatalf("the second commit: isError %v kind %q, want the conflict refused: %s", refused.IsError, refused.Kind(), refused.Text())
	}
	return a, b, refused
}
