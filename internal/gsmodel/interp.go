package gsmodel

import (
	"fmt"
	"math/big"
)

// The interpreter: message lookup, method and block activation, non-local return.

type cacheKey struct {
	cls *Object
	sel string
}

// classOf answers the class of any value.
func (s *Session) classOf(v Value) *Object {
	k := s.img.k
	switch x := v.(type) {
	case nil:
		return k.UndefinedObject
	case bool:
		return k.Boolean
	case int64:
		return k.SmallInteger
	case *big.Int:
		return k.LargeInteger
	case float64:
		return k.SmallDouble
	case Char:
		return k.Character
	case *Block:
		return k.ExecBlock
	case *Object:
		return x.cls
	}
	panic(fmt.Sprintf("gsmodel: a Go value of type %T reached Smalltalk", v))
}

// lookup finds the method for sel starting at cls, through the session's method cache.
func (s *Session) lookup(cls *Object, sel string) *Method {
	key := cacheKey{cls, sel}
	if m, ok := s.mcache[key]; ok {
		return m
	}
	var found *Method
	if sym := s.existingSymbol(sel); sym != nil {
		for k := cls; k != nil; {
			cd := s.rd(k).class
			if m := s.methodIn(cd, sym); m != nil {
				found = m
				break
			}
			k = cd.superclass
		}
	}
	s.mcache[key] = found
	return found
}

// sendSite is one send in compiled code, with the last lookup it made: a method found for a
// class stays good until the session's cache is flushed (a class changed, the view moved), so a
// send that meets the same class again skips the lookup. Sessions run Smalltalk one at a time
// (under the image's interpreter lock when several share a stone), so a site is never used by
// two at once.
type sendSite struct {
	sel   string
	s     *Session
	epoch uint64
	cls   *Object
	m     *Method
}

func (site *sendSite) lookup(s *Session, cls *Object) *Method {
	if site.s == s && site.epoch == s.cacheEpoch && site.cls == cls {
		return site.m
	}
	m := s.lookup(cls, site.sel)
	site.s, site.epoch, site.cls, site.m = s, s.cacheEpoch, cls, m
	return m
}

// sendAt1 sends site's one-argument selector to rcv.
func (s *Session) sendAt1(site *sendSite, rcv, arg Value) Value {
	m := site.lookup(s, s.classOf(rcv))
	if m == nil {
		return s.notUnderstood(rcv, site.sel, []Value{arg})
	}
	return s.invoke1(m, rcv, arg)
}

// sendAt sends site's selector to rcv.
func (s *Session) sendAt(site *sendSite, rcv Value, args []Value) Value {
	m := site.lookup(s, s.classOf(rcv))
	if m == nil {
		return s.notUnderstood(rcv, site.sel, args)
	}
	return s.invoke(m, rcv, args)
}

func (s *Session) send(rcv Value, sel string, args []Value) Value {
	cls := s.classOf(rcv)
	m := s.lookup(cls, sel)
	if m == nil {
		return s.notUnderstood(rcv, sel, args)
	}
	return s.invoke(m, rcv, args)
}

func (s *Session) superSend(defining *Object, rcv Value, sel string, args []Value) Value {
	sup := s.rd(defining).class.superclass
	var m *Method
	if sup != nil {
		m = s.lookup(sup, sel)
	}
	if m == nil {
		return s.notUnderstood(rcv, sel, args)
	}
	return s.invoke(m, rcv, args)
}

// maxDepth bounds the Smalltalk call depth; past it the model signals AlmostOutOfStack, as a
// gem does before it runs out of stack.
const maxDepth = 20000

func (s *Session) invoke(m *Method, rcv Value, args []Value) (result Value) {
	s.checkInterrupt()
	if m.prim != nil {
		return m.prim(s, rcv, args)
	}
	f := s.newFrame(m.nvars)
	f.self, f.method, f.s = rcv, m, s
	f.home = f
	copy(f.vars, args)
	s.enterFrame(f)
	defer s.leaveFrame(f, &result)
	return s.run(m, f)
}

// run runs a compiled method in its frame f.
func (s *Session) run(m *Method, f *frame) Value {
	if !m.nlr {
		v := m.body(f)
		f.dead = true
		if !m.makesBlocks {
			s.releaseFrame(f)
		}
		return v
	}
	return s.runHome(f)
}

// invoke1 is invoke of a method of one argument, without an argument slice for compiled code.
func (s *Session) invoke1(m *Method, rcv, arg Value) (result Value) {
	if m.prim != nil {
		s.checkInterrupt()
		return m.prim(s, rcv, []Value{arg})
	}
	s.checkInterrupt()
	f := s.newFrame(m.nvars)
	f.self, f.method, f.s = rcv, m, s
	f.home = f
	f.vars[0] = arg
	s.enterFrame(f)
	defer s.leaveFrame(f, &result)
	return s.run(m, f)
}

