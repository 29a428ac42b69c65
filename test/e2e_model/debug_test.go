package e2e_model

import (
	"strings"
	"testing"
)

// The live debugger of issue 27 through the binary: debug_test on the sample's failing test stops
// at the failed assertion with the test method's frame and its temporaries; evaluating in that
// frame sees them; after compile_method fixes the method, debug_restart_frame and debug_resume
// end green; an abandoned process is gone and says so.
func TestDebugATestFixItRestartAndResumeGreen(t *testing.T) {
	s := start(t)
	a := s.open(t)

	stop := a.must("debug_test", map[string]any{"className": sampleTests, "selector": failingTest})
	if !strings.HasPrefix(stop, "p1 stopped: TestFailure") ||
		!strings.Contains(stop, "[3] "+sampleTests+">>"+failingTest+" (line 5): self assert: savings balance = 159") ||
		!strings.Contains(stop, "savings = ") || !strings.Contains(stop, "SampleSavingsAccount") {
		t.Fatalf("debug_test did not stop at the failed assertion with the test's frame:\n%s", stop)
	}
	if got := a.must("debug_evaluate", map[string]any{"process": "p1", "frame": 3, "code": "savings balance"}); got != "158" {
		t.Fatalf("debug_evaluate savings balance in the test's frame: %q, want 158", got)
	}

	a.must("get_method_source", addInterest())
	a.must("compile_method", compileArgs(fixedSource))
	if got := a.must("debug_restart_frame", map[string]any{"process": "p1", "frame": 3}); !strings.HasPrefix(got, "p1 restarted: frame 3") {
		t.Fatalf("debug_restart_frame: %q", got)
	}
	if got := a.must("debug_resume", map[string]any{"process": "p1"}); got != "p1 ended: the test passed" {
		t.Fatalf("debug_resume after the fix: %q, want the test to pass", got)
	}
	if r := a.call("debug_resume", map[string]any{"process": "p1"}); !r.IsError || r.Kind() != "notFound" ||
		!strings.Contains(r.Text(), "p1 is gone: ended: the test passed") {
		t.Errorf("a handle whose run ended: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
	}

	// An abandoned process is gone and says so; the session serves on meanwhile.
	if got := a.must("debug_code", map[string]any{"code": "| poor |\npoor := SampleAccount owner: 'eve'.\npoor withdraw: 5"}); !strings.HasPrefix(got, "p2 stopped:") ||
		!strings.Contains(got, "SampleAccount>>withdraw:") {
		t.Fatalf("debug_code: %s", got)
	}
	if got := a.must("execute_code", map[string]any{"code": "3 + 4"}); got != "7" {
		t.Errorf("execute_code beside a stopped process: %q", got)
	}
	a.must("debug_abandon", map[string]any{"process": "p2"})
	if r := a.call("debug_evaluate", map[string]any{"process": "p2", "frame": 1, "code": "poor"}); !r.IsError ||
		r.Kind() != "notFound" || !strings.Contains(r.Text(), "p2 is gone: abandoned") {
		t.Errorf("an abandoned handle: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
	}
}
