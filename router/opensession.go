package router

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// A GemStone session held by handle (SEP-2567's explicit state handle): the tool open_session
// logs a gem in for its caller and answers the handle, and a tools/call whose arguments carry
// "session": handle runs on that gem, in order with its other calls. The handle's gem is a
// session of the table (same cap, same lifetime policy, same logged end), never reachable by
// MCP-Session-Id, bound to the token subject in the network-facing mode. docs/transport.md,
// "2026-07-28: state without sessions", has the decision; this file is its mechanics.
//
// The router reads exactly one member of a tool's arguments, arguments.session of a
// tools/call, and the tool's name only to serve the two names below itself (a worker cannot log
// a gem in). Every other byte of a tool call stays opaque.

const (
	// ToolOpenSession and ToolCloseSession are served by the front end whatever the worker is;
	// the Smalltalk worker declares them so that tools/list shows them.
	ToolOpenSession  = "open_session"
	ToolCloseSession = "close_session"
	// ArgSession is the one tool argument the front end reads.
	ArgSession = "session"

	// maxHandle bounds a session argument that could be a handle this server issued.
	maxHandle = 256
	// DefaultHandleYield is how long a handle's gem must have been idle before, in the local
	// mode, it gives its login slot to a newcomer that finds the cap full.
	DefaultHandleYield = 5 * time.Minute
)

// callRoute is what a tools/call's name and arguments.session say about where it runs.
type callRoute struct {
	tool   string // params.name
	named  bool   // arguments has a session member
	handle string // its value, when it is a string that could be a handle
}

// routeOf reads a tools/call's params, taken apart from a message Parse accepted: the tool's
// name and its session argument, exactly (a member read case-sensitively, after its escapes are
// decoded, as the worker reads it).
func routeOf(params jsonrpc.Object) callRoute {
	tool, _ := jsonrpc.StringOf(params.Get("name"))
	return routeNamed(params, tool)
}

// routeNamed is routeOf for params whose tool name, tool, is read already.
func routeNamed(params jsonrpc.Object, tool string) callRoute {
	rt := callRoute{tool: tool}
	raw := params.Get("arguments")
	if len(raw) == 0 || raw[0] != '{' {
		return rt
	}
	v, found, err := jsonrpc.MemberOfValid(raw, ArgSession)
	if err != nil {
		// Arguments the router cannot read one way only (a member given twice) might name a
		// session the worker reads differently: refused as naming no live session.
		rt.named = true
		return rt
	}
	if !found {
		return rt
	}
	rt.named = true
	if h, ok := jsonrpc.StringOf(v); ok && h != "" && len(h) <= maxHandle {
		rt.handle = h
	}
	return rt
}

// routeOfMessage is routeOf for a message not yet taken apart; the zero route for anything but
// a tools/call.
func routeOfMessage(m jsonrpc.Message) callRoute {
	if m.Kind != jsonrpc.Request || m.Method != "tools/call" {
		return callRoute{}
	}
	p, err := jsonrpc.ObjectOfValid(m.Params)
	if err != nil {
		return callRoute{}
	}
	return routeOf(p)
}

// routeCall decides where a tools/call runs. It answers the reply when the front end answers
// the call itself (open_session, close_session, a session argument that names no live session
// of this caller), else the handle's session when the call names one, else nil: the call runs
// where its request would run anyway (a pool gem, or its MCP session's own gem).
func (s *statelessServer) routeCall(ctx context.Context, id json.RawMessage, rt callRoute) (*session.Session, []byte) {
	switch rt.tool {
	case ToolOpenSession:
		return nil, s.openSession(ctx, id)
	case ToolCloseSession:
		return nil, s.closeSession(ctx, id, rt)
	}
	if !rt.named {
		return nil, nil
	}
	sess := s.handleSession(ctx, rt.handle)
	if sess == nil {
		return nil, unknownSessionReply(id, rt.tool)
	}
	return sess, nil
}

// statelessGem chooses the gem of a 2026-07-28 request the front end does not answer itself: a
// handle's gem when a tools/call names one (release does nothing: the gem stays its client's),
// else a pool gem (release gives it back). answered says the front end has answered already
// (open_session, close_session, a refused session argument, no pool gem to be had).
func (s *statelessServer) statelessGem(w http.ResponseWriter, r *http.Request, req statelessRequest) (_ *session.Session, release func(), answered bool) {
	if req.m.Method == "tools/call" {
		// parseStateless read the tool's name for Mcp-Name (namedBy): "" when it is no string.
		sess, reply := s.routeCall(r.Context(), req.m.ID, routeNamed(req.params, req.name))
		if reply != nil {
			writeJSON(w, http.StatusOK, stampResult(req.m.Method, reply))
			return nil, nil, true
		}
		if sess != nil {
			return sess, func() {}, false
		}
	}
	sess, err := s.pool.acquire(r.Context())
	if err != nil {
		status, body := s.poolFailure(req.m, err)
		writeJSON(w, status, body)
		return nil, nil, true
	}
	return sess, func() { s.pool.release(sess) }, false
}

