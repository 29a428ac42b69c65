// Package messagelog is the message trace (MCP_TRACE): one log line per message in each
// direction, so that what a client sent and what it got back can be read after the fact
// even when the client's UI shows neither.
//
// The inbound tap runs before every gate (Host, Origin, protocol version, auth, body
// limit), so a request refused with 403, 400 or 413 is traced too. The outbound tap sees
// every answer, including the bodies of those refusals, and every frame written on an
// event stream. Headers are never traced: one of them carries the bearer token.
package messagelog

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// Trace lines are written without a level (zerolog's Log), so MCP_LOG_LEVEL never hides
// them: whoever turned the trace on asked for every line.

// Options configure the trace.
type Options struct {
	// Limit is the most body bytes a line shows; the rest is counted as ...(+N more).
	// 0 means no cap.
	Limit int
	// MaxRead bounds how much of an inbound body the tap reads ahead (the body limit, plus
	// one byte to see that it was exceeded); the gates after it see the same bytes.
	MaxRead int64
	// SessionHeader is the header naming the session (MCP-Session-Id).
	SessionHeader string
	Log           zerolog.Logger
}

// Middleware traces every request and response passing through it.
func Middleware(o Options) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sid := r.Header.Get(o.SessionHeader)
			in := o.readAhead(r)
			o.Log.Log().Str("dir", "in").Str("verb", r.Method).Str("path", jsonrpc.Clip(r.URL.Path)).
				Str("session", orDash(sid)).Str("size", in.size()).Msg(in.line(o.Limit))
			tw := &writer{ResponseWriter: w, o: o, r: r, sid: sid}
			next.ServeHTTP(tw, r)
			tw.finish()
		})
	}
}

type inbound struct {
	head   []byte
	more   bool  // the body went on past what was read ahead
	failed error // reading the body failed (timeout, reset)
}

// readAhead reads the body up to MaxRead bytes and puts it back for the handlers.
func (o Options) readAhead(r *http.Request) inbound {
	if r.Body == nil || r.Body == http.NoBody {
		return inbound{}
	}
	limit := o.MaxRead
	if limit <= 0 {
		limit = 1 << 20
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, limit))
	in := inbound{head: buf, more: int64(len(buf)) == limit, failed: err}
	rest := r.Body
	r.Body = readCloser{Reader: io.MultiReader(replay(buf, err), rest), Closer: rest}
	return in
}

// replay gives back the bytes read ahead and then the read's error, if any, so the handler
// meets the same failure (a read timeout stays a read timeout).
func replay(buf []byte, err error) io.Reader {
	if err == nil {
		return bytes.NewReader(buf)
	}
	return io.MultiReader(bytes.NewReader(buf), errReader{err})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type readCloser struct {
	io.Reader
	io.Closer
}

func (in inbound) size() string {
	s := strconv.Itoa(len(in.head)) + " bytes"
	if in.more {
		s = "over " + s
	}
	if in.failed != nil {
		s += " (unreadable: " + in.failed.Error() + ")"
	}
	return s
}

func (in inbound) line(limit int) string {
	l := Line(in.head, limit)
	if in.more && (limit <= 0 || len(in.head) <= limit) {
		l += "...(+more unread)"
	}
	return l
}

// Line renders a body for a log line: newlines, carriage returns and tabs escaped so one
// message stays one line, and past limit bytes the rest is counted, never dropped silently.
func Line(body []byte, limit int) string {
	shown, rest := body, 0
	if limit > 0 && len(body) > limit {
		shown, rest = body[:limit], len(body)-limit
	}
	var b strings.Builder
	b.Grow(len(shown) + 16)
	for _, c := range shown {
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	if rest > 0 {
		b.WriteString("...(+" + strconv.Itoa(rest) + " more)")
	}
	return b.String()
}

// orDash shows a header value (client-chosen: clipped) or "-" for none.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return jsonrpc.Clip(s)
}

// writer records an answer for the outbound line. A JSON answer is logged once, when the
// handler returns; an event stream is logged frame by frame as each is flushed, since it
// may never end.
type writer struct {
	http.ResponseWriter
	o      Options
	r      *http.Request
	sid    string
	status int
	body   bytes.Buffer // up to Limit bytes (everything when Limit is 0), non-stream answers
	total  int
	frame  bytes.Buffer // the stream frame being written
	stream bool
	logged bool
}

func (w *writer) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.stream = strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream")
		if w.stream {
			w.o.Log.Log().Str("dir", "out").Str("verb", w.r.Method).Str("path", jsonrpc.Clip(w.r.URL.Path)).
				Str("session", orDash(w.sessionID())).Int("status", code).Msg("(event stream opened)")
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *writer) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.stream {
		w.frame.Write(p)
		w.flushFrames()
	} else {
		w.total += len(p)
		if room := w.o.Limit - w.body.Len(); w.o.Limit <= 0 {
			w.body.Write(p)
		} else if room > 0 {
			w.body.Write(p[:min(room, len(p))])
		}
	}
	return w.ResponseWriter.Write(p)
}

// flushFrames logs every complete SSE frame (ended by a blank line) written so far.
func (w *writer) flushFrames() {
	for {
		data := w.frame.Bytes()
		i := bytes.Index(data, []byte("\n\n"))
		if i < 0 {
			return
		}
		frame := data[:i]
		w.o.Log.Log().Str("dir", "out").Str("verb", "FRAME").Str("path", jsonrpc.Clip(w.r.URL.Path)).
			Str("session", orDash(w.sessionID())).Str("size", strconv.Itoa(len(frame))+" bytes").
			Msg(Line(frame, w.o.Limit))
		w.frame.Next(i + 2)
	}
}

func (w *writer) sessionID() string {
	if id := w.Header().Get(w.o.SessionHeader); id != "" {
		return id
	}
	return w.sid
}

func (w *writer) finish() {
	if w.logged || w.stream {
		return
	}
	w.logged = true
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	shown := w.body.Bytes()
	line := Line(shown, 0)
	if rest := w.total - len(shown); rest > 0 {
		line += "...(+" + strconv.Itoa(rest) + " more)"
	}
	w.o.Log.Log().Str("dir", "out").Str("verb", w.r.Method).Str("path", jsonrpc.Clip(w.r.URL.Path)).
		Str("session", orDash(w.sessionID())).Int("status", status).
		Str("size", strconv.Itoa(w.total)+" bytes").Msg(line)
}

// Flush keeps streaming possible through the tap.
func (w *writer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (read/write deadlines).
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack is passed through for completeness; the front end itself never hijacks.
func (w *writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := w.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("trace: the connection cannot be hijacked")
}
