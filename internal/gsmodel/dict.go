package gsmodel

import (
	"fmt"
	"math"
	"math/big"
)

// dictData holds a hashed collection: a Dictionary family member (keys and values) or a Set
// family member (keys only). Entries keep their insertion order; iteration follows it. GemStone
// iterates in hash order, which no code may depend on; the model's order is stable so that a
// run is reproducible.
type dictData struct {
	identity bool
	keys     []Value
	vals     []Value
	live     []bool
	index    map[any][]int
	count    int
}

func newDictData(identity bool) *dictData {
	return &dictData{identity: identity, index: map[any][]int{}}
}

func (d *dictData) clone() *dictData {
	n := &dictData{identity: d.identity, count: d.count, index: make(map[any][]int, len(d.index))}
	n.keys = append([]Value(nil), d.keys...)
	n.vals = append([]Value(nil), d.vals...)
	n.live = append([]bool(nil), d.live...)
	for k, v := range d.index {
		n.index[k] = append([]int(nil), v...)
	}
	return n
}

type identityKey struct{ o *Object }

// hashKey answers the Go map key that equal keys share. For identity collections it is the
// object itself; for equality collections a canonical form of the value, or, for an object
// whose class defines = in Smalltalk, the answer of its hash.
func (s *Session) hashKey(v Value, identity bool) any {
	switch x := v.(type) {
	case nil, bool, Char:
		return x
	case int64:
		return x
	case *big.Int:
		return "big:" + x.String()
	case float64:
		if !identity && x == math.Trunc(x) && math.Abs(x) < 1e18 {
			return int64(x)
		}
		return x
	case *Block:
		return x
	case *Object:
		if identity {
			return identityKey{x}
		}
		if st := s.rd(x); st.by != nil && s.isStringLike(x) {
			return "str:" + string(st.by)
		}
		if m := s.lookup(x.cls, "="); m != nil && !m.kernel {
			h := s.send(x, "hash", nil)
			return fmt.Sprintf("hash:%v", h)
		}
		return identityKey{x}
	}
	return v
}

// find answers the slot index of key, or -1.
func (s *Session) dictFind(d *dictData, key Value) int {
	for _, i := range d.index[s.hashKey(key, d.identity)] {
		if !d.live[i] {
			continue
		}
		if d.identity {
			if identical(d.keys[i], key) {
				return i
			}
			continue
		}
		if s.equal(d.keys[i], key) {
			return i
		}
	}
	return -1
}

func (s *Session) dictPut(d *dictData, key, val Value) {
	if i := s.dictFind(d, key); i >= 0 {
		d.vals[i] = val
		return
	}
	s.checkSlots(d.count + 1)
	h := s.hashKey(key, d.identity)
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, val)
	d.live = append(d.live, true)
	d.index[h] = append(d.index[h], len(d.keys)-1)
	d.count++
}

func (s *Session) dictRemove(d *dictData, key Value) bool {
	i := s.dictFind(d, key)
	if i < 0 {
		return false
	}
	d.live[i] = false
	d.keys[i], d.vals[i] = nil, nil
	d.count--
	return true
}

// each calls fn for every live entry, in insertion order, over a snapshot of the entries (the
// block may change the collection).
func (d *dictData) each(fn func(k, v Value)) {
	n := len(d.keys)
	keys := append([]Value(nil), d.keys[:n]...)
	vals := append([]Value(nil), d.vals[:n]...)
	live := append([]bool(nil), d.live[:n]...)
	for i := 0; i < n; i++ {
		if live[i] {
			fn(keys[i], vals[i])
		}
	}
}

func identical(a, b Value) bool {
	switch x := a.(type) {
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	return a == b
}
