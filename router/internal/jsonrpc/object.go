package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is a JSON object's top-level members in their order, read once and exactly as
// Members reads them (names after their escapes are decoded, a name given twice refused). It
// is the per-request form of Members: a request's params and _meta hold a handful of members,
// looked up a few times each, and a slice of them costs one allocation where a map costs a
// table and a string per name.
type Object []Member

// Member is one member of an Object; both slices alias the bytes the Object was read from
// (a name with escapes excepted).
type Member struct {
	Name  []byte
	Value json.RawMessage
}

// ObjectOfValid reads raw, already known to be valid JSON (see MembersOfValid), as an Object.
func ObjectOfValid(raw []byte) (Object, error) {
	out := make(Object, 0, 8)
	if err := EachMemberOfValid(raw, func(name, value []byte) { out = append(out, Member{name, value}) }); err != nil {
		return nil, err
	}
	return out, nil
}

// EachMemberOfValid calls fn with each member of raw, already known to be valid JSON, in
// order, as ObjectOfValid reads them, keeping none: for a reader that wants a few members of
// an object it reads once. Its error is ObjectOfValid's, and fn may have been called before
// a member given twice was found.
func EachMemberOfValid(raw []byte, fn func(name, value []byte)) error {
	dup, ok := eachMember(bytes.TrimSpace(raw), fn)
	if !ok {
		return errors.New("jsonrpc: not a JSON object")
	}
	if dup != nil {
		return fmt.Errorf("%w: %s", ErrDuplicateMember, quoteName(dup))
	}
	return nil
}

// Lookup answers the value of the member name and whether o has it.
func (o Object) Lookup(name string) (json.RawMessage, bool) {
	for _, m := range o {
		if string(m.Name) == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Get answers the value of the member name, nil when o has none.
func (o Object) Get(name string) json.RawMessage {
	v, _ := o.Lookup(name)
	return v
}
