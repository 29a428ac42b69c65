package router

import (
	"context"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/messagelog"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// SessionHeader and VersionHeader are the MCP transport's headers.
const (
	SessionHeader = "Mcp-Session-Id"
	VersionHeader = "Mcp-Protocol-Version"
)

// Defaults of Options' zero values. internal/config shows these same values as the defaults
// of its settings (MCP_MAX_BODY, MCP_READ_TIMEOUT, MCP_LOGIN_TIMEOUT, MCP_CLIENT_ANSWER_TIMEOUT,
// MCP_STATELESS_POOL, MCP_HANDLE_YIELD).
const (
	DefaultMaxBody        = 4 << 20
	DefaultReadTimeout    = 8 * time.Second
	DefaultLoginTimeout   = 60 * time.Second
	DefaultPendingTimeout = pending.DefaultTimeout
)

// Options configure a Server. Zero values take the defaults named on each field.
type Options struct {
	Launcher worker.Launcher
	Login    worker.LoginSpec
	// Prepare is the prepare config sent to each new gem; CacheName, ProtocolVersions and
	// FrontEnd.RouterID are filled in per session.
	Prepare worker.PrepareConfig
	// RouterID names this router in gem cache names and, when IDPrefix is set, in session ids.
	RouterID string
	// IDPrefixed puts RouterID and "-" in front of every session id, so a proxy can route on it.
	IDPrefixed bool
	// ProtocolVersions overrides SupportedProtocolVersions (tests).
	ProtocolVersions []string

	MaxSessions int // 0: no cap
	// StatelessPool is how many gems serve 2026-07-28 requests that carry no state (each one
	// slot of MaxSessions); 0: DefaultStatelessPool.
	StatelessPool int
	// HandleYield is how long, in the local mode, a gem opened by open_session must have been
	// idle before it gives its slot to a newcomer that finds the cap full; 0: DefaultHandleYield.
	HandleYield time.Duration
	// MaxSessionsPerSubject bounds the logins (MCP sessions and open_session gems) one token
	// subject may hold in the network-facing mode when it opens a session with open_session; 0:
	// half of MaxSessions, at least one.
	MaxSessionsPerSubject int
	// PoolDwell is how long, in the network-facing mode, a pool gem serves the principal it
	// logged in for before another principal's request may log it out for a gem of its own; 0:
	// DefaultPoolDwell.
	PoolDwell      time.Duration
	MaxBody        int64         // default DefaultMaxBody
	ReadTimeout    time.Duration // the whole request must arrive within it; default DefaultReadTimeout
	RequestTimeout time.Duration // 0: none
	LoginTimeout   time.Duration // default DefaultLoginTimeout
	CloseTimeout   time.Duration // how long End waits for a running call; default 10 s
	PendingTimeout time.Duration // server-sent requests; default DefaultPendingTimeout
	// PendingTimeouts overrides PendingTimeout per method (MCP_ELICITATION_TIMEOUT).
	PendingTimeouts map[string]time.Duration

	// AllowedOrigins are extra Origin hosts (or full origins) besides loopback.
	AllowedOrigins []string
	// AllowedHosts are extra Host header names besides loopback.
	AllowedHosts []string

	// Trace turns the message trace on; TraceLimit caps a traced body (0: no cap).
	Trace      bool
	TraceLimit int

	// Streams serves GET /mcp; the default holds the stream open with keepalives.
	Streams StreamOpener
	// Responses writes answers to POSTed requests; the default is application/json.
	Responses ResponseMode
	// PrepareSession, when set, adjusts each new session's prepare config before its login
	// (the worker-to-router channel's address and secret) and may answer a part for the
	// session to hold. An error refuses the initialize and gives the slot back.
	PrepareSession func(ctx context.Context, sessionID string, cfg *worker.PrepareConfig) (SessionPart, error)
	// Auth, when set, runs after the Origin gate and before the body is read.
	Auth func(http.Handler) http.Handler
	// Identity, when set, binds sessions to principals and logs gems in as them (the
	// network-facing mode); it needs Auth to have put a principal in the request context.
	Identity Identity
	// Grants, when set, lets each request's token choose the toolsets its session is offered
	// (prepare config's grant, then mcpGrant: when a later token grants otherwise) and turns
	// a call outside them into a 403 step-up challenge; it needs Auth, as Identity does.
	Grants Grants
	// Ready, when set, says whether new sessions can be served now (the client library is
	// loaded, the router's own login works); nil is an error naming what is missing, in words
	// a stranger may read. GET /readyz answers from it; nil Ready is always ready.
	Ready func(context.Context) error
	// Version is this build's version, shown by /readyz.
	Version string
	// Tracer, when set, makes one span per MCP message and hands its trace context to the
	// worker in params._meta (spans.go); nil: no tracing, and messages pass untouched.
	Tracer oteltrace.Tracer
	// Lifetime, when set, is the session-lifetime policy (docs/session-lifetime.md): the
	// router starts it on its sessions in New and stops it when shutdown begins.
	Lifetime *lifetime.Engine
	// Stream bounds each session's GET stream (outbox, replay, keepalive); zero values take
	// the defaults of router/internal/sse.
	Stream StreamOptions
	// Observer, when set, hears of calls, launches, sessions, reaps and streams (metrics).
	Observer Observer
	// Metrics, when set, is served at GET /metrics behind the Host and Origin gates (not
	// the others: it is not MCP); it carries no session id, user or argument.
	Metrics http.Handler
	// Public are documents served by exact path outside every gate, like /healthz: what a
	// client reads before it may ask anything else (the OAuth protected resource metadata
	// under /.well-known/). Each handler answers every method itself.
	Public map[string]http.Handler

	Log zerolog.Logger
}

// StreamOptions bound a session's GET stream: its outbox and replay limits, keepalive and
// write deadline (the stream itself is router/internal/sse, a part of the router).
type StreamOptions = sse.Options

// Server is the front end's state: the session table and the configuration of the gates.
type Server struct {
	o        Options
	versions []string
	table    *session.Table

	base       context.Context
	cancelBase context.CancelCauseFunc
	closing    context.Context // done once shutdown begins: streams end, no new sessions
	beginClose context.CancelFunc
	closeOnce  sync.Once

	// stateless serves the 2026-07-28 revision and holds its state (stateless.go).
	stateless *statelessServer

	// watches are the sessions whose gems are asked for resource updates (resources.go).
	watches sync.Map
	// borrowed are the calls an MCP session runs on a GemStone session it named by handle, so
	// the client's answers to their questions and its cancellations find them.
	borrowed borrowTable
}

// New builds a Server. Nothing listens until its Handler is served.
func New(o Options) *Server {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.LoginTimeout <= 0 {
		o.LoginTimeout = DefaultLoginTimeout
	}
	if o.Streams == nil {
		o.Streams = SessionStream{}
	}
	if o.Observer == nil {
		o.Observer = NopObserver{}
	}
	if o.Responses == nil {
		o.Responses = JSONResponses{}
	}
	versions := o.ProtocolVersions
	if len(versions) == 0 {
		versions = SupportedProtocolVersions
	}
	base, cancel := context.WithCancelCause(context.Background())
	closing, begin := context.WithCancel(context.Background())
	s := &Server{
		o: o, versions: versions,

		base:       base,
		cancelBase: cancel,
		closing:    closing,
		beginClose: begin,
		borrowed:   borrowTable{calls: map[*session.Session][]borrowedCall{}},
	}
	s.table = session.NewTable(o.MaxSessions, session.Hooks{Opened: s.opened, Ended: s.ended})
	s.stateless = newStatelessServer(s, o.StatelessPool)
	if o.Lifetime != nil {
		o.Lifetime.Start(lifetimeHost{s})
	}
	return s
}

// Sessions is the session table: what the lifetime policy walks and ends sessions through.
func (s *Server) Sessions() *session.Table { return s.table }

// ProtocolVersions is the list the header check and the worker's negotiation share.
func (s *Server) ProtocolVersions() []string { return append([]string(nil), s.versions...) }

// Handler is the whole HTTP surface, with the gates in the order they run.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	// /healthz and /readyz stay outside every gate: probes (nginx, orchestrators) reach them by
	// whatever name they use, and they say only up or down, ready or why not. /metrics goes
	// behind the Host and Origin gates, so a DNS-rebinding page cannot read the counters.
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	for path, h := range s.o.Public {
		r.Handle(path, h)
	}
	if s.o.Metrics != nil {
		r.With(gates(s.hostGate, s.originGate)).Method(http.MethodGet, "/metrics", s.o.Metrics)
	}
	// /mcp is one handler behind one run of gates, not a chi sub-router behind nested
	// middlewares: every open GET stream keeps this whole chain on its goroutine's stack. The
	// last gate, byVersion, decides the era once: the 2026-07-28 revision has no session to
	// look up.
	eras := s.byVersion(
		gates(s.sessionLookup)(s.traceMessages(http.HandlerFunc(s.serveStreamable))),
		gates(s.oneSessionHeader)(s.traceMessages(http.HandlerFunc(s.stateless.serve))),
		gates(s.sessionLookup)(s.traceMessages(http.HandlerFunc(s.postUnsupportedVersion))))
	var mcp http.Handler
	if s.o.Auth != nil {
		mcp = gates(s.hostGate, s.originGate)(s.o.Auth(gates(s.bodyLimit)(eras)))
	} else {
		mcp = gates(s.hostGate, s.originGate, s.bodyLimit)(eras)
	}
	r.Handle("/mcp", mcp)
	r.Handle("/mcp/", mcp)
	// chi answers a method it has never heard of (PROPFIND) at the top level, before routing.
	r.MethodNotAllowed(s.methodNotAllowed)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not found: the MCP endpoint is /mcp", http.StatusNotFound)
	})
	h := mcpFirst(r, mcp)
	if s.o.Trace {
		h = messagelog.Middleware(messagelog.Options{
			Limit: s.o.TraceLimit, MaxRead: s.o.MaxBody + 1, SessionHeader: SessionHeader,
			Log: s.o.Log.With().Str("component", "trace").Logger(),
		})(h)
	}
	// The body-read timer is armed before the trace reads ahead, so that read is bounded too.
	return s.recoverPanics(s.readTimeout(h))
}

