package router

import (
	"errors"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

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
		outcome = errkind.DuplicateID
	case out.Stopped != nil:
		outcome = out.Stopped.Kind
	case f.Fatal:
		outcome = errkind.SessionGone
	case out.Err != nil:
		outcome = errkind.WorkerError
	}
	s.o.Observer.CallEnded(CallEvent{Method: m.Method, Outcome: outcome, Step: string(f.Ending), Took: took})
}
