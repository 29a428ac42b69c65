package gsmodel

import (
	"strconv"
	"strings"
)

// The frames of a suspended GsProcess, read as debuggers on real stones read them.
//
// GsProcess>>_frameContentsAt: (GemTalk/Jasper client/src/debugQueries.ts getFrameInfo, which
// quotes the kernel's own comment; jgfoster/Jade JadeServer>>_sourceForProcess:frame:;
// feenkcom/gt4gemstone GtGemStoneEvaluationContext>>variableInfoAtFrameLevel:) answers nil past
// the bottom of the stack, else an Array: [1] the frame's GsNMethod (a block's own method in a
// block frame), [2] its ipOffset, [3] frameOffset (nil on 64-bit), [4] the variable context,
// [5] and [6] nil, [7] the home method in a block frame (else nil), [8] self, [9] the argument
// and temporary names (unnamed evaluation temporaries are named .t1, .t2, ...), [10] the
// receiver (the ExecBlock in a block frame), [11...] the values of [9], in order. Level 1 is
// the top of the stack. The model answers nil for [4]: nothing here reads it, and what a
// variable context holds is not modelled.
//
// localStackDepth (Jasper getStackDepth) is the number of levels. Both answer only for a process
// that is not running (GemTalk/Grail measured on a stone that the running process's stackDepth is
// 0), so the model refuses them for the running process rather than guess.
//
// The model's ip is the 1-based source offset of the send a frame is running, and
// GsNMethod>>_lineNumberForIp: (Jasper getLineForIp) maps it to the 1-based line of the
// method's sourceString; GemStone's ips are code offsets, which nothing outside the kernel reads
// except through that selector. homeMethod answers the method itself outside a block, and
// isMethodForBlock says which (Jasper getMethodBlockInfo). A doit's method answers nil to
// selector and inClass: Jasper (debugQueries.ts setBreakAtStepPointByOop) calls an executed-code
// frame's GsNMethod anonymous, with no class>>selector; the worker does not rely on it.

func (s *Session) suspendedStack(v Value, what string) []*frame {
	p := s.processOf(v)
	if p.status == procRunning {
		s.refuse("%s of the running process (GemStone answers it for a suspended one)", what)
		return nil
	}
	return p.visibleStack()
}

// visibleStack is the process's stack as its frames show it: after _trimStackToLevel:, the
// trimmed frame is on top (the goroutine still holds the frames above until it resumes).
func (p *gsProcess) visibleStack() []*frame {
	if p.trim == nil {
		return p.saved.stack
	}
	for i, f := range p.saved.stack {
		if f == p.trim {
			return p.saved.stack[:i+1]
		}
	}
	return p.saved.stack
}

// _trimStackToLevel: (feenkcom/gt4gemstone GtGemStoneEvaluationContext>>restartFrameLevel:,
// jgfoster/Jade, GemTalk/MagLev "Remove all frames above") leaves the frame at level on top, to
// run again from its start when the process resumes: its arguments are kept and its temporaries
// are nil again. The model unwinds the frames above only then, and runs none of their ensure:
// blocks (what GemStone runs there is not attested). A frame runs again the method it was
// running, not one compiled since.
type restartFrame struct{ f *frame }

func (s *Session) trimStack(v Value, level int) Value {
	stack := s.suspendedStack(v, "_trimStackToLevel:")
	p := s.processOf(v)
	if p.status == procTerminated || !p.started {
		return s.refuse("_trimStackToLevel: of a process that is %s", p.statusName())
	}
	if level < 1 || level > len(stack) {
		return s.signalNew("OutOfRange", 0, "level "+strconv.Itoa(level)+" is not a frame of the process (1 to "+
			strconv.Itoa(len(stack))+")", nil)
	}
	f := stack[len(stack)-level]
	p.trim = f
	f.pos = 0
	for i := frameArgs(f); i < len(f.vars); i++ {
		f.vars[i] = nil
	}
	return v
}

func frameArgs(f *frame) int {
	if f.block != nil {
		return f.block.code.nargs
	}
	return f.method.nargs
}

