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
	"strings"
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

// IDKey is the key the message's id is matched by: its exact JSON text (see IDKey), so the
// number 7 matches neither 7.0 nor the string "7".
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
	if !wellFormed(body) {
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

// envelope holds the raw values of the members the front end routes on; a member's
// presence is told apart from null by the raw bytes.
type envelope struct {
	JSONRPC json.RawMessage
	ID      json.RawMessage
	Method  json.RawMessage
	Params  json.RawMessage
	Result  json.RawMessage
	Error   json.RawMessage
}

// MaxIDBytes bounds a request id's JSON text. Every answer and every refusal echoes the id,
// so an unbounded one would let a client make the server hold and write as much as it likes
// for a ping; real clients send integers or short strings.
const MaxIDBytes = 1024

// parseOne reads one message; lead is how many bytes of the body precede raw, so that a
// syntax error's offset counts from the start of the body.
func parseOne(raw []byte, lead int) (Message, *Error) {
	raw = bytes.TrimRight(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '{' {
		return Message{}, notJSONOr(nil, raw, lead, "a JSON-RPC message must be a JSON object")
	}
	if !wellFormed(raw) {
		return Message{}, syntaxError(raw, lead)
	}
	env, err := readEnvelope(raw)
	if err != nil {
		return Message{}, err
	}
	return classify(raw, env)
}

// readEnvelope reads the routing members of raw, a valid JSON object, exactly: names are
// compared byte for byte after their escapes are decoded (JSON-RPC member names are
// case-sensitive), a member given twice is refused, and so is a name that differs from a
// JSON-RPC member only in case. The worker reads the same bytes, so a message the router
// accepts can only be read one way.
func readEnvelope(raw []byte) (envelope, *Error) {
	var env envelope
	var variant []byte
	dup, ok := eachMember(raw, func(name, value []byte) {
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
			if variant == nil && isMemberVariant(name) {
				variant = name
			}
			return
		}
		*slot = value
	})
	switch {
	case !ok:
		return env, invalid("a JSON-RPC message must be a JSON object")
	case dup != nil:
		return env, invalid("member " + quoteName(dup) + " is given twice; each member may appear once")
	case variant != nil:
		return env, invalid("member " + quoteName(variant) + " is not a JSON-RPC member: member names are case-sensitive (" +
			quoteName(bytes.ToLower(variant)) + ")")
	}
	return env, nil
}

var memberNames = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

func isMemberVariant(name []byte) bool {
	for _, m := range memberNames {
		if bytes.EqualFold(name, []byte(m)) {
			return true
		}
	}
	return false
}

// quoteName shows a client-chosen member name in a message, bounded.
func quoteName(name []byte) string {
	if len(name) > 40 {
		name = append(name[:40:40], "..."...)
	}
	b, _ := json.Marshal(strings.ToValidUTF8(string(name), "?"))
	return string(b)
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
		if len(env.ID) > MaxIDBytes {
			return Message{}, invalid(fmt.Sprintf(`"id" is %d bytes of JSON; this server takes ids of up to %d`, len(env.ID), MaxIDBytes))
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

// eachMember calls fn with every top-level member of raw, a JSON object wellFormed has
// accepted, in order: the name with its escapes decoded, and the value's bytes (aliasing
// raw). It answers the first name given twice (fn is not called for it, nor for anything
// after it), and false when raw is not an object after all.
func eachMember(raw []byte, fn func(name, value []byte)) (dup []byte, ok bool) {
	var small [16][]byte
	seen := small[:0]
	var many map[string]struct{}
	i := SkipSpace(raw, 1)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	if i < len(raw) && raw[i] == '}' {
		return nil, i == len(raw)-1
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return nil, false
		}
		end, ok := SkipString(raw, i)
		if !ok {
			return nil, false
		}
		name := raw[i+1 : end-1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			var s string
			if json.Unmarshal(raw[i:end], &s) != nil {
				return nil, false
			}
			name = []byte(s)
		}
		if many != nil {
			if _, d := many[string(name)]; d {
				return name, true
			}
			many[string(name)] = struct{}{}
		} else {
			for _, n := range seen {
				if bytes.Equal(n, name) {
					return name, true
				}
			}
			if len(seen) < cap(seen) {
				seen = append(seen, name)
			} else {
				many = make(map[string]struct{}, 4*len(seen))
				for _, n := range seen {
					many[string(n)] = struct{}{}
				}
				many[string(name)] = struct{}{}
			}
		}
		i = SkipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
		vend, ok := SkipValue(raw, i)
		if !ok {
			return nil, false
		}
		fn(name, raw[i:vend:vend])
		i = SkipSpace(raw, vend)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return nil, i == len(raw)-1
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
	}
	return nil, false
}

// ErrDuplicateMember: an object names a member twice, so two readers could each take a
// different one.
var ErrDuplicateMember = errors.New("jsonrpc: a member is given twice")

// Members reads the top-level members of the JSON object raw exactly: names compared byte for
// byte after their escapes are decoded, and a name given twice refused (ErrDuplicateMember).
// encoding/json would match names without regard to case and keep the last duplicate, which
// is how one message comes to be read two ways.
func Members(raw []byte) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if !wellFormed(raw) {
		return nil, errors.New("jsonrpc: not valid JSON")
	}
	return MembersOfValid(raw)
}

// MembersOfValid is Members for raw that is already known to be valid JSON: a value inside a
// message Parse accepted (Parse checked the whole body), or bytes this process marshalled. It
// reads the members exactly as Members does and skips the second validation, which on the
// per-call path was most of the cost of reading a member.
func MembersOfValid(raw []byte) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	out := make(map[string]json.RawMessage, 8)
	dup, ok := eachMember(raw, func(name, value []byte) { out[string(name)] = value })
	if !ok {
		return nil, errors.New("jsonrpc: not a JSON object")
	}
	if dup != nil {
		return nil, fmt.Errorf("%w: %s", ErrDuplicateMember, quoteName(dup))
	}
	return out, nil
}

