// Package ssetest reads a server-sent event stream in tests: GET /mcp opened by Open, its frames
// delivered on a channel by a reader goroutine, and the helpers the stream tests wait with.
package ssetest

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// Frame is one SSE frame: the fields a test of the MCP stream looks at.
type Frame struct{ ID, Data, Retry, Comment string }

// Stream is an open GET stream and the frames read from it so far.
type Stream struct {
	Resp   *http.Response
	Cancel context.CancelFunc
	Frames chan Frame
}

// Open sends GET url with the session id (and Last-Event-ID when given) and starts reading.
// buffer is how many unread frames the reader holds before it waits for the test.
func Open(t testing.TB, url, sid, lastEventID string, buffer int) *Stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp := (&mcptest.Client{URL: url}).StreamContext(ctx, t, sid, lastEventID)
	s := &Stream{Resp: resp, Cancel: cancel, Frames: make(chan Frame, buffer)}
	go s.read(bufio.NewReader(resp.Body))
	return s
}

func (s *Stream) read(r *bufio.Reader) {
	defer close(s.Frames)
	var fr Frame
	seen := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\n")
		if line == "" {
			// The opening ": stream open" comment is passed over (router/internal/sse tests it).
			if seen && fr.Comment != "stream open" {
				s.Frames <- fr
			}
			fr, seen = Frame{}, false
			continue
		}
		seen = true
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimPrefix(v, " ")
		switch k {
		case "":
			fr.Comment = v
		case "id":
			fr.ID = v
		case "data":
			fr.Data = v
		case "retry":
			fr.Retry = v
		}
	}
}

// Next answers the next frame that satisfies keep, within d.
func (s *Stream) Next(t testing.TB, d time.Duration, keep func(Frame) bool) Frame {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case fr, ok := <-s.Frames:
			if !ok {
				t.Fatal("stream ended while waiting for a frame")
			}
			if keep(fr) {
				return fr
			}
		case <-timeout:
			t.Fatalf("no matching frame within %v", d)
		}
	}
}

// Ended reports whether the stream ends within d.
func (s *Stream) Ended(d time.Duration) bool {
	timeout := time.After(d)
	for {
		select {
		case _, ok := <-s.Frames:
			if !ok {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// AnyFrame keeps every frame; IsEvent keeps frames with data.
func AnyFrame(Frame) bool   { return true }
func IsEvent(fr Frame) bool { return fr.Data != "" }
