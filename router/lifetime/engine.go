// Package lifetime decides when an MCP session ends and when its view is moved: idle
// deadlines, the stream-loss grace, liveness probes, the absolute cap, and view hygiene
// (refreshing a view that fell behind, releasing one that cannot move, ending a call that
// pins the repository's oldest commit record).
//
// A session here is a gem holding a transaction view, so ending one throws away its
// uncommitted work; every rule therefore acts on evidence about the client (a request, a
// stream, an answered or unanswered probe) or about the repository (commit-record readings),
// and a session with a call in flight is never reaped.
//
// The engine owns no sessions. It reads them through Session, acts through Host (which the
// router implements: unmap and log out, send a ping, end a call), and reads the stone through
// StoneReader (worker.Control). Time comes from a Clock, so every rule is testable without
// sleeping.
package lifetime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// ErrBusy is what a Session answers to ViewStatus or RefreshView while a call is in flight:
// the view belongs to the call, and GCI allows one call per session.
var ErrBusy = errors.New("lifetime: session has a call in flight")

// Session is what the engine needs to know about one MCP session. The router implements it.
type Session interface {
	// ID is the MCP session id.
	ID() string
	// Created is when the session was opened (MCP_MAX_LIFETIME counts from it).
	Created() time.Time
	// LastActivity is when the client last made a request of any kind, or a call last
	// finished, whichever is later. Answers to liveness probes and the engine's own view
	// calls do not count.
	LastActivity() time.Time
	// LastSeen is when the client last sent anything at all on the session, a ping or a
	// response to a probe included. It retracts a stream-loss grace (the client is evidently
	// still there) but is not activity: no idle deadline counts from it.
	LastSeen() time.Time
	// InFlight says a client call is running in the gem now.
	InFlight() bool
	// StreamGeneration answers the generation of the newest standalone stream and whether it
	// is open (sse.Stream.Generation).
	StreamGeneration() (gen uint64, open bool)
	// GemSession is the gem's GemStone session number (worker.PrepareResult.GemSession).
	GemSession() int
	// ViewStatus asks the gem how far behind its view is; ErrBusy while a call is in flight.
	ViewStatus(ctx context.Context) (worker.ViewStatus, error)
	// RefreshView moves the view keeping uncommitted work; ErrBusy while a call is in flight.
	RefreshView(ctx context.Context) (worker.RefreshResult, error)
	// Memory is what the engine remembers of this session, kept with the session so that it
	// ends with it; the same Memory every time, or nil once the session has ended (it may end
	// between the host's lookup and this call).
	Memory() *Memory
}

// Memory is the engine's record of one session: its stream-loss grace, its liveness probe,
// its pressure clocks. The session holds it (the zero value is ready) and closes it when it
// ends, which stops its timers; the engine keeps no table of its own.
type Memory struct {
	t   tracked
	eng atomic.Pointer[Engine]
}

