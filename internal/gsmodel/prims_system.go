package gsmodel

import (
	"fmt"
	"sort"
	"strings"
)

// Exceptions, System, UserProfile, SessionTemps, GsFile, ClassOrganizer and evaluate.

func (img *Image) exceptionPrims(s *Session) {
	ex := func(v Value) *Object { return v.(*Object) }
	img.prim(s, "AbstractException", "signal", func(s *Session, a Value, x []Value) Value { return s.signal(ex(a)) })
	img.prim(s, "AbstractException", "signal:", func(s *Session, a Value, x []Value) Value {
		s.setExField(s.wr(ex(a)), "messageText", x[0])
		return s.signal(ex(a))
	})
	img.prim(s, "AbstractException", "return:", func(s *Session, a Value, x []Value) Value { return s.exReturn(ex(a), x[0]) })
	img.prim(s, "AbstractException", "return", func(s *Session, a Value, x []Value) Value { return s.exReturn(ex(a), nil) })
	img.prim(s, "AbstractException", "retry", func(s *Session, a Value, x []Value) Value { return s.exRetry(ex(a), nil) })
	img.prim(s, "AbstractException", "retryUsing:", func(s *Session, a Value, x []Value) Value { return s.exRetry(ex(a), x[0]) })
	img.prim(s, "AbstractException", "resume:", func(s *Session, a Value, x []Value) Value { return s.exResume(ex(a), x[0]) })
	img.prim(s, "AbstractException", "resume", func(s *Session, a Value, x []Value) Value { return s.exResume(ex(a), nil) })
	img.prim(s, "AbstractException", "pass", func(s *Session, a Value, x []Value) Value { return s.exPass(ex(a)) })
	img.prim(s, "AbstractException", "outer", func(s *Session, a Value, x []Value) Value { return s.exOuter(ex(a)) })
	img.prim(s, "AbstractException", "resignalAs:", func(s *Session, a Value, x []Value) Value {
		return s.exResignal(ex(a), s.argObj(x[0]))
	})
	img.prim(s, "AbstractException", "_isActive", func(s *Session, a Value, x []Value) Value { return s.sigEnv[ex(a)] != nil })
}

func (img *Image) systemPrims(s *Session) {
	img.transactionPrims(s)
	img.sessionPrims(s)
	img.classOrganizerPrims(s)
}

// transactionPrims: commit, abort and the transaction state of the session.
func (img *Image) transactionPrims(s *Session) {
	img.prim(s, "System class", "commitTransaction", func(s *Session, a Value, x []Value) Value { return s.commit() })
	img.prim(s, "System class", "abortTransaction", func(s *Session, a Value, x []Value) Value { s.abort(); return nil })
	img.prim(s, "System class", "continueTransaction", func(s *Session, a Value, x []Value) Value {
		if s.failed {
			return s.signalNew("TransactionError", 2409, "continueTransaction after a failed commit; abort first", nil)
		}
		return s.continueTransaction()
	})
	img.prim(s, "System class", "beginTransaction", func(s *Session, a Value, x []Value) Value { return nil })
	img.prim(s, "System class", "inTransaction", func(s *Session, a Value, x []Value) Value { return true })
	img.prim(s, "System class", "transactionMode", func(s *Session, a Value, x []Value) Value { return s.symbol("autoBegin") })
	img.prim(s, "System class", "needsCommit", func(s *Session, a Value, x []Value) Value { return s.needsCommit() })
	// Object change notification (GemStone/S 64 Programmer's Guide 3.7, "Signals and Notifiers",
	// downloads.gemtalksystems.com/docs/GemStone64/3.7.x/GS64-ProgGuide-3.7/14-Signals.htm): a
	// committed object added to the notify set is signaled when a commit changes it, until the
	// session ends. A transient object is refused: the guide adds only committed ones, and what
	// a stone does with another is not attested. The guide is the only evidence: no public code
	// that ran on a stone sends addToNotifySet:, addAllToNotifySet: or signaledObjects (the
	// search is in docs/gsmodel.md, Searched without evidence), so McpKernelFactsTest pins what
	// the worker assumes of them.
	img.prim(s, "System class", "addAllToNotifySet:", func(s *Session, a Value, x []Value) Value {
		objs := s.elements(x[0])
		for _, v := range objs {
			if o, ok := v.(*Object); !ok || o.st != nil {
				return s.refuse("adding an uncommitted object or an immediate value to the notify set")
			}
		}
		s.img.mu.Lock()
		defer s.img.mu.Unlock()
		if s.notify == nil {
			s.notify = map[*Object]bool{}
		}
		for _, v := range objs {
			s.notify[v.(*Object)] = true
		}
		return a
	})
	// System signaledObjects answers what commits changed in the notify set since it was last
	// asked, and forgets them (the guide's polling form); it does not move the view.
	img.prim(s, "System class", "signaledObjects", func(s *Session, a Value, x []Value) Value {
		s.img.mu.Lock()
		got := s.signaled
		s.signaled = nil
		s.img.mu.Unlock()
		vals := make([]Value, len(got))
		for i, o := range got {
			vals[i] = o
		}
		return s.newArray(vals)
	})
	// The kernel's comment of System class>>transactionConflicts (GsDevKit/glassdb
	// GemStoneSystemTransactionConflictsDictionary.md): a SymbolDictionary whose #commitResult is
	// the outcome and whose other keys each name a kind of conflict, with an Array of the
	// conflicting objects. The model finds write-write conflicts only.
	img.prim(s, "System class", "transactionConflicts", func(s *Session, a Value, x []Value) Value {
		d := s.newDictionary(s.img.k.SymbolDictionary)
		res := s.lastRes
		if res == "" {
			res = "success"
		}
		s.dictAtPut(d, s.symbol("commitResult"), s.symbol(res))
		for kind, objs := range s.conflicts {
			vals := make([]Value, len(objs))
			for i, o := range objs {
				vals[i] = o
			}
			s.dictAtPut(d, s.symbol(kind), s.newArray(vals))
		}
		return d
	})
}

