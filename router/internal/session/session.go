package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Stop is why a call was ended before its worker answered. It is the cancellation cause of
// the call's context, so whoever ends a call says why, and the router turns that into the
// client's answer (-32001 with data.kind = Kind) without knowing who ended it.
type Stop struct {
	// Kind is the machine-readable reason, sent to the client as data.kind.
	Kind string
	// Reason is the sentence the client reads.
	Reason string
}

func (s *Stop) Error() string { return s.Kind + ": " + s.Reason }

// Causes the front end itself gives. The lifetime policy may end a call with a Stop of its own.
var (
	// ErrCancelled: the client sent notifications/cancelled; the call gets no response.
	ErrCancelled = &Stop{Kind: errkind.Cancelled, Reason: "the client cancelled the request"}
	// ErrSessionEnded: the session ended (DELETE, reaped, gem died) while the call waited or ran.
	ErrSessionEnded = &Stop{Kind: errkind.SessionGone, Reason: "the session ended; initialize a new one"}
	// ErrShuttingDown: the server is stopping.
	ErrShuttingDown = &Stop{Kind: errkind.ShuttingDown, Reason: "the server is shutting down; initialize a new session when it is back"}
	// ErrClientGone: the HTTP request went away while the call was still queued; it never ran.
	ErrClientGone = &Stop{Kind: errkind.ClientGone, Reason: "the client went away before the call started"}
)

// Default bounds on a session's queued notifications (Options).
const (
	DefaultMaxQueuedNotifications           = 64
	DefaultMaxQueuedNotificationBytes int64 = 16 << 20
)

// ErrDuplicateID refuses a request whose id is already outstanding on the session: a
// cancellation naming it could not say which one it meant.
var ErrDuplicateID = errors.New("a request with this id is already in flight on this session")

// Reason says why a session ended. Kind is short and fixed (deleted, gemDied, shutdown,
// idle, ...); Detail is for the log only and may hold what a client must not see.
type Reason struct {
	Kind   string
	Detail string
}

// Reasons the front end gives; the lifetime policy adds its own kinds.
const (
	ReasonDeleted    = "deleted"
	ReasonGemDied    = "gemDied"
	ReasonShutdown   = "shutdown"
	ReasonInitFailed = "initializeFailed"
	// ReasonClientGone: the client left during initialize.
	ReasonClientGone = "clientGone"
	// ReasonClosed: close_session ended an open_session gem.
	ReasonClosed = "sessionClosed"
	// ReasonYielded: an idle open_session gem gave its slot to a newcomer (MCP_HANDLE_YIELD).
	ReasonYielded = "yieldedToNewcomer"
	// ReasonPoolEvicted: a pool gem was logged out for a gem of another principal.
	ReasonPoolEvicted = "poolEvicted"
	// ReasonPoolYielded: an idle pool gem gave its slot to a new session.
	ReasonPoolYielded = "poolYielded"
)

// Options configure a Session.
type Options struct {
	// RequestTimeout ends a call that runs longer (0: no deadline).
	RequestTimeout time.Duration
	// PendingTimeout is how long a server-sent request waits for its answer (0: the default 30 s).
	PendingTimeout time.Duration
	// PendingTimeouts overrides PendingTimeout per method (elicitation/create: a person answers).
	PendingTimeouts map[string]time.Duration
	// CloseTimeout bounds the wait for a running call to end before the gem is logged out anyway.
	CloseTimeout time.Duration
	// MaxQueuedNotifications and MaxQueuedNotificationBytes bound the notifications a
	// session holds in its queue (a client gets 202 for each before it runs): defaults 64 and
	// 16 MiB.
	MaxQueuedNotifications     int
	MaxQueuedNotificationBytes int64
	// Stream bounds the session's standalone server-to-client stream (outbox, replay); its
	// Logger is set here, per session.
	Stream sse.Options
	// Owner is the principal whose token opened the session; the zero Owner (the local mode)
	// is nobody's in particular.
	Owner Owner
	// Now is the clock for the activity stamps (time.Now when nil).
	Now func() time.Time
	Log zerolog.Logger
}

// Owner names a principal by its token's issuer and subject.
type Owner struct{ Issuer, Subject string }

// Part is something a session holds beside its gem and its stream (the worker-to-router
// channel's endpoint, the lifetime policy's record of it): it lives exactly as long as the
// session and is closed once, when the session ends.
type Part interface{ Close() }

