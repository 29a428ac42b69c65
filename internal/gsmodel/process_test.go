package gsmodel

import (
	"strings"
	"testing"
)

// The processes and frames the worker's stack reports and debugger rely on (process.go,
// frames.go): one doit per case, its value's printString or the start of its error.
func TestProcesses(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	stopAt := func(body string) string {
		return "| sem proc f m log | log := OrderedCollection new. sem := Semaphore new. " +
			"proc := [[" + body + "] on: Error do: [:e | sem signal. proc suspend. e return: nil]] newProcess. " +
			"proc resume. sem wait. "
	}
	cases := []struct{ name, src, want string }{
		{"a resumed process runs when the resumer waits",
			"| sem log proc | sem := Semaphore new. log := OrderedCollection new. " +
				"proc := [log add: 2. sem signal] newProcess. proc resume. log add: 1. sem wait. log add: 3. log",
			"anOrderedCollection( 1, 2, 3)"},
		{"a signal before the wait is kept", "| sem | sem := Semaphore new. sem signal. sem wait. #done", "#done"},
		{"a process that suspended itself has frames",
			stopAt("| a b | a := 3. b := 4. a foo: b") + "(proc _frameContentsAt: 2) size",
			"12"},
		{"frame slots: method, ip, home, self, names, receiver, values",
			stopAt("| a b | a := 3. b := 4. a foo: b") +
				"f := proc _frameContentsAt: 2. " +
				"{(f at: 1) isMethodForBlock. (f at: 7) == (f at: 1) homeMethod. f at: 8. f at: 9. (f at: 10) class name. f at: 11. f at: 12}",
			"anArray( true, true, nil, anArray( #a, #b), #ExecBlock, 3, 4)"},
		{"the ip maps to the line of the running send",
			stopAt("| a |\na := 3.\na foo") + "f := proc _frameContentsAt: 2. (f at: 1) _lineNumberForIp: (f at: 2)",
			"3"},
		{"past the bottom is nil", stopAt("nil foo") + "proc _frameContentsAt: proc localStackDepth + 1", "nil"},
		{"a doit's method has no selector or class",
			stopAt("nil foo") + "m := (proc _frameContentsAt: 2) at: 1. {m homeMethod selector. m homeMethod inClass}",
			"anArray( nil, nil)"},
		{"a block's own method refuses selector", stopAt("nil foo") + "((proc _frameContentsAt: 2) at: 1) selector",
			"ERROR 1 the model refuses: selector of a block's GsNMethod"},
		{"terminate runs the ensure blocks",
			stopAt("[nil foo] ensure: [log add: #ensured]") + "proc terminate. log",
			"anOrderedCollection( #ensured)"},
		{"the running process's frames are refused",
			"| proc | proc := nil. proc := [proc localStackDepth] newProcess. proc resume. Semaphore new wait",
			"ERROR 1 the model refuses: localStackDepth of the running process"},
		{"a wait nobody can end is refused", "Semaphore new wait",
			"ERROR 1 the model refuses: the main process waits and no process is ready"},
		{"resuming a process that is not suspended is refused",
			"| proc | proc := [nil] newProcess. proc resume. proc resume",
			"ERROR 1 the model refuses: resume of a GsProcess that is not suspended (ready)"},
		{"newProcess needs a block of no arguments", "[:x | x] newProcess", "ERROR 2101"},
		{"a trimmed frame is on top, its temporaries nil, its arguments kept",
			stopAt("[:n | | t | t := n * 2. t foo] value: 5") +
				"proc _trimStackToLevel: 2. {proc localStackDepth. (proc _frameContentsAt: 1) at: 11. (proc _frameContentsAt: 1) at: 12}",
			"anArray( 3, 5, nil)"},
		{"a trimmed frame runs again on resume, with a temporary set meanwhile",
			"| sem proc log | log := OrderedCollection new. sem := Semaphore new. " +
				"proc := [[[:n | | t | t := n * 2. log add: t. t > 6 ifTrue: [nil foo]. sem signal] value: 5] on: Error do: [:e | sem signal. proc suspend]] newProcess. " +
				"proc resume. sem wait. proc _trimStackToLevel: 3. proc _frameAt: 1 tempAt: 1 put: 3. proc resume. sem wait. log",
			"anOrderedCollection( 10, 6)"},
		{"a level past the stack cannot be trimmed", stopAt("nil foo") + "proc _trimStackToLevel: 99", "ERROR"},
		{"System _timeMs counts milliseconds", "System _timeMs > 1700000000000", "true"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s:\n  %s\ngot  %s\nwant %s", c.name, c.src, got, c.want)
			}
		})
	}
}

// A break while another process runs still ends the call: the process dies of it and the main
// process, which waits for it, fails with it.
func TestABreakInAProcessEndsTheCall(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	s.hard.Store(true)
	got := run(t, s, "| sem proc | sem := Semaphore new. proc := [[true] whileTrue: [3 + 4]. sem signal] newProcess. proc resume. sem wait")
	if !strings.HasPrefix(got, "ERROR 6004") {
		t.Fatalf("a hard break during a process: got %s", got)
	}
	if got := run(t, s, "3 + 4"); got != "7" {
		t.Fatalf("the session after the break: %s", got)
	}
}

// Logging out ends the goroutines of the session's suspended processes without running their
// ensure: blocks (the gem is gone).
func TestLogoutEndsSuspendedProcesses(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	got := run(t, s, "| sem proc | sem := Semaphore new. "+
		"proc := [[sem signal. proc suspend] ensure: [UserGlobals at: #Ensured put: true]] newProcess. "+
		"proc resume. sem wait. UserGlobals at: #Kept put: proc. proc _isSuspended")
	if got != "true" {
		t.Fatalf("the process did not suspend: %s", got)
	}
	p := s.sched
	s.Logout()
	if len(p.live) != 0 {
		t.Fatalf("processes still live after logout: %d", len(p.live))
	}
}
