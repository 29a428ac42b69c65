package gsmodel

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
	"sort"
)

// dictData holds a hashed collection: a Dictionary family member (keys and values) or a Set
// family member (keys only). GemStone iterates a hashed collection in hash order, which no code
// may depend on, so the model iterates in an order of its own that changes from run to run, as
// Go's map iteration does: each key's place is a hash of the key mixed with the image's seed
// (Image.HashSeed, printed by gsmodel -test and replayed with -hashseed or GSMODEL_HASHSEED). The
// same keys under the same seed iterate in the same order, so keys and values agree, a replay
// repeats a run, and an order dependence fails under some seed instead of on a stone.
type dictData struct {
	identity bool
	seed     uint64
	keys     []Value
	vals     []Value
	live     []bool
	place    []uint64 // each slot's place in the iteration order (placeOf)
	order    []int    // the live slots in iteration order; nil when a change made it stale
	index    map[any][]int
	count    int
}

func newDictData(identity bool, seed uint64) *dictData {
	return &dictData{identity: identity, seed: seed, index: map[any][]int{}}
}

func (d *dictData) clone() *dictData {
	n := &dictData{identity: d.identity, seed: d.seed, count: d.count, index: make(map[any][]int, len(d.index))}
	n.keys = append([]Value(nil), d.keys...)
	n.vals = append([]Value(nil), d.vals...)
	n.live = append([]bool(nil), d.live...)
	n.place = append([]uint64(nil), d.place...)
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
	d.place = append(d.place, placeOf(d.seed, h))
	d.index[h] = append(d.index[h], len(d.keys)-1)
	d.count++
	d.order = nil
}

func (s *Session) dictRemove(d *dictData, key Value) bool {
	i := s.dictFind(d, key)
	if i < 0 {
		return false
	}
	d.live[i] = false
	d.keys[i], d.vals[i] = nil, nil
	d.count--
	d.order = nil
	return true
}

// placeOf answers a key's place in the iteration order: its hash key (hashKey) hashed, then
// mixed with the seed (splitmix64's finalizer), so that every seed orders the same keys anew.
func placeOf(seed uint64, h any) uint64 {
	var k uint64
	switch x := h.(type) {
	case nil:
		k = 20
	case bool:
		if x {
			k = 1
		}
	case Char:
		k = uint64(x)
	case int64:
		k = uint64(x)
	case float64:
		k = math.Float64bits(x)
	case string:
		f := fnv.New64a()
		_, _ = f.Write([]byte(x))
		k = f.Sum64()
	case identityKey:
		k = x.o.id
	}
	z := seed ^ k
	z += 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// iterationOrder answers the live slots in the order the seed gives their keys, ties (keys
// with no place of their own, such as blocks) in the order they were added.
func (d *dictData) iterationOrder() []int {
	if d.order != nil {
		return d.order
	}
	order := make([]int, 0, d.count)
	for i, ok := range d.live {
		if ok {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return d.place[order[a]] < d.place[order[b]] })
	d.order = order
	return order
}

// each calls fn for every live entry, in iteration order, over a snapshot of the entries (the
// block may change the collection).
func (d *dictData) each(fn func(k, v Value)) {
	order := d.iterationOrder()
	keys := make([]Value, len(order))
	vals := make([]Value, len(order))
	for j, i := range order {
		keys[j], vals[j] = d.keys[i], d.vals[i]
	}
	for j := range order {
		fn(keys[j], vals[j])
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
