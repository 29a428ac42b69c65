package lifetime

import "time"

// Clock is where the engine reads the time and schedules its work. Production uses
// SystemClock; tests drive a fake, so no test sleeps in place of an assertion.
type Clock interface {
	Now() time.Time
	// AfterFunc runs f on its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call that can be cancelled.
type Timer interface {
	// Stop cancels the call; it answers false if the call already ran or was stopped.
	Stop() bool
}

// SystemClock is the real clock.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
