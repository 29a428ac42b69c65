package e2elifetime

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// A client that stops reading, proved through bin/mcp-gemstone with the data coming from a
// stand-in gem the way it does in production: the gem's fixture worker floods the
// worker-to-router channel (fixture tool flood, worker/workertest/fixtureworker/flood.go) and the router
// relays it toward a client whose socket takes nothing more.

// sseWriteTimeout is the binary's write deadline per SSE frame. It is mechanism, not a
// setting (docs/session-lifetime.md, "Not configurable": "write timeout | 5 s per frame |
// a client that stops reading cannot hold a goroutine or a socket").
const sseWriteTimeout = 5 * time.Second

// cutSlack is how much later than the write timeout a cut may come on a shared 2-core
// machine: the flood must first fill the client's receive buffer and the server's send buffer.
const cutSlack = 20 * time.Second

// Each flood is 400 notifications padded with 64 KiB: 25 MiB, several times what the kernel
// buffers between the router and a client with a 4 KiB receive buffer can hold (the server's
// send buffer grows to 4 MiB at most, net.ipv4.tcp_wmem).
const (
	floodCount = 400
	floodSize  = 64 << 10
)

// stalledClient is a raw TCP connection with a tiny receive buffer that sent one HTTP request,
// read the response head, and then reads nothing more until drain.
type stalledClient struct {
	conn net.Conn
	br   *bufio.Reader
	head string // status line and headers
}

func dialStalled(t *testing.T, s *server, request string) *stalledClient {
	t.Helper()
	// The receive buffer is set before the connect, as SetReadBuffer(4096) would set it after:
	// set after, the server's kernel has already seen a large window, and its sender-side
	// silly-window avoidance then hands the client its backlog only at the pace of its probe
	// timer (about 40 KB a second measured here), so the drain after the cut would take minutes.
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", s.hostPort())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	c := &stalledClient{conn: conn, br: bufio.NewReaderSize(conn, 16)}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		line, err := c.br.ReadString('\n')
		if err != nil {
			t.Fatalf("response head %q: %v", c.head, err)
		}
		c.head += line
		if line == "\r\n" {
			break
		}
	}
	if !strings.HasPrefix(c.head, "HTTP/1.1 200 ") || !strings.Contains(strings.ToLower(c.head), "content-type: text/event-stream") {
		t.Fatalf("response head:\n%s\nwant 200 text/event-stream", c.head)
	}
	return c
}

// drain reads what the kernels still hold for the client until the server's end of the
// connection shows: EOF or a reset. It fails the test when the stream is still open after d.
func (c *stalledClient) drain(t *testing.T, d time.Duration) []byte {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(d))
	var got []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := c.br.Read(buf)
		got = append(got, buf[:n]...)
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
			return got
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the stream is still open %v after the cut (%d bytes read)", d, len(got))
		}
		t.Fatalf("reading the stream after the cut: %v", err)
	}
}

