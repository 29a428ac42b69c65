package router

// The seams of Options: every interface a plug-in implements (router/auth, router/channel,
// router/metrics) or the router calls out through. Their defaults (SessionStream,
// JSONResponses, NopObserver) sit beside the code that uses them.

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Identity is the network-facing mode's view of who is asking (router/auth implements it
// as auth.Identity). With it, a session belongs to the principal whose token opened it, and
// its gem logs in as that principal; without it (the local mode) every gem logs in as
// Options.Login and a session id is all a client needs.
type Identity interface {
	// WorkerLogin is the login for a new gem on behalf of the request's principal, from the
	// configured base (stone and gem NRS).
	WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error)
	// Owner is the request's principal: a new session belongs to it, and only a request of
	// the same principal may use that session again (another's is answered exactly as an
	// unknown session id, 404, so a leaked id tells its holder nothing). An error means no
	// verified principal.
	Owner(ctx context.Context) (session.Owner, error)
	// LoginRefusedHint is what the client is told when the stone refuses the principal's
	// login: what to provision. It must name no user id.
	LoginRefusedHint(ctx context.Context) string
}

// SessionPart is what a plug-in keeps on a session it helped prepare (the channel's
// endpoint): Join gives it the session once the login has succeeded, after which the session
// holds it and closes it when it ends; if the login fails, the router closes it instead.
type SessionPart interface {
	session.Part
	Join(*session.Session)
}

// StreamOpener serves the standalone server-to-client stream (GET /mcp) of a live session,
// after the router's gates have passed it. It returns when the stream is over. r's context
// ends when the client leaves or the server begins to shut down; sess.Done() closes when the
// session ends. SessionStream is the default; the worker-to-router channel wraps it to resume
// a POST stream cut mid-call.
type StreamOpener interface {
	ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session)
}

// ResponseMode decides how the answer to one POSTed request is written. JSONResponses writes
// one application/json body, which is all a worker without a channel can produce: it speaks
// only when its call returns. The worker-to-router channel (router/channel, docs/channel.md)
// plugs in a mode that answers JSON until the worker speaks during the call (progress, log,
// elicitation) and then turns the answer into a text/event-stream; the router itself does not
// know which mode it is given.
type ResponseMode interface {
	// Begin starts the answer to request m on session sess. It is called before the call
	// queues; the session's InFlight says when it runs (one call at a time per session, so a
	// worker's mid-call message belongs to InFlight's call).
	Begin(w http.ResponseWriter, r *http.Request, sess *session.Session, m jsonrpc.Message) Answer
}

// Answer is the answer to one POSTed request in the making.
type Answer interface {
	// Message writes a message produced while the request runs, before its final answer.
	// A mode that cannot (JSON) answers ErrNoStream; the caller then uses the session's
	// standalone stream.
	Message(msg []byte) error
	// Final writes the request's response and ends the answer. header holds extra headers
	// (MCP-Session-Id on initialize).
	Final(status int, header http.Header, body []byte)
}

// Grants lets a request's token choose which toolsets of the surface its session is offered
// (the network-facing mode's MCP_SCOPE_TOOLSETS; router/auth implements it). The router
// reads no tool: the worker says a tool lies outside the grant (worker.NotGrantedKind, naming
// the toolset), and Grants says which scope to ask for.
type Grants interface {
	// Granted is the list of toolsets the request's token may see, never nil.
	Granted(ctx context.Context) []string
	// StepUp is the WWW-Authenticate challenge of the 403 for a call into toolset, and the
	// scopes it asks for; ok is false when no scope grants toolset.
	StepUp(ctx context.Context, toolset string) (challenge string, scopes []string, ok bool)
}

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

// CallSink receives what a worker sends during one call through the worker-to-router channel,
// when the call's answer is not an HTTP response stream (the stateless revision's calls).
type CallSink interface {
	// Message gets a notification, or a request to the client renumbered srv-N (its answer
	// goes to the session's pending table). It may block while the call's client catches up
	// with what it was already sent (backpressure, as a session's stream write blocks), never
	// longer than that client stays attached.
	Message(msg []byte) error
	// CloseStream is the worker asking to close the response stream; a sink may refuse.
	CloseStream() error
}

// SinkBinder is implemented by a ResponseMode that can send a call's mid-call messages to a
// CallSink (router/channel's Mode). Without it a stateless call's worker cannot speak.
type SinkBinder interface {
	BindSink(sess *session.Session, id json.RawMessage, sink CallSink) (unbind func())
}

// TokenDeadline is implemented by an Identity that knows until when the request's token is
// good (auth.Identity): a subscriptions/listen stream ends then, as a GET stream does.
type TokenDeadline interface {
	TokenDeadline(ctx context.Context) (time.Time, bool)
}
