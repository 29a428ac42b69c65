package sse

import (
	"net/http"
	"time"
)

// writePiece is how much of an answer is written under one deadline.
const writePiece = 64 << 10

// WriteBounded writes body on w in pieces of 64 KiB, each under a fresh write deadline of
// timeout (<= 0: DefaultWriteTimeout), and flushes it. A client that stops reading fills its
// socket buffer; without a deadline the write would hold the goroutine, the connection and
// the answer for as long as the client likes. The deadline stays armed after the flush, so
// whatever net/http writes after the handler returns (the chunked terminator) is bounded too;
// the next request on the connection must clear it (ClearWriteDeadline).
func WriteBounded(w http.ResponseWriter, body []byte, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = DefaultWriteTimeout
	}
	rc := http.NewResponseController(w)
	for len(body) > 0 {
		n := min(len(body), writePiece)
		_ = rc.SetWriteDeadline(time.Now().Add(timeout))
		if _, err := w.Write(body[:n]); err != nil {
			return err
		}
		body = body[n:]
	}
	_ = rc.SetWriteDeadline(time.Now().Add(timeout))
	return rc.Flush()
}

// ClearWriteDeadline removes a deadline an earlier answer left armed on the connection, so a
// request that reuses a kept-alive connection starts with none.
func ClearWriteDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
}