// Session is one MCP session: its id, its gem, the queue of calls on it, and the facts the
// lifetime policy decides on. All methods are safe for concurrent use.
type Session struct {
	id      string
	gem     worker.Gem
	created time.Time
	opts    Options
	log     zerolog.Logger
	pending *pending.Table
	stream  *sse.Stream
	owner   Owner

	base       context.Context
	cancelBase context.CancelCauseFunc

	queue        fifo
	answering    atomic.Int32 // answers still being written to the client (Answering)
	notes        int          // notifications forwarded and not yet finished (under mu)
	noteBytes    int64        // their bytes (under mu)
	lastActivity atomic.Int64 // unix nanoseconds
	lastSeen     atomic.Int64 // unix nanoseconds

	mu              sync.Mutex
	calls           map[string]*Call
	inflight        *Call
	protocolVersion string
	parts           []Part
	ended           bool
	reason          Reason
	done            chan struct{}
	closed          chan struct{} // closed when the gem is logged out and the slot is free

	table *Table
	slot  *Slot
}

// New makes a session for a gem that is logged in and prepared. parent bounds every call
// (cancelling it with ErrShuttingDown as the cause ends them all).
func New(parent context.Context, id string, gem worker.Gem, opts Options) *Session {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CloseTimeout <= 0 {
		opts.CloseTimeout = 10 * time.Second
	}
	if opts.MaxQueuedNotifications <= 0 {
		opts.MaxQueuedNotifications = DefaultMaxQueuedNotifications
	}
	if opts.MaxQueuedNotificationBytes <= 0 {
		opts.MaxQueuedNotificationBytes = DefaultMaxQueuedNotificationBytes
	}
	base, cancel := context.WithCancelCause(parent)
	log := opts.Log.With().Str("session", id).Logger()
	streamOpts := opts.Stream
	streamOpts.Logger = log
	s := &Session{
		id: id, gem: gem, opts: opts, owner: opts.Owner,
		created:    opts.Now(),
		log:        log,
		stream:     sse.NewStream(streamOpts),
		pending:    pending.New(opts.PendingTimeout),
		base:       base,
		cancelBase: cancel,
		calls:      make(map[string]*Call),
		done:       make(chan struct{}),
		closed:     make(chan struct{}),
	}
	for method, d := range opts.PendingTimeouts {
		s.pending.SetTimeout(method, d)
	}
	s.Touch()
	s.See()
	return s
}

// ID is the MCP-Session-Id.
func (s *Session) ID() string { return s.id }

// Stream is the session's standalone server-to-client stream (GET /mcp): its outbox, replay
// and liveness probes. It is closed when the session ends.
func (s *Session) Stream() *sse.Stream { return s.stream }

// Owner is the principal that opened the session (zero in the local mode).
func (s *Session) Owner() Owner { return s.owner }

// Hold makes p part of the session, to be closed when it ends; a session that has already
// ended closes p at once.
func (s *Session) Hold(p Part) {
	s.mu.Lock()
	if !s.ended {
		s.parts = append(s.parts, p)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	p.Close()
}

// Held answers the session's part of type T, if it holds one.
func Held[T Part](s *Session) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.parts {
		if t, ok := p.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// Gem is the session's worker gem. Call it only inside IfIdle: the gem takes one call at a time.
func (s *Session) Gem() worker.Gem { return s.gem }

// Created is when the session was opened.
func (s *Session) Created() time.Time { return s.created }

// Touch records client activity now. The router touches on every message it forwards to
// the worker and on every cancellation; pings and POSTed responses do not count, so a client
// that only keeps a connection warm does not hold a gem.
func (s *Session) Touch() { s.lastActivity.Store(s.opts.Now().UnixNano()) }

// LastActivity is when the client last did something that counts (see Touch).
func (s *Session) LastActivity() time.Time { return time.Unix(0, s.lastActivity.Load()) }

// See records that the client sent something on this session now, whether it counts as
// activity or not: a ping, a response to a server request, any request. It proves the client
// is there (it retracts a stream-loss grace) but never moves LastActivity, so a client that
// only pings still does not keep a gem and a view past the idle deadlines.
func (s *Session) See() { s.lastSeen.Store(s.opts.Now().UnixNano()) }

// LastSeen is when the client last sent anything on this session (see See); before the first
// message after initialize it is the session's creation.
func (s *Session) LastSeen() time.Time { return time.Unix(0, s.lastSeen.Load()) }

// Busy says a call is running or waiting on the session, or an answer is still being
// written to its client. A busy session must not be reaped.
func (s *Session) Busy() bool {
	if s.answering.Load() > 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight != nil || len(s.calls) > 0 || s.queue.waiting() > 0
}

// Answering marks an answer to this session's client as being written until done is called
// (once): a large answer to a slow client can take longer to write than the idle deadline,
// and the session is not idle while it does. done counts as activity.
func (s *Session) Answering() (done func()) {
	s.answering.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.Touch()
			s.answering.Add(-1)
		})
	}
}

