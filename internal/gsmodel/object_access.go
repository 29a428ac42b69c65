package gsmodel

import (
	"math/big"
)

// Making and reading objects. Every access to state goes through rd and wr.

func (s *Session) newObject(cls *Object) *Object {
	cd := s.rd(cls).class
	st := &State{iv: make([]Value, len(s.allInstVarNames(cls)))}
	switch cd.format {
	case fmtIndexed:
		st.ix = []Value{}
	case fmtBytes:
		st.by = []rune{}
	case fmtHashed:
		st.dict = newDictData(s.identityHashed(cls), s.img.hashSeed)
	}
	return &Object{cls: cls, st: st, id: s.img.newObjectID()}
}

// identityHashed answers whether a hashed class compares keys by identity.
func (s *Session) identityHashed(cls *Object) bool {
	k := s.img.k
	for c := cls; c != nil; c = s.rd(c).class.superclass {
		switch c {
		case k.IdentitySet, k.IdentityKeyValueDictionary:
			return true
		}
	}
	return false
}

func (s *Session) newArray(vals []Value) *Object {
	if vals == nil {
		vals = []Value{}
	}
	s.checkSlots(len(vals))
	o := s.newObject(s.img.k.Array)
	o.st.ix = vals
	return o
}

func (s *Session) newIndexed(cls *Object, vals []Value) *Object {
	if vals == nil {
		vals = []Value{}
	}
	s.checkSlots(len(vals))
	o := s.newObject(cls)
	o.st.ix = vals
	return o
}

// newString answers a String, or the narrowest wider class when a character needs it, as
// GemStone's String widens to QuadByteString (gemstone-smalltalk.md s5).
func (s *Session) newString(text string) *Object {
	return s.newBytes(s.stringClassFor([]rune(text)), []rune(text))
}

func (s *Session) stringClassFor(r []rune) *Object {
	switch max := maxRune(r); {
	case max > 0xFFFF:
		return s.img.k.QuadByteString
	case max > 0xFF:
		return s.img.k.DoubleByteString
	}
	return s.img.k.String
}

// newBytes answers a byte-format object holding b. The storage kind is read from which slice is
// non-nil, so an empty one must be an empty slice, never nil.
func (s *Session) newBytes(cls *Object, b []rune) *Object {
	if b == nil {
		b = []rune{}
	}
	s.checkSlots(len(b))
	o := s.newObject(cls)
	if b == nil {
		// by marks a byte object even when it is empty ('abc' copyFrom: 1 to: 0): without it the
		// empty String would be taken for a pointer object, and concatenating to it would lose
		// what was appended.
		b = []rune{}
	}
	o.st.by = b
	return o
}

func (s *Session) newDictionary(cls *Object) *Object { return s.newObject(cls) }

// symbol answers the canonical Symbol for text.
func (s *Session) symbol(text string) *Object {
	img := s.img
	img.mu.Lock()
	defer img.mu.Unlock()
	if sym := img.symbols[text]; sym != nil {
		return sym
	}
	var cls *Object
	if img.k != nil {
		cls = img.k.Symbol
	}
	img.nextID++
	sym := &Object{cls: cls, st: &State{by: []rune(text)}, id: img.nextID}
	img.symbols[text] = sym
	return sym
}

// str answers the characters of a String-family or Symbol value, and whether it is one.
func (s *Session) str(v Value) (string, bool) {
	o, ok := v.(*Object)
	if !ok || !s.isStringLike(o) {
		return "", false
	}
	return string(s.rd(o).by), true
}

func (s *Session) isStringLike(o *Object) bool {
	return s.inheritsOrIs(o.cls, s.img.k.CharacterCollection)
}

func (s *Session) inheritsOrIs(cls, anc *Object) bool {
	for c := cls; c != nil; c = s.rd(c).class.superclass {
		if c == anc {
			return true
		}
	}
	return false
}

func (s *Session) ivarGet(v Value, i int) Value {
	o, ok := v.(*Object)
	if !ok {
		return nil
	}
	st := s.rd(o)
	if st.class != nil {
		return s.classIvarGet(o, i)
	}
	return st.iv[i]
}

func (s *Session) ivarPut(v Value, i int, val Value) {
	o, ok := v.(*Object)
	if !ok {
		s.refuse("an instance variable store into an immediate")
		return
	}
	if s.rd(o).class != nil {
		s.classIvarPut(o, i, val)
		return
	}
	s.wr(o).iv[i] = val
}