// Close stops the timers of a session that ended.
func (m *Memory) Close() {
	e := m.eng.Load()
	if e == nil {
		return // the engine never looked at this session
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	stopTimers(&m.t)
}

// Host is the router side of the engine: the session table and the actions.
type Host interface {
	// Sessions answers the live sessions.
	Sessions() []Session
	// Session answers one live session.
	Session(id string) (Session, bool)
	// Reap ends a session: unmap it (its next request meets 404), close its stream, log its
	// gem out, return its slot, and log why. The engine never reaps a session with a call in
	// flight, but Reap must still be safe if one has just started.
	Reap(id string, why Reason)
	// Probe sends a liveness ping down the stream of generation gen, registering it in the
	// pending-request table so the answer reaches ProbeAnswered. It fails if that stream is no
	// longer the open one (sse.Stream.SendOn).
	Probe(id string, gen uint64) error
	// EndCall ends the call in flight through the binding's escalation; the client's request
	// is answered with an error carrying why.Message().
	EndCall(id string, why Reason)
}

// Streamless is implemented by a Session whose revision has no standalone stream (MCP
// 2026-07-28: a state handle's gem). MCP_STREAMLESS_IDLE_TIMEOUT waits for a stream such a
// session will never open, so it does not apply to it; MCP_IDLE_TIMEOUT and MCP_MAX_LIFETIME do.
type Streamless interface {
	NeverStreams() bool
}

// StoneReader takes the stone-wide readings (worker.Control satisfies it).
type StoneReader interface {
	ReadStone(ctx context.Context) (worker.StoneStatus, error)
}

// Reason kinds.
const (
	KindIdle            = "idle"
	KindStreamlessIdle  = "streamlessIdle"
	KindStreamLost      = "streamLost"
	KindMaxLifetime     = "maxLifetime"
	KindProbeUnanswered = "probeUnanswered"
	KindStuckView       = "stuckView"
	KindPinnedView      = "pinnedView"
)

// Reason says why the engine ended a session or a call.
type Reason struct {
	// Kind is one of the Kind constants; the router may use it as data.kind.
	Kind string
	// Detail says what was measured, in words an operator (and, for an ended call, the
	// client) can act on. It never holds a host, a path or a credential.
	Detail string
}

// Message is the reason as one sentence.
func (r Reason) Message() string { return r.Kind + ": " + r.Detail }

// Stats counts the engine's decisions.
type Stats struct {
	Reaped          map[string]uint64
	ProbesSent      uint64
	ProbesAnswered  uint64
	ProbesDiscarded uint64 // lost to a stream handover (or made moot by a request): never counted against a client
	Refreshes       uint64
	CallsEnded      uint64
	Forgiven        uint64 // late passes read as a host suspend
}

// Engine applies a Config to a Host's sessions.
type Engine struct {
	cfg   Config
	host  Host
	stone StoneReader
	clock Clock
	log   zerolog.Logger

	// run serialises verdicts: the pass and the per-session timers never judge at once.
	run sync.Mutex

	mu        sync.Mutex // guards everything below
	resumedAt time.Time  // the last forgiven suspend: no idle clock runs from before it
	stats     Stats
	started   bool
	stopped   bool
	passTimer Timer
	ctx       context.Context
	cancel    context.CancelFunc
}

// tracked is the engine's memory of one session.
type tracked struct {
	streamSeen  time.Time // the last time a stream was seen open or was lost
	loss        *streamLoss
	probe       *probe
	lastProbe   time.Time
	stuckSince  time.Time
	pinnedSince time.Time
	// declinedAt is the distance at which the worker last declined a refresh; it is not asked
	// again until the view falls further behind. 0: no refresh declined.
	declinedAt int
}

type streamLoss struct {
	gen   uint64
	at    time.Time
	timer Timer
}

type probe struct {
	gen      uint64
	sent     time.Time
	answered bool
	timer    Timer
}

// Option adjusts an Engine.
type Option func(*Engine)

// WithClock replaces the system clock.
func WithClock(c Clock) Option { return func(e *Engine) { e.clock = c } }

// WithLogger sets the logger.
func WithLogger(l zerolog.Logger) Option { return func(e *Engine) { e.log = l } }

// New makes an engine. stone may be nil (no control session): view hygiene then judges from
// each session's own distance only, and the stone-pressure rules never fire.
func New(cfg Config, stone StoneReader, opts ...Option) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, stone: stone, clock: SystemClock(), log: zerolog.Nop(),
		stats: Stats{Reaped: map[string]uint64{}}}
	for _, o := range opts {
		o(e)
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	return e, nil
}

// Start puts host's sessions under the policy: the maintenance pass runs every PassInterval
// until Stop. An engine serves one host, once.
func (e *Engine) Start(host Host) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.started || e.stopped {
		return
	}
	e.started = true
	e.host = host
	e.log.Info().Str("policy", e.cfg.Describe()).Msg("session lifetime policy")
	e.schedulePassLocked(e.now().Add(e.cfg.PassInterval))
}

