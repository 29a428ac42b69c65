// Package jsonrpc is the little the front end needs to know about JSON-RPC 2.0: what kind of
// message a body holds (request, notification, response, batch), the id to match a
// cancellation or a response on, and how to build the error and result objects the front
// end answers itself. It never interprets params or results: those are the worker's.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Standard and MCP error codes the front end answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeServer is the implementation-defined server error (-32000..-32099) this server uses
	// for everything about sessions: limits, a gone worker, a deadline.
	CodeServer = -32001
)

// Kind says what a single JSON-RPC message is.
type Kind int

const (
	// Request has a method and an id: it gets exactly one response.
	Request Kind = iota + 1
	// Notification has a method and no id: it gets none.
	Notification
	// Response has an id and a result or error and no method: it answers a request the
	// server sent.
	Response
)

func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Notification:
		return "notification"
	case Response:
		return "response"
	}
	return "invalid"
}

// Message is one JSON-RPC message as the front end sees it. Raw holds the member's bytes
// exactly as the client sent them; they are what the worker receives.
type Message struct {
	Kind   Kind
	Method string
	// ID is the id as sent (a JSON string or number), nil for a notification.
	ID json.RawMessage
	// Params is the raw params member, nil when absent.
	Params json.RawMessage
	Raw    []byte
}

// IDKey is a canonical form of the message's id for matching: the number 7 and 7.0 agree,
// the string "7" does not match the number 7.
func (m Message) IDKey() string { return IDKey(m.ID) }

// Error is a JSON-RPC error object; it is also a Go error so parsing can return it.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("json-rpc %d: %s", e.Code, e.Message) }

// InvalidUTF8Offset is the byte offset of the first byte that is not part of valid UTF-8,
// or -1 when the body is valid UTF-8.
func InvalidUTF8Offset(body []byte) int {
	if utf8.Valid(body) {
		return -1
	}
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// Parse reads one POST body: a single message, or (batch true) a JSON array of them. It
// checks UTF-8 first, because encoding/json would silently replace a bad byte and the
// client would never learn its request was mangled. A parse error is *Error with the code
// to answer; a batch whose member is not a valid message is refused whole, since the front
// end cannot route half of it.
func Parse(body []byte) (msgs []Message, batch bool, err error) {
	if off := InvalidUTF8Offset(body); off >= 0 {
		return nil, false, &Error{Code: CodeParseError,
			Message: fmt.Sprintf("Parse error: the body is not valid UTF-8 (first bad byte at offset %d)", off),
			Data:    map[string]any{"offset": off}}
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, false, &Error{Code: CodeParseError, Message: "Parse error: the body is empty"}
	}
	if trimmed[0] == '[' {
		var members []json.RawMessage
		if err := json.Unmarshal(trimmed, &members); err != nil {
			return nil, true, notJSONOr(err, trimmed, len(body)-len(trimmed), "a JSON-RPC batch must be an array of objects")
		}
		if len(members) == 0 {
			return nil, true, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: an empty batch"}
		}
		msgs = make([]Message, 0, len(members))
		for i, raw := range members {
			m, err := parseOne(bytes.TrimLeft(raw, " \t\r\n"), 0)
			if err != nil {
				err.Message = fmt.Sprintf("%s (batch member %d)", err.Message, i)
				return nil, true, err
			}
			msgs = append(msgs, m)
		}
		return msgs, true, nil
	}
	m, perr := parseOne(trimmed, len(body)-len(trimmed))
	if perr != nil {
		return nil, false, perr
	}
	return []Message{m}, false, nil
}

// notJSONOr tells a body that is not JSON at all (-32700, with the offset) from JSON of the
// wrong shape (-32600). Decoding first and checking only on failure keeps the common path
// to one pass over the bytes.
func notJSONOr(err error, body []byte, lead int, shape string) *Error {
	if !json.Valid(body) {
		return syntaxError(body, lead)
	}
	return invalid(shape)
}

func syntaxError(body []byte, lead int) *Error {
	var v any
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset) + lead
		return &Error{Code: CodeParseError,
			Message: fmt.Sprintf("Parse error: %s (near byte offset %d)", se.Error(), off),
			Data:    map[string]any{"offset": off}}
	}
	msg := "Parse error: the body is not JSON"
	if err != nil {
		msg = "Parse error: " + err.Error()
	}
	return &Error{Code: CodeParseError, Message: msg}
}