// runHome runs a method whose blocks may return from it, catching their returns.
func (s *Session) runHome(f *frame) (result Value) {
	defer func() {
		f.dead = true
		if r := recover(); r != nil {
			if nlr, ok := r.(*nonLocalReturn); ok && nlr.home == f {
				result = nlr.value
				return
			}
			panic(r)
		}
	}()
	return f.method.body(f)
}

// callBlock evaluates a block with arguments; the caller has checked the count.
func (s *Session) callBlock(b *Block, args []Value) (result Value) {
	if len(args) != b.code.nargs {
		return s.signalNew("ArgumentError", 2101, fmt.Sprintf("a block of %d arguments was sent %d", b.code.nargs, len(args)), nil)
	}
	s.checkInterrupt()
	f := s.newFrame(b.code.nvars)
	f.self, f.method, f.outer, f.home, f.s, f.block = b.outer.self, b.outer.method, b.outer, b.outer.home, s, b
	copy(f.vars, args)
	s.enterFrame(f)
	defer s.leaveFrame(f, &result)
	v := b.code.body(f)
	if !b.code.makesBlocks {
		s.releaseFrame(f)
	}
	return v
}

func (s *Session) value(b Value, args ...Value) Value {
	if blk, ok := b.(*Block); ok {
		return s.callBlock(blk, args)
	}
	sel := []string{"value", "value:", "value:value:", "value:value:value:", "value:value:value:value:"}[len(args)]
	return s.send(b, sel, args)
}

// notUnderstood signals MessageNotUnderstood (2010), with the model-gap note only where evidence
// says a stone answers (gaps.go).
func (s *Session) notUnderstood(rcv Value, sel string, args []Value) Value {
	if name, ok := s.refusedClassOf(rcv); ok {
		return s.refuse("%s>>#%s: %s is a class a stone has (%s) that the model does not model",
			name, sel, name, refusedClasses[name])
	}
	if m := s.lookup(s.classOf(rcv), "doesNotUnderstand:"); m != nil && !m.kernel {
		msg := s.newObject(s.img.k.Message)
		s.ivarPut(msg, 0, s.symbol(sel))
		s.ivarPut(msg, 1, s.newArray(args))
		return s.invoke(m, rcv, []Value{msg})
	}
	text := fmt.Sprintf("%s does not understand  #%s", article(s.className(s.classOf(rcv))), sel) +
		s.gapNote(s.classOf(rcv), sel)
	ex := s.makeException("MessageNotUnderstood", 2010, "", nil)
	st := s.wr(ex)
	s.setExField(st, "gsDetails", s.newString(text))
	s.setExField(st, "gsArgs", s.newArray([]Value{rcv, s.symbol(sel), s.newArray(args)}))
	return s.signal(ex)
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// respondsTo answers whether a value's class (or an ancestor) implements sel.
func (s *Session) respondsTo(v Value, sel string) bool {
	return s.lookup(s.classOf(v), sel) != nil
}

func (s *Session) className(cls *Object) string {
	cd := s.rd(cls).class
	if cd.isMeta {
		return s.rd(cd.thisClass).class.name + " class"
	}
	return cd.name
}

func (s *Session) isKindOf(v Value, cls *Object) bool {
	for k := s.classOf(v); k != nil; k = s.rd(k).class.superclass {
		if k == cls {
			return true
		}
	}
	return false
}

func (s *Session) inheritsFrom(cls, anc *Object) bool {
	for k := s.rd(cls).class.superclass; k != nil; k = s.rd(k).class.superclass {
		if k == anc {
			return true
		}
	}
	return false
}

// checkInterrupt raises a pending soft break (from the gem's break frame) at a send boundary.
func (s *Session) checkInterrupt() {
	s.checkMemory()
	if s.hard.Load() {
		s.hard.Store(false)
		panic(hardBreak{})
	}
	if s.interrupt.Load() {
		s.interrupt.Store(false)
		s.signalNew("ControlInterrupt", errSoftBreak, "the call was ended by a soft break", nil)
	}
	s.maybeYield()
}

// enter counts one level of Smalltalk (a method, a block, a nested printString); past maxDepth
// it signals AlmostOutOfStack, as a gem does before its stack runs out, so that runaway
// recursion ends the one execution and never the model's process.
func (s *Session) enter() {
	s.depth++
	if s.depth > maxDepth {
		s.depth -= 100 // room for the handler
		s.signalNew("AlmostOutOfStack", 3139, "the model's stack limit was reached (runaway recursion?)", nil)
	}
}

func (s *Session) leave() { s.depth-- }

// enterFrame is enter for an activation: it is also pushed on the running process's stack,
// where GsProcess>>_frameContentsAt: finds it while the process is suspended (frames.go).
func (s *Session) enterFrame(f *frame) {
	s.enter()
	s.frameSeq++
	f.seq = s.frameSeq
	s.stack = append(s.stack, f)
}

func (s *Session) leaveFrame(f *frame, result *Value) {
	s.depth--
	s.stack = s.stack[:len(s.stack)-1]
	if s.restartAt == f {
		*result = s.restart(f, recover()) // GsProcess>>_trimStackToLevel: (frames.go)
	}
}
