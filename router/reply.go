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
// loses it after sse.DefaultWriteTimeout without progress instead of holding it, and the
// error says so.
func writeJSON(w http.ResponseWriter, status int, body []byte) error {
	if body == nil {
		w.WriteHeader(status)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	return sse.WriteWhole(w, status, body, 0)
}

// refuse answers a request the front end will not serve with an HTTP status and a JSON-RPC
// error body (id null: a refused request was not read far enough to know its id), whose
// data.kind says which gate refused it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status, code int, message, kind string) {
	s.refuseWith(w, r, status, code, message, kindOnly{kind})
}

// refuseWith is refuse with more in error.data than its kind.
func (s *Server) refuseWith(w http.ResponseWriter, r *http.Request, status, code int, message string, data errorData) {
	s.o.Log.Debug().Str("verb", jsonrpc.Clip(r.Method)).Str("path", jsonrpc.Clip(r.URL.Path)).Int("status", status).Str("kind", data.errorKind()).Msg("request refused")
	writeJSON(w, status, jsonrpc.ErrorResponse(nil, &jsonrpc.Error{Code: code, Message: message, Data: data}))
}

// errorBody is a JSON-RPC error response whose data is its kind alone.
func errorBody(id json.RawMessage, code int, message, kind string) []byte {
	return errorBodyWith(id, code, message, kindOnly{kind})
}

// errorBodyWith is a JSON-RPC error response carrying data.
func errorBodyWith(id json.RawMessage, code int, message string, data errorData) []byte {
	return jsonrpc.ErrorResponse(id, &jsonrpc.Error{Code: code, Message: message, Data: data})
}

// errorData is the error.data of an error the front end writes: its kind (internal/errkind)
// and what a client needs besides to act on it. Each shape's fields are in the order of their
// JSON names, so its members come out in the order clients have always seen.
type errorData interface{ errorKind() string }

type kindOnly struct {
	Kind string `json:"kind"`
}

// numberData carries the GemStone error number (0 when the failure had none).
type numberData struct {
	Kind   string `json:"kind"`
	Number int    `json:"number"`
}

type limitData struct {
	Kind  string `json:"kind"`
	Limit int    `json:"limit"`
}

type limitsData struct {
	Kind       string `json:"kind"`
	Limit      int    `json:"limit"`
	LimitBytes int64  `json:"limitBytes"`
}

// stopData is a call ended before its answer; Ending names the break that ended it, if one did.
type stopData struct {
	Ending string `json:"ending,omitempty"`
	Kind   string `json:"kind"`
}

// endedData is a session that has ended; Ended is the reason's kind.
type endedData struct {
	Ended string `json:"ended"`
	Kind  string `json:"kind"`
}

type missingData struct {
	Kind    string   `json:"kind"`
	Missing []string `json:"missing"`
}

// versionData lists the revisions this server speaks; Requested is the one asked for, where
// the request named one in its _meta.
type versionData struct {
	Kind      string   `json:"kind"`
	Requested string   `json:"requested,omitempty"`
	Supported []string `json:"supported"`
}

type capabilityData struct {
	Kind                 string `json:"kind"`
	RequiredCapabilities any    `json:"requiredCapabilities"`
}

// scopeData names the scope that grants a toolset the token's scopes do not.
type scopeData struct {
	Kind    string `json:"kind"`
	Scope   string `json:"scope"`
	Toolset string `json:"toolset"`
}

func (d kindOnly) errorKind() string       { return d.Kind }
func (d numberData) errorKind() string     { return d.Kind }
func (d limitData) errorKind() string      { return d.Kind }
func (d limitsData) errorKind() string     { return d.Kind }
func (d stopData) errorKind() string       { return d.Kind }
func (d endedData) errorKind() string      { return d.Kind }
func (d missingData) errorKind() string    { return d.Kind }
func (d versionData) errorKind() string    { return d.Kind }
func (d capabilityData) errorKind() string { return d.Kind }
func (d scopeData) errorKind() string      { return d.Kind }
