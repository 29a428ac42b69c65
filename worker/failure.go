package worker

import (
	"context"
	"errors"
	"fmt"
)

// FailureKind names what went wrong, as far as the router needs to tell failures apart.
type FailureKind int

const (
	// Other is any failure the router does not tell apart: an ordinary GemStone error in the
	// worker's code, a malformed answer. The gem lives on unless Fatal says otherwise.
	Other FailureKind = iota
	// GemGone is a gem that died, was stopped, or whose session is closed.
	GemGone
	// LoginRefused is a login the stone did not accept (bad user, password or token).
	LoginRefused
	// CallBroken is a call ended by a soft or hard break.
	CallBroken
	// CallInProgress is a call made while another one ran on the same gem.
	CallInProgress
	// TimedOut is a login or call whose context deadline passed before GemStone answered.
	TimedOut
	// LibraryMissing is a GemStone client library that could not be loaded.
	LibraryMissing
	// UserNotProvisioned is a restricted worker user the stone would not log in: a one-time
	// password it refused to mint, or refused at the login (docs/read-only-user.md).
	UserNotProvisioned
	// PrepareRefused is the worker's refusal of its prepare config; Failure.Refusal holds the
	// worker's own kind of refusal.
	PrepareRefused
)

// Ending names the escalation step (soft break, hard break, stop) that ended a call, as the
// router's metrics label it; the zero value is none.
type Ending string

const (
	NotEnded         Ending = ""
	EndedBySoftBreak Ending = "softBreak"
	EndedByHardBreak Ending = "hardBreak"
	EndedByStop      Ending = "stop"
)

// Words say the step as a client reads it in data.ending, "" for none.
func (e Ending) Words() string {
	step := map[Ending]string{EndedBySoftBreak: "soft break", EndedByHardBreak: "hard break", EndedByStop: "stopping the session"}[e]
	if step == "" {
		return ""
	}
	return "ended by " + step
}

// Failure is the error a Launcher or a Gem reports: everything the router decides from,
// with the implementation's own error kept in Err for the server's log.
type Failure struct {
	Kind FailureKind
	// Number is the GemStone error number, 0 when the failure did not come from GemStone.
	Number int
	// Fatal says the gem is gone: the router ends its session.
	Fatal bool
	// Ending is the escalation step that ended the call, if one did.
	Ending Ending
	// Safe describes the failure for a client: never an NRS, host, user, password or path.
	Safe string
	// Refusal is the worker's kind of a PrepareRefused (e.g. toolsetNotFound), for data.kind.
	Refusal string
	// Err is the full error, which may name hosts, users and paths: the server's log only.
	Err error
}

func (f *Failure) Error() string {
	if f.Err != nil {
		return f.Err.Error()
	}
	return f.Safe
}

func (f *Failure) Unwrap() error { return f.Err }

// unknownSafe is what a client reads of an error no worker described.
const unknownSafe = "GemStone unavailable"

// FailureOf reads err as the router does: the *Failure it is or wraps; any other error is a
// failure of kind Other that leaves the gem alive (TimedOut when a context deadline ended it),
// described to a client in words that tell nothing of it.
func FailureOf(err error) Failure {
	var f *Failure
	if errors.As(err, &f) {
		return *f
	}
	out := Failure{Kind: Other, Safe: unknownSafe, Err: err}
	if errors.Is(err, context.DeadlineExceeded) {
		out.Kind = TimedOut
	}
	return out
}

// Refused is a worker's refusal of its prepare config ({"ok":false,"error":{kind,message}});
// the contract makes its kind and message safe to show a client.
func Refused(kind, message string) *Failure {
	return &Failure{Kind: PrepareRefused, Refusal: kind,
		Safe: "the worker refused its configuration: " + message,
		Err:  fmt.Errorf("the worker refused the prepare config (%s): %s", kind, message)}
}
