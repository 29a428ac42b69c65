package router

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// A gate checks a request before it reaches a handler. It answers the request to go on with
// (a gate may narrow it: a body limit, a context value) and whether to go on; a gate that says
// no has already written its refusal.
type gate func(w http.ResponseWriter, r *http.Request) (*http.Request, bool)

// gates runs gs in order in one frame, then next. Nested middlewares would each stay on the
// stack of every open GET stream for its whole life; at a thousand idle streams that depth
// decided whether each stream's goroutine needed a 16 KiB stack or an 8 KiB one
// (docs/performance.md).
func gates(gs ...gate) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, g := range gs {
				var ok bool
				if r, ok = g(w, r); !ok {
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// recoverPanics is defence in depth: a bug that panics in a handler is logged with its
// stack and answered -32603, instead of net/http dropping the connection without a word.
// The fuzz target is what shows no input reaches it.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.o.Log.Error().Interface("panic", p).Bytes("stack", debug.Stack()).Str("verb", r.Method).Msg("handler panicked (a bug)")
				writeJSON(w, http.StatusInternalServerError, jsonrpc.ErrorResponse(nil,
					&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error (logged by the server)"}))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// readTimeout drops a client that sends its headers and then never finishes its body: a
// timer cuts the connection's read side if the body is not in within ReadTimeout of the
// request's arrival (the headers are bounded by the http.Server's ReadHeaderTimeout). It
// uses a timer rather than a read deadline left on the connection, because a deadline left
// behind would fire in net/http's background read during a long call and cancel it.
func (s *Server) readTimeout(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An earlier answer on this kept-alive connection left its write deadline armed.
		sse.ClearWriteDeadline(w)
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		b := &watchedBody{ReadCloser: r.Body, w: w}
		b.timer = time.AfterFunc(s.o.ReadTimeout, b.cut)
		defer b.stop()
		r.Body = b
		next.ServeHTTP(w, r)
	})
}

// watchedBody is a request's body under readTimeout's timer: the end of the body (or its
// failure) stops the timer as soon as it is seen, and a timer that fires first cuts the
// connection's read side. Every POST makes one, so its state is one value beside the timer.
type watchedBody struct {
	io.ReadCloser
	w        http.ResponseWriter
	timer    *time.Timer
	finished atomic.Bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.stop()
	}
	return n, err
}

func (b *watchedBody) stop() {
	if b.finished.CompareAndSwap(false, true) {
		b.timer.Stop()
	}
}

func (b *watchedBody) cut() {
	if !b.finished.Load() {
		_ = http.NewResponseController(b.w).SetReadDeadline(time.Now())
	}
}

// hostGate refuses a Host header that is not loopback or allowed (DNS rebinding: a page on
// evil.example resolving its name to 127.0.0.1 reaches us with Host: evil.example).
func (s *Server) hostGate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	host, ok := hostOf(r.Host)
	if !ok {
		s.refuse(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
			"Bad Request: Host "+quote(r.Host)+" is not a host with an optional numeric port", errkind.HostRefused)
		return r, false
	}
	if !isLoopbackName(host) && !containsFold(s.o.AllowedHosts, host) {
		s.refuse(w, r, http.StatusForbidden, jsonrpc.CodeInvalidRequest,
			"Forbidden: Host "+quote(host)+" is not this server's (DNS rebinding protection); add it to MCP_ALLOWED_HOSTS if it is", errkind.HostRefused)
		return r, false
	}
	return r, true
}

// originGate refuses a browser request from a page whose origin is not loopback or
// allowed. An absent Origin is allowed: it is what non-browser clients send.
func (s *Server) originGate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if !s.single(w, r, "Origin", http.StatusForbidden, errkind.OriginRefused) {
		return r, false
	}
	origin := r.Header.Get("Origin")
	if origin != "" && !s.originAllowed(origin) {
		s.refuse(w, r, http.StatusForbidden, jsonrpc.CodeInvalidRequest,
			"Forbidden: Origin "+quote(origin)+" is not allowed; add its host to MCP_ALLOWED_ORIGINS", errkind.OriginRefused)
		return r, false
	}
	return r, true
}

// single refuses a request that carries header name more than once: a gate that checked one
// of them would let the other through to whoever reads it next.
func (s *Server) single(w http.ResponseWriter, r *http.Request, name string, status int, kind string) bool {
	if len(r.Header.Values(name)) > 1 {
		s.refuse(w, r, status, jsonrpc.CodeInvalidRequest,
			"Bad Request: the "+name+" header is given more than once; send it once", kind)
		return false
	}
	return true
}

// originAllowed takes only the serialisation RFC 6454 gives an origin: scheme "://" host
// [":" port], nothing else. A user-info part ("http://evil.example:80@localhost") would
// make the host read differently by different parsers.
func (s *Server) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" || u.RawQuery != "" || u.Fragment != "" ||
		(u.Path != "" && u.Path != "/") || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null" and other opaque origins
	}
	host, ok := hostOf(u.Host)
	if !ok {
		return false
	}
	if isLoopbackName(host) {
		return true
	}
	for _, a := range s.o.AllowedOrigins {
		if strings.Contains(a, "://") {
			if strings.EqualFold(strings.TrimRight(a, "/"), strings.TrimRight(origin, "/")) {
				return true
			}
		} else if strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// bodyLimit answers 413 when a body is longer than MaxBody (enforced while reading, so a
// client cannot make us buffer more than that).
func (s *Server) bodyLimit(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if r.ContentLength > s.o.MaxBody {
		s.refuse(w, r, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest,
			"Request Entity Too Large: the body exceeds MCP_MAX_BODY", errkind.BodyTooLarge)
		return r, false
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBody)
	}
	return r, true
}