// handleSession finds a live handle's session for this request's principal; nil when the
// handle names nothing this principal may use (never issued, ended, expired, another's).
func (s *statelessServer) handleSession(ctx context.Context, handle string) *session.Session {
	if handle == "" || !s.handles.has(handle) {
		return nil
	}
	sess, ok := s.table.Get(handle)
	if !ok {
		return nil
	}
	if _, ended := sess.Ended(); ended {
		return nil
	}
	if !s.owns(ctx, sess.Owner()) {
		return nil
	}
	return sess
}

// openSession serves open_session: a gem of the caller's own, logged in under the cap (and the
// per-subject bound), introduced, and named by its handle in the answer.
func (s *statelessServer) openSession(ctx context.Context, id json.RawMessage) []byte {
	if held, limit := s.subjectHolds(ctx); limit > 0 && held >= limit {
		s.o.Log.Warn().Int("held", held).Int("limit", limit).Msg("open_session refused: the subject holds its share of the logins")
		return toolError(id, errkind.SessionLimit,
			"open_session: you already hold "+strconv.Itoa(held)+" GemStone sessions, the most one user may hold at once on this server; "+
				"call close_session on one you no longer need (commit its work first if you want to keep it), then open_session again",
			map[string]any{"limit": limit})
	}
	sess, err := s.issueHandle(ctx)
	if err != nil {
		var pl *errPoolLaunch
		if errors.As(err, &pl) {
			if pl.lf.kind == errkind.SessionLimit {
				return toolError(id, errkind.SessionLimit,
					"open_session: every GemStone login of this server is in use ("+strconv.Itoa(pl.lf.number)+
						"); call close_session on a session you no longer need, or try again later", map[string]any{"limit": pl.lf.number})
			}
			return toolError(id, pl.lf.kind, "open_session: "+pl.lf.message, nil)
		}
		return toolError(id, errkind.WorkerError, "open_session: "+err.Error(), nil)
	}
	h := sess.ID()
	text := "Opened GemStone session " + h + `. Pass "session": "` + h + `" in the arguments of every tool call that should run in it ` +
		"(commit, abort and refresh included): its changes stay in it, seen by no other session, until commit with this session keeps them. " +
		"Close it with close_session when you are done; one that has no call for the server's idle timeout (30 minutes by default) " +
		"is ended, and its uncommitted changes are discarded."
	return jsonrpc.ResultResponse(id, map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": text}},
		"structuredContent": map[string]any{ArgSession: h},
		"isError":           false,
	})
}

// closeSession serves close_session: the named session ends, its uncommitted work is
// discarded (said in the answer and the log).
func (s *statelessServer) closeSession(ctx context.Context, id json.RawMessage, rt callRoute) []byte {
	if !rt.named {
		return toolError(id, errkind.InvalidParams, `close_session needs the argument "session": the handle open_session answered`, nil)
	}
	sess := s.handleSession(ctx, rt.handle)
	if sess == nil {
		return unknownSessionReply(id, ToolCloseSession)
	}
	uncommitted := s.heldWork(ctx, sess)
	sess.End(context.WithoutCancel(ctx), session.Reason{Kind: session.ReasonClosed, Detail: "closed by its client with close_session" + discardWords(uncommitted)})
	text := "Closed GemStone session " + rt.handle + "."
	switch uncommitted {
	case workHeld:
		text += " Its uncommitted changes were discarded."
	case workNone:
		text += " It held no uncommitted changes."
	default:
		text += " Whatever it held uncommitted was discarded."
	}
	return jsonrpc.ResultResponse(id, map[string]any{
		"content": []any{map[string]any{"type": "text", "text": text}}, "isError": false,
	})
}

type heldWork int

const (
	workUnknown heldWork = iota
	workNone
	workHeld
)

// heldWork asks the gem, between calls, whether it holds uncommitted work; unknown when it is
// busy or cannot tell.
func (s *statelessServer) heldWork(ctx context.Context, sess *session.Session) heldWork {
	w := workUnknown
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, _ = sess.IfIdle(ctx, func(ctx context.Context, gem worker.Gem) error {
		v, err := gem.ViewStatus(ctx)
		if err != nil {
			return err
		}
		w = workNone
		if v.Uncommitted {
			w = workHeld
		}
		return nil
	})
	return w
}

