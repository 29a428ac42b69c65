package gemstone

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// MinBreakGap is the least time between a soft and a hard break on one session: a soft
// break followed at once by a hard one has crashed the client library.
const MinBreakGap = 300 * time.Millisecond

// Session is one logged-in GemStone session. It runs one call at a time: a call made while
// another runs fails at once with ErrCallInProgress. Break and Close may be called from any
// goroutine at any time.
//
// Every GCI call on the session happens on the goroutine that holds the call slot; only
// GciTsBreak comes from elsewhere. Polling a session from one thread while another is inside
// a call on it has crashed the library, which is why no background poller exists.
type Session struct {
	api  *gciAPI
	gap  time.Duration
	slot chan struct{} // the call slot: full while a call (or the logout) runs

	// handleMu keeps the session handle alive while a Break uses it from another goroutine.
	handleMu sync.RWMutex
	h        handle
	freed    bool

	fd   int // GciTsSocket: polled, never read, written or closed here
	wake *waker

	closing   atomic.Bool
	closeOnce sync.Once
	closeErr  error

	// Under the call slot:
	receivers map[string]oop // receiver name -> resolved object, valid until logout
	created   [1]oop         // the argument object of the call running (its one-argument path)
	scratch   []byte         // while a call waits: its result's bytes are fetched here, then copied out
	waiter    *netWaiter     // parks waits in the netpoller; made at the first call
	noWaiter  bool           // the platform has none: wait in poll(2)
	deadErr   *Error         // the fatal error that ended the session

	lastSoftBreak atomic.Int64 // unix nanoseconds
	stopHook      atomic.Pointer[func(context.Context) error]
	loginWarning  *Error
}

// LoginWarning answers the warning the stone sent with a successful login, or nil.
func (s *Session) LoginWarning() error {
	if s.loginWarning == nil {
		return nil
	}
	return s.loginWarning
}

// SetStopHook installs the escalation's last step: a function that stops this session from
// elsewhere (System stopSession: on a control session). Without one, the binding ends the
// session itself with GciTsNbLogout.
func (s *Session) SetStopHook(stop func(context.Context) error) {
	if stop == nil {
		s.stopHook.Store(nil)
		return
	}
	s.stopHook.Store(&stop)
}

// Break interrupts the running call (soft: at the next message send; hard: at once). With
// no call running it does nothing. A hard break waits until MinBreakGap has passed since
// the last soft break.
func (s *Session) Break(hard bool) error {
	if hard {
		if wait := MinBreakGap - time.Duration(time.Now().UnixNano()-s.lastSoftBreak.Load()); wait > 0 {
			time.Sleep(wait)
		}
	}
	s.handleMu.RLock()
	defer s.handleMu.RUnlock()
	if s.freed {
		return ErrSessionClosed
	}
	if !hard {
		s.lastSoftBreak.Store(time.Now().UnixNano())
	}
	if e := s.api.breakCall(s.h, hard); e != nil {
		return e
	}
	return nil
}

// Close logs the session out. A running call is ended first by the escalation (soft break,
// hard break, stop); if ctx ends before that call does, Close returns and the logout happens
// when the call ends. Close is idempotent and safe after the gem died.
func (s *Session) Close(ctx context.Context) error {
	s.closing.Store(true)
	s.wake.poke()
	select {
	case s.slot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("gemstone: close: a call is still ending: %w", ctx.Err())
	}
	defer func() { <-s.slot }()
	return s.finish()
}

// Logout is Close.
func (s *Session) Logout(ctx context.Context) error { return s.Close(ctx) }

// finish logs out once, under the call slot.
func (s *Session) finish() error {
	s.closeOnce.Do(func() {
		s.handleMu.Lock()
		h, freed := s.h, s.freed
		s.freed = true
		s.handleMu.Unlock()
		if !freed {
			if e := s.api.logout(h); e != nil && s.deadErr == nil {
				s.closeErr = e
			}
		}
		if s.waiter != nil {
			s.waiter.close()
		}
		s.wake.close()
	})
	return s.closeErr
}

// waker interrupts a waiting call from another goroutine: its pipe is among what the call
// waits on (the netpoller's epoll descriptor, or poll(2) where epoll is missing). The pipe is
// closed under the same lock that guards a poke, so a late poke never writes to a reused
// descriptor.
type waker struct {
	mu     sync.Mutex
	pipe   wakePipe
	closed bool
	// poked is set before each poke's write, so a call's start reads the pipe (a syscall)
	// only when something may be in it.
	poked atomic.Bool
}

func newWaker() (*waker, error) {
	p, err := newWakePipe()
	if err != nil {
		return nil, err
	}
	return &waker{pipe: p}, nil
}

func (w *waker) poke() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.poked.Store(true)
		w.pipe.poke()
	}
}

// readFd and drain are used only by the goroutine that waits, before close.
func (w *waker) readFd() int { return w.pipe.r }
func (w *waker) drain() {
	w.poked.Store(false)
	w.pipe.drain()
}

// staleFd answers the read end when a poke may be waiting in it (for the start of a call to
// drain), or -1. A poke whose flag it takes before the poke's byte lands is not lost: the
// byte wakes the call's first wait, which drains the pipe (mcp_await) whatever the flag says.
func (w *waker) staleFd() int {
	if w.poked.Swap(false) {
		return w.pipe.r
	}
	return -1
}

func (w *waker) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		w.pipe.close()
	}
}

// acquire takes the call slot without waiting and checks the session can still be used.
func (s *Session) acquire(ctx context.Context) (handle, func(), error) {
	if s.closing.Load() {
		return nil, nil, ErrSessionClosed
	}
	select {
	case s.slot <- struct{}{}:
	default:
		return nil, nil, ErrCallInProgress
	}
	release := func() {
		if s.closing.Load() {
			s.finish()
		}
		<-s.slot
	}
	switch {
	case s.closing.Load() || s.freedNow():
		release()
		if s.deadErr != nil {
			return nil, nil, s.deadErr.asDead()
		}
		return nil, nil, ErrSessionClosed
	case s.deadErr != nil:
		release()
		return nil, nil, s.deadErr.asDead()
	}
	if err := ctx.Err(); err != nil {
		release()
		return nil, nil, fmt.Errorf("gemstone: call not started: %w", err)
	}
	return s.h, release, nil
}

func (s *Session) freedNow() bool {
	s.handleMu.RLock()
	defer s.handleMu.RUnlock()
	return s.freed
}

// asDead is the error a call on an already dead session gets: the fatal error, without the
// ending of the call it came from.
func (e *Error) asDead() *Error {
	c := *e
	c.Ending, c.cause = NotEnded, nil
	return &c
}
