//go:build proof

package load

import (
	"bufio"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// slowClient opens a raw connection and trickles what it is given, a byte every interval, for
// as long as the server keeps the connection; it answers how long that was and what the server
// sent back (a 408 or nothing).
func slowClient(t *testing.T, rawURL, head, body string, interval, giveUp time.Duration) (time.Duration, string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t0 := time.Now()
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	closed := make(chan string, 1)
	go func() {
		b, _ := bufio.NewReader(conn).ReadString('\n') // ends with the server's answer or close
		closed <- b
	}()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case line := <-closed:
			return time.Since(t0), line
		case <-tick.C:
			if time.Since(t0) > giveUp {
				t.Fatalf("the server kept a trickling client for %v", giveUp)
			}
			if i < len(body) {
				_, _ = conn.Write([]byte{body[i]})
			}
		}
	}
}

// A client that sends its headers a byte at a time is dropped at MCP_READ_TIMEOUT, and so is
// one whose headers are complete but whose body trickles in.
func TestSlowlorisClientsAreDroppedAtTheReadTimeout(t *testing.T) {
	s := start(t, "MCP_READ_TIMEOUT=2s")
	u, _ := url.Parse(s.URL)
	const interval = 200 * time.Millisecond

	// Headers never finish.
	took, _ := slowClient(t, s.URL, "POST /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\n",
		strings.Repeat("X-Slow: y\r\n", 100), interval, 10*time.Second)
	if took < 1500*time.Millisecond || took > 4*time.Second {
		t.Errorf("a client trickling its headers was dropped after %v, want about 2 s", took)
	}

	// Headers complete, body trickles.
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	head := "POST /mcp HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	took, answer := slowClient(t, s.URL, head, body, interval, 10*time.Second)
	if took < 1500*time.Millisecond || took > 4*time.Second {
		t.Errorf("a client trickling its body was dropped after %v, want about 2 s", took)
	}
	if answer != "" && !strings.Contains(answer, "408") {
		t.Errorf("a trickling body was answered %q, want 408 or a closed connection", answer)
	}
	// The server still serves.
	if _, err := client(s).Open(bounded(t, 10*time.Second)); err != nil {
		t.Fatalf("after the slow clients: %v", err)
	}
}
