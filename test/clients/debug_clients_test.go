//go:build proof

package clients

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The Go SDK v1.8.0 in its default mode (2026-07-28, no vendor _meta) debugs the sample's failing
// test through the debugger's tools in a GemStone session it opened: a breakpoint stops the run,
// a step moves it, a resume reaches the failed assertion, an expression evaluated in the test's
// frame sees its temporaries, and every answer holds to its declared outputSchema (call checks).
func TestGoSDKDefaultModeDebugsAFailingTestInItsSession(t *testing.T) {
	s := startOnModel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	a := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-debug")
	a.list(ctx)
	a.openSession(ctx)
	where := map[string]any{"className": "SampleSavingsAccount", "selector": "addInterest", "line": 2}
	if o := a.call(ctx, "set_breakpoint", where); o.IsError || !strings.HasPrefix(o.Text, "breakpoint set: SampleSavingsAccount>>addInterest line 2") {
		t.Fatalf("set_breakpoint: %+v", o)
	}
	test := map[string]any{"className": "SampleAccountTest", "selector": failingTest}
	if o := a.call(ctx, "debug_test", test); !strings.HasPrefix(o.Text, "p1 stopped at a breakpoint") ||
		a.last["process"] != "p1" || a.last["stop"] != "breakpoint" {
		t.Fatalf("debug_test did not stop at the breakpoint: %+v, structuredContent %v", o, a.last)
	}
	if o := a.call(ctx, "debug_step", map[string]any{"process": "p1", "kind": "over"}); !strings.HasPrefix(o.Text, "p1 stopped after step over") ||
		a.last["stop"] != "step" || a.last["step"] != "over" {
		t.Errorf("debug_step over: %+v, structuredContent %v", o, a.last)
	}
	if o := a.call(ctx, "debug_resume", map[string]any{"process": "p1"}); !strings.HasPrefix(o.Text, "p1 stopped: TestFailure") ||
		a.last["stop"] != "exception" {
		t.Errorf("debug_resume to the failed assertion: %+v, structuredContent %v", o, a.last)
	}
	if o := a.call(ctx, "debug_evaluate", map[string]any{"process": "p1", "frame": 3, "code": "savings balance"}); o.IsError || o.Text != "158" {
		t.Errorf("debug_evaluate savings balance in the test's frame: %+v, want 158", o)
	}
	if o := a.call(ctx, "debug_abandon", map[string]any{"process": "p1"}); o.IsError || a.last["state"] != "abandoned" {
		t.Errorf("debug_abandon: %+v, structuredContent %v", o, a.last)
	}
	if o := a.call(ctx, "debug_evaluate", map[string]any{"process": "p1", "frame": 1, "code": "self"}); !o.IsError || o.Kind != "notFound" ||
		!strings.Contains(o.Text, "p1 is gone: abandoned") {
		t.Errorf("an abandoned handle: %+v", o)
	}
	if o := a.call(ctx, "clear_breakpoint", where); o.IsError || o.Text != "cleared 1 breakpoint on SampleSavingsAccount>>addInterest" {
		t.Errorf("clear_breakpoint: %+v", o)
	}
	if o := a.call(ctx, "close_session", map[string]any{}); o.IsError {
		t.Errorf("close_session: %+v", o)
	}
}
