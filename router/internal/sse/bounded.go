package sse

import (
	"net/http"
	"strconv"
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
	rc, timeout, err := writePieces(w, body, timeout)
	if err != nil {
		return err
	}
	_ = rc.SetWriteDeadline(time.Now().Add(timeout))
	return rc.Flush()
}

// WriteWhole answers status with a complete body, in place of WriteHeader: its length goes in
// Content-Length, so the answer is not chunked and needs no flush of its own. net/http sends
// what is left in its buffer as the handler returns, under the last piece's deadline, in the
// same write as the end of the answer: one system call for a small answer, not two.
func WriteWhole(w http.ResponseWriter, status int, body []byte, timeout time.Duration) error {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _, err := writePieces(w, body, timeout)
	return err
}

// writePieces writes body in pieces, each under a fresh deadline (see WriteBounded).
func writePieces(w http.ResponseWriter, body []byte, timeout time.Duration) (*http.ResponseController, time.Duration, error) {
	if timeout <= 0 {
		timeout = DefaultWriteTimeout
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(timeout))
	for len(body) > 0 {
		n := min(len(body), writePiece)
		if _, err := w.Write(body[:n]); err != nil {
			return rc, timeout, err
		}
		body = body[n:]
		if len(body) > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(timeout))
		}
	}
	return rc, timeout, nil
}

// ClearWriteDeadline removes a deadline an earlier answer left armed on the connection, so a
// request that reuses a kept-alive connection starts with none.
func ClearWriteDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
}
