package router

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// initialize opens a session: a slot under the cap first (so no login is attempted past
// it), then the gem's login and prepare, then the client's initialize forwarded to it. Any
// failure gives the slot back.
func (s *Server) initialize(w http.ResponseWriter, r *http.Request, m jsonrpc.Message) {
	if s.closing.Err() != nil {
		writeJSON(w, http.StatusServiceUnavailable, errorBody(m.ID, jsonrpc.CodeServer,
			session.ErrShuttingDown.Reason, session.ErrShuttingDown.Kind))
		return
	}
	slot, err := s.reserve(r.Context(), true)
	if err != nil {
		var lim *session.LimitError
		errors.As(err, &lim)
		s.o.Log.Warn().Int("limit", lim.Limit).Msg("initialize refused: session limit reached")
		writeJSON(w, http.StatusOK, errorBodyWith(m.ID, jsonrpc.CodeServer, err.Error(), limitData{Kind: errkind.SessionLimit, Limit: lim.Limit}))
		return
	}
	sess, status, body := s.open(r.Context(), slot)
	if sess == nil {
		writeJSON(w, status, errorBodyWith(m.ID, jsonrpc.CodeServer, body.message, numberData{Kind: body.kind, Number: body.number}))
		return
	}
	ans := s.o.Responses.Begin(w, r, sess, m)
	start := time.Now()
	out := sess.Do(r.Context(), m)
	s.observeCall(m, out, time.Since(start))
	if out.Err != nil || out.Stopped != nil || len(out.Reply) == 0 || jsonrpc.IsErrorResponse(out.Reply) {
		status, reply := s.outcome(sess, m, out)
		sess.End(context.Background(), session.Reason{Kind: session.ReasonInitFailed, Detail: "the worker did not accept initialize"})
		ans.Final(status, nil, reply)
		return
	}
	if s.closing.Err() != nil {
		// Shutdown began while the login or the initialize ran: a session id handed out now
		// would end within the grace, so the client is told to come back instead.
		sess.End(context.Background(), session.Reason{Kind: session.ReasonShutdown, Detail: "the server began to shut down during initialize"})
		ans.Final(http.StatusServiceUnavailable, nil, errorBody(m.ID, jsonrpc.CodeServer,
			session.ErrShuttingDown.Reason, session.ErrShuttingDown.Kind))
		return
	}
	if r.Context().Err() != nil {
		// The client left before it could learn the session id: nobody can ever use the
		// session, so its gem goes now rather than waiting to be reaped.
		sess.End(context.Background(), session.Reason{Kind: session.ReasonClientGone, Detail: "the client left during initialize"})
		return
	}
	sess.SetProtocolVersion(s.negotiated(m, out.Reply))
	s.o.Log.Info().Str("session", sess.ID()).Str("protocolVersion", sess.ProtocolVersion()).
		Int("sessions", s.table.Len()).Msg("session opened")
	ans.Final(http.StatusOK, http.Header{SessionHeader: {sess.ID()}}, out.Reply)
}

type launchFailure struct {
	message string
	kind    string
	number  int
}

