package gsmodel

import (
	"strings"
	"testing"
)

// Breakpoints and stepping (steps.go): one doit per case on a class whose methods have known
// step points, its value's printString or the start of its error.
func TestSteps(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	setup := "| c | c := Object subclass: 'BpDemo' instVarNames: #() classVars: #() classInstVars: #() " +
		"poolDictionaries: #() inDictionary: UserGlobals options: #(). " +
		"#('outer\n  | a b |\n  a := 1.\n  b := self inner: a.\n  ^a + b' " +
		"'inner: x\n  | y |\n  y := x * 10.\n  ^y + 1' " +
		"'loop\n  | s |\n  s := 0.\n  #(1 2) do: [:e | s := s + e].\n  ^s printString' " +
		"'guarded: x\n  x > 0 ifTrue: [^x printString].\n  ^x negated printString') do: [:src | " +
		"c compileMethod: src dictionaries: System myUserProfile symbolList category: 'demo' environmentId: 0]. c name"
	if got := run(t, s, setup); got != "#BpDemo" && got != "'BpDemo'" {
		t.Fatalf("setup: %s", got)
	}
	// stopAt runs sel in a forked process with breakpointLevel: 1 whose Breakpoint handler logs
	// the frame below it (selector and line) and suspends; then it does what follows.
	stopAt := func(sel string, step int, then string) string {
		return "| sem proc log m note | log := OrderedCollection new. sem := Semaphore new. " +
			"m := BpDemo compiledMethodAt: #" + sel + ". m setBreakAtStepPoint: " + itoa(step) + ". " +
			"note := [:p | | f | f := p _frameContentsAt: 2. log add: (f at: 1) homeMethod selector; add: ((f at: 1) _lineNumberForIp: (f at: 2))]. " +
			"proc := [[log add: (BpDemo new " + map[string]string{"outer": "outer", "inner:": "outer", "loop": "loop", "guarded:": "guarded: 3"}[sel] +
			")] on: Breakpoint do: [:e | sem signal. proc suspend. e resume: nil]. sem signal] newProcess. " +
			"proc breakpointLevel: 1. proc resume. sem wait. note value: proc. m clearBreakAtStepPoint: " + itoa(step) + ". " + then
	}
	cases := []struct{ name, src, want string }{
		{"step points are the sends, numbered as compiled: a block's before the send it is an argument of",
			"| m | m := BpDemo compiledMethodAt: #loop. m _sourceOffsets collect: [:o | m sourceString copyFrom: o to: o + 1]",
			"anArray( '+ ', 'do', 'pr')"},
		{"step points are the sends, 1-based source offsets",
			"(BpDemo compiledMethodAt: #outer) _sourceOffsets collect: [:o | ((BpDemo compiledMethodAt: #outer) sourceString at: o)]",
			"anArray( $i, $+)"},
		{"a breakpoint stops a forked process that handles Breakpoint, and it resumes",
			stopAt("inner:", 1, "proc resume. sem wait. log"), "anOrderedCollection( #inner:, 3, 12)"},
		{"the Breakpoint is 6005, resumable and no Error",
			"| sem proc e2 m | sem := Semaphore new. m := BpDemo compiledMethodAt: #inner:. m setBreakAtStepPoint: 1. " +
				"proc := [[BpDemo new outer] on: Breakpoint do: [:e | e2 := e. e resume: nil]. sem signal] newProcess. " +
				"proc breakpointLevel: 1. proc resume. sem wait. m clearBreakAtStepPoint: 1. {e2 number. e2 isResumable. e2 isKindOf: Error}",
			"anArray( 6005, true, false)"},
		{"the main process of a call does not stop", "| m | m := BpDemo compiledMethodAt: #inner:. m setBreakAtStepPoint: 1. " +
			"[BpDemo new outer] ensure: [m clearBreakAtStepPoint: 1]", "12"},
		{"a step point out of range is ignored", "| m | m := BpDemo compiledMethodAt: #inner:. m setBreakAtStepPoint: 99. " +
			"m clearBreakAtStepPoint: 99. BpDemo new outer", "12"},
		{"step over stops at the frame's next step point",
			stopAt("outer", 1, "proc setStepOverBreaksAtLevel: 2. proc resume. sem wait. note value: proc. proc resume. sem wait. log"),
			"anOrderedCollection( #outer, 4, #outer, 5, 12)"},
		{"step into stops in the method sent",
			stopAt("outer", 1, "proc setStepIntoBreaksAtLevel: 2. proc resume. sem wait. note value: proc. proc resume. sem wait. log"),
			"anOrderedCollection( #outer, 4, #inner:, 3, 12)"},
		{"step over passes a block the frame's method sends",
			stopAt("loop", 2, "proc setStepOverBreaksAtLevel: 2. proc resume. sem wait. note value: proc. proc resume. sem wait. log"),
			"anOrderedCollection( #loop, 4, #loop, 5, '3')"},
		{"step through stops in that block",
			stopAt("loop", 2, "proc setStepThroughBreaksAtLevel: 2. proc resume. sem wait. note value: proc. proc terminate. log"),
			"anOrderedCollection( #loop, 4, #loop, 4)"},
		{"an inlined block is part of its frame: step over stops in it",
			stopAt("guarded:", 1, "proc setStepOverBreaksAtLevel: 2. proc resume. sem wait. note value: proc. proc resume. sem wait. log"),
			"anOrderedCollection( #guarded:, 2, #guarded:, 2, '3')"},
		{"an unhandled Breakpoint ends the execution with 6005",
			"| sem proc | sem := Semaphore new. (BpDemo compiledMethodAt: #inner:) setBreakAtStepPoint: 1. " +
				"proc := [BpDemo new outer. sem signal] newProcess. proc breakpointLevel: 1. proc resume. sem wait",
			"ERROR 6005"},
		{"a forked process without a breakpointLevel is refused",
			"| sem proc | sem := Semaphore new. proc := [BpDemo new outer. sem signal] newProcess. proc resume. sem wait",
			"ERROR 1 the model refuses: a breakpoint or step reached in a forked process without"},
		{"a step in the running process is refused", "GsProcess _current setStepOverBreaksAtLevel: 1", "ERROR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s:\n  %s\ngot  %s\nwant %s", c.name, c.src, got, c.want)
			}
		})
	}
}

// A step set on a process that ends before reaching a step point is forgotten with the process:
// the session's sends stop checking.
func TestAStepNeverReachedIsForgottenWhenItsProcessEnds(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	got := run(t, s, "| sem proc | sem := Semaphore new. "+
		"proc := [[nil foo] on: Error do: [:e | sem signal. proc suspend. e return: nil]. sem signal] newProcess. "+
		"proc breakpointLevel: 1. proc resume. sem wait. proc setStepOverBreaksAtLevel: 1. proc terminate. 3 + 4")
	if got != "7" || s.steppers != 0 {
		t.Fatalf("after the stepping process ended: %s, %d processes still stepping", got, s.steppers)
	}
}