func (e *Engine) schedulePassLocked(due time.Time) {
	e.passTimer = e.clock.AfterFunc(due.Sub(e.now()), func() {
		e.runPass(e.ctx, due)
		e.mu.Lock()
		defer e.mu.Unlock()
		if !e.stopped {
			e.schedulePassLocked(e.now().Add(e.cfg.PassInterval))
		}
	})
}

// Stop ends the passes and every pending timer, and cancels a pass in progress.
func (e *Engine) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return
	}
	e.stopped = true
	if e.passTimer != nil {
		e.passTimer.Stop()
	}
	if e.host != nil {
		for _, s := range e.host.Sessions() {
			stopTimers(e.memoryLocked(s))
		}
	}
	e.cancel()
}

// Pass runs one maintenance pass now. Start runs them on schedule; Pass is for tests and for
// a router that drives its own schedule.
func (e *Engine) Pass(ctx context.Context) { e.runPass(ctx, e.now()) }

// StreamClosed tells the engine the client lost the stream of generation gen (it hung up or
// a write failed; not a supersession). The stream-loss grace starts now.
func (e *Engine) StreamClosed(id string, gen uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped {
		return
	}
	s, ok := e.host.Session(id)
	if !ok {
		return
	}
	now := e.now()
	t := e.memoryLocked(s)
	t.streamSeen = now
	if t.loss != nil && t.loss.timer != nil {
		t.loss.timer.Stop()
	}
	t.loss = nil
	if !e.cfg.StreamLossGrace.On() {
		return // left to the streamless deadline
	}
	due := now.Add(e.cfg.StreamLossGrace.D())
	t.loss = &streamLoss{gen: gen, at: now}
	t.loss.timer = e.clock.AfterFunc(e.cfg.StreamLossGrace.D(), func() { e.checkOne(id, due) })
}

// ProbeAnswered tells the engine the client answered a liveness probe. It proves the client
// is there; it does not move the activity clock.
func (e *Engine) ProbeAnswered(id string, gen uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.host.Session(id)
	if !ok {
		return
	}
	t := e.memoryLocked(s)
	if t.probe == nil {
		return
	}
	// An answer to any probe proves the client read its stream, even if a handover replaced
	// the probe it answered.
	t.probe.answered = true
	if t.probe.timer != nil {
		t.probe.timer.Stop()
	}
	e.stats.ProbesAnswered++
	e.log.Debug().Str("session", id).Uint64("gen", gen).Msg("liveness probe answered")
}

// Stats answers a snapshot of the counters.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.Reaped = map[string]uint64{}
	for k, v := range e.stats.Reaped {
		s.Reaped[k] = v
	}
	return s
}

// memoryLocked is the engine's record of s, which s keeps (Memory). A session that ended
// after it was looked up keeps none: it gets a record of its own that nothing reads again, so
// whatever the engine notes on it, a timer included, goes with it (a timer that fires finds
// no session and does nothing).
func (e *Engine) memoryLocked(s Session) *tracked {
	m := s.Memory()
	if m == nil {
		return &tracked{}
	}
	m.eng.Store(e)
	return &m.t
}

func stopTimers(t *tracked) {
	if t.loss != nil && t.loss.timer != nil {
		t.loss.timer.Stop()
	}
	if t.probe != nil && t.probe.timer != nil {
		t.probe.timer.Stop()
	}
}