// MemberOfValid is one member of MembersOfValid(raw) without building the map: its value and
// whether raw has it, or the error MembersOfValid answers (raw not an object, or any member of
// it given twice, which makes the whole object unreadable one way only).
func MemberOfValid(raw []byte, name string) (value json.RawMessage, found bool, err error) {
	raw = bytes.TrimSpace(raw)
	dup, ok := eachMember(raw, func(n, v []byte) {
		if !found && string(n) == name {
			value, found = v, true
		}
	})
	if !ok {
		return nil, false, errors.New("jsonrpc: not a JSON object")
	}
	if dup != nil {
		return nil, false, fmt.Errorf("%w: %s", ErrDuplicateMember, quoteName(dup))
	}
	return value, found, nil
}

// StringOf answers the text of raw when it is a JSON string (escapes decoded as encoding/json
// decodes them), and false for any other value or none. raw must be valid JSON in valid UTF-8
// (inside a message Parse accepted): a string without escapes is then its own text, so the
// common case costs no decoding.
func StringOf(raw []byte) (string, bool) {
	if s, ok := plainString(raw); ok {
		return s, true
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// SkipSpace answers the index of the first byte at or after i that is not JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// SkipValue answers the end of the JSON value starting at b[i] (its syntax is checked
// elsewhere; this only finds where it ends).
func SkipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, ok := SkipString(b, i)
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

// SkipString answers the index just past the string that opens at b[i].
func SkipString(b []byte, i int) (int, bool) {
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

// IDKey is the matching key of a raw id: its exact JSON text. Ids are compared as sent, so
// two ids the client wrote differently never collide (decoding would turn every lone
// surrogate into U+FFFD and round large numbers through float64); a client echoes its own id
// as it wrote it. An absent id gives "".
func IDKey(id json.RawMessage) string { return string(id) }

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

// CancelledRequestID reads params.requestId of a notifications/cancelled message (members
// read exactly, see Members).
func CancelledRequestID(params json.RawMessage) (json.RawMessage, bool) {
	if len(params) == 0 {
		return nil, false
	}
	p, err := Members(params)
	id := p["requestId"]
	if err != nil || len(id) == 0 || !validID(id) {
		return nil, false
	}
	return id, true
}

// ProtocolVersionOf reads params.protocolVersion of an initialize request, or result.protocolVersion of
// its answer; "" when absent.
func ProtocolVersionOf(member string, raw []byte) string {
	outer, err := Members(raw)
	if err != nil || len(outer[member]) == 0 {
		return ""
	}
	inner, err := Members(outer[member])
	var v string
	if err != nil || json.Unmarshal(inner["protocolVersion"], &v) != nil {
		return ""
	}
	return v
}

// IsErrorResponse says whether raw is a JSON-RPC response carrying an error member.
func IsErrorResponse(raw []byte) bool {
	m, err := Members(raw)
	return err == nil && len(m["error"]) > 0 && string(m["error"]) != "null"
}

// clipLimit is how much of a client-chosen value a log line shows.
const clipLimit = 128

// Clip bounds a client-chosen value (an id, a method name, a header) for a log line: the
// first 128 bytes, then how many more there were. A value logged whole would let a client
// write as much into the server's log as it may send.
func Clip(s string) string {
	if len(s) <= clipLimit {
		return s
	}
	cut := clipLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("...(+%d bytes)", len(s)-cut)
}
