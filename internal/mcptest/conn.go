package mcptest

import (
	"io"
	"net"
	"testing"
	"time"
)

// HeldFor sends sent on a fresh connection to addr, then nothing more, and answers how long
// the server held the connection before it dropped it; limit bounds the wait (the answer is
// then about limit).
func HeldFor(t testing.TB, addr, sent string, limit time.Duration) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if sent != "" {
		_, _ = io.WriteString(conn, sent)
	}
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, _ = io.ReadAll(conn) // returns when the server drops the connection
	return time.Since(start)
}
