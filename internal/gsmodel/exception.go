package gsmodel

import (
	"fmt"
)

// ANSI exceptions as GemStone runs them: a handler runs on top of the signalling frame, before
// anything unwinds; return:, retry and falling off the end of a handler unwind to its on:do:;
// resume: answers from the signal; ensure: blocks run as frames unwind.

// handler is one active on:do:. The chain is searched from Session.handlers through next; while
// a handler block runs, the chain starts below its own on:do:.
type handler struct {
	selector Value // an exception class or an ExceptionSet
	block    Value
	next     *handler
}

// signalEnv is the state of one signal of an exception while it is being handled.
type signalEnv struct {
	handler *handler // the handler running, nil in the default action
	tok     *int     // identifies this signal for resume:
}

type unwind struct {
	target *handler
	value  Value
	retry  bool
	using  Value // retryUsing: replacement block
}

type resumption struct {
	tok       *int
	value     Value
	resignal  *Object
	hasSignal bool
}

// unhandledError ends the current execution: an Error (or a refusal of the model) nobody
// handled. The top level reports it in topaz's ERROR form.
type unhandledError struct{ ex *Object }

// exField indexes AbstractException's instance variables.
var exIvars = []string{"gsResumable", "gsTrappable", "gsNumber", "currGsHandler", "gsStack",
	"gsReason", "gsDetails", "tag", "messageText", "gsArgs"}

func exIndex(name string) int {
	for i, n := range exIvars {
		if n == name {
			return i
		}
	}
	panic("no exception field " + name)
}

func (s *Session) setExField(st *State, name string, v Value) { st.iv[exIndex(name)] = v }
func (s *Session) exField(ex *Object, name string) Value      { return s.rd(ex).iv[exIndex(name)] }

// makeException instantiates a kernel exception class by name.
func (s *Session) makeException(className string, number int, text string, details Value) *Object {
	cls := s.img.kernelClass(className)
	ex := s.newObject(cls)
	st := s.wr(ex)
	if number != 0 {
		s.setExField(st, "gsNumber", int64(number))
	}
	if text != "" {
		s.setExField(st, "messageText", s.newString(text))
	}
	if details != nil {
		s.setExField(st, "gsDetails", details)
	}
	return ex
}

// signalNew signals a new kernel exception and answers what its handler resumes with.
func (s *Session) signalNew(className string, number int, text string, details Value) Value {
	return s.signal(s.makeException(className, number, text, details))
}

// refuse signals the model's refusal: GemStone's behaviour here is not attested, so the model
// does not guess. It is an Error so that it fails the test or run that reached it.
func (s *Session) refuse(format string, args ...any) Value {
	return s.signalNew("Error", 1, "the model refuses: "+fmt.Sprintf(format, args...), nil)
}

func (s *Session) signal(ex *Object) Value { return s.signalFrom(ex, s.handlers) }

func (s *Session) signalFrom(ex *Object, start *handler) (result Value) {
	env := &signalEnv{tok: new(int)}
	if s.sigEnv == nil {
		s.sigEnv = map[*Object]*signalEnv{}
	}
	prev, hadPrev := s.sigEnv[ex]
	s.sigEnv[ex] = env
	savedHandlers := s.handlers
	defer func() {
		s.handlers = savedHandlers
		if hadPrev {
			s.sigEnv[ex] = prev
		} else {
			delete(s.sigEnv, ex)
		}
		if r := recover(); r != nil {
			if res, ok := r.(*resumption); ok && res.tok == env.tok {
				if res.hasSignal {
					result = s.signal(res.resignal)
					return
				}
				result = res.value
				return
			}
			panic(r)
		}
	}()
	for h := start; h != nil; h = h.next {
		if !s.handles(h.selector, ex) {
			continue
		}
		env.handler = h
		s.handlers = h.next
		var v Value
		if b, ok := h.block.(*Block); ok && b.code.nargs == 0 {
			v = s.callBlock(b, nil)
		} else {
			v = s.value(h.block, ex)
		}
		panic(&unwind{target: h, value: v})
	}
	env.handler = nil
	return s.defaultAction(ex)
}

