package router

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
)

// StreamOpener serves the standalone server-to-client stream (GET /mcp) of a live session,
// after the router's gates have passed it. It returns when the stream is over. r's context
// ends when the client leaves or the server begins to shut down; sess.Done() closes when the
// session ends. The stream package (router/sse) implements it with the outbox, resumability
// and the liveness probe; KeepaliveStream is the stand-in until then.
type StreamOpener interface {
	ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session)
}

// KeepaliveStream holds the stream open and sends a keepalive comment on the process's shared
// keepalive beat (sse.UntilBeat: at least every Interval), and nothing else.
type KeepaliveStream struct {
	Interval     time.Duration
	WriteTimeout time.Duration // default 5 s
}

// ServeStream implements StreamOpener.
func (k KeepaliveStream) ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session) {
	interval, wt := k.Interval, k.WriteTimeout
	if interval <= 0 {
		interval = 15 * time.Second
	}
	if wt <= 0 {
		wt = 5 * time.Second
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx must not buffer a stream
	w.WriteHeader(http.StatusOK)
	write := func(frame string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(wt))
		if _, err := w.Write([]byte(frame)); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write(": stream open\n\n") {
		return
	}
	tick := time.NewTimer(sse.UntilBeat(interval))
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-sess.Done():
			return
		case <-tick.C:
			if !write(": keepalive\n\n") {
				return
			}
			tick.Reset(sse.UntilBeat(interval))
		}
	}
}

// get serves GET /mcp: the same session gates as POST, then the stream.
func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	sess := sessionOf(r)
	if sess == nil {
		s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"Bad Request: MCP-Session-Id header is required to open the stream", "sessionRequired")
		return
	}
	if a := r.Header.Get("Accept"); a != "" && !acceptsEventStream(a) {
		s.refuse(w, r, http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest,
			"Not Acceptable: GET /mcp answers text/event-stream", "notAcceptable")
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.closing, cancel)
	defer stop()
	s.o.Streams.ServeStream(w, r.WithContext(ctx), sess)
}

func acceptsEventStream(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt := strings.TrimSpace(strings.SplitN(part, ";", 2)[0])
		if mt == "text/event-stream" || mt == "text/*" || mt == "*/*" {
			return true
		}
	}
	return false
}

// delete serves DELETE /mcp: the session ends, its gem is logged out, its slot returns.
func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	sess := sessionOf(r)
	if sess == nil {
		s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"Bad Request: MCP-Session-Id header is required to end a session", "sessionRequired")
		return
	}
	// The logout finishes even if the client hangs up: a half-ended session helps nobody.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	defer cancel()
	if !sess.End(ctx, session.Reason{Kind: session.ReasonDeleted, Detail: "client sent DELETE"}) {
		s.refuse(w, r, http.StatusNotFound, jsonrpc.CodeServer, "Not Found: the session has already ended", "sessionNotFound")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
