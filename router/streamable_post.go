package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
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

// readBody reads the whole body within the size limit and the read timeout.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(r.Body)
	if err == nil {
		return body, true
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		s.refuse(w, r, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest,
			"Request Entity Too Large: the body exceeds MCP_MAX_BODY", errkind.BodyTooLarge)
		return nil, false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		s.o.Log.Info().Err(err).Str("remote", r.RemoteAddr).Msg("request body too slow; dropped")
		s.refuse(w, r, http.StatusRequestTimeout, jsonrpc.CodeInvalidRequest,
			"Request Timeout: the body did not arrive in time", errkind.ReadTimeout)
		return nil, false
	}
	// A malformed chunked encoding, or a client that closed halfway: the body is broken, not late.
	s.o.Log.Info().Err(err).Str("remote", r.RemoteAddr).Msg("request body unreadable; refused")
	s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
		"Bad Request: the body could not be read ("+err.Error()+")", errkind.BadBody)
	return nil, false
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

// forward runs a request on the session's gem and turns the outcome into the answer.
func (s *Server) forward(ctx context.Context, sess *session.Session, m jsonrpc.Message) (int, []byte) {
	m = withoutForeignTraceparent(m)
	sess.Touch()
	start := time.Now()
	out := sess.DoAfter(ctx, m, s.prelude(ctx, sess))
	s.observeCall(m, out, time.Since(start))
	sess.Touch()
	if subscribed(m, out) {
		s.watchResources(sess)
	}
	return s.outcome(sess, m, out)
}

// outcome maps what became of a call to its HTTP status and JSON-RPC answer.
func (s *Server) outcome(sess *session.Session, m jsonrpc.Message, out session.Outcome) (int, []byte) {
	// Built only when something is logged: the common answer logs nothing.
	log := func() *zerolog.Logger {
		l := s.o.Log.With().Str("session", sess.ID()).Str("method", jsonrpc.Clip(m.Method)).Str("id", jsonrpc.Clip(string(m.ID))).Logger()
		return &l
	}
	if out.Err != nil && errors.Is(out.Err, session.ErrDuplicateID) {
		return http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidRequest,
			"Invalid Request: a request with id "+string(m.ID)+" is already in flight on this session", errkind.DuplicateID)
	}
	var f worker.Failure
	if out.Err != nil {
		f = worker.FailureOf(out.Err)
	}
	if f.Fatal {
		// The gem is gone (it died, or the escalation had to stop it). Unmap the session in
		// this same step, so its slot returns and the next request on its id is a 404.
		reason := session.ReasonGemDied
		if out.Stopped != nil {
			reason = "stoppedByEscalation"
		}
		log().Warn().Err(out.Err).Str("ending", f.Ending.Words()).Msg("worker gem gone; session ended")
		sess.End(context.Background(), session.Reason{Kind: reason, Detail: out.Err.Error()})
	}
	switch {
	case out.Stopped == session.ErrCancelled:
		// The client stopped waiting; MCP asks that the request get no response.
		log().Info().Str("ending", f.Ending.Words()).Msg("cancelled call ended")
		return http.StatusAccepted, nil
	case out.Stopped == session.ErrClientGone:
		return http.StatusAccepted, nil // nobody is listening
	case out.Stopped != nil:
		log().Info().Str("stop", out.Stopped.Kind).Str("ending", f.Ending.Words()).Msg("call ended before its answer")
		msg := out.Stopped.Reason
		switch {
		case f.Fatal && out.Stopped.Kind != session.ErrSessionEnded.Kind:
			msg += "; the worker did not stop for either break, so its session was ended"
		case out.Stopped.Kind == errkind.RequestTimeout:
			msg += "; the session keeps serving"
		}
		data := stopData{Kind: out.Stopped.Kind}
		if f.Ending != worker.NotEnded {
			data.Ending = f.Ending.Words()
		}
		return http.StatusOK, errorBodyWith(m.ID, jsonrpc.CodeServer, msg, data)
	case f.Fatal:
		return http.StatusOK, errorBodyWith(m.ID, jsonrpc.CodeServer,
			"the session's worker is gone ("+f.Safe+"); initialize a new session", numberData{Kind: errkind.SessionGone, Number: f.Number})
	case out.Err != nil:
		log().Warn().Err(out.Err).Msg("worker error; the session keeps serving")
		return http.StatusOK, errorBodyWith(m.ID, jsonrpc.CodeInternalError,
			"Internal error: the worker failed ("+f.Safe+"); the session keeps serving", numberData{Kind: errkind.WorkerError, Number: f.Number})
	case m.Kind != jsonrpc.Request:
		return http.StatusAccepted, nil
	case len(out.Reply) == 0:
		log().Warn().Msg("the worker answered a request with nothing")
		return http.StatusOK, errorBody(m.ID, jsonrpc.CodeInternalError,
			"Internal error: the worker sent no answer", errkind.WorkerError)
	}
	return http.StatusOK, out.Reply
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
