package gemstone

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// MinBreakGap is the least time between a soft and a hard break on one session: a soft
// break followed at once by a hard one has crashed the client library.
const MinBreakGap = 300 * time.Millisecond

// fetchPage is how many bytes one GciTsFetchBytes asks for; a single very large fetch has
// been seen to truncate, so results come in pages.
const fetchPage = 256 << 10

// stopHookTimeout bounds the escalation's last step (a call on the control session).
const stopHookTimeout = 10 * time.Second

// abandonedLoginLimit bounds how long a cancelled login is waited for in the background
// before its session is logged out.
const abandonedLoginLimit = 5 * time.Minute

// PasswordKind says how LoginParams.Password is presented to the stone.
type PasswordKind int

const (
	// PasswordPlain is an ordinary GemStone password.
	PasswordPlain PasswordKind = iota
	// PasswordOneTime is a one-time password (GCI_LOGIN_ONETIME_PASSWORD, 3.7.0+).
	PasswordOneTime
	// PasswordJWT is a JSON web token the stone validates (GCI_LOGIN_JWT_PASSWORD, 3.7.5+).
	PasswordJWT
)

// LoginParams says where and as whom to log in. Password and HostPassword are secrets and
// the NRS strings name hosts: never log a LoginParams.
type LoginParams struct {
	// StoneNRS is the stone's NRS (StoneNRS builds one); empty means gs64stone.
	StoneNRS string
	// GemNRS is the gem's NRS (GemNRS builds one, with an optional -C gem configuration);
	// empty means the library default, !@localhost!gemnetobject.
	GemNRS       string
	User         string
	Password     string
	PasswordKind PasswordKind
	// HostUser, when set, is the OS account the NetLDI starts the gem as.
	HostUser     string
	HostPassword string
	// BreakGap is the time between the escalation's steps; less than MinBreakGap (or zero)
	// means MinBreakGap.
	BreakGap time.Duration
}

// Arg is one argument of Perform: a String or ByteArray the binding creates in the gem from
// bytes, or a SmallInteger.
type Arg struct {
	kind  argKind
	bytes []byte
	n     int64
}

type argKind int

const (
	argString argKind = iota
	argByteArray
	argSmallInteger
)

// String is an argument the gem receives as a String holding b verbatim (one byte per
// character; UTF-8 stays UTF-8 bytes).
func String(b []byte) Arg { return Arg{kind: argString, bytes: b} }

// ByteArray is an argument the gem receives as a ByteArray.
func ByteArray(b []byte) Arg { return Arg{kind: argByteArray, bytes: b} }

// SmallInteger is an argument the gem receives as a SmallInteger (-2^60 .. 2^60-1).
func SmallInteger(n int64) Arg { return Arg{kind: argSmallInteger, n: n} }

const (
	smallIntegerMin = -(1 << 60)
	smallIntegerMax = 1<<60 - 1
)

// Session is one logged-in GemStone session. It runs one call at a time: a call made while
// another runs fails at once with ErrCallInProgress. Break and Close may be called from any
// goroutine at any time.
//
// Every GCI call on the session happens on the goroutine that holds the call slot; only
// GciTsBreak comes from elsewhere. Polling a session from one thread while another is inside
// a call on it has crashed the library, which is why no background poller exists.
type Session struct {
	api  *gciAPI
	lib  *Library
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
	deadErr   *Error         // the fatal error that ended the session

	lastSoftBreak atomic.Int64 // unix nanoseconds
	stopHook      atomic.Pointer[func(context.Context) error]
	loginWarning  *Error
}