func discardWords(w heldWork) string {
	switch w {
	case workHeld:
		return "; its uncommitted work was discarded"
	case workNone:
		return "; it held no uncommitted work"
	}
	return "; any uncommitted work was discarded"
}

// unknownSessionReply is the one answer for a session argument that names nothing this caller
// may use: unknown, ended, expired, malformed or another's alike, so a probe learns nothing.
func unknownSessionReply(id json.RawMessage, tool string) []byte {
	return toolError(id, errkind.UnknownSession,
		tool+": the GemStone session named by the session argument is not open: it was closed, or it ended after a time "+
			"without calls (its uncommitted changes were discarded), or it was never opened for you. Call open_session for a new one "+
			"and pass its session to this call and every later one; work the old one did not commit is gone.", nil)
}

// toolError is an isError tools/call result whose structuredContent names its kind, as the
// worker writes its own tool errors.
func toolError(id json.RawMessage, kind, text string, extra map[string]any) []byte {
	e := map[string]any{"kind": kind, "message": text}
	for k, v := range extra {
		e[k] = v
	}
	return jsonrpc.ResultResponse(id, map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": text}},
		"structuredContent": map[string]any{"error": e},
		"isError":           true,
	})
}

// issueHandle logs a gem in for one client, under the cap, and introduces the router to it.
func (s *statelessServer) issueHandle(ctx context.Context) (*session.Session, error) {
	sess, err := s.openHidden(ctx, false, s.handles.add, s.handles.remove)
	if err != nil {
		var pl *errPoolLaunch
		if errors.As(err, &pl) && pl.lf.kind == errkind.SessionLimit {
			s.o.Log.Warn().Int("limit", pl.lf.number).Msg("open_session refused: session limit reached")
		}
		return nil, err
	}
	if _, err := s.introduce(ctx, sess); err != nil {
		return nil, err
	}
	// A handle never opens a stream: it idles out at MCP_IDLE_TIMEOUT, not at the streamless
	// deadline a pool gem keeps.
	sess.SetProtocolVersion(StatelessVersion)
	s.o.Log.Info().Str("session", sess.ID()).Int("sessions", s.table.Len()).Msg("GemStone session opened by open_session")
	return sess, nil
}

// subjectHolds counts the logins the request's principal holds (MCP sessions and handles, not
// pool gems) and the most it may hold; limit 0 means no per-subject bound (the local mode).
func (s *statelessServer) subjectHolds(ctx context.Context) (held, limit int) {
	if s.o.Identity == nil {
		return 0, 0
	}
	limit = s.o.MaxSessionsPerSubject
	if limit == 0 && s.o.MaxSessions > 0 {
		limit = max(1, s.o.MaxSessions/2)
	}
	if limit <= 0 {
		return 0, 0
	}
	owner, err := s.o.Identity.Owner(ctx)
	if err != nil {
		return 0, limit
	}
	for _, sess := range s.table.All() {
		if sess.Owner() == owner && !s.pool.ids.has(sess.ID()) {
			held++
		}
	}
	return held, limit
}

// openHidden logs a gem in for a 2026-07-28 path (a handle, a pool gem) under the session cap,
// hidden from MCP-Session-Id. forPool says the login is the pool's own, which never takes the
// slot of another pool gem. onOpen runs with the new session's id before anything can end it,
// onDone once it has ended.
func (s *statelessServer) openHidden(ctx context.Context, forPool bool, onOpen, onDone func(id string)) (*session.Session, error) {
	if s.closing.Err() != nil {
		return nil, &errPoolLaunch{status: http.StatusServiceUnavailable, lf: launchFailure{message: session.ErrShuttingDown.Reason, kind: session.ErrShuttingDown.Kind}}
	}
	slot, err := s.reserve(ctx, !forPool)
	if err != nil {
		var lim *session.LimitError
		errors.As(err, &lim)
		return nil, &errPoolLaunch{status: http.StatusOK, lf: launchFailure{message: err.Error(), kind: errkind.SessionLimit, number: lim.Limit}}
	}
	sess, status, lf := s.open(ctx, slot)
	if sess == nil {
		return nil, &errPoolLaunch{status: status, lf: lf}
	}
	id := sess.ID()
	s.hidden.add(id)
	onOpen(id)
	go func() {
		<-sess.Done()
		onDone(id)
		s.hidden.remove(id)
	}()
	return sess, nil
}