// Queued is how many calls wait behind the running one.
func (s *Session) Queued() int { return s.queue.waiting() }

// CallInfo describes a running call.
type CallInfo struct {
	// ID is the request's JSON-RPC id as the client sent it.
	ID      json.RawMessage
	Method  string
	Started time.Time
}

// InFlight describes the running call, if any.
func (s *Session) InFlight() (CallInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inflight == nil {
		return CallInfo{}, false
	}
	return CallInfo{ID: s.inflight.id, Method: s.inflight.Method, Started: s.inflight.started}, true
}

// EndInFlight ends the running call with stop as its cause (the binding's escalation runs),
// and answers whether there was one. The session keeps serving unless the escalation had
// to stop the gem.
func (s *Session) EndInFlight(stop *Stop) bool {
	s.mu.Lock()
	c := s.inflight
	s.mu.Unlock()
	if c == nil {
		return false
	}
	c.cancel(stop)
	return true
}

// Pending is the table of the server's own outstanding requests on this session.
func (s *Session) Pending() *pending.Table { return s.pending }

// ProtocolVersion is the revision initialize negotiated ("" before it did).
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.protocolVersion
}

// SetProtocolVersion records the revision the worker's initialize answer negotiated.
func (s *Session) SetProtocolVersion(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protocolVersion = v
}

// Done is closed when the session has ended (its gem may still be logging out).
func (s *Session) Done() <-chan struct{} { return s.done }

// Closed is closed when the gem is logged out and the slot is free again.
func (s *Session) Closed() <-chan struct{} { return s.closed }

// Ended reports whether the session ended and why.
func (s *Session) Ended() (Reason, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason, s.ended
}

// Call is one request on its way through the session.
type Call struct {
	Method  string
	id      json.RawMessage
	key     string
	ctx     context.Context
	cancel  context.CancelCauseFunc
	started time.Time
	raw     []byte
	prelude Prelude
}

// Outcome is what became of a call.
type Outcome struct {
	// Reply is the worker's answer (nil for a notification, or when the call did not finish).
	Reply []byte
	// Err is the worker's failure (a *worker.Failure where the worker described it).
	Err error
	// Stopped is set when the call was ended before its worker answered, and says why.
	Stopped *Stop
}

// Do runs a request or notification on the session's gem after every call queued before it,
// and waits for the outcome. waitCtx is the HTTP request's context: if it ends while the call
// is still queued, the call is dropped (ErrClientGone); once the call runs it is not stopped
// by the client hanging up, since MCP says a disconnect is not a cancellation.
func (s *Session) Do(waitCtx context.Context, msg jsonrpc.Message) Outcome {
	return s.DoAfter(waitCtx, msg, nil)
}

// Prelude runs with the session's gem in a call's turn, right before the call's message:
// what the gem must be told first (the grant of the request's token). An error ends the call
// with that error instead of the message.
type Prelude func(ctx context.Context, gem worker.Gem) error

// DoAfter is Do with a prelude (nil: none), run in the same turn, so nothing queued can come
// between the two.
func (s *Session) DoAfter(waitCtx context.Context, msg jsonrpc.Message, prelude Prelude) Outcome {
	c, t, err := s.enqueue(msg)
	if err != nil {
		return failedEnqueue(err)
	}
	c.prelude = prelude
	return s.run(waitCtx, c, t)
}