func login(ctx context.Context, lib *Library, p LoginParams) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gemstone: login: %w", err)
	}
	if p.GemNRS != "" {
		if err := checkGemNRS(p.GemNRS); err != nil {
			return nil, err
		}
	}
	flags := uint(loginQuiet)
	switch p.PasswordKind {
	case PasswordPlain:
	case PasswordOneTime:
		flags |= loginOneTimePassword
	case PasswordJWT:
		flags |= loginJWTPassword
	default:
		return nil, fmt.Errorf("gemstone: login: unknown password kind %d", p.PasswordKind)
	}
	wake, err := newWaker()
	if err != nil {
		return nil, err
	}
	api := lib.api
	strs := newLoginStrings(p)
	h, pollFd := api.nbLogin(strs, flags)
	if h == nil {
		strs.free()
		wake.close()
		return nil, &Error{Op: "GciTsNbLogin", Message: "the library did not start a login"}
	}
	stop := context.AfterFunc(ctx, wake.poke)
	warning, lerr := awaitLogin(ctx, api, h, pollFd, wake)
	stop()
	if errors.Is(lerr, errLoginAbandoned) {
		go finishAbandonedLogin(api, h, pollFd, strs)
		wake.close()
		return nil, fmt.Errorf("gemstone: login: %w", ctx.Err())
	}
	strs.free()
	if lerr != nil {
		wake.close()
		return nil, lerr
	}
	fd, ferr := api.socket(h)
	if ferr != nil {
		api.logout(h)
		wake.close()
		return nil, ferr
	}
	gap := p.BreakGap
	if gap < MinBreakGap {
		gap = MinBreakGap
	}
	s := &Session{
		api: api, lib: lib, gap: gap, slot: make(chan struct{}, 1),
		h: h, fd: fd, wake: wake, receivers: map[string]oop{}, loginWarning: warning,
	}
	return s, nil
}

var errLoginAbandoned = errors.New("login abandoned")

// awaitLogin waits for GciTsNbLogin to finish without blocking in the library: poll(2) on the
// login socket and the wake-up pipe, then GciTsNbLoginFinished.
func awaitLogin(ctx context.Context, api *gciAPI, h handle, pollFd int, wake *waker) (*Error, error) {
	readyButPending := false
	for {
		r, e := api.nbLoginFinished(h)
		switch {
		case r > 0:
			return e, nil // e, if any, is a warning: the login succeeded
		case r < 0:
			return nil, e
		}
		if ctx.Err() != nil {
			return nil, errLoginAbandoned
		}
		// Re-check at least every second: the descriptor belongs to the library, which may
		// close it once the login is done.
		timeout := 1000
		if pollFd < 0 || readyButPending {
			// No socket to watch, or it turned readable before the login finished.
			timeout = 10
		}
		fd := pollFd
		if fd < 0 {
			fd = wake.readFd()
		}
		ready, woken, err := waitReadable(fd, wake.readFd(), timeout)
		if err != nil {
			return nil, err
		}
		if woken {
			wake.drain()
		}
		readyButPending = ready && pollFd >= 0
	}
}

// finishAbandonedLogin waits for a login whose caller gave up, then logs it out, so the gem
// does not outlive the request that started it.
func finishAbandonedLogin(api *gciAPI, h handle, pollFd int, strs *loginStrings) {
	defer strs.free()
	deadline := time.Now().Add(abandonedLoginLimit)
	for time.Now().Before(deadline) {
		r, _ := api.nbLoginFinished(h)
		if r > 0 {
			api.logout(h)
			return
		}
		if r < 0 {
			return
		}
		if pollFd >= 0 {
			waitReadable(pollFd, -1, 100)
		} else {
			time.Sleep(100 * time.Millisecond)
		}
	}
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

// Perform sends selector to the object named receiverName in the user's symbol list (a class,
// usually) with args, and answers the result's bytes. The result must be a byte object
// (String, Utf8, ByteArray, Symbol); nil answers nil; a SmallInteger, Boolean or Character
// answers its printed form.
func (s *Session) Perform(ctx context.Context, receiverName, selector string, args ...Arg) ([]byte, error) {
	for _, a := range args {
		if a.kind == argSmallInteger && (a.n < smallIntegerMin || a.n > smallIntegerMax) {
			return nil, fmt.Errorf("gemstone: perform %s: %d is outside the SmallInteger range", selector, a.n)
		}
	}
	return s.run(ctx, func(h handle) ([]oop, *Error) {
		receiver, err := s.receiver(h, receiverName)
		if err != nil {
			return nil, err
		}
		oops := make([]oop, len(args))
		var created []oop
		for i, a := range args {
			var o oop
			var e *Error
			switch a.kind {
			case argString:
				o, e = s.api.newString(h, a.bytes)
			case argByteArray:
				o, e = s.api.newByteArray(h, a.bytes)
			case argSmallInteger:
				o = uint64(a.n)<<3 | 2
			}
			if e != nil {
				return created, e
			}
			if a.kind != argSmallInteger {
				created = append(created, o)
			}
			oops[i] = o
		}
		return created, s.api.nbPerform(h, receiver, selector, oops)
	})
}

// Execute compiles and runs source (ASCII Smalltalk; self is nil) and answers the result as
// Perform does.
func (s *Session) Execute(ctx context.Context, source string) ([]byte, error) {
	if strings.IndexByte(source, 0) >= 0 {
		return nil, fmt.Errorf("gemstone: execute: the source holds a NUL byte")
	}
	return s.run(ctx, func(h handle) ([]oop, *Error) {
		return nil, s.api.nbExecute(h, source)
	})
}

// Abort discards the session's uncommitted state (GciTsAbort), e.g. the spurious changes a
// fresh login carries.
func (s *Session) Abort(ctx context.Context) error {
	h, release, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	if e := s.api.abort(h); e != nil {
		return s.noteFailure(e)
	}
	return nil
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
		s.wake.close()
	})
	return s.closeErr
}

