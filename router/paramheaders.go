package router

import (
	"encoding/json"
	"net/http"
	"strings"

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
	headers := map[string]string{}
	for name, values := range r.Header {
		suffix, ok := cutPrefixFold(name, "Mcp-Param-")
		if !ok {
			continue
		}
		if len(values) != 1 {
			return m, errorBody(m.ID, codeHeaderMismatch, "Header mismatch: "+quote(jsonrpc.Clip(name))+" sent more than once", "headerMismatch")
		}
		headers[strings.ToLower(suffix)] = values[0]
	}
	if len(headers) == 0 {
		return m, nil
	}
	if len(headers) > maxParamHeaders {
		return m, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: more than 32 Mcp-Param-* headers", "tooManyParamHeaders")
	}
	top, err := jsonrpc.Members(m.Raw)
	if err != nil {
		return m, nil
	}
	params, err := jsonrpc.Members(top["params"])
	if err != nil {
		return m, nil
	}
	meta, err := jsonrpc.Members(params["_meta"])
	if err != nil {
		return m, nil
	}
	meta[metaParamHeaders], _ = json.Marshal(headers)
	ok := true
	var b []byte
	if params["_meta"], ok = marshalRaw(meta); !ok {
		return m, nil
	}
	if b, ok = marshalRaw(params); !ok {
		return m, nil
	}
	top["params"] = b
	if b, ok = marshalRaw(top); !ok {
		return m, nil
	}
	m.Raw, m.Params = b, top["params"]
	return m, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) <= len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return s[len(prefix):], true
}