// late reports whether work due at due and running at now was held up long enough to mean
// the host was suspended, and if so forgives: every idle clock restarts now, probes in flight
// are dropped, graces restart, and no verdict is drawn on this run. Absolute deadlines
// (MCP_MAX_LIFETIME) are not forgiven; they are judged again on the next pass.
func (e *Engine) late(now, due time.Time) bool {
	lateBy := now.Sub(due)
	if lateBy <= e.cfg.lateAfter() {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.resumedAt = now
	e.stats.Forgiven++
	for _, s := range e.host.Sessions() {
		id, t := s.ID(), e.memoryLocked(s)
		if t.probe != nil && t.probe.timer != nil {
			t.probe.timer.Stop()
		}
		t.probe, t.lastProbe = nil, time.Time{}
		t.stuckSince, t.pinnedSince = time.Time{}, time.Time{}
		if t.loss != nil {
			t.loss.timer.Stop()
			t.loss.at = now
			due := now.Add(e.cfg.StreamLossGrace.D())
			t.loss.timer = e.clock.AfterFunc(e.cfg.StreamLossGrace.D(), func() { e.checkOne(id, due) })
		}
		if !t.streamSeen.IsZero() {
			t.streamSeen = now
		}
	}
	e.log.Warn().Dur("lateBy", lateBy).
		Msg("maintenance ran far later than scheduled (host suspend?): idle clocks restart now; nobody is reaped for the gap")
	return true
}

// checkOne judges one session when its grace or probe timer fires.
func (e *Engine) checkOne(id string, due time.Time) {
	e.run.Lock()
	defer e.run.Unlock()
	if e.isStopped() {
		return
	}
	now := e.now()
	if e.late(now, due) {
		return
	}
	s, ok := e.host.Session(id)
	if !ok {
		return // it ended, and its Memory's timers with it
	}
	e.judge(now, s)
}

// now is the wall-clock time, without Go's monotonic reading. Everything the engine compares
// is wall-clock on purpose: a session's activity stamps are wall-clock, an absolute deadline
// is, and on Linux the monotonic clock stops while the host is suspended, so only the wall
// clock shows a pass that ran an hour late because the laptop slept.
func (e *Engine) now() time.Time { return e.clock.Now().Round(0) }

func (e *Engine) isStopped() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

func (e *Engine) runPass(ctx context.Context, due time.Time) {
	e.run.Lock()
	defer e.run.Unlock()
	if e.isStopped() {
		return
	}
	now := e.now()
	if e.late(now, due) {
		return
	}
	sessions := e.host.Sessions()
	survivors := sessions[:0:0]
	for _, s := range sessions {
		if !e.judge(now, s) {
			survivors = append(survivors, s)
		}
	}
	e.hygiene(ctx, now, survivors)
}

func neverStreams(s Session) bool {
	ns, ok := s.(Streamless)
	return ok && ns.NeverStreams()
}

// judge applies the lifetime rules to one session and answers whether it was reaped.
func (e *Engine) judge(now time.Time, s Session) (reaped bool) {
	id := s.ID()
	gen, open := s.StreamGeneration()
	inFlight := s.InFlight()
	last := s.LastActivity()
	seen := s.LastSeen()
	created := s.Created()

	e.mu.Lock()
	t := e.memoryLocked(s)
	if open {
		t.streamSeen = now
	}
	if l := t.loss; l != nil && (inFlight || (open && gen > l.gen) || last.After(l.at) || seen.After(l.at)) {
		l.timer.Stop()
		t.loss = nil
		e.log.Debug().Str("session", id).Msg("stream-loss grace retracted: the client came back")
	}
	if inFlight {
		// Never reaped with a call in flight; and a running call is better evidence of a
		// client than any probe answer.
		e.dropProbeLocked(t, false)
		e.mu.Unlock()
		return false
	}
	base := latest(last, created, e.resumedAt)
	idle := now.Sub(base)
	var why *Reason
	switch {
	case e.cfg.MaxLifetime.On() && now.Sub(created) >= e.cfg.MaxLifetime.D():
		why = &Reason{KindMaxLifetime, fmt.Sprintf("session reached MCP_MAX_LIFETIME=%v", e.cfg.MaxLifetime)}
	case t.loss != nil && now.Sub(t.loss.at) >= e.cfg.StreamLossGrace.D():
		why = &Reason{KindStreamLost, fmt.Sprintf("the client closed its stream and did not return within MCP_STREAM_LOSS_GRACE=%v", e.cfg.StreamLossGrace)}
	case e.cfg.IdleTimeout.On() && idle >= e.cfg.IdleTimeout.D():
		why = &Reason{KindIdle, fmt.Sprintf("no request for %v (MCP_IDLE_TIMEOUT=%v)", idle.Round(100*time.Millisecond), e.cfg.IdleTimeout)}
	case !open && !neverStreams(s) && e.cfg.StreamlessIdleTimeout.On() && now.Sub(latest(base, t.streamSeen)) >= e.cfg.StreamlessIdleTimeout.D():
		why = &Reason{KindStreamlessIdle, fmt.Sprintf("no stream open and no request for %v (MCP_STREAMLESS_IDLE_TIMEOUT=%v)",
			now.Sub(latest(base, t.streamSeen)).Round(100*time.Millisecond), e.cfg.StreamlessIdleTimeout)}
	}
	var send *probe
	if why == nil && open {
		why, send = e.probeLocked(now, t, gen, last, idle)
	}
	e.mu.Unlock()

	if why != nil {
		e.reap(s, *why)
		return true
	}
	if send != nil {
		e.sendProbe(id, t, send)
	}
	return false
}

// probeLocked draws the verdict of an outstanding probe and decides whether to send one.
func (e *Engine) probeLocked(now time.Time, t *tracked, gen uint64, last time.Time, idle time.Duration) (*Reason, *probe) {
	if p := t.probe; p != nil {
		switch {
		case p.gen != gen:
			// Written into a stream the client has since replaced: its silence says nothing.
			e.dropProbeLocked(t, true)
		case last.After(p.sent):
			e.dropProbeLocked(t, false) // a request since: alive on better evidence
		case p.answered:
			t.probe = nil
		case now.Sub(p.sent) >= e.cfg.ProbeTimeout:
			return &Reason{KindProbeUnanswered, fmt.Sprintf("a liveness ping on the open stream went unanswered for %v", e.cfg.ProbeTimeout)}, nil
		default:
			return nil, nil // still waiting for the answer
		}
	}
	pi := e.cfg.ProbeInterval
	if !pi.On() || idle < pi.D() || now.Sub(t.lastProbe) < pi.D() {
		return nil, nil
	}
	p := &probe{gen: gen, sent: now}
	t.probe, t.lastProbe = p, now
	return nil, p
}

// dropProbeLocked discards the outstanding probe; a handover also clears the cadence so the
// probe is sent again down the new stream at once.
func (e *Engine) dropProbeLocked(t *tracked, handover bool) {
	if t.probe == nil {
		return
	}
	if t.probe.timer != nil {
		t.probe.timer.Stop()
	}
	t.probe = nil
	if handover {
		t.lastProbe = time.Time{}
		e.stats.ProbesDiscarded++
	}
}

func (e *Engine) sendProbe(id string, t *tracked, p *probe) {
	err := e.host.Probe(id, p.gen)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		if t.probe == p {
			t.probe, t.lastProbe = nil, time.Time{}
		}
		e.log.Debug().Err(err).Str("session", id).Uint64("gen", p.gen).Msg("liveness probe not sent; will retry")
		return
	}
	e.stats.ProbesSent++
	if t.probe != p || p.answered {
		return
	}
	due := p.sent.Add(e.cfg.ProbeTimeout)
	p.timer = e.clock.AfterFunc(due.Sub(e.now()), func() { e.checkOne(id, due) })
}

func (e *Engine) reap(s Session, why Reason) {
	id := s.ID()
	e.mu.Lock()
	stopTimers(e.memoryLocked(s)) // no timer of its judges it again while it ends
	e.stats.Reaped[why.Kind]++
	e.mu.Unlock()
	e.log.Info().Str("session", id).Str("reason", why.Kind).Str("detail", why.Detail).Msg("session released")
	e.host.Reap(id, why)
}

func latest(ts ...time.Time) time.Time {
	return slices.MaxFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
}
