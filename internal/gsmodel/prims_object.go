package gsmodel

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// Object: identity, hashing, perform:, copying, and the indexed storage every collection
// is built on.

func (img *Image) objectPrims(s *Session) {
	img.objectProtocolPrims(s)
	img.indexedStoragePrims(s)
}

// objectProtocolPrims: identity, equality, class, printing, perform: and errors.
func (img *Image) objectProtocolPrims(s *Session) {
	img.prim(s, "Object", "==", func(s *Session, a Value, x []Value) Value { return identical(a, x[0]) })
	img.prim(s, "Object", "~~", func(s *Session, a Value, x []Value) Value { return !identical(a, x[0]) })
	img.prim(s, "Object", "=", func(s *Session, a Value, x []Value) Value { return identical(a, x[0]) })
	img.prim(s, "Object", "hash", func(s *Session, a Value, x []Value) Value { return s.identityHash(a) })
	img.prim(s, "Object", "identityHash", func(s *Session, a Value, x []Value) Value { return s.identityHash(a) })
	img.prim(s, "Object", "class", func(s *Session, a Value, x []Value) Value { return s.classOf(a) })
	img.prim(s, "Object", "printString", func(s *Session, a Value, x []Value) Value { return s.newString(s.printString(a)) })
	img.prim(s, "Object", "_basicPrintString", func(s *Session, a Value, x []Value) Value { return s.newString(s.basicPrint(a)) })
	img.prim(s, "Object", "isKindOf:", func(s *Session, a Value, x []Value) Value { return s.isKindOf(a, s.argClass(x[0])) })
	img.prim(s, "Object", "isMemberOf:", func(s *Session, a Value, x []Value) Value { return s.classOf(a) == x[0] })
	img.prim(s, "Object", "respondsTo:", func(s *Session, a Value, x []Value) Value { return s.respondsTo(a, s.argString(x[0])) })
	img.prim(s, "Object", "perform:", func(s *Session, a Value, x []Value) Value { return s.perform(a, x[0], nil) })
	img.prim(s, "Object", "perform:with:", func(s *Session, a Value, x []Value) Value { return s.perform(a, x[0], x[1:]) })
	img.prim(s, "Object", "perform:with:with:", func(s *Session, a Value, x []Value) Value { return s.perform(a, x[0], x[1:]) })
	img.prim(s, "Object", "perform:withArguments:", func(s *Session, a Value, x []Value) Value {
		return s.perform(a, x[0], s.elements(x[1]))
	})
	img.prim(s, "Object", "shallowCopy", func(s *Session, a Value, x []Value) Value { return s.shallowCopy(a) })
	img.prim(s, "Object", "error:", func(s *Session, a Value, x []Value) Value {
		return s.signalNew("UserDefinedError", 2318, s.argString(x[0]), nil)
	})
	img.prim(s, "Object", "halt", func(s *Session, a Value, x []Value) Value { return s.refuse("halt (the model has no debugger)") })
	img.prim(s, "Object", "doesNotUnderstand:", func(s *Session, a Value, x []Value) Value {
		msg := s.argObj(x[0])
		sel, _ := s.str(s.ivarGet(msg, 0))
		return s.notUnderstood(a, sel, s.elements(s.ivarGet(msg, 1)))
	})
}