// envelope is decoded with RawMessage members so that nothing but the routing facts is
// interpreted; presence is told apart from null by the raw bytes.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// parseOne reads one message; lead is how many bytes of the body precede raw, so that a
// syntax error's offset counts from the start of the body.
func parseOne(raw []byte, lead int) (Message, *Error) {
	raw = bytes.TrimRight(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '{' {
		return Message{}, notJSONOr(nil, raw, lead, "a JSON-RPC message must be a JSON object")
	}
	// The common message (plain member names, each once) is split by hand after one
	// validating pass; anything else takes encoding/json's decoder, whose rules (names
	// matched without regard to case or escapes, the last duplicate wins) the split would
	// otherwise have to copy. Both give the same envelope (FuzzSplitAgreesWithTheDecoder).
	env, ok := splitEnvelope(raw)
	if !ok || !json.Valid(raw) {
		env = envelope{}
		if err := json.Unmarshal(raw, &env); err != nil {
			return Message{}, notJSONOr(err, raw, lead, "a JSON-RPC message must be an object with string "+
				`"jsonrpc" and "method" members`)
		}
	}
	return classify(raw, env)
}

// decodeEnvelope is the decoder's reading of raw (for the split's differential test).
func decodeEnvelope(raw []byte) (envelope, error) {
	var env envelope
	err := json.Unmarshal(raw, &env)
	return env, err
}

// classify turns the envelope of a JSON object into a Message.
func classify(raw []byte, env envelope) (Message, *Error) {
	if string(env.JSONRPC) != `"2.0"` {
		return Message{}, invalid(`"jsonrpc" must be "2.0"`)
	}
	m := Message{Raw: raw, Params: env.Params}
	nullID := string(env.ID) == "null"
	hasID := len(env.ID) > 0 && !nullID
	if hasID {
		if !validID(env.ID) {
			return Message{}, invalid(`"id" must be a string or a number`)
		}
		m.ID = env.ID
	}
	if len(env.Method) > 0 {
		if nullID {
			return Message{}, invalid(`"id" must be a string or a number, not null`)
		}
		if plain, ok := plainString(env.Method); ok {
			m.Method = plain
		} else if err := json.Unmarshal(env.Method, &m.Method); err != nil || env.Method[0] != '"' {
			return Message{}, invalid(`"method" must be a string`)
		}
		if hasID {
			m.Kind = Request
		} else {
			m.Kind = Notification
		}
		return m, nil
	}
	// A response may carry a null id: a client answering a request it could not parse.
	if (hasID || nullID) && (len(env.Result) > 0) != (len(env.Error) > 0) {
		m.Kind = Response
		return m, nil
	}
	return Message{}, invalid("the message is neither a request, a notification nor a response")
}

// plainString answers the text of a JSON string with no escapes.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

// splitEnvelope reads the top-level members of raw, a JSON object, into an envelope whose
// members alias raw. It answers false for what it leaves to the decoder: a name with an
// escape, a name that matches a member only without regard to case, a member given twice,
// or anything malformed. It does not validate the values; the caller does (json.Valid).
func splitEnvelope(raw []byte) (envelope, bool) {
	var env envelope
	i := skipSpace(raw, 1)
	if i < len(raw) && raw[i] == '}' {
		return env, i == len(raw)-1
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return env, false
		}
		end := bytes.IndexByte(raw[i+1:], '"')
		if end < 0 {
			return env, false
		}
		name := raw[i+1 : i+1+end]
		if bytes.IndexByte(name, '\\') >= 0 {
			return env, false
		}
		i = skipSpace(raw, i+end+2)
		if i >= len(raw) || raw[i] != ':' {
			return env, false
		}
		i = skipSpace(raw, i+1)
		vend, ok := skipValue(raw, i)
		if !ok {
			return env, false
		}
		var slot *json.RawMessage
		switch string(name) {
		case "jsonrpc":
			slot = &env.JSONRPC
		case "id":
			slot = &env.ID
		case "method":
			slot = &env.Method
		case "params":
			slot = &env.Params
		case "result":
			slot = &env.Result
		case "error":
			slot = &env.Error
		default:
			for _, m := range [...]string{"jsonrpc", "id", "method", "params", "result", "error"} {
				if bytes.EqualFold(name, []byte(m)) {
					return env, false
				}
			}
		}
		if slot != nil {
			if *slot != nil {
				return env, false
			}
			*slot = raw[i:vend:vend]
		}
		i = skipSpace(raw, vend)
		if i >= len(raw) {
			return env, false
		}
		if raw[i] == '}' {
			return env, i == len(raw)-1
		}
		if raw[i] != ',' {
			return env, false
		}
		i = skipSpace(raw, i+1)
	}
	return env, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue answers the end of the JSON value starting at b[i] (its syntax is checked
// elsewhere; this only finds where it ends).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, ok := skipString(b, i)
				if !ok {
					return i, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\r' && b[i] != '\n' {
		i++
	}
	return i, i > start
}

func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(b), false
}

