package gsmodel

import (
	"math/big"
)

// Value is one Smalltalk value. Immediates are Go values; everything with identity and state is
// an *Object:
//
//	nil            UndefinedObject        bool      Boolean
//	int64          SmallInteger           *big.Int  LargeInteger
//	float64        Float                  Char      Character
//	*Block         ExecBlock              *Object   every other object, classes included
type Value = any

// Char is a Character: an immediate, as in GemStone.
type Char rune

// Object is a heap object. Its state lives in State records: a transient object has exactly one
// (st); an object that a commit made persistent keeps one record per commit that changed it
// (vers), and each session reads the record its view sees or its own uncommitted copy. Every
// read and write of state goes through Session.rd and Session.wr, which is where transactions
// live.
type Object struct {
	cls  *Object
	st   *State    // the state of a transient object; nil once persistent
	vers []version // committed states, oldest first; nil while transient
	id   uint64    // for identityHash and stable printing
	ext  any       // native attachment: an exception's signal environment, a file, a socket
}

type version struct {
	commit int
	st     *State
}

// State is everything about an object that a transaction can change.
type State struct {
	iv    []Value    // named instance variables
	ix    []Value    // indexed pointer slots (Array, OrderedCollection, ...)
	by    []rune     // indexed byte or character slots (the String family, ByteArray, Symbol)
	dict  *dictData  // hashed contents (Dictionary and Set families)
	class *classData // when the object is a class or a metaclass
	// cats is a class side's method categories (selector -> category), held by its selector
	// set (method_dict.go), so that compiling a method never writes the class itself.
	cats map[string]string
}

func (s *State) clone() *State {
	c := &State{}
	c.iv = append([]Value(nil), s.iv...)
	if s.ix != nil {
		c.ix = append([]Value{}, s.ix...)
	}
	if s.by != nil {
		c.by = append([]rune{}, s.by...)
	}
	if s.dict != nil {
		c.dict = s.dict.clone()
	}
	if s.class != nil {
		c.class = s.class.clone()
	}
	if s.cats != nil {
		c.cats = make(map[string]string, len(s.cats))
		for k, v := range s.cats {
			c.cats[k] = v
		}
	}
	return c
}

// classData is the mutable description of a class or metaclass.
type classData struct {
	name         string
	superclass   *Object
	isMeta       bool
	thisClass    *Object // for a metaclass: its class; for a class: its metaclass
	instVarNames []string
	format       format
	methodDict   *Object            // the GsMethodDictionary of environment 0 (method_dict.go)
	selectorSet  *Object            // the SymbolSet of the side's selectors and their categories
	classVars    map[string]*Object // name -> Association (shared by class and metaclass)
	pools        []*Object
	comment      Value
	category     Value
	classHistory []*Object
	civValues    []Value // a class's class-instance variables, in the metaclass's order
	options      []string
	inDictionary *Object
}

func (c *classData) clone() *classData {
	n := *c
	n.instVarNames = append([]string(nil), c.instVarNames...)
	n.classHistory = append([]*Object(nil), c.classHistory...)
	n.civValues = append([]Value(nil), c.civValues...)
	return &n
}

// format is the storage shape of a class's instances.
type format int

const (
	fmtPointers format = iota // named instance variables only
	fmtIndexed                // named plus indexed pointer slots
	fmtBytes                  // indexed bytes (ByteArray) or characters (the String family)
	fmtHashed                 // a hashed collection (native dictData)
	fmtSpecial                // immediates and blocks: no instances through new
)

// Block is a closure: its compiled body and the frame it closes over.
type Block struct {
	code  *blockCode
	outer *frame
}

// isBig answers whether a *big.Int fits no SmallInteger. GemStone's SmallInteger has 61 bits.
const (
	smallMax = int64(1)<<60 - 1
	smallMin = -(int64(1) << 60)
)

// normInt answers the canonical form of an integer: int64 when it fits a SmallInteger.
func normInt(b *big.Int) Value {
	if b.IsInt64() {
		v := b.Int64()
		if v >= smallMin && v <= smallMax {
			return v
		}
	}
	return b
}

func toBig(v Value) (*big.Int, bool) {
	switch n := v.(type) {
	case int64:
		return big.NewInt(n), true
	case *big.Int:
		return n, true
	}
	return nil, false
}