// mcpFirst sends a POST, GET or DELETE on /mcp straight to the MCP endpoint, and everything
// else to chi, which routes them the same way. chi gives every request it routes a routing
// context (a copy of the request carrying a context value) that nothing behind /mcp reads, and
// /mcp is where every call comes (benchmark 5 in docs/performance.md measures that path). What
// chi might read otherwise (an escaped path, another method) still goes to chi.
func mcpFirst(r http.Handler, mcp http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.Method {
		case http.MethodPost, http.MethodGet, http.MethodDelete:
			if req.URL.RawPath == "" && (req.URL.Path == "/mcp" || req.URL.Path == "/mcp/") {
				mcp.ServeHTTP(w, req)
				return
			}
		}
		r.ServeHTTP(w, req)
	})
}

// serveStreamable dispatches the session era's /mcp by verb, once the gates have passed the
// request.
func (s *Server) serveStreamable(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		s.post(w, r)
	case http.MethodGet:
		s.get(w, r)
	case http.MethodDelete:
		s.delete(w, r)
	default:
		s.methodNotAllowed(w, r)
	}
}

// BeginShutdown refuses new sessions and ends every GET stream, and every stateless call that
// waits for its client's retry (none can come now); running calls go on.
func (s *Server) BeginShutdown() {
	if s.o.Lifetime != nil {
		s.o.Lifetime.Stop() // no reaping or view hygiene while the shutdown ends sessions itself
	}
	s.beginClose()
	if s.stateless != nil {
		s.stateless.endParked()
	}
}