func invalid(why string) *Error {
	return &Error{Code: CodeInvalidRequest, Message: "Invalid Request: " + why}
}

func validID(id json.RawMessage) bool {
	switch id[0] {
	case '"':
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// IDKey is the canonical matching key of a raw id: "s:" and the decoded string, or "n:" and
// the number in shortest form. An absent or unusable id gives "".
func IDKey(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) != nil {
			return ""
		}
		return "s:" + s
	}
	if f, err := strconv.ParseFloat(string(id), 64); err == nil {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return ""
}

// response is the wire form of a response the front end writes itself.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

// ErrorResponse is a complete JSON-RPC error response; a nil id becomes null (the request
// could not be read far enough to know it).
func ErrorResponse(id json.RawMessage, e *Error) []byte {
	if len(id) == 0 {
		id = nullID
	}
	out, err := json.Marshal(response{JSONRPC: "2.0", ID: id, Error: e})
	if err != nil {
		// Data that cannot be marshalled is dropped rather than losing the whole answer.
		out, _ = json.Marshal(response{JSONRPC: "2.0", ID: id, Error: &Error{Code: e.Code, Message: e.Message}})
	}
	return out
}

// ResultResponse is a complete JSON-RPC success response.
func ResultResponse(id json.RawMessage, result any) []byte {
	out, err := json.Marshal(response{JSONRPC: "2.0", ID: id, Result: result})
	if err != nil {
		return ErrorResponse(id, &Error{Code: CodeInternalError, Message: "Internal error: " + err.Error()})
	}
	return out
}

// EmptyResult is the {} result ping answers.
var EmptyResult = struct{}{}

// BatchOf joins complete responses into one JSON array.
func BatchOf(replies [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range replies {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(r)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// CancelledRequestID reads params.requestId of a notifications/cancelled message.
func CancelledRequestID(params json.RawMessage) (json.RawMessage, bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 || !validID(p.RequestID) {
		return nil, false
	}
	return p.RequestID, true
}

// ProtocolVersionOf reads params.protocolVersion of an initialize request, or result.protocolVersion of
// its answer; "" when absent.
func ProtocolVersionOf(member string, raw []byte) string {
	var outer map[string]json.RawMessage
	if json.Unmarshal(raw, &outer) != nil {
		return ""
	}
	var inner struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(outer[member], &inner) != nil {
		return ""
	}
	return inner.ProtocolVersion
}

// IsErrorResponse says whether raw is a JSON-RPC response carrying an error member.
func IsErrorResponse(raw []byte) bool {
	var env envelope
	return json.Unmarshal(raw, &env) == nil && len(env.Error) > 0 && string(env.Error) != "null"
}
