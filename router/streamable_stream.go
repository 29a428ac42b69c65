package router

import (
	"context"
	"net/http"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// SessionStream serves the session's own stream (router/internal/sse: outbox, replay from
// Last-Event-ID, keepalive, the liveness probe's pings).
type SessionStream struct{}

// ServeStream implements StreamOpener.
func (SessionStream) ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session) {
	sess.Stream().ServeStreamUntil(w, r, sess.ProtocolVersion(), sess.Done())
}

// get serves GET /mcp: the same session gates as POST, then the stream.
func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	sess := sessionOf(r)
	if sess == nil {
		s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"Bad Request: MCP-Session-Id header is required to open the stream", errkind.SessionRequired)
		return
	}
	if sse.Accepts(r.Header.Get("Accept")) == sse.Refuses {
		s.refuse(w, r, http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest,
			"Not Acceptable: GET /mcp answers text/event-stream", errkind.NotAcceptable)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.closing, cancel)
	defer stop()
	s.o.Observer.StreamOpened()
	defer s.o.Observer.StreamClosed()
	s.o.Streams.ServeStream(w, r.WithContext(ctx), sess)
}

// delete serves DELETE /mcp: the session ends, its gem is logged out, its slot returns.
func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	sess := sessionOf(r)
	if sess == nil {
		s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"Bad Request: MCP-Session-Id header is required to end a session", errkind.SessionRequired)
		return
	}
	// The logout finishes even if the client hangs up: a half-ended session helps nobody.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	defer cancel()
	if !sess.End(ctx, session.Reason{Kind: session.ReasonDeleted, Detail: "client sent DELETE"}) {
		s.refuse(w, r, http.StatusNotFound, jsonrpc.CodeServer, "Not Found: the session has already ended", errkind.SessionNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