// A class's instance variables as seen by its class methods: Class's own (name, comment, ...)
// are not storable by the model; class-instance variables follow them.
func (s *Session) classIvarGet(cls *Object, i int) Value {
	cd := s.rd(cls).class
	base := len(s.allInstVarNames(cls.cls)) - len(cd.civValues)
	if i < base {
		switch s.allInstVarNames(cls.cls)[i] {
		case "name":
			return s.symbol(cd.name)
		}
		s.refuse("reading the kernel instance variable %s of a class", s.allInstVarNames(cls.cls)[i])
		return nil
	}
	return cd.civValues[i-base]
}

func (s *Session) classIvarPut(cls *Object, i int, v Value) {
	cd := s.rd(cls).class
	base := len(s.allInstVarNames(cls.cls)) - len(cd.civValues)
	if i < base {
		s.refuse("storing into the kernel instance variable %s of a class", s.allInstVarNames(cls.cls)[i])
		return
	}
	s.wr(cls).class.civValues[i-base] = v
}

// allInstVarNames answers the instance variable names of cls's instances, inherited first.
func (s *Session) allInstVarNames(cls *Object) []string {
	if cls == nil {
		return nil
	}
	cd := s.rd(cls).class
	if cd.superclass == nil {
		return cd.instVarNames
	}
	sup := s.allInstVarNames(cd.superclass)
	if len(sup) == 0 {
		return cd.instVarNames
	}
	out := make([]string, 0, len(sup)+len(cd.instVarNames))
	out = append(out, sup...)
	return append(out, cd.instVarNames...)
}

func (s *Session) assocValue(a *Object) Value  { return s.rd(a).iv[1] }
func (s *Session) assocPut(a *Object, v Value) { s.wr(a).iv[1] = v }

// dictAssoc answers the association of key in a SymbolDictionary, or nil.
func (s *Session) dictAssoc(d *Object, key Value) *Object {
	dd := s.rd(d).dict
	if dd == nil {
		return nil
	}
	i := s.dictFind(dd, key)
	if i < 0 {
		return nil
	}
	if a, ok := dd.vals[i].(*Object); ok && s.isSymbolDictionary(d) {
		return a
	}
	return nil
}

// isSymbolDictionary answers whether d keeps associations for its values (so that compiled
// references to a global see a later at:put:).
func (s *Session) isSymbolDictionary(d *Object) bool {
	return s.inheritsOrIs(d.cls, s.img.k.SymbolDictionary)
}

// dictAt answers the value at key and whether it was present.
func (s *Session) dictAt(d *Object, key Value) (Value, bool) {
	dd := s.rd(d).dict
	i := s.dictFind(dd, key)
	if i < 0 {
		return nil, false
	}
	if s.isSymbolDictionary(d) {
		return s.assocValue(dd.vals[i].(*Object)), true
	}
	return dd.vals[i], true
}

func (s *Session) dictAtPut(d *Object, key, val Value) {
	if s.isSymbolDictionary(d) {
		if a := s.dictAssoc(d, key); a != nil {
			s.assocPut(a, val)
			return
		}
		a := s.newObject(s.img.k.SymbolAssociation)
		a.st.iv[0], a.st.iv[1] = key, val
		s.dictPut(s.wr(d).dict, key, a)
		return
	}
	s.dictPut(s.wr(d).dict, key, val)
}

func (s *Session) truthy(v Value) bool {
	b, ok := v.(bool)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "expected a Boolean, got "+s.printString(v), nil)
		return false
	}
	return b
}

// makeClass creates a class and its metaclass.
func (s *Session) makeClass(name string, super *Object, ivars, civars []string, f format) *Object {
	meta := &Object{id: s.img.newObjectID()}
	cls := &Object{cls: meta, id: s.img.newObjectID()}
	var metaSuper *Object
	if super != nil {
		metaSuper = s.rd(super).class.thisClass
	}
	meta.st = &State{class: &classData{name: name + " class", superclass: metaSuper, isMeta: true,
		thisClass: cls, instVarNames: civars, methodDict: s.newMethodDictionary(), selectorSet: s.newSelectorSet(),
		classVars: map[string]*Object{}, format: fmtSpecial}}
	cls.st = &State{class: &classData{name: name, superclass: super, thisClass: meta,
		instVarNames: ivars, methodDict: s.newMethodDictionary(), selectorSet: s.newSelectorSet(),
		classVars: map[string]*Object{}, format: f, civValues: make([]Value, len(civars)+s.inheritedCivars(metaSuper))}}
	if s.img.k != nil {
		meta.cls = s.img.k.Metaclass
	}
	s.wr(cls).class.classHistory = []*Object{cls}
	return cls
}

func (s *Session) inheritedCivars(meta *Object) int {
	n := 0
	for m := meta; m != nil; m = s.rd(m).class.superclass {
		cd := s.rd(m).class
		if !cd.isMeta {
			break
		}
		n += len(cd.instVarNames)
	}
	return n
}

func bigOf(v Value) *big.Int {
	b, _ := toBig(v)
	return b
}