// waker interrupts a wait in poll(2) from another goroutine. Its pipe is closed under the
// same lock that guards a poke, so a late poke never writes to a reused descriptor.
type waker struct {
	mu     sync.Mutex
	pipe   wakePipe
	closed bool
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
		w.pipe.poke()
	}
}

// readFd and drain are used only by the goroutine that waits, before close.
func (w *waker) readFd() int { return w.pipe.r }
func (w *waker) drain()      { w.pipe.drain() }

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

// run performs one non-blocking call: start creates its arguments and starts it, answering
// the objects it created (released when the call is over).
func (s *Session) run(ctx context.Context, start func(h handle) ([]oop, *Error)) ([]byte, error) {
	h, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()

	s.wake.drain()
	stopWatch := context.AfterFunc(ctx, s.wake.poke)
	defer stopWatch()

	created, e := start(h)
	if e != nil {
		s.release(h, created)
		return nil, s.noteFailure(e)
	}
	result, e := s.await(ctx, h)
	if e != nil {
		if !e.isFatal() {
			s.release(h, created)
		}
		return nil, s.noteFailure(e)
	}
	bytes, e := s.fetch(h, result)
	if !isSpecial(result) {
		created = append(created, result)
	}
	s.release(h, created)
	if e != nil {
		return nil, s.noteFailure(e)
	}
	return bytes, nil
}

// await waits for the running call's result, escalating when ctx ends or Close is called:
// soft break; after the gap, hard break; after another gap, the stop hook (or NbLogout).
func (s *Session) await(ctx context.Context, h handle) (oop, *Error) {
	step := NotEnded
	var next time.Time
	for {
		cancelled := ctx.Err() != nil || s.closing.Load()
		timeout := -1
		switch {
		case step != NotEnded:
			timeout = max(0, int((time.Until(next)+time.Millisecond-1)/time.Millisecond))
		case cancelled:
			timeout = 0
		}
		ready, woken, err := waitReadable(s.fd, s.wake.readFd(), timeout)
		if err != nil {
			return oopIllegal, s.ended(ctx, sessionGoneError("poll", err.Error()), step)
		}
		if woken {
			s.wake.drain()
		}
		if ready {
			r, e := s.api.nbPoll(h, 0)
			if r == 0 {
				// Readable but not finished (keep-alive traffic): let the library read it.
				r, e = s.api.nbPoll(h, 5)
			}
			switch {
			case r > 0:
				res, e := s.api.nbResult(h)
				if e != nil {
					return oopIllegal, s.ended(ctx, e, step)
				}
				return res, nil
			case r < 0:
				return oopIllegal, s.ended(ctx, e, step)
			}
		}
		now := time.Now()
		switch {
		case step == NotEnded && cancelled:
			s.Break(false)
			step, next = EndedBySoftBreak, now.Add(s.gap)
		case step == EndedBySoftBreak && !now.Before(next):
			s.Break(true)
			step, next = EndedByHardBreak, time.Now().Add(s.gap)
		case step == EndedByHardBreak && !now.Before(next):
			step, next = EndedByStop, now.Add(s.gap)
			if !s.runStopHook(ctx) {
				return oopIllegal, s.ended(ctx, s.logoutNow("the call ignored both breaks"), step)
			}
		case step == EndedByStop && !now.Before(next):
			return oopIllegal, s.ended(ctx, s.logoutNow("the stop did not end the call"), step)
		}
	}
}