// indexedStoragePrims: the private indexed and named storage the kernel's collections use.
func (img *Image) indexedStoragePrims(s *Session) {
	img.prim(s, "Object", "_size", func(s *Session, a Value, x []Value) Value { return int64(s.basicSize(a)) })
	img.prim(s, "Object", "_at:", func(s *Session, a Value, x []Value) Value { return s.basicAt(a, x[0]) })
	img.prim(s, "Object", "_at:put:", func(s *Session, a Value, x []Value) Value { return s.basicAtPut(a, x[0], x[1]) })
	img.prim(s, "Object", "_grow:", func(s *Session, a Value, x []Value) Value { return s.grow(a, s.argInt(x[0])) })
	img.prim(s, "Object", "_insertAt:value:", func(s *Session, a Value, x []Value) Value {
		o := s.argObj(a)
		i := s.argInt(x[0])
		st := s.wr(o)
		if i < 1 || i > len(st.ix)+1 {
			return s.outOfRange(x[0], len(st.ix))
		}
		s.checkSlots(len(st.ix) + 1)
		st.ix = append(st.ix, nil)
		copy(st.ix[i:], st.ix[i-1:])
		st.ix[i-1] = x[1]
		return x[1]
	})
	img.prim(s, "Object", "_removeIndex:", func(s *Session, a Value, x []Value) Value {
		o := s.argObj(a)
		i := s.argInt(x[0])
		st := s.wr(o)
		if i < 1 || i > len(st.ix) {
			return s.outOfRange(x[0], len(st.ix))
		}
		v := st.ix[i-1]
		st.ix = append(st.ix[:i-1], st.ix[i:]...)
		return v
	})
	img.prim(s, "Object", "_instVarAt:", func(s *Session, a Value, x []Value) Value { return s.ivarGet(a, s.argInt(x[0])-1) })
	img.prim(s, "Object", "_instVarAt:put:", func(s *Session, a Value, x []Value) Value {
		s.ivarPut(a, s.argInt(x[0])-1, x[1])
		return x[1]
	})
	img.prim(s, "Object", "_sortWith:", func(s *Session, a Value, x []Value) Value {
		o := s.argObj(a)
		st := s.wr(o)
		blk := x[0]
		vals := append([]Value{}, st.ix...)
		sort.SliceStable(vals, func(i, j int) bool {
			if blk == nil {
				return s.truthy(s.send(vals[i], "<=", []Value{vals[j]})) && !s.truthy(s.send(vals[j], "<=", []Value{vals[i]}))
			}
			return s.truthy(s.value(blk, vals[i], vals[j])) && !s.truthy(s.value(blk, vals[j], vals[i]))
		})
		st.ix = vals
		return a
	})
}

func (s *Session) identityHash(v Value) Value {
	switch x := v.(type) {
	case *Object:
		return int64(x.id & 0xFFFFFFF)
	case int64:
		return x
	case Char:
		return int64(x)
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case nil:
		return int64(20)
	case float64:
		return int64(math.Float64bits(x) & 0xFFFFFFF)
	case *big.Int:
		return int64(x.Int64() & 0xFFFFFFF)
	}
	return int64(0)
}

func (s *Session) perform(rcv, sel Value, args []Value) Value {
	name := s.argString(sel)
	if n := selectorArity(name); n != len(args) {
		return s.signalNew("ArgumentError", 2101, fmt.Sprintf("perform: #%s takes %d arguments, got %d", name, n, len(args)), nil)
	}
	return s.send(rcv, name, args)
}

func selectorArity(sel string) int {
	if sel == "" {
		return 0
	}
	if n := strings.Count(sel, ":"); n > 0 {
		return n
	}
	if isIdentStart(sel) {
		return 0
	}
	return 1
}

// elements answers the elements of an Array-like or OrderedCollection value.
func (s *Session) elements(v Value) []Value {
	o, ok := v.(*Object)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "expected a collection, got "+s.printString(v), nil)
		return nil
	}
	st := s.rd(o)
	if st.ix != nil {
		return append([]Value(nil), st.ix...)
	}
	if st.by != nil {
		out := make([]Value, len(st.by))
		for i, r := range st.by {
			out[i] = s.byteElement(o, r)
		}
		return out
	}
	if st.dict != nil {
		var out []Value
		st.dict.each(func(k, val Value) {
			if s.isSetLike(o) {
				out = append(out, k)
			} else if s.isSymbolDictionary(o) {
				out = append(out, s.assocValue(val.(*Object)))
			} else {
				out = append(out, val)
			}
		})
		return out
	}
	arr := s.send(v, "asArray", nil)
	if ao, ok := arr.(*Object); !ok || s.rd(ao).ix == nil {
		s.signalNew("ArgumentTypeError", 2094, "expected a collection, got "+s.printString(v), nil)
		return nil
	}
	return s.elements(arr)
}

func (s *Session) isSetLike(o *Object) bool {
	return !s.inheritsOrIs(o.cls, s.img.k.AbstractDictionary)
}

