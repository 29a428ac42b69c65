// Package wire connects the router's sessions (router/session) to the server-to-client
// stream (router/sse) and the lifetime policy (router/lifetime), without either of those
// knowing the router:
//
//   - Streams.ServeStream is the router's StreamOpener: GET /mcp, after the router's gates,
//     is served by the session's sse.Session;
//   - Streams.Hooks gives each router session its sse.Session when it opens and closes it
//     (and makes the engine forget it) when it ends;
//   - Streams is the engine's lifetime.Host: it lists the table's sessions, ends them
//     (session.End), sends liveness pings through the session's pending-request table down
//     the stream of the generation the engine names, and ends a pinning call
//     (session.EndInFlight) with the engine's reason.
//
// Wiring, in the order the pieces need each other:
//
//	streams := wire.New(wire.Options{Log: log})
//	srv := router.New(router.Options{..., Streams: streams, Hooks: streams.Hooks(session.Hooks{})})
//	eng, err := lifetime.New(cfg.Lifetime, streams, control, lifetime.WithLogger(log))
//	streams.Bind(srv.Sessions(), eng)
//	eng.Start(); defer eng.Stop()
package wire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Options configure the streams. SSE holds the stream bounds (zero values take the sse
// package defaults); its Logger and OnStreamClosed are set per session here.
type Options struct {
	SSE sse.Options
	// EndTimeout bounds a reap's logout (default 30 s).
	EndTimeout time.Duration
	Log        zerolog.Logger
}

// Streams is the glue; see the package comment. All methods are safe for concurrent use.
type Streams struct {
	o Options

	mu      sync.Mutex
	streams map[string]*sse.Session
	table   *session.Table
	engine  *lifetime.Engine
}

// New makes the glue. Bind it to the router's table and the engine before serving.
func New(o Options) *Streams {
	if o.EndTimeout <= 0 {
		o.EndTimeout = 30 * time.Second
	}
	return &Streams{o: o, streams: map[string]*sse.Session{}}
}

// Bind gives the glue the router's session table and the engine that judges it.
func (w *Streams) Bind(t *session.Table, e *lifetime.Engine) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.table, w.engine = t, e
}

// Hooks answers session hooks that keep each session's stream, calling next's hooks too.
func (w *Streams) Hooks(next session.Hooks) session.Hooks {
	return session.Hooks{
		Opened: func(s *session.Session) {
			w.stream(s.ID())
			if next.Opened != nil {
				next.Opened(s)
			}
		},
		Ended: func(s *session.Session, r session.Reason) {
			w.drop(s.ID())
			if next.Ended != nil {
				next.Ended(s, r)
			}
		},
	}
}

// Stream answers the sse.Session of a live session, for code that sends it messages.
func (w *Streams) Stream(id string) (*sse.Session, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st, ok := w.streams[id]
	return st, ok
}

// stream answers the session's sse.Session, making it on first use.
func (w *Streams) stream(id string) *sse.Session {
	w.mu.Lock()
	defer w.mu.Unlock()
	if st, ok := w.streams[id]; ok {
		return st
	}
	opts := w.o.SSE
	opts.Logger = w.o.Log.With().Str("session", id).Logger()
	opts.OnStreamClosed = func(gen uint64) {
		if e := w.eng(); e != nil {
			e.StreamClosed(id, gen)
		}
	}
	st := sse.NewSession(opts)
	w.streams[id] = st
	return st
}

func (w *Streams) drop(id string) {
	w.mu.Lock()
	st := w.streams[id]
	delete(w.streams, id)
	e := w.engine
	w.mu.Unlock()
	if st != nil {
		st.Close()
	}
	if e != nil {
		e.Forget(id)
	}
}

func (w *Streams) eng() *lifetime.Engine {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.engine
}

// ServeStream serves GET /mcp for a live session (router.StreamOpener). The stream ends when
// the client leaves, the server shuts down (r's context), or the session ends.
func (w *Streams) ServeStream(rw http.ResponseWriter, r *http.Request, sess *session.Session) {
	st := w.stream(sess.ID())
	st.ServeStreamUntil(rw, r, sess.ProtocolVersion(), sess.Done())
	select {
	case <-sess.Done(): // the session ended while its stream was open, or before it opened
		w.drop(sess.ID())
	default:
	}
}

// Sessions implements lifetime.Host.
func (w *Streams) Sessions() []lifetime.Session {
	t := w.tbl()
	if t == nil {
		return nil
	}
	all := t.All()
	out := make([]lifetime.Session, 0, len(all))
	for _, s := range all {
		out = append(out, &view{s: s, w: w})
	}
	return out
}

