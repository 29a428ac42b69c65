package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// post serves POST /mcp: one JSON-RPC message, or a batch on a 2025-03-26 session.
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	msgs, batch, err := jsonrpc.Parse(body)
	if err != nil {
		var e *jsonrpc.Error
		if !errors.As(err, &e) {
			e = &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error"}
		}
		// A client whose body is not a message gets no kept-alive connection to send more
		// such bodies on, nor holds a descriptor and a goroutine idle until IdleTimeout.
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusBadRequest, jsonrpc.ErrorResponse(nil, e))
		return
	}
	sess := sessionOf(r)
	if sess != nil {
		// Any message, a ping or a response included, proves the client is there; only the
		// ones forwarded below count as activity (Touch).
		sess.See()
	}
	if batch {
		if sess != nil {
			defer sess.Answering()()
		}
		s.postBatch(w, r, sess, msgs)
		return
	}
	m := msgs[0]
	if m.Kind == jsonrpc.Request && m.Method == "initialize" {
		if sess != nil {
			writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidRequest,
				"Invalid Request: this session is already initialized; send initialize without MCP-Session-Id to start another", errkind.AlreadyInitialized))
			return
		}
		s.initialize(w, r, m)
		return
	}
	if sess == nil {
		s.noSession(w, m)
		return
	}
	if m.Kind == jsonrpc.Request && isPrivateMethod(m.Method) {
		writeJSON(w, http.StatusOK, privateMethodBody(m))
		return
	}
	if m.Kind == jsonrpc.Request && !isFrontEndMethod(m.Method) {
		// A request the worker answers: its answer goes through the response mode. A tools/call
		// whose session argument names a GemStone session of the client's runs on that gem.
		target, answer := s.stateless.sessionCallTarget(r.Context(), sess, m)
		if answer != nil {
			sess.Touch()
			writeJSON(w, http.StatusOK, answer)
			return
		}
		defer sess.Answering()()
		if target != sess {
			sess.Touch()
			defer target.Answering()()
			defer s.borrow(sess, target, m.ID)()
		}
		ans := s.o.Responses.Begin(w, r, target, m)
		status, reply := s.forward(r.Context(), target, m)
		status, header, reply := s.stepUp(r.Context(), m, status, reply)
		ans.Final(status, header, reply)
		return
	}
	status, reply := s.dispatch(r.Context(), sess, m)
	writeJSON(w, status, reply)
}

// noSession answers a non-initialize message that carries no MCP-Session-Id.
func (s *Server) noSession(w http.ResponseWriter, m jsonrpc.Message) {
	if m.Method == "server/discover" {
		// The 2026-07-28 draft's first probe. A prompt error makes such a client fall back to
		// initialize, which is the era this server speaks.
		writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeMethodNotFound,
			"Method not found: server/discover is not supported; this server speaks MCP "+
				"2025-11-25, 2025-06-18 and 2025-03-26: send initialize", errkind.MethodNotFound))
		return
	}
	writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidRequest,
		"Bad Request: MCP-Session-Id header is required; send initialize first", errkind.SessionRequired))
}

// isFrontEndMethod names the requests the front end answers itself, never queueing them.
func isFrontEndMethod(method string) bool { return method == "ping" || method == "initialize" }

// dispatch handles one message on a live session and gives the HTTP status and body (nil:
// no body). It is shared by single POSTs and batch members.
func (s *Server) dispatch(ctx context.Context, sess *session.Session, m jsonrpc.Message) (int, []byte) {
	switch m.Kind {
	case jsonrpc.Response:
		var late *pending.LateError
		switch err := s.deliver(sess, m); {
		case errors.As(err, &late):
			s.o.Log.Info().Str("session", sess.ID()).Str("id", late.ID).Str("method", late.Method).Dur("waited", late.Waited).
				Dur("late", time.Since(late.Sent)-late.Waited).
				Msg("client's answer came after its request had been given up on (MCP_ELICITATION_TIMEOUT, MCP_CLIENT_ANSWER_TIMEOUT); ignored")
		case errors.Is(err, pending.ErrAnswerTooLarge):
			limit := sess.Pending().MaxAnswer()
			s.o.Log.Warn().Str("session", sess.ID()).Str("id", jsonrpc.Clip(string(m.ID))).Int("bytes", len(m.Raw)).Int("limit", limit).
				Msg("client's answer to a server request over the limit; the worker was told it failed")
			return http.StatusRequestEntityTooLarge, errorBodyWith(m.ID, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Request Entity Too Large: this answer is %d bytes; the worker takes answers of up to %d, so the request it answers has failed", len(m.Raw), limit),
				limitData{Kind: errkind.ResponseTooLarge, Limit: limit})
		case err != nil:
			s.o.Log.Debug().Str("session", sess.ID()).Str("id", jsonrpc.Clip(string(m.ID))).Msg("response matches no outstanding server request; ignored")
		}
		return http.StatusAccepted, nil
	case jsonrpc.Notification:
		sess.Touch()
		if isPrivateMethod(m.Method) {
			return http.StatusAccepted, nil // dropped: not the client's to send
		}
		if m.Method == "notifications/cancelled" {
			s.cancel(sess, m)
			return http.StatusAccepted, nil
		}
		start := time.Now()
		m = withoutForeignTraceparent(m)
		err := sess.Forward(m, func(out session.Outcome) {
			s.observeCall(m, out, time.Since(start))
			s.afterNotification(sess, m, out)
		})
		var full *session.QueueFullError
		if errors.As(err, &full) {
			s.o.Log.Warn().Str("session", sess.ID()).Int("queued", full.Count).Int64("bytes", full.Bytes).
				Msg("notification refused: the session's queue is full")
			return http.StatusTooManyRequests, errorBodyWith(nil, jsonrpc.CodeServer,
				"Too Many Requests: "+full.Error()+"; send it again once the running call has answered",
				limitsData{Kind: errkind.QueueFull, Limit: full.MaxCount, LimitBytes: full.MaxBytes})
		}
		return http.StatusAccepted, nil
	}
	if isPrivateMethod(m.Method) {
		return http.StatusOK, privateMethodBody(m)
	}
	switch m.Method {
	case "ping":
		if _, ended := sess.Ended(); ended {
			return http.StatusOK, sessionGoneBody(m.ID)
		}
		return http.StatusOK, jsonrpc.ResultResponse(m.ID, jsonrpc.EmptyResult)
	case "initialize":
		return http.StatusOK, errorBody(m.ID, jsonrpc.CodeInvalidRequest,
			"Invalid Request: initialize must be sent on its own, without MCP-Session-Id", errkind.AlreadyInitialized)
	}
	target, answer := s.stateless.sessionCallTarget(ctx, sess, m)
	if answer != nil {
		sess.Touch()
		return http.StatusOK, answer
	}
	if target != sess {
		sess.Touch()
		defer s.borrow(sess, target, m.ID)()
	}
	return s.forward(ctx, target, m)
}

