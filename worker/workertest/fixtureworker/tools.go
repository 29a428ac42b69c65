package fixtureworker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// AstralText is the fixed text the unicode tool answers besides the echo: characters
// outside the Basic Multilingual Plane, which UTF-16 would need surrogate pairs for.
const AstralText = "stand-in astral: \U0001F600 \U0001D11E \U00010348 \U0001F680"

// CutMarker ends a text result cut at the config's resultCap.
const CutMarker = "...(cut at resultCap by the test stand-in)"

// Limits keep a fixture from exhausting the machine.
const (
	maxSleepMs = 600_000
	maxBigN    = 256 << 20
)

type argKind string

const (
	argString  argKind = "string"
	argInteger argKind = "integer"
	argBoolean argKind = "boolean"
)

type argSpec struct {
	name     string
	kind     argKind
	required bool
	min, max int64 // integers only
	doc      string
}

type tool struct {
	name string
	doc  string
	args []argSpec
	// schema, when set, is the tool's input schema given verbatim in tools/list (the
	// conformance fixtures keep their JSON Schema 2020-12 keywords); its arguments are then
	// only checked to be an object.
	schema json.RawMessage
	run    func(c *call, args map[string]any) (any, error)
	// toolset is the toolset the tool belongs to ("" for ToolsetName).
	toolset string
}

var fixtureTools = []*tool{
	{name: "echo", doc: "Answers the text it is given.",
		args: []argSpec{{name: "text", kind: argString, required: true, doc: "text to answer"}},
		run:  func(c *call, a map[string]any) (any, error) { return c.text(a["text"].(string)), nil }},
	{name: "sleep", doc: "Waits ms milliseconds; a soft or hard break ends it early.",
		args: []argSpec{msArg()},
		run: func(c *call, a map[string]any) (any, error) {
			return c.sleep(a["ms"].(int64), func(Break) bool { return true })
		}},
	{name: "sleep_soft_immune", doc: "Waits ms milliseconds; ignores soft breaks, a hard break ends it.",
		args: []argSpec{msArg()},
		run: func(c *call, a map[string]any) (any, error) {
			return c.sleep(a["ms"].(int64), func(b Break) bool { return b == HardBreak })
		}},
	{name: "sleep_immune", doc: "Waits ms milliseconds; ignores both breaks (only stopping the gem ends it).",
		args: []argSpec{msArg()},
		run: func(c *call, a map[string]any) (any, error) {
			return c.sleep(a["ms"].(int64), func(Break) bool { return false })
		}},
	{name: "fail", doc: "Fails with the given error kind.",
		args: []argSpec{
			{name: "kind", kind: argString, required: true, doc: "structuredContent.error.kind of the failure"},
			{name: "message", kind: argString, doc: "the failure's text"}},
		run: func(c *call, a map[string]any) (any, error) {
			kind := a["kind"].(string)
			msg, ok := a["message"].(string)
			if !ok {
				msg = "the fixture tool fail was asked to fail with kind " + kind
			}
			return toolError(kind, msg), nil
		}},
	{name: "big", doc: "Answers a text of exactly n ASCII bytes.",
		args: []argSpec{{name: "n", kind: argInteger, required: true, min: 0, max: maxBigN, doc: "length in bytes"}},
		run:  func(c *call, a map[string]any) (any, error) { return c.text(bigText(a["n"].(int64))), nil }},
	{name: "unicode", doc: "Answers the text it is given, then a fixed text of astral-plane characters.",
		args: []argSpec{{name: "text", kind: argString, required: true, doc: "text to answer"}},
		run: func(c *call, a map[string]any) (any, error) {
			return map[string]any{"content": []any{textItem(a["text"].(string)), textItem(AstralText)}}, nil
		}},
	{name: "die", doc: "Ends the gem process in the middle of the call.",
		run: func(*call, map[string]any) (any, error) { return nil, ErrDied }},
	{name: "set_view_status", doc: "Test knob: sets what the view-status entry reports next.",
		args: []argSpec{
			{name: "commitsBehind", kind: argInteger, min: -1, max: 1 << 40, doc: "commits behind (-1: unknown)"},
			{name: "uncommitted", kind: argBoolean, doc: "whether uncommitted work is held"},
			{name: "movable", kind: argBoolean, doc: "whether the view may be moved"}},
		run: func(c *call, a map[string]any) (any, error) {
			v := c.w.setView(func(v *viewState) {
				if n, ok := a["commitsBehind"].(int64); ok {
					v.CommitsBehind = int(n)
				}
				if b, ok := a["uncommitted"].(bool); ok {
					v.Uncommitted = b
				}
				if b, ok := a["movable"].(bool); ok {
					v.Movable = b
				}
			})
			return c.text(string(marshal(v))), nil
		}},
	{name: "trace_context", doc: "Answers the W3C traceparent this call carried in params._meta (empty when none).",
		run: func(c *call, _ map[string]any) (any, error) { return c.text(c.traceparent), nil }},
	floodTool(),
}

func msArg() argSpec {
	return argSpec{name: "ms", kind: argInteger, required: true, min: 0, max: maxSleepMs, doc: "milliseconds to wait"}
}

func findTool(name string) *tool {
	for _, t := range fixtureTools {
		if t.name == name {
			return t
		}
	}
	return nil
}

// hints are a tool's four MCP behaviour hints.
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

// readingHints are those of a fixture that changes nothing a client keeps.
var readingHints = hints{readOnly: true, idempotent: true}

// writingHints are the fixtures that change something: a kept note, the reported view, the gem.
var writingHints = map[string]hints{
	"note":            {idempotent: false},
	"set_view_status": {idempotent: true},
	"die":             {destructive: true, idempotent: true},
}

