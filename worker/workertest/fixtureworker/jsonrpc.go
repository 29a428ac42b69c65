package fixtureworker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes the worker answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
)

// call is one Handle in flight.
type call struct {
	ctx    context.Context
	breaks <-chan Break
	w      *Worker
	// id and progressToken are those of the tools/call being run (nil otherwise): the
	// channel binds every message a tool sends to the call's id.
	id            json.RawMessage
	progressToken json.RawMessage
	// meta is the request's params._meta (the 2026-07-28 revision's per-request capabilities),
	// and isStateless says its protocol version is that revision's; both read once per request.
	meta        requestMeta
	isStateless bool
	// tool is a tools/call's params.name and arguments, read in the same pass as meta.
	tool toolParams
	// namesSession: the request is a tools/call whose session argument names a GemStone session.
	namesSession bool
	// traceparent is the W3C trace context the call carried in params._meta ("" when none).
	traceparent string
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// request is a parsed JSON-RPC message; id is nil for a notification.
type request struct {
	id     json.RawMessage
	method string
	params json.RawMessage
}

func (c *call) dispatch(msg []byte) ([]byte, error) {
	if !utf8.Valid(msg) {
		off := firstInvalidUTF8(msg)
		return errorReply(nil, CodeParseError, fmt.Sprintf("the message is not UTF-8: invalid byte at offset %d", off),
			map[string]any{"kind": "invalidUtf8", "offset": off}), nil
	}
	req, reply, ok := parseRequest(msg)
	if !ok {
		return reply, nil
	}
	if req.id == nil {
		return nil, nil // a notification: handled by being ignored, answered by nothing
	}
	c.meta, c.tool = readParams(req.params)
	c.isStateless = stringOf(c.meta.protocolVersion) == statelessRevision
	c.namesSession = false // until a tools/call's arguments say otherwise
	if c.pooled() && req.method != "tools/call" {
		c.abortForPool() // a tools/call's abort waits for its arguments (toolsCall)
	}
	if len(req.params) > 0 && !bytes.Equal(req.params, []byte("null")) && trimmedFirst(req.params) != '{' {
		return errorReply(req.id, CodeInvalidParams, "params must be an object", nil), nil
	}
	switch req.method {
	case "initialize":
		return c.initialize(req)
	case "ping":
		return resultReply(req.id, struct{}{}), nil
	case "tools/list":
		return c.toolsList(req)
	case "tools/call":
		return c.toolsCall(req)
	}
	if reply, ok := c.conformanceMethod(req); ok {
		return reply, nil
	}
	return errorReply(req.id, CodeMethodNotFound, "method not found: "+req.method, nil), nil
}

// parseRequest checks the JSON-RPC envelope as the Smalltalk worker's McpJson parse and
// Dictionary lookups read it: the message is checked once for well-formedness, then its
// top-level members are walked, each key matched exactly, a repeated key's last value winning.
// When ok is false, reply is what to answer (nil for a response message, which needs none).
func parseRequest(msg []byte) (req request, reply []byte, ok bool) {
	if !json.Valid(msg) {
		return req, notWellFormed(), false
	}
	if trimmedFirst(msg) != '{' {
		return req, errorReply(nil, CodeInvalidRequest, "a message must be one JSON-RPC object (the front end splits batches)", nil), false
	}
	var jsonrpc, id, method, result, fault json.RawMessage
	eachMember(bytes.TrimSpace(msg), func(key []byte, value json.RawMessage) {
		switch string(key) {
		case "jsonrpc":
			jsonrpc = value
		case "id":
			id = value
		case "method":
			method = value
		case "params":
			req.params = value
		case "result":
			result = value
		case "error":
			fault = value
		}
	})
	if id != nil {
		switch trimmedFirst(id) {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		default:
			return req, errorReply(nil, CodeInvalidRequest, "id must be a string or a number", nil), false
		}
		req.id = id
	}
	if version, isString := decodeString(jsonrpc); !isString || version != "2.0" {
		return req, errorReply(req.id, CodeInvalidRequest, `jsonrpc must be "2.0"`, nil), false
	}
	if method == nil {
		if id != nil && (result != nil || fault != nil) {
			return req, nil, false // a response to something the worker never asked: nothing to say
		}
		return req, errorReply(req.id, CodeInvalidRequest, "the message has no method", nil), false
	}
	var isString bool
	if req.method, isString = decodeString(method); !isString {
		return req, errorReply(req.id, CodeInvalidRequest, "method must be a string", nil), false
	}
	return req, nil, true
}

// decodeString is raw as a string, and false when raw is no JSON string. A string written
// without escapes, as nearly every one is, is read without a decode.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, b := range body {
		if b == '\\' || b == '"' || b < 0x20 {
			var s string
			err := json.Unmarshal(raw, &s)
			return s, err == nil
		}
	}
	return string(body), true
}

