package router

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// A session is one record (router/internal/session.Session): its gem, its GET stream, its
// owner, the lifetime policy's memory of it and the parts plug-ins hold on it (the channel's
// endpoint). Ending it is one operation (Session.End) that releases all of them. The router
// hears of sessions opening and ending, for the Observer, through the table's two hooks,
// which it alone sets.

// newSession makes the record of a gem that is logged in and prepared.
func (s *Server) newSession(id string, gem worker.Gem, owner session.Owner) *session.Session {
	stream := s.o.Stream
	stream.OnDrop = s.o.Observer.OutboxDropped
	if eng := s.o.Lifetime; eng != nil {
		stream.OnStreamClosed = func(gen uint64) { eng.StreamClosed(id, gen) }
	}
	sess := session.New(s.base, id, gem, session.Options{
		RequestTimeout:  s.o.RequestTimeout,
		PendingTimeout:  s.o.PendingTimeout,
		PendingTimeouts: s.o.PendingTimeouts,
		CloseTimeout:    s.o.CloseTimeout,
		Stream:          stream,
		Owner:           owner,
		Log:             s.o.Log,
	})
	sess.Hold(&lifetime.Memory{})
	return sess
}

func (s *Server) opened(*session.Session) { s.o.Observer.SessionOpened() }

func (s *Server) ended(_ *session.Session, r session.Reason) { s.o.Observer.SessionEnded(r.Kind) }

// owner is the principal a new session will belong to: the request's, in the network mode.
func (s *Server) owner(ctx context.Context) (session.Owner, error) {
	if s.o.Identity == nil {
		return session.Owner{}, nil
	}
	return s.o.Identity.Owner(ctx)
}

// owns says the request may use what owner opened. Without Identity (the local mode) an id
// is all a client needs; with it, another principal's session is answered as no session.
func (s *Server) owns(ctx context.Context, owner session.Owner) bool {
	if s.o.Identity == nil {
		return true
	}
	o, err := s.o.Identity.Owner(ctx)
	return err == nil && o == owner
}

// lifetimeHost is the router as the lifetime policy's Host: it lists and ends sessions,
// probes their streams and ends a call that pins the repository.
type lifetimeHost struct{ s *Server }

// reapLogoutTimeout bounds a reaped session's logout.
const reapLogoutTimeout = 30 * time.Second

func (h lifetimeHost) Sessions() []lifetime.Session {
	all := h.s.table.All()
	out := make([]lifetime.Session, 0, len(all))
	for _, sess := range all {
		out = append(out, lifetimeView{sess})
	}
	return out
}

func (h lifetimeHost) Session(id string) (lifetime.Session, bool) {
	sess, ok := h.s.table.Get(id)
	if !ok {
		return nil, false
	}
	return lifetimeView{sess}, true
}

// Reap unmaps the session at once (its next request meets 404) and logs its gem out in the
// background, so one slow logout never holds up a pass.
func (h lifetimeHost) Reap(id string, why lifetime.Reason) {
	sess, ok := h.s.table.Get(id)
	if !ok {
		return
	}
	h.s.o.Observer.Reaped(why.Kind)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), reapLogoutTimeout)
		defer cancel()
		sess.End(ctx, session.Reason{Kind: why.Kind, Detail: why.Detail})
	}()
}

// errStreamGone: the stream the engine named is no longer the open one.
var errStreamGone = errors.New("router: the stream of that generation is no longer open")

// Probe writes a ping with a srv-N id from the session's pending table onto the stream of
// generation gen only; any answer (the client read the stream and replied) reaches the engine
// as ProbeAnswered.
func (h lifetimeHost) Probe(id string, gen uint64) error {
	sess, ok := h.s.table.Get(id)
	if !ok {
		return errStreamGone
	}
	call := sess.Pending().Start("ping")
	msg := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"ping"}`, call.ID)
	if _, ok := sess.Stream().SendOn(gen, msg); !ok {
		return errStreamGone // the pending entry times out on its own
	}
	eng := h.s.o.Lifetime
	go func() {
		if _, err := call.Result(); err == nil {
			eng.ProbeAnswered(id, gen)
		}
	}()
	return nil
}

// EndCall ends the running call through the binding's escalation; the client's request is
// answered -32001 with data.kind why.Kind and the reason as its message.
func (h lifetimeHost) EndCall(id string, why lifetime.Reason) {
	if sess, ok := h.s.table.Get(id); ok {
		sess.EndInFlight(&session.Stop{Kind: why.Kind, Reason: why.Detail})
	}
}

// lifetimeView is a session as the lifetime policy reads it.
type lifetimeView struct{ s *session.Session }

func (v lifetimeView) ID() string              { return v.s.ID() }
func (v lifetimeView) Created() time.Time      { return v.s.Created() }
func (v lifetimeView) LastActivity() time.Time { return v.s.LastActivity() }
func (v lifetimeView) LastSeen() time.Time     { return v.s.LastSeen() }

// InFlight counts a queued call as well as a running one: a session a request has just
// reached is not one to reap.
func (v lifetimeView) InFlight() bool { return v.s.Busy() }

func (v lifetimeView) StreamGeneration() (uint64, bool) { return v.s.Stream().Generation() }

// Memory is the policy's record of the session, which the session holds from New on.
func (v lifetimeView) Memory() *lifetime.Memory {
	m, _ := session.Held[*lifetime.Memory](v.s)
	return m
}

func (v lifetimeView) GemSession() int { return v.s.Gem().Prepared().GemSession }

// NeverStreams: a session of the stateless revision (a state handle's or a pool's gem) never
// opens a GET stream, so it gets the streamless deadline.
func (v lifetimeView) NeverStreams() bool { return v.s.ProtocolVersion() == StatelessVersion }

func (v lifetimeView) ViewStatus(ctx context.Context) (worker.ViewStatus, error) {
	return ifIdle(ctx, v.s, worker.Gem.ViewStatus)
}

func (v lifetimeView) RefreshView(ctx context.Context) (worker.RefreshResult, error) {
	return ifIdle(ctx, v.s, worker.Gem.RefreshView)
}

// ifIdle runs one of the gem's own calls if no client call holds the gem, else ErrBusy: the
// view belongs to the call, and GCI allows one call per session.
func ifIdle[T any](ctx context.Context, s *session.Session, call func(worker.Gem, context.Context) (T, error)) (T, error) {
	var out T
	ran, err := s.IfIdle(ctx, func(ctx context.Context, g worker.Gem) error {
		var err error
		out, err = call(g, ctx)
		return err
	})
	if !ran {
		return out, lifetime.ErrBusy
	}
	return out, err
}
