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
	return p.saved.stack
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