// Session implements lifetime.Host.
func (w *Streams) Session(id string) (lifetime.Session, bool) {
	t := w.tbl()
	if t == nil {
		return nil, false
	}
	s, ok := t.Get(id)
	if !ok {
		return nil, false
	}
	return &view{s: s, w: w}, true
}

func (w *Streams) tbl() *session.Table {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.table
}

// Reap implements lifetime.Host: the session is unmapped at once (its next request meets
// 404) and its gem logged out in the background, so one slow logout never holds up a pass.
func (w *Streams) Reap(id string, why lifetime.Reason) {
	t := w.tbl()
	if t == nil {
		return
	}
	s, ok := t.Get(id)
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), w.o.EndTimeout)
		defer cancel()
		s.End(ctx, session.Reason{Kind: why.Kind, Detail: why.Detail})
	}()
}

// errStreamGone: the stream the engine named is no longer the open one.
var errStreamGone = errors.New("wire: the stream of that generation is no longer open")

// Probe implements lifetime.Host: a ping with a srv-N id from the session's pending table,
// written only onto the stream of generation gen; its answer (any response: the client
// read the stream and replied) reaches the engine as ProbeAnswered.
func (w *Streams) Probe(id string, gen uint64) error {
	t := w.tbl()
	if t == nil {
		return errStreamGone
	}
	s, ok := t.Get(id)
	if !ok {
		return errStreamGone
	}
	st, ok := w.Stream(id)
	if !ok {
		return errStreamGone
	}
	call := s.Pending().Start("ping")
	msg := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"ping"}`, call.ID)
	if _, ok := st.SendOn(gen, msg); !ok {
		return errStreamGone // the pending entry times out on its own
	}
	go func() {
		if _, err := call.Result(); err == nil {
			if e := w.eng(); e != nil {
				e.ProbeAnswered(id, gen)
			}
		}
	}()
	return nil
}

// EndCall implements lifetime.Host: the running call is ended through the binding's
// escalation and the client's request is answered -32001 with data.kind why.Kind and the
// reason as its message.
func (w *Streams) EndCall(id string, why lifetime.Reason) {
	t := w.tbl()
	if t == nil {
		return
	}
	if s, ok := t.Get(id); ok {
		s.EndInFlight(&session.Stop{Kind: why.Kind, Reason: why.Detail})
	}
}

// view is a router session as the engine sees it. It looks its stream up rather than making
// one, so judging a session that is ending never resurrects its pathway.
type view struct {
	s *session.Session
	w *Streams
}

func (v *view) ID() string              { return v.s.ID() }
func (v *view) Created() time.Time      { return v.s.Created() }
func (v *view) LastActivity() time.Time { return v.s.LastActivity() }
func (v *view) LastSeen() time.Time     { return v.s.LastSeen() }

// InFlight counts a queued call as well as a running one: a session a request has just
// reached is not one to reap.
func (v *view) InFlight() bool { return v.s.Busy() }

func (v *view) StreamGeneration() (uint64, bool) {
	st, ok := v.w.Stream(v.s.ID())
	if !ok {
		return 0, false
	}
	return st.Generation()
}

func (v *view) GemSession() int { return v.s.Gem().Prepared().GemSession }

// NeverStreams implements lifetime.Streamless: a session of the stateless revision (a state
// handle's gem) never opens a GET stream. (A stateless pool gem keeps the revision it was
// introduced with, and so the streamless deadline: an idle one gives its slot back soon.)
func (v *view) NeverStreams() bool { return v.s.ProtocolVersion() == statelessVersion }

// statelessVersion is router.StatelessVersion (the router imports this package's peers, not
// the other way round).
const statelessVersion = "2026-07-28"

func (v *view) ViewStatus(ctx context.Context) (worker.ViewStatus, error) {
	var vs worker.ViewStatus
	ran, err := v.s.IfIdle(ctx, func(ctx context.Context, g worker.Gem) error {
		var err error
		vs, err = g.ViewStatus(ctx)
		return err
	})
	if !ran {
		return vs, lifetime.ErrBusy
	}
	return vs, err
}

func (v *view) RefreshView(ctx context.Context) (worker.RefreshResult, error) {
	var res worker.RefreshResult
	ran, err := v.s.IfIdle(ctx, func(ctx context.Context, g worker.Gem) error {
		var err error
		res, err = g.RefreshView(ctx)
		return err
	})
	if !ran {
		return res, lifetime.ErrBusy
	}
	return res, err
}