// Forward queues a notification and returns at once; the outcome goes to done (may be nil).
// Its place in the queue is taken before Forward returns, so the client's next request
// runs after it. Nothing waits for the turn meanwhile: the queue starts a goroutine when the
// turn comes. Past the session's bound on notifications in its queue (MaxQueuedNotifications,
// MaxQueuedNotificationBytes) it refuses with ErrQueueFull and queues nothing.
func (s *Session) Forward(msg jsonrpc.Message, done func(Outcome)) error {
	size := int64(len(msg.Raw))
	s.mu.Lock()
	if s.notes >= s.opts.MaxQueuedNotifications || s.noteBytes+size > s.opts.MaxQueuedNotificationBytes {
		n, b := s.notes, s.noteBytes
		s.mu.Unlock()
		return &QueueFullError{Count: n, Bytes: b, MaxCount: s.opts.MaxQueuedNotifications, MaxBytes: s.opts.MaxQueuedNotificationBytes}
	}
	s.notes++
	s.noteBytes += size
	s.mu.Unlock()
	finish := func(out Outcome) {
		s.mu.Lock()
		s.notes--
		s.noteBytes -= size
		s.mu.Unlock()
		if done != nil {
			done(out)
		}
	}
	c := s.newCall(msg)
	_, err := s.admit(c, msg, func(t *turn) {
		defer s.forget(c)
		finish(s.execute(c, t))
	})
	if err != nil {
		finish(failedEnqueue(err))
	}
	return nil
}

// QueueFullError refuses a notification: the session's queue already holds as many as it may.
type QueueFullError struct {
	Count, MaxCount int
	Bytes, MaxBytes int64
}

func (e *QueueFullError) Error() string {
	return fmt.Sprintf("%d notifications (%d bytes) already wait in this session's queue; the bound is %d notifications or %d bytes",
		e.Count, e.Bytes, e.MaxCount, e.MaxBytes)
}

func failedEnqueue(err error) Outcome {
	var st *Stop
	if errors.As(err, &st) {
		return Outcome{Stopped: st}
	}
	return Outcome{Err: err}
}

func (s *Session) enqueue(msg jsonrpc.Message) (*Call, *turn, error) {
	c := s.newCall(msg)
	t, err := s.admit(c, msg, nil)
	if err != nil {
		return nil, nil, err
	}
	return c, t, nil
}

func (s *Session) newCall(msg jsonrpc.Message) *Call {
	ctx, cancel := context.WithCancelCause(s.base)
	c := &Call{Method: msg.Method, id: msg.ID, ctx: ctx, cancel: cancel}
	if msg.Kind == jsonrpc.Request {
		c.key = msg.IDKey()
	}
	return c
}

// admit takes c's place in the queue. With then set, no turn is handed back to wait on: the
// queue runs then on a goroutine of its own once the turn comes.
func (s *Session) admit(c *Call, msg jsonrpc.Message, then func(*turn)) (*turn, error) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		c.cancel(ErrSessionEnded)
		return nil, ErrSessionEnded
	}
	if c.key != "" {
		if _, dup := s.calls[c.key]; dup {
			s.mu.Unlock()
			c.cancel(nil)
			return nil, ErrDuplicateID
		}
		s.calls[c.key] = c
	}
	c.raw = msg.Raw
	var t *turn
	if then != nil {
		s.queue.joinThen(then)
	} else {
		t = s.queue.join()
	}
	s.mu.Unlock()
	return t, nil
}

func (s *Session) run(waitCtx context.Context, c *Call, t *turn) Outcome {
	defer s.forget(c)
	select {
	case <-t.ready:
		// The turn came at once (an idle session's usual case): nothing was waited on, so
		// neither context's Done channel needs making.
		return s.execute(c, t)
	default:
	}
	select {
	case <-t.ready:
	case <-c.ctx.Done():
		s.queue.leave(t)
		return Outcome{Stopped: stopOf(c.ctx)}
	case <-waitCtx.Done():
		s.queue.leave(t)
		c.cancel(ErrClientGone)
		return Outcome{Stopped: ErrClientGone}
	}
	return s.execute(c, t)
}

// execute runs c, whose turn has come, and gives the turn up after.
func (s *Session) execute(c *Call, t *turn) Outcome {
	defer s.queue.leave(t)
	if c.ctx.Err() != nil { // cancelled in the instant the turn came
		return Outcome{Stopped: stopOf(c.ctx)}
	}
	callCtx := c.ctx
	if s.opts.RequestTimeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeoutCause(c.ctx, s.opts.RequestTimeout, requestTimeout(s.opts.RequestTimeout))
		defer cancel()
	}
	s.mu.Lock()
	c.started = s.opts.Now()
	s.inflight = c
	s.mu.Unlock()
	var reply []byte
	var err error
	if c.prelude != nil {
		err = c.prelude(callCtx, s.gem)
	}
	if err == nil {
		reply, err = s.gem.Handle(callCtx, c.raw)
	}
	s.mu.Lock()
	s.inflight = nil
	s.mu.Unlock()
	out := Outcome{Reply: reply, Err: err}
	if callCtx.Err() != nil {
		// A worker that answered in the instant its deadline passed still answered; only a
		// cancellation discards the answer, since the client said it no longer wants it.
		if st := stopOf(callCtx); err != nil || st == ErrCancelled {
			out.Stopped = st
		}
	}
	return out
}