// annotations are the tools/list title and hints of the tool, as every worker of the contract
// gives them (test/contract/cases/tools-list-shape.json): the title in the entry and again in
// the annotations, where 2025-03-26 clients look for it.
func (t *tool) annotations() (string, map[string]any) {
	title := "Fixture " + strings.ReplaceAll(t.name, "_", " ")
	h, ok := writingHints[t.name]
	if !ok {
		h = readingHints
	}
	return title, map[string]any{"title": title, "readOnlyHint": h.readOnly, "destructiveHint": h.destructive,
		"idempotentHint": h.idempotent, "openWorldHint": h.openWorld}
}

// listing is the tool's tools/list entry; every schema is closed.
func (t *tool) listing() map[string]any {
	entry := t.entry()
	entry["title"], entry["annotations"] = t.annotations()
	return entry
}

func (t *tool) entry() map[string]any {
	if t.schema != nil {
		return map[string]any{"name": t.name, "description": t.doc + " (a test fixture of the GCI test stand-in)", "inputSchema": t.schema}
	}
	props := map[string]any{}
	required := []string{}
	for _, a := range t.args {
		p := map[string]any{"type": string(a.kind), "description": a.doc}
		if a.kind == argInteger {
			p["minimum"], p["maximum"] = a.min, a.max
		}
		props[a.name] = p
		if a.required {
			required = append(required, a.name)
		}
	}
	return map[string]any{
		"name":        t.name,
		"description": t.doc + " (a test fixture of the GCI test stand-in)",
		"inputSchema": map[string]any{
			"type": "object", "properties": props, "required": required, "additionalProperties": false,
		},
	}
}

// validate checks arguments against the closed schema. It answers the typed arguments, or a
// problem text for an invalidParams tool error, and whether they named a GemStone session: the
// session argument is the router's (docs/worker-contract.md), taken out before the tool sees them.
func (t *tool) validate(raw json.RawMessage) (map[string]any, string, bool) {
	fields := map[string]json.RawMessage{}
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if trimmedFirst(raw) != '{' {
			return nil, "arguments must be an object", false
		}
		// raw is part of the message parseRequest checked, so it is well formed: walked, not
		// decoded.
		eachMember(raw, func(key []byte, value json.RawMessage) { fields[string(key)] = value })
	}
	// A string names a session; so does null, which names none that lives (as a decode reads it).
	handle, present := fields[sessionArg]
	_, isString := decodeString(handle)
	named := present && (isString || string(handle) == "null")
	delete(fields, sessionArg)
	out := map[string]any{}
	if t.schema != nil {
		for name, value := range fields {
			var v any
			_ = json.Unmarshal(value, &v)
			out[name] = v
		}
		return out, "", named
	}
	for name, value := range fields {
		spec := t.arg(name)
		if spec == nil {
			return nil, fmt.Sprintf("%s takes no argument named %q", t.name, name), named
		}
		v, problem := spec.decode(value)
		if problem != "" {
			return nil, fmt.Sprintf("%s: argument %s %s", t.name, name, problem), named
		}
		out[name] = v
	}
	for _, a := range t.args {
		if _, ok := out[a.name]; a.required && !ok {
			return nil, fmt.Sprintf("%s needs the argument %s", t.name, a.name), named
		}
	}
	return out, "", named
}

func (t *tool) arg(name string) *argSpec {
	for i := range t.args {
		if t.args[i].name == name {
			return &t.args[i]
		}
	}
	return nil
}

func (a *argSpec) decode(raw json.RawMessage) (any, string) {
	switch a.kind {
	case argString:
		if s, isString := decodeString(raw); isString {
			return s, ""
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, "must be a string"
		}
		return s, ""
	case argBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, "must be a boolean"
		}
		return b, ""
	default:
		var n int64
		if json.Unmarshal(raw, &n) != nil {
			return nil, "must be an integer"
		}
		if n < a.min || n > a.max {
			return nil, fmt.Sprintf("must be between %d and %d", a.min, a.max)
		}
		return n, ""
	}
}

func textItem(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// text is a one-item text result, cut at the config's resultCap.
func (c *call) text(s string) map[string]any {
	if limit := c.w.cfg.ResultCap; limit > 0 && utf8.RuneCountInString(s) > limit {
		seen := 0
		for pos := range s {
			if seen == limit {
				s = s[:pos]
				break
			}
			seen++
		}
		s += CutMarker
	}
	return map[string]any{"content": []any{textItem(s)}}
}

func toolError(kind, message string) map[string]any {
	return map[string]any{
		"content":           []any{textItem(message)},
		"structuredContent": map[string]any{"error": map[string]any{"kind": kind, "message": message}},
		"isError":           true,
	}
}

func bigText(n int64) string {
	const pattern = "abcdefghijklmnopqrstuvwxyz0123456789\n"
	var b strings.Builder
	b.Grow(int(n))
	for int64(b.Len())+int64(len(pattern)) <= n {
		b.WriteString(pattern)
	}
	b.WriteString(pattern[:n-int64(b.Len())])
	return b.String()
}

// sleep waits ms, ending early at a break that ends(b) accepts or when the call is stopped.
func (c *call) sleep(ms int64, ends func(Break) bool) (any, error) {
	timer := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer timer.Stop()
	breaks := c.breaks
	for {
		select {
		case <-timer.C:
			return c.text(fmt.Sprintf("slept %d ms", ms)), nil
		case <-c.ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrStopped, c.ctx.Err())
		case b, ok := <-breaks:
			if !ok {
				breaks = nil
				continue
			}
			if ends(b) {
				return nil, &BreakError{Break: b}
			}
		}
	}
}