// open logs a gem in and prepares it, and maps the session. The login is bounded by
// LoginTimeout and by shutdown, not by the client's connection: a login abandoned halfway
// would be undone anyway, and finishing it is what makes the logout clean.
func (s *Server) open(reqCtx context.Context, slot *session.Slot) (_ *session.Session, _ int, _ launchFailure) {
	mapped := false
	var part SessionPart
	defer func() { // on every way out but success, a panic included
		if !mapped {
			if part != nil {
				part.Close()
			}
			slot.Release()
		}
	}()
	id, err := session.NewID(s.idPrefix())
	if err != nil {
		s.o.Log.Error().Err(err).Msg("cannot make a session id")
		return nil, http.StatusInternalServerError, launchFailure{message: "Internal error: cannot make a session id", kind: errkind.InternalError}
	}
	cfg := s.o.Prepare
	cfg.Contract = worker.ContractVersion
	cfg.ProtocolVersions = s.sessionVersions()
	cfg.CacheName = CacheName(cfg.WorkerClass, s.o.RouterID, strings.TrimPrefix(id, s.idPrefix()))
	cfg.FrontEnd.RouterID = s.o.RouterID
	if s.o.PrepareSession != nil {
		if part, err = s.o.PrepareSession(reqCtx, id, &cfg); err != nil {
			s.o.Log.Error().Err(err).Msg("cannot make this session's prepare config")
			return nil, http.StatusOK, launchFailure{message: "cannot open a session: the front end could not prepare it (see the server log)", kind: errkind.PrepareFailed}
		}
	}
	if s.o.Grants != nil {
		cfg.Grant = &worker.Grant{Toolsets: s.o.Grants.Granted(reqCtx)}
	}
	login := s.o.Login
	if s.o.Identity != nil {
		if login, err = s.o.Identity.WorkerLogin(reqCtx, s.o.Login); err != nil {
			s.o.Log.Warn().Err(err).Msg("no worker login for this request's principal")
			return nil, http.StatusOK, launchFailure{message: "cannot open a session: no verified principal to log the worker in as", kind: errkind.LoginFailed}
		}
	}
	ctx, cancel := context.WithTimeout(s.base, s.o.LoginTimeout)
	defer cancel()
	gem, err := s.o.Launcher.Launch(ctx, login, cfg)
	if err != nil {
		f := worker.FailureOf(err)
		kind := launchKind(f)
		s.o.Log.Error().Err(err).Int("number", f.Number).Str("kind", kind).Msg("worker login or prepare failed; slot released")
		s.o.Observer.LaunchFailed(kind)
		what := launchWhat(f)
		hint := launchHint(kind, f.Number)
		if s.o.Identity != nil && kind == errkind.LoginDenied {
			hint = s.o.Identity.LoginRefusedHint(reqCtx)
		}
		return nil, http.StatusOK, launchFailure{
			message: "cannot open a session: " + what + "; " + hint,
			kind:    kind, number: f.Number,
		}
	}
	if s.closing.Err() != nil { // the server began to close during the login
		_ = gem.Close(context.WithoutCancel(ctx))
		return nil, http.StatusServiceUnavailable, launchFailure{message: session.ErrShuttingDown.Reason, kind: session.ErrShuttingDown.Kind}
	}
	if cfg.Grant != nil {
		gg, err := newGrantedGem(gem, cfg.Grant.Toolsets)
		if err != nil {
			_ = gem.Close(context.WithoutCancel(ctx))
			s.o.Log.Error().Err(err).Msg("the worker did not apply the token's grant; gem logged out")
			return nil, http.StatusOK, launchFailure{message: "cannot open a session: " + err.Error(), kind: errkind.GrantUnsupported}
		}
		gem = gg
	}
	owner, err := s.owner(reqCtx)
	if err != nil {
		_ = gem.Close(context.WithoutCancel(ctx))
		s.o.Log.Warn().Err(err).Msg("cannot bind the new session to its principal; gem logged out")
		return nil, http.StatusOK, launchFailure{message: "cannot open a session: no verified principal to own it", kind: errkind.LoginFailed}
	}
	sess := s.newSession(id, gem, owner)
	if part != nil {
		part.Join(sess)
		sess.Hold(part)
	}
	s.table.Add(sess, slot)
	mapped = true
	return sess, http.StatusOK, launchFailure{}
}

func (s *Server) idPrefix() string {
	if s.o.IDPrefixed && s.o.RouterID != "" {
		return s.o.RouterID + "-"
	}
	return ""
}

// negotiated is the revision the worker's initialize answer chose; should it not say, the
// worker's own rule is applied (the client's version when listed, else the newest).
func (s *Server) negotiated(m jsonrpc.Message, reply []byte) string {
	if v := jsonrpc.ProtocolVersionOf("result", reply); v != "" {
		return v
	}
	if v := jsonrpc.ProtocolVersionOf("params", m.Raw); v != "" {
		for _, have := range s.versions {
			if have == v {
				return v
			}
		}
	}
	return s.versions[0]
}

// CacheName is the name a worker gem takes in the shared cache (worker contract):
// <workerClass>:<routerId>:<first 8 of the MCP session id>.
func CacheName(workerClass, routerID, sessionID string) string {
	head := sessionID
	if len(head) > 8 {
		head = head[:8]
	}
	return workerClass + ":" + routerID + ":" + head
}