func (s *Session) byteElement(o *Object, r rune) Value {
	if s.isStringLike(o) {
		return Char(r)
	}
	return int64(r)
}

func (s *Session) shallowCopy(v Value) Value {
	o, ok := v.(*Object)
	if !ok || s.rd(o).class != nil || o.cls == s.img.k.Symbol {
		return v
	}
	c := &Object{cls: o.cls, st: s.rd(o).clone(), id: s.img.newObjectID()}
	return c
}

func (s *Session) basicSize(v Value) int {
	o, ok := v.(*Object)
	if !ok {
		return 0
	}
	st := s.rd(o)
	switch {
	case st.ix != nil:
		return len(st.ix)
	case st.by != nil:
		return len(st.by)
	case st.dict != nil:
		return st.dict.count
	}
	return 0
}

func (s *Session) basicAt(v Value, idx Value) Value {
	o := s.argObj(v)
	st := s.rd(o)
	i, ok := idx.(int64)
	if !ok {
		return s.signalNew("ArgumentTypeError", 2094, "an index must be a SmallInteger, got "+s.printString(idx), nil)
	}
	switch {
	case st.ix != nil:
		if i < 1 || int(i) > len(st.ix) {
			return s.outOfRange(idx, len(st.ix))
		}
		return st.ix[i-1]
	case st.by != nil:
		if i < 1 || int(i) > len(st.by) {
			return s.outOfRange(idx, len(st.by))
		}
		return s.byteElement(o, st.by[i-1])
	}
	return s.outOfRange(idx, 0)
}

func (s *Session) basicAtPut(v Value, idx Value, val Value) Value {
	o := s.argObj(v)
	i, ok := idx.(int64)
	if !ok {
		return s.signalNew("ArgumentTypeError", 2094, "an index must be a SmallInteger, got "+s.printString(idx), nil)
	}
	if o.cls == s.img.k.Symbol {
		return s.signalNew("ImproperOperation", 2717, "a Symbol is invariant", nil)
	}
	st := s.rd(o)
	switch {
	case st.ix != nil:
		if i < 1 || int(i) > len(st.ix) {
			return s.outOfRange(idx, len(st.ix))
		}
		s.wr(o).ix[i-1] = val
		return val
	case st.by != nil:
		if i < 1 || int(i) > len(st.by) {
			return s.outOfRange(idx, len(st.by))
		}
		r, ok := s.byteValue(o, val)
		if !ok {
			return s.signalNew("ArgumentTypeError", 2103, "cannot store "+s.printString(val)+" into a "+s.className(o.cls), nil)
		}
		if s.isStringLike(o) && s.widthOf(o.cls) < r {
			// a String widens in place to the class that holds the character
			o.cls = s.stringClassFor([]rune{r})
		}
		s.wr(o).by[i-1] = r
		return val
	}
	return s.outOfRange(idx, 0)
}

func (s *Session) byteValue(o *Object, v Value) (rune, bool) {
	if s.isStringLike(o) {
		c, ok := v.(Char)
		return rune(c), ok
	}
	n, ok := v.(int64)
	return rune(n), ok && n >= 0 && n <= 255
}

// widthOf answers the largest code point a String-family class holds.
func (s *Session) widthOf(cls *Object) rune {
	k := s.img.k
	switch {
	case s.inheritsOrIs(cls, k.QuadByteString):
		return 0x10FFFF
	case s.inheritsOrIs(cls, k.DoubleByteString):
		return 0xFFFF
	case s.inheritsOrIs(cls, k.Unicode7):
		return 0x7F
	}
	return 0xFF
}

func (s *Session) grow(v Value, n int) Value {
	o := s.argObj(v)
	s.checkSlots(s.basicSize(o) + n)
	st := s.wr(o)
	switch {
	case st.ix != nil || s.rd(o.cls).class.format == fmtIndexed:
		for i := 0; i < n; i++ {
			st.ix = append(st.ix, nil)
		}
	case st.by != nil:
		for i := 0; i < n; i++ {
			st.by = append(st.by, 0)
		}
	}
	return v
}
