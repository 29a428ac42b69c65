package jsonrpc

import (
	"encoding/json"
	"fmt"
)

// The front end reads and writes params._meta (a message's out-of-band members: the 2026-07-28
// envelope, trace context, a progress token, the front end's own keys) through this pair only,
// so every reader agrees on what a malformed _meta is and every writer keeps the rest of the
// message as sent.

// MetaValue returns params._meta[key] exactly as sent, nil when params or its _meta is not an
// object, names a member twice, or has no such key. Names are compared as Members compares
// them. params is valid JSON, as every parsed Message's Params is; nothing is allocated.
func MetaValue(params json.RawMessage, key string) json.RawMessage {
	meta, _, err := MemberOfValid(params, "_meta")
	if err != nil || meta == nil {
		return nil
	}
	value, _, err := MemberOfValid(meta, key)
	if err != nil {
		return nil
	}
	return value
}

// WithMeta returns m with edit applied to its params._meta. An absent or null params or _meta
// is edited as an empty object; edit reports whether it changed anything, and m is returned
// untouched when it did not. The rewritten message keeps every other member's value as sent
// (its members in name order, without insignificant space). A message, params or _meta that
// is not an object, or names a member twice, is an error, and m is returned untouched.
func WithMeta(m Message, edit func(meta map[string]json.RawMessage) bool) (Message, error) {
	top, err := Members(m.Raw)
	if err != nil {
		return m, err
	}
	params, err := objectOrEmpty(top["params"])
	if err != nil {
		return m, fmt.Errorf("params: %w", err)
	}
	meta, err := objectOrEmpty(params["_meta"])
	if err != nil {
		return m, fmt.Errorf("params._meta: %w", err)
	}
	if !edit(meta) {
		return m, nil
	}
	if params["_meta"], err = json.Marshal(meta); err != nil {
		return m, fmt.Errorf("params._meta: %w", err)
	}
	if top["params"], err = json.Marshal(params); err != nil {
		return m, fmt.Errorf("params: %w", err)
	}
	raw, err := json.Marshal(top)
	if err != nil {
		return m, err
	}
	m.Raw, m.Params = raw, top["params"]
	return m, nil
}

func objectOrEmpty(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	return Members(raw)
}