func notWellFormed() []byte {
	return errorReply(nil, CodeParseError, "the message is not well-formed JSON", map[string]any{"kind": "parseError"})
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

func trimmedFirst(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func resultReply(id json.RawMessage, result any) []byte {
	return marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

func errorReply(id json.RawMessage, code int, message string, data any) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	return marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message, data}})
}

// marshal writes JSON without HTML escaping, so text comes back byte for byte as the tool
// produced it, and without the encoder's trailing newline.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only values built in this package are encoded, so this is a bug here; say so
		// rather than leave the client without an answer.
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"the fixture worker could not encode its reply"}}`)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func (c *call) initialize(req request) ([]byte, error) {
	var p struct {
		ProtocolVersion *string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(orEmpty(req.params), &p); err != nil || p.ProtocolVersion == nil {
		return errorReply(req.id, CodeInvalidParams, "initialize needs params.protocolVersion (a string)", nil), nil
	}
	cfg := c.w.cfg
	version := cfg.ProtocolVersions[0]
	for _, v := range cfg.ProtocolVersions {
		if v == *p.ProtocolVersion {
			version = v
		}
	}
	info := map[string]string{"name": c.w.ServerName(), "version": DefaultServerVersion}
	if cfg.ServerVersion != nil {
		info["version"] = *cfg.ServerVersion
	}
	if cfg.ServerTitle != nil {
		info["title"] = *cfg.ServerTitle
	}
	result := map[string]any{
		"protocolVersion": version,
		"capabilities":    capabilities(),
		"serverInfo":      info,
	}
	instructions := DefaultInstructions
	if cfg.Instructions != nil {
		instructions = *cfg.Instructions
	}
	if instructions != "" {
		result["instructions"] = instructions
	}
	return resultReply(req.id, result), nil
}

func (c *call) toolsList(req request) ([]byte, error) {
	var p struct {
		Cursor json.RawMessage `json:"cursor"`
	}
	_ = json.Unmarshal(orEmpty(req.params), &p)
	if p.Cursor != nil && !bytes.Equal(p.Cursor, []byte("null")) {
		return errorReply(req.id, CodeInvalidParams, "tools/list has one page; no cursor is valid", nil), nil
	}
	tools := make([]any, 0, len(fixtureTools))
	for _, t := range fixtureTools {
		if c.w.offered(t) {
			tools = append(tools, t.listing())
		}
	}
	return resultReply(req.id, map[string]any{"tools": tools}), nil
}

func (c *call) toolsCall(req request) ([]byte, error) {
	p := c.tool
	if !p.ok || p.Name == nil {
		return errorReply(req.id, CodeInvalidParams, "tools/call needs params.name (a string)", nil), nil
	}
	t := findTool(*p.Name)
	if t == nil || !c.w.inSurface(t) {
		return errorReply(req.id, CodeInvalidParams, "unknown tool: "+*p.Name, nil), nil
	}
	if !c.w.offered(t) {
		return notGranted(req.id, t), nil
	}
	// The arguments say whether the call names a GemStone session, and so whether it is pooled.
	args, problem, named := t.validate(p.Arguments)
	c.namesSession = named
	if c.pooled() {
		c.abortForPool()
	}
	if refusal := c.refusePoolWrite(t); refusal != nil {
		return resultReply(req.id, refusal), nil
	}
	c.id, c.progressToken, c.traceparent = req.id, c.meta.progressToken, stringOf(c.meta.traceparent)
	if c.traceparent != "" {
		// The gem log line of a traced call names its trace, as the Smalltalk worker's does.
		fmt.Fprintf(os.Stderr, "fixture worker: tools/call %s in %s\n", t.name, traceOf(c.traceparent))
	}
	if problem != "" {
		return resultReply(req.id, toolError("invalidParams", problem)), nil
	}
	var mismatched *replyError
	if err := c.checkParamHeaders(t, args); errors.As(err, &mismatched) {
		return errorReply(req.id, mismatched.code, mismatched.message, mismatched.data), nil
	}
	res, err := t.run(c, args)
	if c.w.channel != nil {
		c.w.channel.flush(c.id)
	}
	var refused *replyError
	if errors.As(err, &refused) {
		return errorReply(req.id, refused.code, refused.message, refused.data), nil
	}
	if err != nil {
		return nil, err
	}
	return resultReply(req.id, res), nil
}

func orEmpty(params json.RawMessage) []byte {
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		return []byte("{}")
	}
	return params
}

// traceOf names the trace and span of a W3C traceparent (version-traceid-spanid-flags) as the
// Smalltalk worker's gem log line does: "trace <id> (span <id>)", or "trace ?" when it is not one.
func traceOf(traceparent string) string {
	parts := strings.Split(traceparent, "-")
	if len(parts) != 4 || len(parts[1]) != 32 {
		return "trace ?"
	}
	return "trace " + parts[1] + " (span " + parts[2] + ")"
}