// cancel ends the call a notifications/cancelled names. It is handled here rather than
// forwarded: forwarding would queue it behind the very call it asks to stop.
func (s *Server) cancel(sess *session.Session, m jsonrpc.Message) {
	id, ok := jsonrpc.CancelledRequestID(m.Params)
	if !ok {
		s.o.Log.Debug().Str("session", sess.ID()).Msg("notifications/cancelled without a usable requestId; ignored")
		return
	}
	found := sess.Cancel(jsonrpc.IDKey(id)) || s.cancelBorrowed(sess, jsonrpc.IDKey(id))
	s.o.Log.Info().Str("session", sess.ID()).Str("requestId", jsonrpc.Clip(string(id))).Bool("found", found).Msg("client cancelled a request")
}

// afterNotification deals with a forwarded notification's outcome; nobody waits for it,
// but a dead gem must still end its session.
func (s *Server) afterNotification(sess *session.Session, m jsonrpc.Message, out session.Outcome) {
	if out.Err == nil {
		return
	}
	_, _ = s.outcome(sess, m, out)
}

// postBatch serves a JSON-RPC batch: split and forwarded member by member, in order, on a
// session that negotiated 2025-03-26; refused on the later revisions, which removed batches.
func (s *Server) postBatch(w http.ResponseWriter, r *http.Request, sess *session.Session, msgs []jsonrpc.Message) {
	if sess == nil {
		writeJSON(w, http.StatusBadRequest, errorBody(nil, jsonrpc.CodeInvalidRequest,
			"Invalid Request: a batch cannot open a session; send initialize on its own", errkind.BatchRefused))
		return
	}
	if v := sess.ProtocolVersion(); v != batchVersion {
		writeJSON(w, http.StatusBadRequest, errorBody(nil, jsonrpc.CodeInvalidRequest,
			"Invalid Request: JSON-RPC batches are not part of MCP "+v+" (removed after "+batchVersion+"); send one message per POST",
			errkind.BatchRefused))
		return
	}
	// The answers are streamed: each member's response is written as soon as it exists, so
	// the router holds one member's answer at a time however many the batch has. A client
	// that stops reading ends the batch at the next write's deadline; its later members are
	// not run.
	out := batchWriter{w: w}
	for i, m := range msgs {
		if out.err != nil || r.Context().Err() != nil {
			s.o.Log.Info().Str("session", sess.ID()).Int("notRun", len(msgs)-i).
				Msg("batch abandoned: the client stopped reading its answers; later members not run")
			return
		}
		var reply []byte
		if _, ended := sess.Ended(); ended {
			// A member before this one ended the session (its gem died): the rest are
			// answered as gone, never as if a live session had served them.
			if m.Kind == jsonrpc.Request {
				reply = sessionGoneBody(m.ID)
			}
		} else {
			_, reply = s.dispatch(r.Context(), sess, m)
		}
		if reply != nil {
			out.add(reply)
		}
	}
	if !out.started {
		writeJSON(w, http.StatusAccepted, nil)
		return
	}
	out.finish()
}

// batchWriter writes a batch's answer as a JSON array, one member's response at a time,
// each under write deadlines.
type batchWriter struct {
	w       http.ResponseWriter
	started bool
	err     error
}

func (b *batchWriter) add(reply []byte) {
	if b.err != nil {
		return
	}
	sep := []byte{','}
	if !b.started {
		b.started = true
		sep[0] = '['
		b.w.Header().Set("Content-Type", "application/json")
		b.w.Header().Set("Cache-Control", "no-store")
		b.w.WriteHeader(http.StatusOK)
	}
	if b.err = sse.WriteBounded(b.w, sep, 0); b.err == nil {
		b.err = sse.WriteBounded(b.w, reply, 0)
	}
}

func (b *batchWriter) finish() {
	if b.err == nil {
		b.err = sse.WriteBounded(b.w, []byte{']'}, 0)
	}
}

// sessionGoneBody answers a request on a session that has ended under it.
func sessionGoneBody(id json.RawMessage) []byte {
	return errorBody(id, jsonrpc.CodeServer, session.ErrSessionEnded.Reason, session.ErrSessionEnded.Kind)
}