// Close ends every running call (the binding's escalation) and every session, logging each
// gem out, within ctx. It is the last step of a graceful stop, after the HTTP server's grace.
func (s *Server) Close(ctx context.Context) {
	s.closeOnce.Do(func() {
		s.BeginShutdown()
		s.cancelBase(session.ErrShuttingDown)
		// A login that was finishing as the base context ended may still map its session;
		// pass again until every slot is free, so no gem outlives the server.
		for {
			var wg sync.WaitGroup
			for _, sess := range s.table.All() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sess.End(ctx, session.Reason{Kind: session.ReasonShutdown, Detail: "server shutting down"})
				}()
			}
			wg.Wait()
			if s.table.Used() == 0 {
				return
			}
			select {
			case <-ctx.Done():
				s.o.Log.Warn().Int("slots", s.table.Used()).Msg("shutdown: logins still in progress when the close timeout ran out")
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
}

// MaxHeaderBytes bounds a request's header block; past it net/http answers 431.
const MaxHeaderBytes = 64 << 10

// HTTPServer is the http.Server the front end listens with: the header block must arrive
// within ReadTimeout and fit in MaxHeaderBytes; there is no write timeout, because a GET
// stream lives as long as its session (each stream write carries its own deadline).
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.o.ReadTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          stdLogger(s.o.Log),
		BaseContext:       func(net.Listener) context.Context { return context.Background() },
	}
}

// stdLogger routes net/http's own complaints (TLS handshakes, panics it recovered) to zerolog.
func stdLogger(l zerolog.Logger) *log.Logger {
	return log.New(l.With().Str("component", "http").Logger(), "", 0)
}