// envPrims: the gem's environment variables, as GemTalk/Grail scripts/runTests.gs sets GRAIL_DIR
// for the gem's Python half to read and reads it back. The model holds only what this session
// set: a gem inherits its whole environment from the process that forked it, which the model does
// not have, so reading any other variable is refused rather than answered nil as if unset.
func (img *Image) envPrims(s *Session) {
	img.prim(s, "System class", "gemEnvironmentVariable:put:", func(s *Session, a Value, x []Value) Value {
		if s.env == nil {
			s.env = map[string]string{}
		}
		s.env[s.argString(x[0])] = s.argString(x[1])
		return a
	})
	img.prim(s, "System class", "gemEnvironmentVariable:", func(s *Session, a Value, x []Value) Value {
		name := s.argString(x[0])
		v, ok := s.env[name]
		if !ok {
			return s.refuse("reading the gem environment variable %q, which this session did not set (the model has no inherited environment)", name)
		}
		return s.newString(v)
	})
}

// sessionPrims: the session, its user, the stone's names, the gem log and JSON.
func (img *Image) sessionPrims(s *Session) {
	img.prim(s, "System class", "myUserProfile", func(s *Session, a Value, x []Value) Value { return s.user })
	img.prim(s, "System class", "session", func(s *Session, a Value, x []Value) Value { return int64(s.id) })
	img.prim(s, "System class", "stoneName", func(s *Session, a Value, x []Value) Value { return s.newString("gsmodel") })
	img.prim(s, "System class", "cacheName:", func(s *Session, a Value, x []Value) Value {
		n := s.argString(x[0])
		if len(n) < 1 || len(n) > 31 {
			return s.signalNew("OutOfRange", 2061, "a cache name takes 1 to 31 characters", nil)
		}
		s.cacheName = n
		return a
	})
	img.envPrims(s)
	img.prim(s, "System class", "gemVersionAt:", func(s *Session, a Value, x []Value) Value {
		return s.newString("3.7.5 (gsmodel: a model of GemStone, not GemStone)")
	})
	img.prim(s, "System class", "descriptionOfSession:", func(s *Session, a Value, x []Value) Value {
		// gemstone-smalltalk.md s4: field 1 the UserProfile, 16 how many commits the view is
		// behind; another session's description needs SessionAccess, which the model's users
		// do not hold.
		if s.argInt(x[0]) != s.id {
			return s.signalNew("SecurityError", 2151, "reading another session's description needs the SessionAccess privilege", nil)
		}
		fields := make([]Value, 24)
		fields[0] = s.user
		s.img.mu.Lock()
		fields[15] = int64(s.img.commit - s.view)
		s.img.mu.Unlock()
		return s.newArray(fields)
	})
	img.prim(s, "SessionTemps class", "current", func(s *Session, a Value, x []Value) Value { return s.temps })
	img.prim(s, "UserProfile", "symbolList", func(s *Session, a Value, x []Value) Value { return s.ivarGet(a, 1) })
	img.prim(s, "UserProfile", "userId", func(s *Session, a Value, x []Value) Value { return s.ivarGet(a, 0) })
	img.prim(s, "GsFile class", "gciLogServer:", func(s *Session, a Value, x []Value) Value {
		s.img.log(s.argString(x[0]))
		return a
	})
	img.prim(s, "JsonParser class", "parse:", func(s *Session, a Value, x []Value) Value {
		return s.parseJSON(s.argString(x[0]))
	})
	img.prim(s, "Object", "asJson", func(s *Session, a Value, x []Value) Value {
		var b strings.Builder
		s.kernelJSON(&b, a)
		return s.newString(b.String())
	})
}

