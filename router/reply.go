package router

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// ErrNoStream: this answer cannot carry messages ahead of the response.
var ErrNoStream = errors.New("router: the response mode cannot send messages before the answer")

// JSONResponses answers every request with one application/json body.
type JSONResponses struct{}

// Begin implements ResponseMode.
func (JSONResponses) Begin(w http.ResponseWriter, _ *http.Request, _ *session.Session, _ jsonrpc.Message) Answer {
	return jsonAnswer{w}
}

type jsonAnswer struct{ w http.ResponseWriter }

func (jsonAnswer) Message([]byte) error { return ErrNoStream }

func (a jsonAnswer) Final(status int, header http.Header, body []byte) {
	for k, vs := range header {
		for _, v := range vs {
			a.w.Header().Add(k, v)
		}
	}
	writeJSON(a.w, status, body)
}

// writeJSON writes a complete JSON answer; a nil body is an empty answer (202). The body is
// written under write deadlines (sse.WriteWhole): a client that never reads its answer
// loses it after sse.DefaultWriteTimeout without progress instead of holding it.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = sse.WriteWhole(w, status, body, 0)
}

// refuse answers a request the front end will not serve with an HTTP status and a JSON-RPC
// error body (id null: a refused request was not read far enough to know its id), whose
// data.kind says which gate refused it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status, code int, message, kind string) {
	s.refuseWith(w, r, status, code, message, kindData(kind))
}

// refuseWith is refuse with more in error.data than its kind.
func (s *Server) refuseWith(w http.ResponseWriter, r *http.Request, status, code int, message string, data map[string]any) {
	s.o.Log.Debug().Str("verb", jsonrpc.Clip(r.Method)).Str("path", jsonrpc.Clip(r.URL.Path)).Int("status", status).Interface("kind", data["kind"]).Msg("request refused")
	writeJSON(w, status, jsonrpc.ErrorResponse(nil, &jsonrpc.Error{Code: code, Message: message, Data: data}))
}

// errorBody is a JSON-RPC error response carrying data.kind and any further data members.
func errorBody(id json.RawMessage, code int, message, kind string, extra ...any) []byte {
	data := map[string]any{"kind": kind}
	for i := 0; i+1 < len(extra); i += 2 {
		if k, ok := extra[i].(string); ok {
			data[k] = extra[i+1]
		}
	}
	return jsonrpc.ErrorResponse(id, &jsonrpc.Error{Code: code, Message: message, Data: data})
}

func kindData(kind string) map[string]any { return map[string]any{"kind": kind} }
