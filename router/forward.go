package router

// Both eras: a POST's body read, the methods never forwarded to a gem, a message run on a gem,
// and what became of it turned into an HTTP status and a JSON-RPC answer. The session era's
// post and the stateless revision's calls in flight end here alike.

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// readBody reads the whole body within the size limit and the read timeout.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := readAll(r.Body, r.ContentLength)
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

// presizeLimit is the largest declared Content-Length readAll allocates for before the bytes
// arrive: a client that declares a large body and sends none must not make the router
// allocate what it declared.
const presizeLimit = 64 << 10

// readAll is io.ReadAll for a body whose length the client declared: one buffer of that size
// (and a byte to see the end) instead of io.ReadAll's 512 bytes grown as it goes, which for a
// call's body of a few hundred bytes is one allocation, mostly unused, per call.
func readAll(r io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 || declared > presizeLimit {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, declared+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) { // more than declared: net/http refuses that, but grow all the same
			b = append(b, 0)[:len(b)]
		}
	}
}

// InternalMethodPrefix begins the methods a worker sends to the router itself through the
// channel (becomeTask): they are never relayed to a client, on any revision.
const InternalMethodPrefix = "notifications/io.github.gemstone-mcp/"

// isPrivateMethod names the methods the front end and the worker speak between themselves
// (the router's resourceUpdates ask, the worker's becomeTask): a client never sends one to a
// gem, since an ask of its own would consume what the router asks for (the signals of
// subscribed resources).
func isPrivateMethod(method string) bool {
	return strings.HasPrefix(method, "io.github.gemstone-mcp/") || strings.HasPrefix(method, InternalMethodPrefix)
}

// privateMethodBody is the answer to a client request for a private method.
func privateMethodBody(m jsonrpc.Message) []byte {
	return errorBody(m.ID, jsonrpc.CodeMethodNotFound,
		"Method not found: "+jsonrpc.Clip(m.Method)+" is private to this server's front end and worker", errkind.MethodNotFound)
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