// handles answers whether an on:do: selector (a class or an ExceptionSet) catches ex.
func (s *Session) handles(sel Value, ex *Object) bool {
	switch x := sel.(type) {
	case *Object:
		if x.cls == s.img.k.ExceptionSet {
			for _, c := range s.rd(x).ix {
				if s.handles(c, ex) {
					return true
				}
			}
			return false
		}
		if s.rd(x).class != nil {
			return s.isKindOf(ex, x)
		}
	}
	return s.truthy(s.send(sel, "handles:", []Value{ex}))
}

func (s *Session) defaultAction(ex *Object) Value {
	if m := s.lookup(ex.cls, "defaultAction"); m != nil && !m.kernel {
		return s.invoke(m, ex, nil)
	}
	k := s.img.k
	if s.isKindOf(ex, k.Notification) && !s.isKindOf(ex, k.Warning) {
		return nil
	}
	panic(&unhandledError{ex})
}

func (s *Session) envOf(ex *Object) *signalEnv {
	env := s.sigEnv[ex]
	if env == nil {
		s.signalNew("ImproperOperation", 2717, "the exception is not being handled", nil)
	}
	return env
}

func (s *Session) exReturn(ex *Object, v Value) Value {
	env := s.envOf(ex)
	if env.handler == nil {
		return s.refuse("return: from an exception's default action is not modelled")
	}
	panic(&unwind{target: env.handler, value: v})
}

func (s *Session) exRetry(ex *Object, using Value) Value {
	env := s.envOf(ex)
	if env.handler == nil {
		return s.refuse("retry from an exception's default action is not modelled")
	}
	panic(&unwind{target: env.handler, retry: true, using: using})
}

func (s *Session) exResume(ex *Object, v Value) Value {
	env := s.envOf(ex)
	if !s.truthy(s.send(ex, "isResumable", nil)) {
		return s.signalNew("ImproperOperation", 2717, "an attempt to resume an exception that is not resumable ("+
			s.className(ex.cls)+")", nil)
	}
	panic(&resumption{tok: env.tok, value: v})
}

func (s *Session) exOuter(ex *Object) Value {
	env := s.envOf(ex)
	if env.handler == nil {
		return s.defaultAction(ex)
	}
	return s.signalFrom(ex, env.handler.next)
}

func (s *Session) exPass(ex *Object) Value {
	v := s.exOuter(ex)
	return s.exResume(ex, v)
}

func (s *Session) exResignal(ex, replacement *Object) Value {
	env := s.envOf(ex)
	panic(&resumption{tok: env.tok, resignal: replacement, hasSignal: true})
}

// onDo is BlockClosure>>on:do:.
func (s *Session) onDo(body Value, selector, block Value) Value {
	h := &handler{selector: selector, block: block, next: s.handlers}
	for {
		res, again, replacement := s.runGuarded(body, h)
		if !again {
			return res
		}
		if replacement != nil {
			body = replacement
		}
	}
}

func (s *Session) runGuarded(body Value, h *handler) (res Value, again bool, using Value) {
	saved := s.handlers
	s.handlers = h
	defer func() {
		s.handlers = saved
		if r := recover(); r != nil {
			if u, ok := r.(*unwind); ok && u.target == h {
				res, again, using = u.value, u.retry, u.using
				return
			}
			panic(r)
		}
	}()
	return s.value(body), false, nil
}

// ensure is BlockClosure>>ensure:: the second block runs however the first one ends.
func (s *Session) ensure(body, after Value) (res Value) {
	done := false
	defer func() {
		if !done && !s.ending && s.restartAt == nil {
			s.value(after)
		}
	}()
	res = s.value(body)
	done = true
	s.value(after)
	return res
}

// ifCurtailed is BlockClosure>>ifCurtailed:: the second block runs only when the first is left
// by an unwind.
func (s *Session) ifCurtailed(body, after Value) Value {
	done := false
	defer func() {
		if !done && !s.ending && s.restartAt == nil {
			s.value(after)
		}
	}()
	v := s.value(body)
	done = true
	return v
}