// reserve takes a login slot under the cap. When the cap is full it first asks a gem that
// holds no client's work to yield (an idle pool gem beyond the pool's first, when poolMayYield),
// then, in the local mode, a handle's gem idle for HandleYield (its uncommitted work is
// discarded, and logged): a newcomer always has a way in, and nothing is discarded that its
// client touched recently.
func (s *Server) reserve(ctx context.Context, poolMayYield bool) (*session.Slot, error) {
	slot, err := s.table.Reserve()
	if err == nil {
		return slot, nil
	}
	if (poolMayYield && s.stateless.pool.yieldIdle()) || s.stateless.yieldIdleHandle(ctx) {
		if slot, again := s.table.Reserve(); again == nil {
			return slot, nil
		}
	}
	return nil, err
}

// yieldIdleHandle ends, in the local mode, the handle whose gem has been idle longest, if that
// is at least HandleYield; false when there is none.
func (s *statelessServer) yieldIdleHandle(ctx context.Context) bool {
	if s.o.Identity != nil {
		return false // each subject has its bound; one subject's newcomer never ends another's work
	}
	after := s.o.HandleYield
	if after <= 0 {
		after = DefaultHandleYield
	}
	var victim *session.Session
	for _, sess := range s.table.All() {
		if !s.handles.has(sess.ID()) || sess.Busy() || time.Since(sess.LastActivity()) < after {
			continue
		}
		if victim == nil || sess.LastActivity().Before(victim.LastActivity()) {
			victim = sess
		}
	}
	if victim == nil {
		return false
	}
	work := s.heldWork(ctx, victim)
	idle := time.Since(victim.LastActivity()).Round(time.Second)
	s.o.Log.Warn().Str("session", victim.ID()).Dur("idle", idle).Bool("uncommitted", work == workHeld).
		Msg("a GemStone session idle past MCP_HANDLE_YIELD gave its login to a newcomer at the session limit" + discardWords(work))
	return victim.End(context.WithoutCancel(ctx), session.Reason{Kind: session.ReasonYielded,
		Detail: "idle for " + idle.String() + " while a new login found every slot taken" + discardWords(work)})
}

// sessionCallTarget is routeCall for a request of an MCP session: the session's own gem unless
// a tools/call names a GemStone session by handle (a second transaction of the client's), or
// the answer when the front end answers it itself.
func (s *statelessServer) sessionCallTarget(ctx context.Context, sess *session.Session, m jsonrpc.Message) (*session.Session, []byte) {
	if m.Method != "tools/call" {
		return sess, nil
	}
	target, answer := s.routeCall(ctx, m.ID, routeOfMessage(m))
	if answer != nil {
		return nil, answer
	}
	if target == nil {
		return sess, nil
	}
	return target, nil
}

// borrowTable records the calls MCP sessions run on gems they named by handle.
type borrowTable struct {
	mu    sync.Mutex
	calls map[*session.Session][]borrowedCall
}

type borrowedCall struct {
	target *session.Session
	idKey  string
}

// borrow records that sess's client runs the call id on target, until done.
func (s *Server) borrow(sess, target *session.Session, id json.RawMessage) (done func()) {
	c := borrowedCall{target: target, idKey: jsonrpc.IDKey(id)}
	t := &s.borrowed
	t.mu.Lock()
	t.calls[sess] = append(t.calls[sess], c)
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		list := t.calls[sess]
		for i, each := range list {
			if each == c {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(t.calls, sess)
			return
		}
		t.calls[sess] = list
	}
}

func (s *Server) borrowedBy(sess *session.Session) []borrowedCall {
	s.borrowed.mu.Lock()
	defer s.borrowed.mu.Unlock()
	return append([]borrowedCall(nil), s.borrowed.calls[sess]...)
}

// deliver hands a client's answer to the question it answers: one of its session's own, or
// one a call it runs on a handle's gem asked.
func (s *Server) deliver(sess *session.Session, m jsonrpc.Message) error {
	err := sess.Pending().Deliver(m.ID, m.Raw)
	if !errors.Is(err, pending.ErrNotPending) {
		return err
	}
	for _, c := range s.borrowedBy(sess) {
		if e := c.target.Pending().Deliver(m.ID, m.Raw); !errors.Is(e, pending.ErrNotPending) {
			return e
		}
	}
	return err
}

// cancelBorrowed ends the call idKey that sess's client runs on a handle's gem, if it does.
func (s *Server) cancelBorrowed(sess *session.Session, idKey string) bool {
	for _, c := range s.borrowedBy(sess) {
		if c.idKey == idKey {
			return c.target.Cancel(idKey)
		}
	}
	return false
}
