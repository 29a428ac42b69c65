package gsmodel

import "github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"

// Step points, method breakpoints and stepping, as debuggers that run on real stones use them.
//
// Step points. A GsNMethod's step points are the places a debugger can stop at; `_sourceOffsets`
// answers their 1-based source offsets, numbered from 1, the home method's numbering covering
// its blocks (GemTalk/Jasper client/src/__tests__/breakpoints.integration.test.ts: offsets are
// 1-based and a three-statement method has more than two; conditionalBreakpoints.integration
// notes `_stepPointAt:` answers home-method numbering in a block frame). The model's step points
// are its sends, at the offset where the selector starts, numbered in the order the compiler
// meets them (a block argument's sends before the send that takes the block); a stone also has
// step points at assignments and returns, which the model has not. A step point is reached before
// its send, its receiver and arguments already evaluated.
//
// Breakpoints (GemTalk/Jasper breakpoints.integration.test.ts, against 3.6.2 and 3.7.5 stones):
// `setBreakAtStepPoint:` sets one, `clearBreakAtStepPoint:` removes it, a step point out of range
// is silently ignored, and breakpoints are the gem's state: never committed, untouched by an
// abort, gone at logout. They belong to the GsNMethod object: a method compiled over has none,
// while a frame still running the old one still stops at the old one's.
//
// Where a breakpoint stops. GemTalk/Jasper client/src/conditionalBreakpoints.ts: in a GCI
// execution with debugging on, a breakpoint ends the call with error 6005 and no `on:
// Breakpoint do:` handler is entered; an execution with debugging off (flags 0) does not stop
// at the breakpoints at all, which is why Jasper runs its decider so; and 3.7's in-process
// stepping serves a forked process that handles Breakpoint itself. feenkcom/gt4gemstone
// (GtGemStoneEvaluationContext>>evaluateBlock:from:) forks its evaluations with
// `breakpointLevel: 1` and an `on: Exception do:` handler that suspends the process and later
// resumes the exception; jgfoster/Jade (JadeServer64bit3x>>socketStep:inFrame:) steps such a
// process in the image. So the model stops at a breakpoint or step only in a process whose
// breakpointLevel is set, signalling a resumable Breakpoint there (6005 for a method
// breakpoint, GemTalk/Jasper BREAKPOINT_ERROR; no number for a step, which is not attested);
// the main process of a call (debugging off, as the worker's GCI calls are) does not stop; a
// forked process without a breakpointLevel that reaches one is refused by name (not attested).
// An unhandled Breakpoint ends the execution with its number, as Jasper's 6005 does.
//
// Stepping (feenkcom/gt4gemstone GtGemStoneEvaluationContext>>stepOverFrameLevel: and its
// Into/Through siblings: `setStepOverBreaksAtLevel:`, `setStepIntoBreaksAtLevel:`,
// `setStepThroughBreaksAtLevel:` on the suspended process, then `resume`). The level counts from
// the top of the process's stack when the step is set. The model's reading of the three, which
// McpKernelFactsTest pins: over stops at the next step point of that frame, or of any frame once
// that frame has returned; through also stops in a block whose home is that frame's; into stops
// at the very next step point. A block GemStone's compiler inlines (the literal blocks of
// ifTrue:, and:, whileTrue:, to:do: ... the model gives them frames of their own) counts as
// part of the frame it is written in. The code a stopped process's handler runs on its way back
// (after the resume, before the signal returns) is never stopped in.

// stepMode is a step set on a suspended process, for its next run.
type stepMode struct {
	kind   string // "over", "into" or "through"
	target *frame // the frame stepped in (its logical frame: inlined blocks are their outer's)
	index  int    // the target's place on the stack when the step was set
	seq    uint64 // the target's activation, to tell it from a later activation in a reused frame
}

// inlinedSelectors are the messages whose literal block arguments GemStone's compiler inlines
// (docs/gsmodel.md, "Processes and frames"); whileTrue: and its kin inline their receiver too.
var inlinedSelectors = map[string]bool{
	"ifTrue:": true, "ifFalse:": true, "ifTrue:ifFalse:": true, "ifFalse:ifTrue:": true,
	"and:": true, "or:": true, "ifNil:": true, "ifNotNil:": true, "ifNil:ifNotNil:": true,
	"ifNotNil:ifNil:": true, "whileTrue:": true, "whileFalse:": true, "whileTrue": true,
	"whileFalse": true, "to:do:": true, "to:by:do:": true, "timesRepeat:": true,
}

// markInlined records the block literals of a send that GemStone would inline.
func (c *compiler) markInlined(n *gscheck.SendNode) {
	if !inlinedSelectors[n.Selector] {
		return
	}
	if c.inlined == nil {
		c.inlined = map[*gscheck.BlockNode]bool{}
	}
	if b, ok := n.Receiver.(*gscheck.BlockNode); ok && len(n.Selector) > 5 && n.Selector[:5] == "while" {
		c.inlined[b] = true
	}
	for _, a := range n.Args {
		if b, ok := a.(*gscheck.BlockNode); ok {
			c.inlined[b] = true
		}
	}
}

