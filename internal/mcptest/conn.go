package mcptest

import (
	"bufio"
	"io"
	"net"
	"strings"
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

// StalledStream sends request (a GET of an event stream) on a fresh connection to addr with a
// small receive window, reads the status line and then nothing more: a client that stopped
// reading, whose window what the server sends fills fast. It fails the test unless the status
// is 200; the connection is closed when the test ends.
func StalledStream(t testing.TB, addr, request string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	_, _ = io.WriteString(conn, request)
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, " 200 ") {
		t.Fatalf("GET of the stream: status line %q (%v)", status, err)
	}
}
