package gsmodel

// Hashed collections (the Dictionary and Set families) and instance creation. The sequenceable
// protocol is Smalltalk in kernel/; these are the primitives it stands on.

func (s *Session) hashed(v Value) (*Object, *dictData) {
	o := s.argObj(v)
	d := s.rd(o).dict
	if d == nil {
		s.refuse("a hashed-collection primitive on a %s", s.className(o.cls))
	}
	return o, d
}

func (img *Image) collectionPrims(s *Session) {
	img.instantiationPrims(s)
	img.dictionaryPrims(s)
	img.setPrims(s)
}

// instantiationPrims: new and new: for every class.
func (img *Image) instantiationPrims(s *Session) {
	img.prim(s, "Behavior", "new", func(s *Session, a Value, x []Value) Value { return s.instantiate(a, 0) })
	img.prim(s, "Behavior", "basicNew", func(s *Session, a Value, x []Value) Value { return s.instantiate(a, 0) })
	img.prim(s, "Behavior", "new:", func(s *Session, a Value, x []Value) Value { return s.instantiate(a, s.argInt(x[0])) })
	img.prim(s, "Behavior", "basicNew:", func(s *Session, a Value, x []Value) Value { return s.instantiate(a, s.argInt(x[0])) })

}

// dictionaryPrims: keyed access to hashed collections.
func (img *Image) dictionaryPrims(s *Session) {
	img.prim(s, "AbstractDictionary", "at:ifAbsent:", func(s *Session, a Value, x []Value) Value {
		o, _ := s.hashed(a)
		if v, ok := s.dictAt(o, x[0]); ok {
			return v
		}
		return s.value(x[1])
	})
	img.prim(s, "AbstractDictionary", "at:put:", func(s *Session, a Value, x []Value) Value {
		o, _ := s.hashed(a)
		if x[0] == nil {
			return s.signalNew("ArgumentError", 2718, "nil is not a valid dictionary key", nil)
		}
		s.dictAtPut(o, x[0], x[1])
		return x[1]
	})
	img.prim(s, "AbstractDictionary", "removeKey:ifAbsent:", func(s *Session, a Value, x []Value) Value {
		o, _ := s.hashed(a)
		v, ok := s.dictAt(o, x[0])
		if !ok {
			return s.value(x[1])
		}
		s.dictRemove(s.wr(o).dict, x[0])
		return v
	})
	img.prim(s, "AbstractDictionary", "keysAndValuesDo:", func(s *Session, a Value, x []Value) Value {
		o, d := s.hashed(a)
		sym := s.isSymbolDictionary(o)
		d.each(func(k, v Value) {
			if sym {
				v = s.assocValue(v.(*Object))
			}
			s.value(x[0], k, v)
		})
		return a
	})
	img.prim(s, "AbstractDictionary", "_associationAt:ifAbsent:", func(s *Session, a Value, x []Value) Value {
		o, _ := s.hashed(a)
		if as := s.dictAssoc(o, x[0]); as != nil {
			return as
		}
		if v, ok := s.dictAt(o, x[0]); ok {
			as := s.newObject(s.img.k.Association)
			as.st.iv[0], as.st.iv[1] = x[0], v
			return as
		}
		return s.value(x[1])
	})
	img.prim(s, "HashedCollection", "size", func(s *Session, a Value, x []Value) Value {
		_, d := s.hashed(a)
		return int64(d.count)
	})
	img.prim(s, "HashedCollection", "_keys", func(s *Session, a Value, x []Value) Value {
		_, d := s.hashed(a)
		var keys []Value
		d.each(func(k, _ Value) { keys = append(keys, k) })
		return s.newArray(keys)
	})
}

// setPrims: Set and Bag membership, and Association creation.
func (img *Image) setPrims(s *Session) {
	img.prim(s, "Set", "add:", func(s *Session, a Value, x []Value) Value {
		o, _ := s.hashed(a)
		if x[0] == nil {
			return nil
		}
		s.dictPut(s.wr(o).dict, x[0], nil)
		return x[0]
	})
	img.prim(s, "Bag", "add:", func(s *Session, a Value, x []Value) Value {
		return s.refuse("Bag (occurrence counting is not modelled)")
	})
	img.prim(s, "Set", "includes:", func(s *Session, a Value, x []Value) Value {
		_, d := s.hashed(a)
		return s.dictFind(d, x[0]) >= 0
	})
	img.prim(s, "Set", "remove:ifAbsent:", func(s *Session, a Value, x []Value) Value {
		o, d := s.hashed(a)
		if s.dictFind(d, x[0]) < 0 {
			return s.value(x[1])
		}
		s.dictRemove(s.wr(o).dict, x[0])
		return x[0]
	})
	img.prim(s, "Set", "do:", func(s *Session, a Value, x []Value) Value {
		_, d := s.hashed(a)
		d.each(func(k, _ Value) { s.value(x[0], k) })
		return a
	})
	img.prim(s, "Object", "->", func(s *Session, a Value, x []Value) Value {
		as := s.newObject(s.img.k.Association)
		as.st.iv[0], as.st.iv[1] = a, x[0]
		return as
	})
}

// instantiate is Behavior>>new / new:. Kernel classes whose instances are immediates or made
// by the system refuse.
func (s *Session) instantiate(v Value, size int) Value {
	cls := s.argClass(v)
	cd := s.rd(cls).class
	if cd.isMeta || cd.format == fmtSpecial {
		return s.signalNew("ImproperOperation", 2717, "instances of "+s.className(cls)+" are not created with new", nil)
	}
	if size < 0 {
		return s.refuse("new: %d (a negative size)", size)
	}
	s.checkSlots(size)
	o := s.newObject(cls)
	switch cd.format {
	case fmtIndexed:
		o.st.ix = make([]Value, size)
	case fmtBytes:
		o.st.by = make([]rune, size) // NUL characters or zero bytes (docs/gsmodel.md)
	}
	return o
}