// runStopHook stops the session from elsewhere; false means there is no hook or it failed.
func (s *Session) runStopHook(ctx context.Context) bool {
	hook := s.stopHook.Load()
	if hook == nil {
		return false
	}
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopHookTimeout)
	defer cancel()
	return (*hook)(hctx) == nil
}

// logoutNow ends the session without waiting for the gem (GciTsNbLogout); the handle is
// gone afterwards.
func (s *Session) logoutNow(why string) *Error {
	s.handleMu.Lock()
	h, freed := s.h, s.freed
	s.freed = true
	s.handleMu.Unlock()
	if !freed {
		s.api.nbLogout(h)
	}
	return sessionGoneError("stop", "stopped by the binding: "+why)
}

// ended marks an error with the escalation step that ended the call.
func (s *Session) ended(ctx context.Context, e *Error, step Ending) *Error {
	if step == NotEnded {
		return e
	}
	e.Ending = step
	switch {
	case ctx.Err() != nil:
		e.cause = ctx.Err()
	case s.closing.Load():
		e.cause = ErrSessionClosed
	}
	return e
}

// noteFailure records a fatal error (the session is dead from now on) or cleans up after an
// ordinary one: the suspended process is cleared and the error's objects are released, so
// the next call starts clean.
func (s *Session) noteFailure(e *Error) error {
	if e.isFatal() {
		if s.deadErr == nil {
			s.deadErr = e
		}
		return e
	}
	if s.freedNow() {
		return e
	}
	if e.context != 0 && e.context != oopNil && e.context != oopIllegal {
		if ce := s.api.clearStack(s.h, e.context); ce != nil && ce.isFatal() && s.deadErr == nil {
			s.deadErr = ce
		}
	}
	s.release(s.h, e.exported)
	e.exported = nil
	return e
}

// release drops objects from the gem's export set so the gem may collect them.
func (s *Session) release(h handle, oops []oop) {
	if len(oops) == 0 {
		return
	}
	if e := s.api.releaseObjs(h, oops); e != nil && e.isFatal() && s.deadErr == nil {
		s.deadErr = e
	}
}

// receiver resolves a name in the user's symbol list through GciTsNewString +
// GciTsResolveSymbolObj (GciTsResolveSymbol leaks in the gem). The answer is cached until
// logout: a global's object cannot be collected while the symbol list holds it.
func (s *Session) receiver(h handle, name string) (oop, *Error) {
	if o, ok := s.receivers[name]; ok {
		return o, nil
	}
	str, e := s.api.newString(h, []byte(name))
	if e != nil {
		return oopIllegal, e
	}
	o, e := s.api.resolveSymbolObj(h, str)
	s.release(h, []oop{str})
	if e != nil {
		return oopIllegal, e
	}
	if o == oopIllegal {
		return oopIllegal, &Error{Op: "GciTsResolveSymbolObj", Message: fmt.Sprintf("%q is not defined in the user's symbol list", name)}
	}
	s.receivers[name] = o
	return o, nil
}

// fetch answers the bytes of a result object, in pages.
func (s *Session) fetch(h handle, o oop) ([]byte, *Error) {
	if isSpecial(o) {
		return specialBytes(o)
	}
	n, e := s.api.fetchSize(h, o)
	if e != nil {
		return nil, e
	}
	buf := make([]byte, n)
	var off int64
	for off < n {
		page := min(n-off, fetchPage)
		got, e := s.api.fetchBytes(h, o, off+1, buf[off:off+page])
		if e != nil {
			return nil, e
		}
		if got == 0 {
			break
		}
		off += got
	}
	return buf[:off], nil
}

// isSpecial reports whether an OOP encodes its value (SmallInteger, Character, Boolean, nil,
// SmallDouble) rather than naming an object.
func isSpecial(o oop) bool { return o&7 != 0 && o&1 == 0 }

func specialBytes(o oop) ([]byte, *Error) {
	switch {
	case o == oopNil:
		return nil, nil
	case o == oopTrue:
		return []byte("true"), nil
	case o == oopFalse:
		return []byte("false"), nil
	case o&7 == 2:
		return []byte(strconv.FormatInt(int64(o)>>3, 10)), nil
	case o&0xFF == 0x1C && o>>8 <= utf8.MaxRune:
		return utf8.AppendRune(nil, rune(o>>8)), nil
	}
	return nil, &Error{Op: "fetch", Message: fmt.Sprintf("the result is a special object (0x%x) with no byte form", o)}
}