// classOrganizerPrims: ClassOrganizer queries over the symbol list's classes.
func (img *Image) classOrganizerPrims(s *Session) {
	img.prim(s, "ClassOrganizer", "implementorsOf:", func(s *Session, a Value, x []Value) Value {
		sel := s.argString(x[0])
		return s.methodsWhere(func(m *Method) bool { return m.selector == sel })
	})
	img.prim(s, "ClassOrganizer", "sendersOf:", func(s *Session, a Value, x []Value) Value {
		sel := s.argString(x[0])
		ms := s.methodsWhere(func(m *Method) bool { return contains(m.sends, sel) })
		return s.newArray([]Value{ms, s.newArray(nil)})
	})
	img.prim(s, "ClassOrganizer", "referencesToObject:", func(s *Session, a Value, x []Value) Value {
		return s.methodsWhere(func(m *Method) bool {
			for _, g := range m.globals {
				if identical(s.assocValue(g), x[0]) {
					return true
				}
			}
			return false
		})
	})
	img.prim(s, "ClassOrganizer", "_classes", func(s *Session, a Value, x []Value) Value {
		var out []Value
		for _, c := range s.allClasses() {
			out = append(out, c)
		}
		return s.newArray(out)
	})
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// allClasses answers every class reachable from the session's symbol list, each once, in name
// order.
func (s *Session) allClasses() []*Object {
	seen := map[*Object]bool{}
	var out []*Object
	for _, d := range s.elements(s.ivarGet(s.user, 1)) {
		dd := s.rd(d.(*Object)).dict
		if dd == nil {
			continue
		}
		dd.each(func(_, v Value) {
			val := s.assocValue(v.(*Object))
			if c, ok := val.(*Object); ok && s.rd(c).class != nil && !s.rd(c).class.isMeta && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		})
	}
	sort.Slice(out, func(i, j int) bool { return s.className(out[i]) < s.className(out[j]) })
	return out
}

// methodsWhere answers the GsNMethods of every class in the symbol list (both sides) for which
// keep answers true, in class and selector order: the kernel's methods with the rest, as a
// stone's ClassOrganizer answers them (GemTalk/mcp_server McpToolTest.gs: implementors of add:
// include Array>>add:, senders of = exceed 200 on 3.7.5).
func (s *Session) methodsWhere(keep func(*Method) bool) Value {
	var out []Value
	for _, c := range s.allClasses() {
		for _, side := range []*Object{c, s.rd(c).class.thisClass} {
			for _, sel := range s.selectorsOf(side) {
				m := s.methodAt(side, sel)
				if keep(m) {
					out = append(out, s.methodObject(m))
				}
			}
		}
	}
	return s.newArray(out)
}

// evaluate compiles and runs source as a doit with nil as self, in the session's symbol list.
func (s *Session) evaluate(src string, self Value) Value {
	return s.evaluateIn(src, self, s.elements(s.ivarGet(s.user, 1)))
}

func (s *Session) evaluateIn(src string, self Value, dicts []Value) Value {
	var ds []*Object
	for _, d := range dicts {
		ds = append(ds, s.argObj(d))
	}
	m, errs, warns := s.compileDoit(src, self, ds)
	if errs != nil {
		return s.signalCompileError(errs)
	}
	s.signalWarnings(warns)
	return s.invoke(m, self, nil)
}

func (s *Session) symbolListDicts() []*Object {
	var out []*Object
	for _, d := range s.elements(s.ivarGet(s.user, 1)) {
		out = append(out, d.(*Object))
	}
	return out
}

// describeError answers topaz's one-line account of an unhandled exception.
func (s *Session) describeError(ex *Object) (int, string) {
	num := 0
	if n, ok := s.exField(ex, "gsNumber").(int64); ok {
		num = int(n)
	}
	text := s.safeDescription(ex)
	return num, text
}

func (s *Session) safeDescription(ex *Object) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprintf("a %s occurred (its description failed)", s.className(ex.cls))
		}
	}()
	t, _ := s.str(s.send(ex, "description", nil))
	return t
}