// atStepPoint is every send's check, before the send: free unless the session has a
// breakpoint set or a process stepping.
func (s *Session) atStepPoint(f *frame, at int) {
	if s.breakCount > 0 || s.steppers > 0 {
		s.stepPoint(f, at)
	}
}

func (s *Session) stepPoint(f *frame, at int) {
	sc := s.sched
	if sc == nil {
		return // no process was ever made: this is the main process
	}
	p := sc.cur
	if p.breaking {
		return
	}
	number, text := 0, ""
	switch {
	case p.step != nil && s.stepFires(p.step, f):
		text = "a step (" + p.step.kind + ") reached its next step point"
	case s.breaks[f.method][at]:
		number, text = 6005, "a method breakpoint was reached"
	default:
		return
	}
	if p.breakLevel <= 0 {
		if p.isMain {
			return
		}
		s.refuse("a breakpoint or step reached in a forked process without a breakpointLevel: (not attested)")
		return
	}
	s.clearStep(p)
	p.breaking = true
	defer func() { p.breaking = false }()
	f.pos = at
	s.signalNew("Breakpoint", number, text, nil)
}

// logicalFrame is the frame f's code is written in, as GemStone has it: an inlined block's
// frame is its enclosing frame's.
func logicalFrame(f *frame) *frame {
	for f.block != nil && f.block.code.inlined && f.outer != nil {
		f = f.outer
	}
	return f
}

func (s *Session) stepFires(m *stepMode, f *frame) bool {
	if m.kind == "into" {
		return true
	}
	onStack := m.index < len(s.stack) && s.stack[m.index] == m.target && m.target.seq == m.seq
	if !onStack {
		return true // the frame returned or was unwound: stop wherever the run goes on
	}
	lf := logicalFrame(f)
	if lf == m.target {
		return true
	}
	return m.kind == "through" && lf.block != nil && lf.home == m.target.home
}

func (s *Session) clearStep(p *gsProcess) {
	if p.step != nil {
		p.step = nil
		s.steppers--
	}
}

// setStep is GsProcess>>setStep{Over,Into,Through}BreaksAtLevel: of a suspended process.
func (s *Session) setStep(v Value, level int, kind, sel string) Value {
	p := s.processOf(v)
	stack := s.suspendedStack(v, sel)
	if p.status == procTerminated {
		return s.refuse("a step in a terminated process")
	}
	if level < 1 || level > len(stack) {
		return s.signalNew("OutOfRange", 0, "level is not a frame of the process", nil)
	}
	target := logicalFrame(stack[len(stack)-level])
	index := -1
	for i, f := range stack {
		if f == target {
			index = i
		}
	}
	if index < 0 {
		return s.refuse("a step in a frame whose enclosing frame is not on the stack")
	}
	s.clearStep(p)
	p.step = &stepMode{kind: kind, target: target, index: index, seq: target.seq}
	s.steppers++
	return v
}

// homeSource answers m when it is a method with source whose step points the model knows.
func (s *Session) homeSource(v Value, sel string) *Method {
	m := s.homeMethodOnly(v, sel)
	if m.prim != nil || m.source == "" {
		s.refuse("%s of a native kernel method (the model has no source for it)", sel)
	}
	return m
}

func (s *Session) setBreak(v Value, n int, on bool) Value {
	m := s.homeSource(v, "setBreakAtStepPoint:")
	if n < 1 || n > len(m.steps) {
		return v // silently ignored, as on a stone (Jasper breakpoints.integration.test.ts)
	}
	at := m.steps[n-1]
	set := s.breaks[m]
	if on && !set[at] {
		if s.breaks == nil {
			s.breaks = map[*Method]map[int]bool{}
		}
		if set == nil {
			set = map[int]bool{}
			s.breaks[m] = set
		}
		set[at] = true
		s.breakCount++
	}
	if !on && set[at] {
		delete(set, at)
		s.breakCount--
	}
	return v
}

func (img *Image) stepPrims(s *Session) {
	img.prim(s, "GsNMethod", "_sourceOffsets", func(s *Session, a Value, x []Value) Value {
		m := s.homeSource(a, "_sourceOffsets")
		out := make([]Value, len(m.steps))
		for i, at := range m.steps {
			out[i] = int64(at)
		}
		return s.newArray(out)
	})
	img.prim(s, "GsNMethod", "setBreakAtStepPoint:", func(s *Session, a Value, x []Value) Value {
		return s.setBreak(a, s.argInt(x[0]), true)
	})
	img.prim(s, "GsNMethod", "clearBreakAtStepPoint:", func(s *Session, a Value, x []Value) Value {
		return s.setBreak(a, s.argInt(x[0]), false)
	})
	img.prim(s, "GsProcess", "breakpointLevel:", func(s *Session, a Value, x []Value) Value {
		s.processOf(a).breakLevel = s.argInt(x[0])
		return a
	})
	for sel, kind := range map[string]string{"setStepOverBreaksAtLevel:": "over",
		"setStepIntoBreaksAtLevel:": "into", "setStepThroughBreaksAtLevel:": "through"} {
		kind, sel := kind, sel
		img.prim(s, "GsProcess", sel, func(s *Session, a Value, x []Value) Value {
			return s.setStep(a, s.argInt(x[0]), kind, sel)
		})
	}
}
