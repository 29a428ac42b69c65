package gemstone

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// fetchPage is how many bytes one GciTsFetchBytes asks for; a single very large fetch has
// been seen to truncate, so results come in pages.
const fetchPage = 256 << 10

// scratchBytes is the size of the buffer a waiting call's result is fetched into, in the same
// crossing as the wait; a larger result is fetched in pages into a buffer of its own size.
const scratchBytes = 64 << 10

// maxResultBytes bounds one result, so that a wrong size cannot make the server allocate
// without limit.
const maxResultBytes = 1 << 30

// stopHookTimeout bounds the escalation's last step (a call on the control session).
const stopHookTimeout = 10 * time.Second

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
		if len(args) == 0 || (len(args) == 1 && args[0].kind != argSmallInteger) {
			// The common shape (the contract's entries): argument and perform in one crossing.
			kind, arg := 0, []byte(nil)
			if len(args) == 1 {
				kind, arg = 1, args[0].bytes
				if args[0].kind == argByteArray {
					kind = 2
				}
			}
			created, e := s.api.startPerform(h, s.wake.staleFd(), receiver, selector, kind, arg)
			if created == oopIllegal {
				return nil, e
			}
			s.created[0] = created
			return s.created[:1], e
		}
		s.wake.drain()
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
		s.wake.drain()
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

// run performs one non-blocking call: start creates its arguments and starts it, answering
// the objects it created (released when the call is over).
func (s *Session) run(ctx context.Context, start func(h handle) ([]oop, *Error)) ([]byte, error) {
	h, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()

	// A poke after this point wakes the wait below; one from an earlier call is drained by
	// the start (or, for the general path, here).
	stopWatch := context.AfterFunc(ctx, s.wake.poke)
	defer stopWatch()

	created, e := start(h)
	if e != nil {
		s.release(h, created)
		return nil, s.noteFailure(e)
	}
	r, e := s.await(ctx, h, created)
	if e != nil {
		if !e.isFatal() {
			s.release(h, created)
		}
		return nil, s.noteFailure(e)
	}
	bytes, fetchErr := r.bytes, r.fetchErr
	if !r.fetched && fetchErr == nil {
		bytes, fetchErr = s.fetch(h, r.result)
	}
	if !r.released {
		if !isSpecial(r.result) {
			created = append(created, r.result)
		}
		s.release(h, created)
	} else if r.relErr != nil && r.relErr.isFatal() && s.deadErr == nil {
		s.deadErr = r.relErr
	}
	if fetchErr != nil {
		return nil, s.noteFailure(fetchErr)
	}
	return bytes, nil
}

// await waits for the running call's result, escalating when ctx ends or Close is called:
// soft break; after the gap, hard break; after another gap, the stop hook (or NbLogout).
// The wait, the poll and (when the call is over) the result, its bytes and the release of
// created and the result happen in one crossing into C per wake-up (gci.go, mcp_await).
func (s *Session) await(ctx context.Context, h handle, created []oop) (awaitResult, *Error) {
	step := NotEnded
	var next time.Time
	buf := s.api.scratchBuf()
	s.scratch = *buf
	defer func() {
		s.scratch = nil
		s.api.scratch.Put(buf)
	}()
	for {
		cancelled := ctx.Err() != nil || s.closing.Load()
		timeout := -1
		switch {
		case step != NotEnded:
			timeout = max(0, int((time.Until(next)+time.Millisecond-1)/time.Millisecond))
		case cancelled:
			timeout = 0
		}
		r, err := s.awaitStep(h, timeout, created)
		if err != nil {
			return r, s.ended(ctx, sessionGoneError("poll", err.Error()), step)
		}
		if r.finished {
			if r.callErr != nil {
				return r, s.ended(ctx, r.callErr, step)
			}
			return r, nil
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
				return r, s.ended(ctx, s.logoutNow("the call ignored both breaks"), step)
			}
		case step == EndedByStop && !now.Before(next):
			return r, s.ended(ctx, s.logoutNow("the stop did not end the call"), step)
		}
	}
}

// awaitStep is one wait of await: parked in the netpoller where there is one (netwait.go),
// else in poll(2) inside C. Either way the GCI calls run on this goroutine, under the slot.
func (s *Session) awaitStep(h handle, timeout int, created []oop) (awaitResult, error) {
	if s.waiter == nil && !s.noWaiter {
		s.waiter = newNetWaiter(s.fd, s.wake.readFd())
		s.noWaiter = s.waiter == nil
	}
	if s.waiter == nil || timeout == 0 {
		return s.api.awaitStep(h, s.fd, s.wake.readFd(), timeout, s.scratch, created)
	}
	var r awaitResult
	var err error
	werr := s.waiter.wait(timeout, func() bool {
		r, err = s.api.awaitStep(h, s.fd, s.wake.readFd(), 0, s.scratch, created)
		return err != nil || r.finished || r.fdReady || r.woken
	})
	if err == nil && werr != nil {
		err = werr
	}
	return r, err
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
	if n > maxResultBytes {
		return nil, &Error{Op: "GciTsFetchSize", Message: fmt.Sprintf("the result holds %d bytes, more than the binding fetches (%d)", n, int64(maxResultBytes))}
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
