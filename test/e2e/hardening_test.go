package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// rawCall is call with the id's JSON text given as is.
func rawCall(id, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

// Members are read exactly, so the router and the worker read one message one way.
func TestTheRouterReadsMembersExactly(t *testing.T) {
	s := start(t)
	sid := s.open()
	for body, want := range map[string]string{
		`{"JSONRPC":"2.0","id":1,"METHOD":"ping"}`:                                               "case-sensitive",
		`{"jsonrpc":"2.0","ID":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}`: "case-sensitive",
		`{"jsonrpc":"2.0","id":2,"method":"ping","Method":"tools/call"}`:                         "case-sensitive",
		`{"jsonrpc":"2.0","id":3,"method":"ping","method":"tools/call"}`:                         "given twice",
	} {
		t.Run(body, func(t *testing.T) {
			s := s.in(t)
			a := s.post(sid, body)
			wantError(t, a, http.StatusBadRequest, -32600, "")
			if !strings.Contains(a.RPC.Error.Message, want) {
				t.Errorf("message %q, want it to say %q", a.RPC.Error.Message, want)
			}
		})
	}
	t.Run("and the session serves on", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, call(4, "echo", `{"text":"still serving"}`)), http.StatusOK)
	})
}

func TestIdsAreKeyedByTheirExactText(t *testing.T) {
	s := start(t)
	sid := s.open()
	// 2^53+1 and 2^53 are one float64: they must still be two ids, not a duplicate.
	first := s.started(sid, rawCall(`9007199254740993`, "sleep", `{"ms":1500}`))
	second := s.post(sid, rawCall(`9007199254740992`, "echo", `{"text":"x"}`))
	wantStatus(t, second, http.StatusOK)
	if second.RPC.Error != nil || string(second.RPC.ID) != `9007199254740992` {
		t.Fatalf("the second id was taken for the first: %s", second.Body)
	}
	if a := <-first; a.Status != http.StatusOK || string(a.RPC.ID) != `9007199254740993` {
		t.Fatalf("first: %d %s", a.Status, a.Body)
	}
	// An id no float64 holds is still an id a cancellation can name.
	done := s.started(sid, rawCall(`1e400`, "sleep", `{"ms":30000}`))
	wantStatus(t, s.post(sid, cancelOf(`1e400`)), http.StatusAccepted)
	select {
	case a := <-done:
		wantStatus(t, a, http.StatusAccepted)
	case <-time.After(10 * time.Second):
		t.Fatal("notifications/cancelled naming 1e400 did not end the call")
	}
}

// rawConn opens a TCP connection to the server.
func (s *server) rawConn(t *testing.T) *net.TCPConn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	tc := c.(*net.TCPConn)
	t.Cleanup(func() { tc.Close() })
	return tc
}

