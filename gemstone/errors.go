package gemstone

import (
	"errors"
	"fmt"
	"strings"
)

// Error numbers and categories the binding classifies on (gcierr.ht, gcioop.ht).
const (
	// KernelErrorCategory is OOP_GEMSTONE_ERROR_CAT, the category of every kernel error.
	KernelErrorCategory uint64 = 231169

	ErrNumSoftBreak       = 6003 // RT_ERR_SOFT_BREAK
	ErrNumHardBreak       = 6004 // RT_ERR_HARD_BREAK
	ErrNumBadSessionID    = 4100 // GCI_ERR_BAD_SESSION_ID: invalid or vanished session
	ErrNumNetError        = 4137 // NET_ERROR: the gem's connection broke
	ErrNumLoginDenied     = 4051 // bad user, password or token, or an expired password
	ErrNumLoginRefused    = 4136 // the stone refused the login
	ErrNumOpInProgress    = 2203 // GCI_ERR_OP_IN_PROGRESS
	fatalBandLow          = 4001
	fatalBandHigh         = 4999
	noSessionErrorMessage = "the session is no longer valid"
)

// Ending says which step of the cancellation escalation ended a call.
type Ending int

const (
	// NotEnded: the call was not ended by the escalation (it finished, failed on its own,
	// or was broken by an explicit Break).
	NotEnded Ending = iota
	// EndedBySoftBreak: the call stopped at the soft break (GemStone error 6003).
	EndedBySoftBreak
	// EndedByHardBreak: the call ignored the soft break and stopped at the hard break.
	EndedByHardBreak
	// EndedByStop: the call ignored both breaks; the session was stopped and is gone.
	EndedByStop
)

func (e Ending) String() string {
	switch e {
	case EndedBySoftBreak:
		return "ended by soft break"
	case EndedByHardBreak:
		return "ended by hard break"
	case EndedByStop:
		return "ended by stopping the session"
	default:
		return "not ended by cancellation"
	}
}

// Error is a GemStone error as the GCI reported it (GciErrSType), or one the binding made
// for a session that can no longer answer.
//
// Message and Reason may embed the gem's NRS, host and user names (fatal errors do): they
// belong in the server's log only. Give a client ClientSafe().
type Error struct {
	Number   int
	Category uint64
	Fatal    bool
	ArgCount int
	Message  string
	Reason   string
	// Ending says which cancellation step ended the call, if any.
	Ending Ending
	// Op names the binding operation that failed (e.g. "GciTsNbPerform"), for logs.
	Op string

	cause    error // the context's error when cancellation ended the call
	context  oop   // the suspended GsProcess, if any, for GciTsClearStack
	exported []oop // error objects the gem exported (context, exception, arguments)
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("gemstone: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "error %d (%s)", e.Number, e.kind())
	if msg := strings.TrimSpace(e.Message); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if r := strings.TrimSpace(e.Reason); r != "" && r != strings.TrimSpace(e.Message) {
		b.WriteString(" [")
		b.WriteString(r)
		b.WriteString("]")
	}
	if e.Ending != NotEnded {
		b.WriteString("; ")
		b.WriteString(e.Ending.String())
	}
	return b.String()
}

// Unwrap gives the context error when cancellation ended the call, so
// errors.Is(err, context.Canceled) holds.
func (e *Error) Unwrap() error { return e.cause }

// ClientSafe is the only form of the error a client may see: its number and kind, never the
// message (which can carry an NRS, host name, user name or path).
func (e *Error) ClientSafe() string {
	if e.Number == 0 {
		return "GemStone call failed (binding)"
	}
	return fmt.Sprintf("GemStone error %d (%s)", e.Number, e.kind())
}

func (e *Error) isFatal() bool {
	if e.Fatal || e.Number == ErrNumBadSessionID {
		return true
	}
	return e.Category == KernelErrorCategory && e.Number >= fatalBandLow && e.Number <= fatalBandHigh
}

func (e *Error) kind() string {
	switch {
	case e.Number == 0:
		return "binding"
	case e.Number == ErrNumSoftBreak:
		return "soft break"
	case e.Number == ErrNumHardBreak:
		return "hard break"
	case e.Number == ErrNumLoginDenied || e.Number == ErrNumLoginRefused:
		return "login denied"
	case e.isFatal():
		return "session gone"
	case e.Number >= 1001 && e.Number <= 1999:
		return "compile error"
	case e.Number >= 2000 && e.Number <= 2999:
		return "runtime error"
	case e.Number >= 3000 && e.Number <= 3999:
		return "aborting error"
	case e.Number >= 5000 && e.Number <= 5999:
		return "internal error"
	case e.Number >= 6000 && e.Number <= 6999:
		return "event"
	default:
		return "error"
	}
}

// ErrCallInProgress is returned by a call made while another call runs on the same session.
// The binding never queues; the caller decides whether to wait.
var ErrCallInProgress = errors.New("gemstone: a call is already in progress on this session")

// ErrSessionClosed is returned by calls on a session after Close (or after the escalation
// stopped it). IsFatal reports it as fatal: the session will never answer again.
var ErrSessionClosed = errors.New("gemstone: the session is closed")

// IsFatal reports whether err means the session is gone: the fatal flag, the kernel's fatal
// band 4001-4999, an invalid session, or a closed one.
func IsFatal(err error) bool {
	if errors.Is(err, ErrSessionClosed) {
		return true
	}
	var e *Error
	return errors.As(err, &e) && e.isFatal()
}

// IsBreak reports whether err is a soft (6003) or hard (6004) break.
func IsBreak(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Number == ErrNumSoftBreak || e.Number == ErrNumHardBreak)
}

// IsLoginDenied reports whether a login failed because the stone did not accept the
// credentials (4051: bad user, password, token, or an expired password; 4136: refused).
func IsLoginDenied(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Number == ErrNumLoginDenied || e.Number == ErrNumLoginRefused)
}

// EndingOf says which cancellation step ended the call that returned err.
func EndingOf(err error) Ending {
	var e *Error
	if errors.As(err, &e) {
		return e.Ending
	}
	return NotEnded
}

// ClientSafe gives the client-safe summary of any error the binding returns: number and kind
// for a GemStone error, a fixed text otherwise. It never includes an NRS, host, user or path.
func ClientSafe(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.ClientSafe()
	case errors.Is(err, ErrCallInProgress):
		return "GemStone session busy"
	case errors.Is(err, ErrSessionClosed):
		return "GemStone session closed"
	default:
		return "GemStone unavailable"
	}
}

// sessionGoneError is what the binding reports when the library says a session is unusable
// without filling in an error (or after the binding itself stopped it).
func sessionGoneError(op, detail string) *Error {
	msg := noSessionErrorMessage
	if detail != "" {
		msg += " (" + detail + ")"
	}
	return &Error{Number: ErrNumBadSessionID, Category: KernelErrorCategory, Fatal: true, Op: op, Message: msg}
}
