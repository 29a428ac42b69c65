package router

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// metaParamHeaders carries a 2026-07-28 tools/call's Mcp-Param-* headers to the worker: SEP-2243
// lets a tool mirror arguments into headers (its inputSchema's x-mcp-header), and only the
// worker knows its schemas, so it is the worker that holds each header to its argument (worker
// contract). The router never reads a tool's arguments; it only moves the headers into the
// message, as sent, and only when there are some: their absence is how the worker learns none
// was sent.
const metaParamHeaders = "io.github.gemstone-mcp/paramHeaders"

// maxParamHeaders bounds how many Mcp-Param-* headers one request may carry to the worker.
const maxParamHeaders = 32

// withParamHeaders answers m with its Mcp-Param-* headers under params._meta[metaParamHeaders]
// (names lower-cased past the prefix), or m itself when it has none.
func withParamHeaders(r *http.Request, m jsonrpc.Message) (jsonrpc.Message, []byte) {
	var headers map[string]string // made by the first such header: most calls carry none
	for name, values := range r.Header {
		suffix, ok := cutPrefixFold(name, "Mcp-Param-")
		if !ok {
			continue
		}
		if len(values) != 1 {
			return m, errorBody(m.ID, codeHeaderMismatch, "Header mismatch: "+quote(jsonrpc.Clip(name))+" sent more than once", errkind.HeaderMismatch)
		}
		if headers == nil {
			headers = map[string]string{}
		}
		headers[strings.ToLower(suffix)] = values[0]
	}
	if len(headers) == 0 {
		return m, nil
	}
	if len(headers) > maxParamHeaders {
		return m, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: more than 32 Mcp-Param-* headers", errkind.TooManyParamHeaders)
	}
	value, err := json.Marshal(headers)
	if err != nil {
		return m, nil
	}
	out, _ := jsonrpc.WithMeta(m, func(meta map[string]json.RawMessage) bool {
		meta[metaParamHeaders] = value
		return true
	})
	return out, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) <= len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return s[len(prefix):], true
}

// Values of the revision's mirrored headers (Mcp-Name, Mcp-Param-*) are plain ASCII or, for a
// value that is not (non-ASCII, control characters, edge spaces), "=?base64?" + the standard
// Base64 of its UTF-8 bytes + "?=".
const (
	base64ValueOpen  = "=?base64?"
	base64ValueClose = "?="
)

// The ways a mirrored header value can be malformed. Each text completes a sentence that names
// the header ("Mcp-Name is not valid Base64 ...").
var (
	errHeaderBase64   = errors.New("is not valid Base64 inside =?base64?...?=")
	errHeaderNotUTF8  = errors.New("decodes to bytes that are not UTF-8")
	errHeaderNotASCII = errors.New("holds a byte that is not printable ASCII; such a value is sent as =?base64?...?=")
)

// headerValue decodes one mirrored header value; the error says what is wrong with one that is
// neither plain ASCII nor the Base64 form (strict Base64 of valid UTF-8).
func headerValue(v string) (string, error) {
	if len(v) >= len(base64ValueOpen)+len(base64ValueClose) &&
		strings.HasPrefix(v, base64ValueOpen) && strings.HasSuffix(v, base64ValueClose) {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(base64ValueOpen) : len(v)-len(base64ValueClose)])
		switch {
		case err != nil:
			return "", errHeaderBase64
		case !utf8.Valid(b):
			return "", errHeaderNotUTF8
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", errHeaderNotASCII
		}
	}
	return v, nil
}
