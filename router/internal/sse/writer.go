package sse

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWriteTimeout bounds every frame written to a client. A client that stops reading
// fills its socket buffer, and without a deadline the write would park the writing goroutine
// and hold the socket for as long as the client likes.
const DefaultWriteTimeout = 5 * time.Second

// EventWriter writes Server-Sent Events frames on one HTTP response. Every frame is written
// whole, under a fresh write deadline, and flushed before the call returns, so a frame is
// either on the wire or the stream is broken. An EventWriter is not safe for concurrent use:
// exactly one goroutine owns a response.
type EventWriter struct {
	w        http.ResponseWriter
	rc       *http.ResponseController
	timeout  time.Duration
	buf      bytes.Buffer
	deadline bool // the response supports write deadlines
	broken   bool
}

// NewEventWriter wraps w. timeout <= 0 means DefaultWriteTimeout.
func NewEventWriter(w http.ResponseWriter, timeout time.Duration) *EventWriter {
	if timeout <= 0 {
		timeout = DefaultWriteTimeout
	}
	return &EventWriter{w: w, rc: http.NewResponseController(w), timeout: timeout, deadline: true}
}

// StartStream sends the status line and the SSE headers, and flushes them so the client sees
// the stream open before the first event exists.
func (e *EventWriter) StartStream() error {
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache, no-transform")
	// Reverse proxies (nginx) buffer responses unless told not to, which would hold back
	// every event until the buffer fills.
	h.Set("X-Accel-Buffering", "no")
	if err := e.arm(); err != nil {
		return err
	}
	e.w.WriteHeader(http.StatusOK)
	return e.flushAside()
}

// flushAside is flush on a short-lived goroutine of its own. The first flush writes the
// header block through net/http frames several KiB deep (chunkWriter.writeHeader alone takes
// 2.8 KiB); on the stream's own goroutine, already deep in the router's handler chain, that
// doubles its stack to 16 KiB for the rest of the stream's life. An idle router holds one
// stream per session, so this is 8 KiB per session (docs/performance.md). The handler waits,
// so the ResponseWriter is still used by one goroutine at a time.
func (e *EventWriter) flushAside() error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				e.broken = true
				done <- fmt.Errorf("sse: flush panicked: %v", p)
			}
		}()
		done <- e.flush()
	}()
	return <-done
}

// Event writes one event carrying data under the given id. Data holding line breaks is split
// into several data lines, which a client joins back with "\n".
func (e *EventWriter) Event(id string, data []byte) error {
	if err := e.beginEvent(id); err != nil {
		return err
	}
	writeData(&e.buf, data)
	e.buf.WriteByte('\n')
	return e.send()
}

// Prime writes the SEP-1699 priming event: an id with empty data, which a client records as
// its resume point without dispatching anything, plus the retry interval a client should wait
// before reconnecting. retry <= 0 leaves the retry field out.
func (e *EventWriter) Prime(id string, retry time.Duration) error {
	if err := e.beginEvent(id); err != nil {
		return err
	}
	if retry > 0 {
		e.buf.WriteString("retry: ")
		e.buf.WriteString(strconv.FormatInt(retry.Milliseconds(), 10))
		e.buf.WriteByte('\n')
	}
	e.buf.WriteString("data: \n\n")
	return e.send()
}

// beginEvent starts a frame in the buffer with its id line.
func (e *EventWriter) beginEvent(id string) error { return e.beginFrame("id", "id: ", id) }

// beginFrame starts a frame in the buffer with its first line, prefix then value (an event's
// id, a comment's text); name says which in the error for a value that would end the line.
func (e *EventWriter) beginFrame(name, prefix, value string) error {
	if err := checkField(name, value); err != nil {
		return err
	}
	e.buf.Reset()
	e.buf.WriteString(prefix)
	e.buf.WriteString(value)
	e.buf.WriteByte('\n')
	return nil
}

// Comment writes an SSE comment line, which clients ignore: keepalives, and notes a human
// reading the stream with curl should see.
func (e *EventWriter) Comment(text string) error {
	if err := e.beginFrame("comment", ": ", text); err != nil {
		return err
	}
	e.buf.WriteByte('\n')
	return e.send()
}

// Finish clears the write deadline so a connection that outlives this stream (HTTP/1.1
// keep-alive) is not left with a deadline that would fail its next response. Call it once the
// stream is over; it does nothing after a failed write, since that connection is finished.
func (e *EventWriter) Finish() {
	if e.broken || !e.deadline {
		return
	}
	_ = e.rc.SetWriteDeadline(time.Time{})
}

func (e *EventWriter) send() error {
	if e.broken {
		return errors.New("sse: stream already broken")
	}
	if err := e.arm(); err != nil {
		return err
	}
	if _, err := e.w.Write(e.buf.Bytes()); err != nil {
		e.broken = true
		return fmt.Errorf("sse: write frame: %w", err)
	}
	return e.flush()
}

// arm sets the deadline for the next frame. A ResponseWriter that cannot take deadlines (a
// test recorder) is written without one rather than refused.
func (e *EventWriter) arm() error {
	if !e.deadline {
		return nil
	}
	err := e.rc.SetWriteDeadline(time.Now().Add(e.timeout))
	if errors.Is(err, http.ErrNotSupported) {
		e.deadline = false
		return nil
	}
	if err != nil {
		e.broken = true
		return fmt.Errorf("sse: set write deadline: %w", err)
	}
	return nil
}

func (e *EventWriter) flush() error {
	err := e.rc.Flush()
	if errors.Is(err, http.ErrNotSupported) {
		return nil
	}
	if err != nil {
		e.broken = true
		return fmt.Errorf("sse: flush: %w", err)
	}
	return nil
}

// writeData appends data as one or more data lines. SSE treats CR, LF and CRLF alike as line
// ends, so each becomes a line break of its own data line.
func writeData(buf *bytes.Buffer, data []byte) {
	s := string(data)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	for _, line := range strings.Split(s, "\n") {
		buf.WriteString("data: ")
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
}

// checkField refuses a value that would end its line early and so forge another field.
func checkField(name, v string) error {
	if strings.ContainsAny(v, "\r\n\x00") {
		return fmt.Errorf("sse: %s %q holds a line break or NUL", name, v)
	}
	return nil
}
