package gsmodel

// Blocks and Booleans: evaluation, exception handling, loops and the conditionals.

func (img *Image) blockPrims(s *Session) {
	img.blockEvaluationPrims(s)
	img.booleanPrims(s)
}

// blockEvaluationPrims: evaluating blocks, handlers and unwind blocks, loops, fork.
func (img *Image) blockEvaluationPrims(s *Session) {
	val := func(s *Session, a Value, x []Value) Value { return s.callBlock(a.(*Block), x) }
	for _, sel := range []string{"value", "value:", "value:value:", "value:value:value:", "value:value:value:value:"} {
		img.prim(s, "ExecBlock", sel, val)
	}
	img.prim(s, "ExecBlock", "valueWithArguments:", func(s *Session, a Value, x []Value) Value {
		return s.callBlock(a.(*Block), s.elements(x[0]))
	})
	img.prim(s, "ExecBlock", "numArgs", func(s *Session, a Value, x []Value) Value { return int64(a.(*Block).code.nargs) })
	img.prim(s, "ExecBlock", "on:do:", func(s *Session, a Value, x []Value) Value { return s.onDo(a, x[0], x[1]) })
	img.prim(s, "ExecBlock", "ensure:", func(s *Session, a Value, x []Value) Value { return s.ensure(a, x[0]) })
	img.prim(s, "ExecBlock", "ifCurtailed:", func(s *Session, a Value, x []Value) Value { return s.ifCurtailed(a, x[0]) })
	img.prim(s, "ExecBlock", "whileTrue:", func(s *Session, a Value, x []Value) Value {
		for s.truthy(s.value(a)) {
			s.value(x[0])
		}
		return nil
	})
	img.prim(s, "ExecBlock", "whileFalse:", func(s *Session, a Value, x []Value) Value {
		for !s.truthy(s.value(a)) {
			s.value(x[0])
		}
		return nil
	})
	img.prim(s, "ExecBlock", "whileTrue", func(s *Session, a Value, x []Value) Value {
		for s.truthy(s.value(a)) {
		}
		return nil
	})
	img.prim(s, "ExecBlock", "whileFalse", func(s *Session, a Value, x []Value) Value {
		for !s.truthy(s.value(a)) {
		}
		return nil
	})
	img.prim(s, "ExecBlock", "repeat", func(s *Session, a Value, x []Value) Value {
		for {
			s.value(a)
		}
	})
	img.prim(s, "ExecBlock", "fork", func(s *Session, a Value, x []Value) Value {
		return s.modelLimit("a forked GsProcess (fork is not modelled, newProcess and resume are: a forked server would block the session in accept)")
	})
}

// booleanPrims: the conditionals and logic of true and false.
func (img *Image) booleanPrims(s *Session) {
	img.prim(s, "Boolean", "ifTrue:", func(s *Session, a Value, x []Value) Value {
		if a.(bool) {
			return s.value(x[0])
		}
		return nil
	})
	img.prim(s, "Boolean", "ifFalse:", func(s *Session, a Value, x []Value) Value {
		if !a.(bool) {
			return s.value(x[0])
		}
		return nil
	})
	img.prim(s, "Boolean", "ifTrue:ifFalse:", func(s *Session, a Value, x []Value) Value {
		if a.(bool) {
			return s.value(x[0])
		}
		return s.value(x[1])
	})
	img.prim(s, "Boolean", "ifFalse:ifTrue:", func(s *Session, a Value, x []Value) Value {
		if a.(bool) {
			return s.value(x[1])
		}
		return s.value(x[0])
	})
	img.prim(s, "Boolean", "and:", func(s *Session, a Value, x []Value) Value {
		if a.(bool) {
			return s.value(x[0])
		}
		return false
	})
	img.prim(s, "Boolean", "or:", func(s *Session, a Value, x []Value) Value {
		if a.(bool) {
			return true
		}
		return s.value(x[0])
	})
	img.prim(s, "Boolean", "&", func(s *Session, a Value, x []Value) Value { return a.(bool) && s.truthy(x[0]) })
	img.prim(s, "Boolean", "|", func(s *Session, a Value, x []Value) Value { return a.(bool) || s.truthy(x[0]) })
	img.prim(s, "Boolean", "not", func(s *Session, a Value, x []Value) Value { return !a.(bool) })
	img.prim(s, "Boolean", "xor:", func(s *Session, a Value, x []Value) Value { return a.(bool) != s.truthy(x[0]) })
	img.prim(s, "Boolean", "eqv:", func(s *Session, a Value, x []Value) Value { return a.(bool) == s.truthy(x[0]) })
}