func rawPost(sid, version, body string) string {
	h := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	if sid != "" {
		h += "Mcp-Session-Id: " + sid + "\r\nMcp-Protocol-Version: " + version + "\r\n"
	}
	return h + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// drained reads what c still gives within d and says whether the server closed it.
func drained(c net.Conn, d time.Duration) (int64, bool) {
	_ = c.SetReadDeadline(time.Now().Add(d))
	n, err := io.Copy(io.Discard, c)
	var ne net.Error
	return n, !(errors.As(err, &ne) && ne.Timeout())
}

func TestAnAnswerNobodyReadsIsDroppedAtItsWriteDeadline(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_RESULT_CAP=0")
	sid := s.open()
	const size = 64 << 20
	c := s.rawConn(t)
	if _, err := io.WriteString(c, rawPost(sid, "2025-11-25", call(9, "big", `{"n":`+strconv.Itoa(size)+`}`))); err != nil {
		t.Fatal(err)
	}
	// The gem takes a while to produce 64 MiB on a loaded machine, so the write deadline can only
	// start counting once the answer is on its way: wait for its first byte, then read nothing for
	// longer than the write deadline (5 s), then look.
	first := make([]byte, 1)
	_ = c.SetReadDeadline(time.Now().Add(90 * time.Second))
	if _, err := io.ReadFull(c, first); err != nil {
		t.Fatalf("no byte of the answer within 90 s: %v", err)
	}
	time.Sleep(12 * time.Second)
	n, closed := drained(c, 20*time.Second)
	n++
	if !closed || n >= size {
		t.Fatalf("after 12 s unread the client still got %d of %d bytes (closed: %v): the server held the answer", n, size, closed)
	}
	wantStatus(t, s.post(sid, call(10, "echo", `{"text":"x"}`)), http.StatusOK)
}

func TestARefusalNeverEchoesAnUnboundedID(t *testing.T) {
	s := start(t)
	id := `"` + strings.Repeat("x", 4<<20-100) + `"`
	a := s.post("", `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
	wantError(t, a, http.StatusBadRequest, -32600, "")
	if len(a.Body) > 2048 || string(a.RPC.ID) != "null" {
		t.Fatalf("a refusal of a 4 MiB id is %d bytes with id %.40s", len(a.Body), a.RPC.ID)
	}
}

func TestNotificationsQueuedBehindACallAreBounded(t *testing.T) {
	s := start(t)
	sid := s.open()
	done := s.started(sid, call(1, "sleep", `{"ms":4000}`))
	note := `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`
	for i := range 64 {
		if a := s.post(sid, note); a.Status != http.StatusAccepted {
			t.Fatalf("notification %d under the bound: %d %s", i, a.Status, a.Body)
		}
	}
	a := s.post(sid, note)
	wantError(t, a, http.StatusTooManyRequests, -32001, errkind.QueueFull)
	if !strings.Contains(a.RPC.Error.Message, "64") {
		t.Fatalf("the refusal should name the bound: %s", a.Body)
	}
	wantStatus(t, <-done, http.StatusOK)
	mcptest.Eventually(t, 10*time.Second, "the queue drains and takes notifications again", func() bool {
		return s.post(sid, note).Status == http.StatusAccepted
	})
}

func TestABatchAnswerIsStreamedMemberByMember(t *testing.T) {
	s := start(t)
	a := s.post("", initWith("2025-03-26"))
	wantStatus(t, a, http.StatusOK)
	sid := a.Header.Get("Mcp-Session-Id")
	c := s.rawConn(t)
	body := `[` + call(1, "echo", `{"text":"first"}`) + `,` + call(2, "sleep", `{"ms":4000}`) + `]`
	start := time.Now()
	if _, err := io.WriteString(c, rawPost(sid, "2025-03-26", body)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	var got strings.Builder
	for !strings.Contains(got.String(), `"id":1`) {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the batch answer: %v (so far %q)", err, got.String())
		}
		got.WriteString(line)
	}
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Fatalf("the first member's answer came after %v, with the last member's: the batch was held whole", took)
	}
	if !strings.HasPrefix(got.String(), "HTTP/1.1 200") {
		t.Fatalf("answer %q", got.String())
	}
}

func TestABatchWhoseClientStopsReadingIsAbandoned(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_RESULT_CAP=0")
	a := s.post("", initWith("2025-03-26"))
	wantStatus(t, a, http.StatusOK)
	sid := a.Header.Get("Mcp-Session-Id")
	members := make([]string, 40)
	for i := range members {
		members[i] = call(i+1, "big", `{"n":4194304}`)
	}
	c := s.rawConn(t)
	if _, err := io.WriteString(c, rawPost(sid, "2025-03-26", "["+strings.Join(members, ",")+"]")); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, 30*time.Second, "the server gives the batch up", func() bool {
		return strings.Contains(s.log.String(), "batch abandoned")
	})
	if n, _ := drained(c, 10*time.Second); n >= 40*4194304 {
		t.Fatalf("the unread batch was written whole (%d bytes)", n)
	}
}

func TestInitializeDuringShutdownIsRefusedShuttingDown(t *testing.T) {
	slow := filepath.Join(t.TempDir(), "slow-gem")
	gem := filepath.Join(binserver.StandinHome(t), "bin", "standin-gem")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nsleep 2\nexec "+gem+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := start(t, "GCI_STANDIN_GEM="+slow)
	pending := s.async("", initBody) // its gem takes 2 s to answer the login
	time.Sleep(500 * time.Millisecond)
	_ = s.proc.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case a := <-pending:
		if a.Err != nil {
			t.Fatal(a.Err)
		}
		wantError(t, a, http.StatusServiceUnavailable, -32001, errkind.ShuttingDown)
		if a.Header.Get("Mcp-Session-Id") != "" {
			t.Fatalf("a session id was handed out during shutdown")
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the initialize under way at SIGTERM got no answer")
	}
}

func TestLaunchFailuresNameWhatFailed(t *testing.T) {
	for _, c := range []struct {
		env  []string
		kind string
		hint string
	}{
		{[]string{"MCP_WORKER_CLASS=NoSuchWorker"}, "workerClassNotFound", "MCP_WORKER_CLASS"},
		{[]string{"GS_STONE=nostone"}, "stoneUnreachable", "GS_STONE"},
		{[]string{"GCI_STANDIN_GEM=/nonexistent/gem"}, "gemStartFailed", "MCP_NETLDI"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			s := start(t, c.env...)
			a := s.post("", initBody)
			wantError(t, a, http.StatusOK, -32001, c.kind)
			if !strings.Contains(a.RPC.Error.Message, c.hint) {
				t.Fatalf("message %q should point at %s", a.RPC.Error.Message, c.hint)
			}
		})
	}
}

func TestAMalformedChunkedBodyIsABadRequest(t *testing.T) {
	s := start(t)
	c := s.rawConn(t)
	_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "badBody") {
		t.Fatalf("malformed chunked body: %d %s, want 400 badBody", resp.StatusCode, b)
	}
}

// A gate header given twice, or malformed, is refused.
func TestAGateHeaderThatCouldBeReadTwoWaysIsRefused(t *testing.T) {
	s := start(t)
	sid := s.open()
	send := func(host string, hdr ...string) answer {
		req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Mcp-Session-Id", sid)
		if host != "" {
			req.Host = host
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Add(hdr[i], hdr[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return answer{Answer: mcptest.Answer{Status: resp.StatusCode, Body: b}}
	}
	for _, c := range []struct {
		name   string
		host   string
		hdr    []string
		status int
	}{
		{"second Origin", "", []string{"Origin", "http://localhost", "Origin", "http://evil.example"}, http.StatusForbidden},
		{"Origin with user info", "", []string{"Origin", "http://evil.example:80@localhost"}, http.StatusForbidden},
		{"Host with a name for a port", "localhost:evil", nil, http.StatusBadRequest},
		{"second MCP-Protocol-Version", "", []string{"Mcp-Protocol-Version", "2025-11-25", "Mcp-Protocol-Version", "1999-01-01"}, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			if a := send(c.host, c.hdr...); a.Status != c.status {
				t.Errorf("%s: %d %s, want %d", c.name, a.Status, a.Body, c.status)
			}
		})
	}
	t.Run("one loopback Origin passes", func(t *testing.T) {
		if a := send("", "Origin", "http://localhost:3000"); a.Status != http.StatusOK {
			t.Fatalf("one loopback Origin: %d %s", a.Status, a.Body)
		}
	})
}

func TestAfterABatchMemberKillsTheGemLaterMembersAreAnsweredGone(t *testing.T) {
	s := start(t)
	a := s.post("", initWith("2025-03-26"))
	sid := a.Header.Get("Mcp-Session-Id")
	b := s.post(sid, `[`+call(1, "die", `{}`)+`,`+call(2, "echo", `{"text":"x"}`)+`,{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
		"Mcp-Protocol-Version", "2025-03-26")
	wantStatus(t, b, http.StatusOK)
	var out []struct {
		ID    int `json:"id"`
		Error *struct {
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b.Body, &out); err != nil || len(out) != 3 {
		t.Fatalf("batch answer %s (%v)", b.Body, err)
	}
	for _, m := range out {
		if m.Error == nil || m.Error.Data["kind"] != errkind.SessionGone {
			t.Errorf("member %d: %s; every member must be answered sessionGone", m.ID, b.Body)
			continue
		}
		if e, ok := m.Error.Data["ending"]; ok && e == "" {
			t.Errorf("member %d carries an empty data.ending: %s", m.ID, b.Body)
		}
	}
}

// What a request timeout says becomes of the session; the subtests run in order.
func TestARequestTimeoutSaysWhatBecameOfTheSession(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_REQUEST_TIMEOUT=1")
	sid := s.open()
	t.Run("a break-immune call's says its session ended, and only that", func(t *testing.T) {
		s := s.in(t)
		a := s.post(sid, call(1, "sleep_immune", `{"ms":60000}`))
		if !wantError(t, a, http.StatusOK, -32001, errkind.RequestTimeout) {
			return
		}
		if msg := a.RPC.Error.Message; strings.Contains(msg, "keeps serving") || !strings.Contains(msg, "session was ended") {
			t.Fatalf("message %q: the session was ended, and it must say only that", msg)
		}
	})
	t.Run("that session is gone", func(t *testing.T) {
		s := s.in(t)
		b := s.post(sid, call(2, "sleep", `{"ms":30000}`))
		wantError(t, b, http.StatusNotFound, -32001, errkind.SessionNotFound)
	})
	t.Run("an ordinary call's says the session serves on", func(t *testing.T) {
		s := s.in(t)
		c := s.post(s.open(), call(3, "sleep", `{"ms":30000}`))
		if msg := c.RPC.Error.Message; c.RPC.Kind() != errkind.RequestTimeout || !strings.Contains(msg, "keeps serving") {
			t.Fatalf("an ordinary call past the timeout: %s", c.Body)
		}
	})
}

func TestUntrustedValuesAreClippedInTheLog(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_TRACE=1") // the trace logs the session header and the path of every request
	sid := s.open()
	wantStatus(t, s.post(strings.Repeat("f", 60000), `{"jsonrpc":"2.0","id":1,"method":"ping"}`), http.StatusNotFound)
	huge := "1-1-" + strings.Repeat("9", 60000)
	req, _ := http.NewRequest(http.MethodGet, s.url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", huge)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if resp, err := client.Do(req.WithContext(ctx)); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	mcptest.Eventually(t, 5*time.Second, "the resume is logged", func() bool { return strings.Contains(s.log.String(), "lastEventId") })
	for _, line := range strings.Split(s.log.String(), "\n") {
		if len(line) > 8192 { // a traced body shows up to MCP_TRACE_LIMIT (4096) bytes, escaped
			t.Fatalf("a log line of %d bytes: untrusted values must be clipped", len(line))
		}
	}
}

func TestASessionWritingItsAnswerIsNotReapedAsIdle(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_STREAMLESS_IDLE_TIMEOUT=2s", "MCP_REAPER_INTERVAL=1s", "MCP_IDLE_TIMEOUT=10m", "MCP_RESULT_CAP=0")
	sid := s.open()
	const size = 48 << 20
	c := s.rawConn(t)
	if _, err := io.WriteString(c, rawPost(sid, "2025-11-25", call(5, "big", `{"n":`+strconv.Itoa(size)+`}`))); err != nil {
		t.Fatal(err)
	}
	// A slow reader: the answer takes about 8 s to reach it, four times the streamless timeout.
	var got int64
	buf := make([]byte, 256<<10)
	_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
	for got < size {
		n, err := c.Read(buf)
		got += int64(n)
		if err != nil {
			break
		}
		time.Sleep(40 * time.Millisecond)
	}
	if got < size {
		t.Fatalf("the answer was cut after %d bytes", got)
	}
	if a := s.post(sid, `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`); a.Status != http.StatusOK {
		t.Fatalf("the session was reaped while its answer was being written: %d %s", a.Status, a.Body)
	}
}