// restart runs f again once the unwinding has reached it (interp.go leaveFrame).
func (s *Session) restart(f *frame, r any) (result Value) {
	if rf, ok := r.(*restartFrame); !ok || rf.f != f {
		panic(r)
	}
	s.restartAt = nil
	f.dead = false
	seq := f.seq // the same activation, run again: a step set in it still applies
	s.enterFrame(f)
	f.seq = seq
	defer s.leaveFrame(f, &result)
	switch {
	case f.block != nil:
		return f.block.code.body(f)
	case f.method.nlr:
		return s.runHome(f)
	}
	v := f.method.body(f)
	f.dead = true
	return v
}

// _frameAt:tempAt:put: (GemTalk/Jasper debugQueries.ts, the write index of a frame variable)
// stores into the level's argument or temporary at index, in the order of slot 9's names.
func (s *Session) frameTempPut(v Value, level, index int, value Value) Value {
	stack := s.suspendedStack(v, "_frameAt:tempAt:put:")
	if level < 1 || level > len(stack) {
		return s.signalNew("OutOfRange", 0, "level "+strconv.Itoa(level)+" is not a frame of the process", nil)
	}
	f := stack[len(stack)-level]
	if index < 1 || index > len(f.vars) {
		return s.signalNew("OutOfRange", 0, "the frame has no variable "+strconv.Itoa(index), nil)
	}
	f.vars[index-1] = value
	return value
}

func (s *Session) frameContents(stack []*frame, level int) Value {
	if level < 1 || level > len(stack) {
		return nil
	}
	f := stack[len(stack)-level]
	m := f.method
	var homeMethod Value
	var receiver Value = f.self
	if f.block != nil {
		m = f.block.code.meth
		homeMethod = s.methodObject(m.home)
		receiver = f.block
	}
	names := make([]Value, len(m.names))
	for i, n := range m.names {
		if strings.HasPrefix(n, " ") {
			n = ".t" + strconv.Itoa(i+1)
		}
		names[i] = s.symbol(n)
	}
	ip := f.pos
	if ip < 1 {
		ip = 1
	}
	out := []Value{s.methodObject(m), int64(ip), nil, nil, nil, nil, homeMethod, f.self, s.newArray(names), receiver}
	return s.newArray(append(out, f.vars...))
}

// lineNumberForIp answers the 1-based line of the method's source holding offset ip.
func lineNumberForIp(m *Method, ip int) int {
	src := m.source
	if ip > len(src) {
		ip = len(src)
	}
	if ip < 1 {
		return 1
	}
	return 1 + strings.Count(src[:ip-1], "\n")
}

// homeMethodOnly refuses what the model does not know of a block's own method: which selector
// and class GemStone answers for it is not attested (Jasper resolves them through homeMethod).
func (s *Session) homeMethodOnly(v Value, sel string) *Method {
	m := s.methodOf(v)
	if m.home != nil {
		s.refuse("%s of a block's GsNMethod (send homeMethod first)", sel)
	}
	return m
}

func (img *Image) framePrims(s *Session) {
	img.prim(s, "GsProcess", "_frameContentsAt:", func(s *Session, a Value, x []Value) Value {
		return s.frameContents(s.suspendedStack(a, "_frameContentsAt:"), s.argInt(x[0]))
	})
	img.prim(s, "GsProcess", "localStackDepth", func(s *Session, a Value, x []Value) Value {
		return int64(len(s.suspendedStack(a, "localStackDepth")))
	})
	img.prim(s, "GsProcess", "_trimStackToLevel:", func(s *Session, a Value, x []Value) Value {
		return s.trimStack(a, s.argInt(x[0]))
	})
	img.prim(s, "GsProcess", "_frameAt:tempAt:put:", func(s *Session, a Value, x []Value) Value {
		return s.frameTempPut(a, s.argInt(x[0]), s.argInt(x[1]), x[2])
	})
	img.prim(s, "GsNMethod", "_lineNumberForIp:", func(s *Session, a Value, x []Value) Value {
		return int64(lineNumberForIp(s.methodOf(a), s.argInt(x[0])))
	})
	img.prim(s, "GsNMethod", "homeMethod", func(s *Session, a Value, x []Value) Value {
		if m := s.methodOf(a); m.home != nil {
			return s.methodObject(m.home)
		}
		return a
	})
	img.prim(s, "GsNMethod", "isMethodForBlock", func(s *Session, a Value, x []Value) Value {
		return s.methodOf(a).home != nil
	})
}