func floodCall(id int, kind string, meta string) string {
	params := fmt.Sprintf(`{"name":"flood","arguments":{"kind":%q,"count":%d,"size":%d}`, kind, floodCount, floodSize)
	if meta != "" {
		params += `,"_meta":` + meta
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}}`, id, params)
}

// waitLogged waits for the first log line whose message is msg and answers it with the
// moment it was seen.
func waitLogged(t *testing.T, s *server, d time.Duration, msg string, match func(line string) bool) (string, time.Time) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		for _, line := range s.logged(msg) {
			if match(line) {
				return line, time.Now()
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q log line within %v", msg, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func anyLine(string) bool { return true }

// docs/session-lifetime.md: a stream is lost when "a write failed or timed out", and a client
// that neither reopens one nor sends anything within MCP_STREAM_LOSS_GRACE has its gem
// released (reason streamLost); the client then meets 404.
// The binary cuts a GET stream its client stopped reading, and releases the gem after the
// grace; the subtests are the steps, in order.
func TestAGETStreamItsClientStoppedReading(t *testing.T) {
	t.Parallel()
	const grace = time.Second
	s := startServer(t, "MCP_STREAM_LOSS_GRACE=1s", "MCP_LOG_LEVEL=debug")
	sid, pid := s.openWithGem()
	c := dialStalled(t, s, fmt.Sprintf("GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n"+
		"Mcp-Session-Id: %s\r\nMcp-Protocol-Version: %s\r\n\r\n", s.hostPort(), sid, binaryProtocol))
	if n, ok := s.metric("mcp_streams_open"); !ok || n != 1 {
		t.Fatalf("mcp_streams_open %v (present %v) with the GET stream open, want 1", n, ok)
	}

	// The gem pours notifications/resources/updated, bound to no call, onto the GET stream.
	floodStart := time.Now()
	code, _, body := s.post(sid, floodCall(2, "resourceUpdated", ""))
	if code != http.StatusOK || !strings.Contains(string(body), fmt.Sprintf("flood: %d of %d resourceUpdated notifications sent", floodCount, floodCount)) {
		t.Fatalf("flood call: %d %.300s", code, body)
	}
	t.Logf("the gem sent %d x %d KiB onto the GET stream in %v (the call's answer is JSON: nothing bound to it)",
		floodCount, floodSize>>10, time.Since(floodStart).Round(time.Millisecond))

	var cut time.Time
	t.Run("is cut after the write timeout", func(t *testing.T) {
		cut = getStreamIsCut(t, s.in(t), c, floodStart, sid)
	})
	if cut.IsZero() {
		t.Fatal("no cut to measure the grace from")
	}
	t.Run("has its gem released after the grace", func(t *testing.T) { cutSessionIsReleased(t, s.in(t), cut, sid, pid, grace) })
}

// getStreamIsCut checks the stalled GET stream's cut and what it did to the outbox, and
// answers when the cut was logged.
func getStreamIsCut(t *testing.T, s *server, c *stalledClient, floodStart time.Time, sid string) time.Time {
	_, cut := waitLogged(t, s, sseWriteTimeout+cutSlack, "sse stream: write failed; ending stream", anyLine)
	cutAfter := cut.Sub(floodStart)
	if cutAfter < sseWriteTimeout {
		t.Fatalf("the stream was cut %v after the flood began, before the %v write timeout could expire", cutAfter, sseWriteTimeout)
	}
	t.Logf("stalled GET stream cut %.1f s after the flood began (write timeout %v)", cutAfter.Seconds(), sseWriteTimeout)

	// The server's end is closed: what the kernel still holds drains, then EOF or a reset.
	got := c.drain(t, 20*time.Second)
	events := strings.Count(string(got), `"method":"notifications/resources/updated"`)
	if events == 0 {
		t.Fatalf("the stream carried none of the flood before it ended (%d bytes)", len(got))
	}
	t.Logf("the stalled client then drained %d bytes (%d events) held by the kernels before the end of the stream",
		len(got), events)
	if n, ok := s.metric("mcp_streams_open"); !ok || n != 0 {
		t.Fatalf("mcp_streams_open %v (present %v) after the cut, want 0", n, ok)
	}
	// What the stalled stream could not take waited in the session's outbox, bounded at 256
	// messages with the oldest dropped and the drop logged (docs/session-lifetime.md): the
	// flood overran it.
	full := s.logged("sse outbox full: dropping the oldest undelivered messages")
	if len(full) == 0 || !strings.Contains(full[0], `"outboxLimit":256`) || !strings.Contains(full[0], sid) {
		t.Fatalf("%d messages behind a stalled stream: want an \"sse outbox full\" line for this session with outboxLimit 256, got %q", floodCount, full)
	}
	// Every message dropped from the outbox is counted in /metrics.
	dropped, _ := s.metric("mcp_outbox_dropped_total")
	if dropped < 1 {
		t.Fatalf("the outbox overflowed but mcp_outbox_dropped_total reads %.0f", dropped)
	}
	t.Logf("the outbox overflowed (%d \"sse outbox full\" line); mcp_outbox_dropped_total reads %.0f", len(full), dropped)
	return cut
}

// cutSessionIsReleased checks the lifetime policy: a cut stream is a lost stream; after the
// grace the gem goes.
func cutSessionIsReleased(t *testing.T, s *server, cut time.Time, sid string, pid int, grace time.Duration) {
	line, released := waitLogged(t, s, 10*time.Second, "session released", func(l string) bool {
		return strings.Contains(l, `"reason":"streamLost"`)
	})
	if !strings.Contains(line, sid) {
		t.Fatalf("released a session other than the stalled one: %s", line)
	}
	// The log's times are whole seconds, so both moments are those the test saw the lines
	// at; a stall of the test while it waited for the cut's line would shorten the gap it
	// measures, hence the half-grace margin (a release without the grace comes within ms).
	if log := s.logs.String(); strings.Index(log, `"message":"session released"`) < strings.Index(log, `"message":"sse stream: write failed; ending stream"`) {
		t.Fatalf("the session was released before its stream was cut")
	}
	if held := released.Sub(cut); held < grace/2 {
		t.Fatalf("released %v after the cut, inside MCP_STREAM_LOSS_GRACE=%v", held, grace)
	}
	mcptest.Eventually(t, 10*time.Second, "the stalled session's gem process gone", func() bool { return !mcptest.Alive(pid) })
	t.Logf("session released %v after the cut (grace %v); gem %d gone %v after the cut",
		released.Sub(cut).Round(time.Millisecond), grace, pid, time.Since(cut).Round(time.Millisecond))
	if n, ok := s.metric(`mcp_reaps_total{reason="streamLost"}`); !ok || n != 1 {
		t.Fatalf(`mcp_reaps_total{reason="streamLost"} %v (present %v), want 1`, n, ok)
	}
	if code, _, body := s.post(sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); code != http.StatusNotFound {
		t.Fatalf("request after the release: %d %s, want 404", code, body)
	}
}

// docs/worker-contract.md (channel limits): "Every event the router writes to a client has the
// SSE write deadline (5 s); a client that does not read loses its stream", so a slow client
// stalls a worker's notifications for at most that deadline, never for ever; what follows is
// held (bounded) for the client's resume with Last-Event-ID (docs/channel.md), never written to
// the cut stream. docs/transport.md: "A client disconnect is not a cancellation (MCP says so): a
// running call finishes". The POST stream is not the session's stream
// (docs/session-lifetime.md counts GET streams), so its loss starts no grace: the session goes on.
// postCutLine is the router's one info line for a call's response stream that was cut.
const postCutLine = "channel: the call's response stream was cut; the call goes on and its further messages are held for the client's resume"

// The binary cuts a POST stream its client stopped reading, and the session goes on; the
// subtests are the steps, in order.
func TestAPOSTStreamItsClientStoppedReading(t *testing.T) {
	t.Parallel()
	// The grace is short so that a POST cut taken for a lost stream would show as a reap.
	s := startServer(t, "MCP_STREAM_LOSS_GRACE=500ms", "MCP_LOG_LEVEL=debug")
	sid, pid := s.openWithGem()
	const callID = 2
	body := floodCall(callID, "progress", `{"progressToken":"flood"}`)
	floodStart := time.Now()
	c := dialStalled(t, s, fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: %s\r\n"+
		"Content-Length: %d\r\n\r\n%s", s.hostPort(), sid, binaryProtocol, len(body), body))

	t.Run("is cut after the write timeout, without the response", func(t *testing.T) { postStreamIsCut(t, s.in(t), c, floodStart) })
	t.Run("loses nothing of the call, which runs to its end", func(t *testing.T) { cutCallRunsOn(t, s.in(t)) })
	t.Run("leaves the session going on with its gem", func(t *testing.T) { cutSessionGoesOn(t, s.in(t), sid, pid) })
}

func postStreamIsCut(t *testing.T, s *server, c *stalledClient, floodStart time.Time) {
	// The first failed write toward the client is the cut, logged once at info level; each
	// notification after it is logged as not delivered at debug level.
	line, cut := waitLogged(t, s, sseWriteTimeout+cutSlack, postCutLine, anyLine)
	cutAfter := cut.Sub(floodStart)
	if !strings.Contains(line, "timeout") || !strings.Contains(line, `"level":"info"`) {
		t.Fatalf("the cut is not logged at info level naming a write timeout: %s", line)
	}
	if cutAfter < sseWriteTimeout {
		t.Fatalf("the POST stream was cut %v after the flood began, before the %v write timeout could expire", cutAfter, sseWriteTimeout)
	}
	t.Logf("stalled POST stream cut %.1f s after the flood began (write timeout %v): %s", cutAfter.Seconds(), sseWriteTimeout, line)

	got := c.drain(t, 30*time.Second)
	ended := time.Since(floodStart)
	events := strings.Count(string(got), `"method":"notifications/progress"`)
	if events == 0 {
		t.Fatalf("the stream carried none of the flood before it ended (%d bytes)", len(got))
	}
	if strings.Contains(string(got), `"result"`) {
		t.Fatalf("the call's response reached a stream that had been cut (%d bytes drained)", len(got))
	}
	t.Logf("the stalled client then drained %d bytes (%d events, no response) before the end of the stream, %.1f s after the flood began",
		len(got), events, ended.Seconds())
}

func cutCallRunsOn(t *testing.T, s *server) {
	// The call was not cancelled: it ran to its end and was counted as answered.
	mcptest.Eventually(t, 30*time.Second, "the flood call counted as answered", func() bool {
		n, _ := s.metric(`mcp_calls_total{method="tools/call",outcome="ok"}`)
		return n == 1
	})
	if strings.Contains(s.metrics(), "mcp_call_endings_total{") {
		t.Fatalf("the call was ended by the escalation:\n%s", s.metrics())
	}
	if n := len(s.logged(postCutLine)); n != 1 {
		t.Fatalf("the cut was logged %d times, want once", n)
	}
	dropped := 1 + len(s.logged("channel: notification not delivered"))
	if dropped < 1 || dropped > floodCount {
		t.Fatalf("%d undelivered notifications logged, want 1..%d", dropped, floodCount)
	}
	t.Logf("%d of the %d notifications were dropped after the cut", dropped, floodCount)
}

func cutSessionGoesOn(t *testing.T, s *server, sid string, pid int) {
	// The session goes on, on a fresh connection, with the same gem.
	fresh := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
	defer fresh.CloseIdleConnections()
	code, _, echo := s.postWith(fresh, sid, mcptest.ToolCall(3, "echo", `{"text":"still here"}`))
	if code != http.StatusOK || !strings.Contains(string(echo), `"text":"still here"`) {
		t.Fatalf("echo after the cut: %d %s", code, echo)
	}
	if !mcptest.Alive(pid) {
		t.Fatalf("the session's gem %d is gone", pid)
	}
	if n, ok := s.metric("mcp_sessions_open"); !ok || n != 1 {
		t.Fatalf("mcp_sessions_open %v (present %v), want 1", n, ok)
	}
	if strings.Contains(s.metrics(), "mcp_reaps_total{") {
		t.Fatalf("a session was reaped:\n%s", s.metrics())
	}
	resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz after the cut: %d", resp.StatusCode)
	}
}