func (s *Session) forget(c *Call) {
	c.cancel(nil)
	if c.key == "" {
		return
	}
	s.mu.Lock()
	if s.calls[c.key] == c {
		delete(s.calls, c.key)
	}
	s.mu.Unlock()
}

// stopOf is the Stop a cancelled context carries; any other cause (a bare deadline from a
// parent) reads as the session ending.
func stopOf(ctx context.Context) *Stop {
	var st *Stop
	if errors.As(context.Cause(ctx), &st) {
		return st
	}
	return ErrSessionEnded
}

func requestTimeout(d time.Duration) *Stop {
	return &Stop{Kind: errkind.RequestTimeout,
		Reason: "the request ran longer than MCP_REQUEST_TIMEOUT (" + d.String() + ") and was ended"}
}

// Cancel ends the outstanding request whose id has that key (jsonrpc.IDKey), queued or
// running, and answers whether there was one. A running call is ended through the
// binding's escalation; a queued one never starts.
func (s *Session) Cancel(idKey string) bool {
	s.mu.Lock()
	c := s.calls[idKey]
	s.mu.Unlock()
	if c == nil {
		return false
	}
	c.cancel(ErrCancelled)
	return true
}

// IfIdle runs fn with the gem only if no call is running or waiting, holding the session's
// turn while it runs so that a request arriving meanwhile waits behind it. It is how the
// lifetime policy's view-hygiene calls happen between calls and never during one. fn must not
// call End: End waits for the turn fn holds (up to CloseTimeout); decide inside, end after.
func (s *Session) IfIdle(ctx context.Context, fn func(ctx context.Context, gem worker.Gem) error) (ran bool, err error) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return false, nil
	}
	t, ok := s.queue.tryJoin()
	s.mu.Unlock()
	if !ok {
		return false, nil
	}
	defer s.queue.leave(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.base, cancel)
	defer stop()
	return true, fn(ctx, s.gem)
}

// End ends the session once: it is unmapped from its table at once (the next request on
// its id is a 404), every queued or running call is ended with ErrSessionEnded as the
// cause, the gem is logged out, and then the slot comes free. ctx bounds the logout. Later
// calls do nothing and return false.
func (s *Session) End(ctx context.Context, reason Reason) bool {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return false
	}
	s.ended = true
	s.reason = reason
	parts := s.parts
	s.parts = nil
	close(s.done)
	s.mu.Unlock()

	if s.table != nil {
		s.table.unmap(s)
	}
	cause := ErrSessionEnded
	if reason.Kind == ReasonShutdown {
		cause = ErrShuttingDown
	}
	s.cancelBase(cause)
	s.pending.Close()

	// Wait for a running call's escalation to finish before logging out: the gem takes one
	// call at a time. Past the bound, log out anyway; Close is safe on a busy or dead gem.
	t := s.queue.join()
	wait, cancel := context.WithTimeout(ctx, s.opts.CloseTimeout)
	select {
	case <-t.ready:
	case <-wait.Done():
		s.log.Warn().Msg("session end: a call is still running past the close timeout; logging the gem out anyway")
	}
	cancel()
	err := s.gem.Close(ctx)
	s.queue.leave(t)

	ev := s.log.Info()
	if err != nil {
		ev = s.log.Warn().Err(err)
	}
	ev.Str("reason", reason.Kind).Str("detail", reason.Detail).
		Dur("age", s.opts.Now().Sub(s.created)).Msg("session ended; worker gem logged out")
	s.stream.Close()
	for i := len(parts) - 1; i >= 0; i-- {
		parts[i].Close()
	}
	if s.slot != nil {
		s.slot.Release()
	}
	close(s.closed)
	if s.table != nil {
		s.table.ended(s, reason)
	}
	return true
}
