package gsmodel

import (
	"fmt"
	"strings"
)

// Native kernel methods. Each is installed on a kernel class under a selector the inventory
// cites (TestKernelSelectorsAreCited checks it); model-private helpers start with an
// underscore, as GemStone's own private selectors do, and no project code sends them.

func (img *Image) prim(s *Session, class, sel string, fn primFn) {
	cls := img.byName[strings.TrimSuffix(class, " class")]
	if cls == nil {
		panic("gsmodel: prim on unknown class " + class)
	}
	if strings.HasSuffix(class, " class") {
		cls = s.rd(cls).class.thisClass
	}
	m := &Method{selector: sel, class: cls, prim: fn, kernel: true, category: "kernel"}
	m.nargs = strings.Count(sel, ":")
	if m.nargs == 0 && !isIdentStart(sel) {
		m.nargs = 1
	}
	s.installMethod(cls, m, "kernel")
}

func isIdentStart(sel string) bool {
	c := sel[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (img *Image) installPrimitives(s *Session) {
	img.objectPrims(s)
	img.blockPrims(s)
	img.numberPrims(s)
	img.stringPrims(s)
	img.collectionPrims(s)
	img.behaviorPrims(s)
	img.exceptionPrims(s)
	img.systemPrims(s)
	img.socketPrims(s)
	img.filePrims(s)
	img.processPrims(s)
	img.framePrims(s)
	img.stepPrims(s)
}

// ---- argument checks: a primitive refuses a wrong argument with GemStone's error kinds.

func (s *Session) argInt(v Value) int {
	switch n := v.(type) {
	case int64:
		return int(n)
	}
	s.signalNew("ArgumentTypeError", 2094, "expected a SmallInteger, got "+s.printString(v), nil)
	return 0
}

func (s *Session) argObj(v Value) *Object {
	o, ok := v.(*Object)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "expected an object with state, got "+s.printString(v), nil)
	}
	return o
}

func (s *Session) argString(v Value) string {
	t, ok := s.str(v)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "expected a String or Symbol, got "+s.printString(v), nil)
	}
	return t
}

func (s *Session) argClass(v Value) *Object {
	o, ok := v.(*Object)
	if !ok || s.rd(o).class == nil {
		s.signalNew("ArgumentTypeError", 2094, "expected a class, got "+s.printString(v), nil)
	}
	return o
}

func (s *Session) outOfRange(idx Value, size int) Value {
	return s.signalNew("OutOfRange", 2003, fmt.Sprintf("index %s is out of range (size %d)", s.printString(idx), size), nil)
}
