package gemstone

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// netWaiter parks a waiting call in Go's netpoller instead of in poll(2) on an OS thread.
// It watches an epoll descriptor of its own that holds the GCI socket and the wake-up pipe
// (gci.go, mcp_epoll), so the socket itself is never made non-blocking, read or closed here.
// Waiting in poll(2) would hold an OS thread per waiting session and cost a thread hand-off
// per answer; a parked goroutine costs neither.
type netWaiter struct {
	f        *os.File
	rc       syscall.RawConn
	deadline bool // a read deadline is set on f
}

// newNetWaiter answers a waiter on fd and wakeFd, or nil where the platform has none (the
// caller then waits in poll(2)).
func newNetWaiter(fd, wakeFd int) *netWaiter {
	ep, err := newWaitFd(fd, wakeFd)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(ep), "gci-wait")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	return &netWaiter{f: f, rc: rc}
}

// wait runs check (a non-blocking look at the socket and the pipe, answering true when it
// saw something) and, while it sees nothing, parks until either may be readable or timeoutMs
// passes (-1: no limit). check runs first after the netpoller's state is reset, so an answer
// that arrived before the park is seen by check rather than lost.
func (w *netWaiter) wait(timeoutMs int, check func() bool) error {
	switch {
	case timeoutMs >= 0:
		if err := w.f.SetReadDeadline(time.Now().Add(time.Duration(timeoutMs) * time.Millisecond)); err != nil {
			return err
		}
		w.deadline = true
	case w.deadline:
		if err := w.f.SetReadDeadline(time.Time{}); err != nil {
			return err
		}
		w.deadline = false
	}
	err := w.rc.Read(func(uintptr) bool { return check() })
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil
	}
	return err
}

func (w *netWaiter) close() { w.f.Close() }
