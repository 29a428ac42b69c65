package router

import (
	"errors"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Observer follows what the front end does, for metrics. Its methods are called on the
// request's goroutine and must not block. Method names come from clients: an observer that
// labels by method must bucket the ones it does not know, or a client can grow its label set
// without bound.
type Observer interface {
	// CallEnded reports one message forwarded to a worker (a request or a notification).
	CallEnded(CallEvent)
	// LaunchFailed reports an initialize whose login or prepare failed, by data.kind.
	LaunchFailed(kind string)
	// SessionOpened and SessionEnded follow the session table; kind is the session.Reason's.
	SessionOpened()
	SessionEnded(kind string)
	// Reaped reports a session the lifetime policy ended, by its reason's kind.
	Reaped(kind string)
	// StreamOpened and StreamClosed follow the GET streams.
	StreamOpened()
	StreamClosed()
	// OutboxDropped reports a message dropped from a full stream outbox. It is called with
	// the stream's lock held and must not call back into the router.
	OutboxDropped()
}

// NopObserver hears nothing; embed it to observe only some events.
type NopObserver struct{}

func (NopObserver) CallEnded(CallEvent) {}
func (NopObserver) LaunchFailed(string) {}
func (NopObserver) SessionOpened()      {}
func (NopObserver) SessionEnded(string) {}
func (NopObserver) Reaped(string)       {}
func (NopObserver) StreamOpened()       {}
func (NopObserver) StreamClosed()       {}
func (NopObserver) OutboxDropped()      {}

// CallEvent is one finished call.
type CallEvent struct {
	Method string
	// Outcome is "ok", "workerError", "sessionGone", "duplicateId", or the kind of the Stop
	// that ended the call ("cancelled", "requestTimeout", "shuttingDown", "clientGone", or a
	// lifetime policy's own kind); a notification whose session ended before the worker had it
	// is "undelivered", which is no error.
	Outcome string
	// Step is the escalation step that ended the call: softBreak, hardBreak, stop ("" when none).
	Step string
	Took time.Duration
}

func (s *Server) observeCall(m jsonrpc.Message, out session.Outcome, took time.Duration) {
	var f worker.Failure
	if out.Err != nil && !errors.Is(out.Err, session.ErrDuplicateID) {
		f = worker.FailureOf(out.Err)
	}
	outcome := "ok"
	switch {
	case m.Kind == jsonrpc.Notification && (out.Stopped == session.ErrSessionEnded || out.Stopped == session.ErrShuttingDown):
		// Nobody waits for a notification, and its session ending first (a client that sends
		// notifications/initialized and DELETEs at once) is nobody's error.
		outcome = "undelivered"
	case errors.Is(out.Err, session.ErrDuplicateID):
		outcome = "duplicateId"
	case out.Stopped != nil:
		outcome = out.Stopped.Kind
	case f.Fatal:
		outcome = "sessionGone"
	case out.Err != nil:
		outcome = "workerError"
	}
	s.o.Observer.CallEnded(CallEvent{Method: m.Method, Outcome: outcome, Step: string(f.Ending), Took: took})
}
