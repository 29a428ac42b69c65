package e2e_model

import (
	"encoding/json"
	"strings"
	"testing"
)

// The live debugger of issue 27 through the binary: debug_test on the sample's failing test stops
// at the failed assertion with the test method's frame and its temporaries; evaluating in that
// frame sees them; after compile_method fixes the method, debug_restart_frame and debug_resume
// end green; an abandoned process is gone and says so. The subtests are the steps, in order.
func TestDebuggingAFailingTest(t *testing.T) {
	s := start(t)
	a := s.open(t)
	t.Run("debug_test stops at the failed assertion with the test's frame", func(t *testing.T) {
		stop := a.in(t).must("debug_test", map[string]any{"className": sampleTests, "selector": failingTest})
		if !strings.HasPrefix(stop, "p1 stopped: TestFailure") ||
			!strings.Contains(stop, "[3] "+sampleTests+">>"+failingTest+" (line 5): self assert: savings balance = 159") ||
			!strings.Contains(stop, "savings = ") || !strings.Contains(stop, "SampleSavingsAccount") {
			t.Fatalf("debug_test did not stop at the failed assertion with the test's frame:\n%s", stop)
		}
	})
	t.Run("debug_evaluate sees the frame's temporaries", func(t *testing.T) {
		if got := a.in(t).must("debug_evaluate", map[string]any{"process": "p1", "frame": 3, "code": "savings balance"}); got != "158" {
			t.Fatalf("debug_evaluate savings balance in the test's frame: %q, want 158", got)
		}
	})
	t.Run("after a fix, a restarted frame resumes green", func(t *testing.T) {
		a := a.in(t)
		a.must("get_method_source", addInterest())
		a.must("compile_method", compileArgs(fixedSource))
		if got := a.must("debug_restart_frame", map[string]any{"process": "p1", "frame": 3}); !strings.HasPrefix(got, "p1 restarted: frame 3") {
			t.Fatalf("debug_restart_frame: %q", got)
		}
		if got := a.must("debug_resume", map[string]any{"process": "p1"}); got != "p1 ended: the test passed" {
			t.Fatalf("debug_resume after the fix: %q, want the test to pass", got)
		}
	})
	t.Run("a handle whose run ended says so", func(t *testing.T) {
		if r := a.in(t).call("debug_resume", map[string]any{"process": "p1"}); !r.IsError || r.Kind() != "notFound" ||
			!strings.Contains(r.Text(), "p1 is gone: ended: the test passed") {
			t.Errorf("a handle whose run ended: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
		}
	})
	t.Run("a stopped process leaves the session serving", func(t *testing.T) {
		a := a.in(t)
		if got := a.must("debug_code", map[string]any{"code": "| poor |\npoor := SampleAccount owner: 'eve'.\npoor withdraw: 5"}); !strings.HasPrefix(got, "p2 stopped:") ||
			!strings.Contains(got, "SampleAccount>>withdraw:") {
			t.Fatalf("debug_code: %s", got)
		}
		if got := a.must("execute_code", map[string]any{"code": "3 + 4"}); got != "7" {
			t.Errorf("execute_code beside a stopped process: %q", got)
		}
	})
	t.Run("an abandoned process is gone and says so", func(t *testing.T) {
		a := a.in(t)
		a.must("debug_abandon", map[string]any{"process": "p2"})
		if r := a.call("debug_evaluate", map[string]any{"process": "p2", "frame": 1, "code": "poor"}); !r.IsError ||
			r.Kind() != "notFound" || !strings.Contains(r.Text(), "p2 is gone: abandoned") {
			t.Errorf("an abandoned handle: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
		}
	})
}

// debugStop is the structured content of a debugging tool's answer: where the run is and why.
type debugStop struct {
	StructuredContent struct {
		Process string `json:"process"`
		State   string `json:"state"`
		Stop    string `json:"stop"`
		Step    string `json:"step"`
		Frames  []struct {
			Method string `json:"method"`
			Line   int    `json:"line"`
		} `json:"frames"`
	} `json:"structuredContent"`
}

// stopOf runs a debugging tool that must succeed and answers its text and structured content.
func stopOf(t *testing.T, ss *session, tool string, args map[string]any) (string, debugStop) {
	t.Helper()
	raw := ss.request("tools/call", map[string]any{"name": tool, "arguments": args})
	var r toolResult
	var d debugStop
	if json.Unmarshal(raw, &r) != nil || json.Unmarshal(raw, &d) != nil || r.IsError {
		t.Fatalf("%s %v: %s", tool, args, raw)
	}
	return r.Text(), d
}

// Issue 27's "a breakpoint set on a method stops a run there", and stepping, through the binary:
// set_breakpoint on addInterest's line 2, debug_test stops there with the method's frame on top,
// debug_step over stays in that line's next step point, into enters the method it sends, and
// debug_resume goes on to the failed assertion; clear_breakpoint leaves none, and a test run
// outside the debugger passes the breakpoint by. The subtests are the steps, in order.
func TestABreakpoint(t *testing.T) {
	s := start(t)
	a := s.open(t)
	where := map[string]any{"className": "SampleSavingsAccount", "selector": "addInterest", "line": 2}
	if got := a.must("set_breakpoint", where); !strings.HasPrefix(got, "breakpoint set: SampleSavingsAccount>>addInterest line 2") {
		t.Fatalf("set_breakpoint: %q", got)
	}
	top := "[1] SampleSavingsAccount>>addInterest (line 2): self deposit: self balance * self ratePercent // 100"
	t.Run("is passed by outside the debugger", func(t *testing.T) {
		if got := a.in(t).must("run_test_method", map[string]any{"className": sampleTests, "selector": failingTest}); !strings.Contains(got, "Assertion failed") ||
			strings.Contains(got, "Breakpoint") {
			t.Errorf("run_test_method with a breakpoint set, outside the debugger: %s", got)
		}
	})
	t.Run("stops a debugged run there", func(t *testing.T) {
		text, stop := stopOf(t, a.in(t), "debug_test", map[string]any{"className": sampleTests, "selector": failingTest})
		if !strings.HasPrefix(text, "p1 stopped at a breakpoint") || !strings.Contains(text, top) {
			t.Fatalf("debug_test did not stop at the breakpoint:\n%s", text)
		}
		if sc := stop.StructuredContent; sc.Process != "p1" || sc.State != "stopped" || sc.Stop != "breakpoint" ||
			len(sc.Frames) == 0 || sc.Frames[0].Method != "SampleSavingsAccount>>addInterest" || sc.Frames[0].Line != 2 {
			t.Errorf("debug_test's structured content at the breakpoint: %+v", sc)
		}
	})
	t.Run("step over stays in the line", func(t *testing.T) {
		text, stop := stopOf(t, a.in(t), "debug_step", map[string]any{"process": "p1", "kind": "over"})
		if !strings.HasPrefix(text, "p1 stopped after step over") || !strings.Contains(text, top) ||
			stop.StructuredContent.Stop != "step" || stop.StructuredContent.Step != "over" {
			t.Errorf("debug_step over from the breakpoint: %+v\n%s", stop.StructuredContent, text)
		}
	})
	t.Run("step into enters the method sent", func(t *testing.T) {
		text, _ := stopOf(t, a.in(t), "debug_step", map[string]any{"process": "p1", "kind": "into"})
		if !strings.HasPrefix(text, "p1 stopped after step into") || !strings.Contains(text, "[1] SampleSavingsAccount>>ratePercent (line 2)") ||
			!strings.Contains(text, "[2] SampleSavingsAccount>>addInterest (line 2)") {
			t.Errorf("debug_step into ratePercent:\n%s", text)
		}
	})
	t.Run("resume goes on to the failed assertion", func(t *testing.T) {
		if got := a.in(t).must("debug_resume", map[string]any{"process": "p1"}); !strings.HasPrefix(got, "p1 stopped: TestFailure") {
			t.Errorf("debug_resume past the breakpoint: %s", got)
		}
	})
	t.Run("is listed until cleared", func(t *testing.T) {
		a := a.in(t)
		if got := a.must("list_breakpoints", map[string]any{}); !strings.Contains(got, "SampleSavingsAccount>>addInterest line 2 (step point ") {
			t.Errorf("list_breakpoints: %q", got)
		}
		if got := a.must("clear_breakpoint", where); got != "cleared 1 breakpoint on SampleSavingsAccount>>addInterest" {
			t.Errorf("clear_breakpoint: %q", got)
		}
		if got := a.must("list_breakpoints", map[string]any{}); got != "(0 breakpoints) set_breakpoint sets one" {
			t.Errorf("list_breakpoints after the clear: %q", got)
		}
	})
	t.Run("cleared, stops nothing", func(t *testing.T) {
		a := a.in(t)
		a.must("debug_abandon", map[string]any{"process": "p1"})
		if got := a.must("debug_test", map[string]any{"className": sampleTests, "selector": failingTest}); !strings.HasPrefix(got, "p2 stopped: TestFailure") {
			t.Errorf("debug_test with the breakpoint cleared: %s", got)
		}
	})
}