type sessionKey struct{}

// oneSessionHeader refuses a request that sends MCP-Session-Id more than once, on either era.
func (s *Server) oneSessionHeader(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	return r, s.single(w, r, SessionHeader, http.StatusBadRequest, errkind.SessionNotFound)
}

// sessionLookup resolves MCP-Session-Id: unknown or ended → 404 on every verb. A request
// without the header goes on with no session; each verb decides (initialize needs none,
// everything else answers 400).
func (s *Server) sessionLookup(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if r, ok := s.oneSessionHeader(w, r); !ok {
		return r, false
	}
	id := r.Header.Get(SessionHeader)
	if id == "" {
		return r, true
	}
	sess, ok := s.table.Get(id)
	if ok && s.stateless.hiddenSession(id) {
		ok = false // a stateless pool gem is nobody's session
	}
	if ok && !s.owns(r.Context(), sess.Owner()) {
		ok = false // another principal's session is answered as no session at all
	}
	if !ok && sess == nil {
		if reason, owner, ended := s.table.Ended(id); ended && s.owns(r.Context(), owner) {
			s.refuseWith(w, r, http.StatusNotFound, jsonrpc.CodeServer,
				"Not Found: this session has ended: "+endedBecause(reason)+
					"; its uncommitted work was discarded. Send initialize without MCP-Session-Id to start a new one",
				endedData{Kind: errkind.SessionNotFound, Ended: reason.Kind})
			return r, false
		}
	}
	if !ok {
		s.refuse(w, r, http.StatusNotFound, jsonrpc.CodeServer,
			"Not Found: unknown or ended session; send initialize without MCP-Session-Id to start a new one", errkind.SessionNotFound)
		return r, false
	}
	return r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess)), true
}

// endedWhy is the client's sentence for each way a session ends. The lifetime policy's details
// name only its own limits, so they are shown; other details may hold what a client must not
// see (a gem's error text), so those kinds get their sentence alone.
var endedWhy = map[string]struct {
	sentence   string
	showDetail bool
}{
	"idle":            {"it had no request for MCP_IDLE_TIMEOUT", true},
	"streamlessIdle":  {"it kept no stream open (a GET on the endpoint) and had no request for MCP_STREAMLESS_IDLE_TIMEOUT; a client that pauses between calls keeps its session by holding a GET stream open", true},
	"streamLost":      {"its stream closed and the client did not open another within MCP_STREAM_LOSS_GRACE", true},
	"maxLifetime":     {"it reached MCP_MAX_LIFETIME", true},
	"probeUnanswered": {"a liveness ping on its stream went unanswered", true},
	"stuckView":       {"its view could not be moved while the repository's commit records piled up (MCP_STUCK_VIEW_GRACE)", false},
	"pinnedView":      {"a call held the repository's oldest commit record too long (MCP_PINNED_VIEW_GRACE)", false},
	"deleted":         {"the client ended it with DELETE", false},
	"gemDied":         {"its worker gem died", false},
	"shutdown":        {"the server shut down", false},
}

// endedBecause is why a session ended, in the client's words.
func endedBecause(reason session.Reason) string {
	why, known := endedWhy[reason.Kind]
	if !known {
		return "it ended (" + reason.Kind + ")"
	}
	if why.showDetail && reason.Detail != "" {
		return why.sentence + " (" + reason.Detail + ")"
	}
	return why.sentence
}

func sessionOf(r *http.Request) *session.Session {
	sess, _ := r.Context().Value(sessionKey{}).(*session.Session)
	return sess
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" || r.URL.Path == "/metrics" {
		w.Header().Set("Allow", "GET")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Allow", "GET, POST, DELETE")
	s.refuse(w, r, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest,
		"Method Not Allowed: /mcp takes POST, GET and DELETE", errkind.MethodNotAllowed)
}

// hostOf reads a Host header (or an origin's host): a name or address with an optional
// numeric port. Anything else ("localhost:evil", an empty name) is not a host.
func hostOf(hostport string) (string, bool) {
	host, port := hostport, ""
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
		host = hostport[1 : len(hostport)-1]
	} else if strings.Contains(hostport, ":") && net.ParseIP(hostport) == nil {
		return "", false // a colon that SplitHostPort could not read as host:port
	}
	if host == "" || strings.ContainsAny(host, "@/\\ ") {
		return "", false
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	if port != "" && len(port) > 5 {
		return "", false
	}
	return strings.ToLower(host), true
}

// isLoopbackName accepts localhost, *.localhost (RFC 6761 reserves it for loopback) and
// loopback addresses; it never resolves a name, since resolving is what rebinding attacks.
func isLoopbackName(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// quote shows a client-supplied value in a message without letting it run on forever.
func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return `"` + strings.ToValidUTF8(s, "?") + `"`
}
