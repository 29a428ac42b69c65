package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

func TestSessionLifecycleOnTheStandIn(t *testing.T) {
	s := start(t)
	a := s.post("", initBody)
	sid := mcptest.NewSession(t, a.Answer)
	if !strings.Contains(string(a.Body), "gci-standin-fixture-worker") {
		t.Fatalf("initialize did not come from the stand-in's worker: %s", a.Body)
	}
	wantStatus(t, s.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), http.StatusAccepted)
	list := s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	wantStatus(t, list, http.StatusOK)
	if !strings.Contains(string(list.RPC.Result), `"echo"`) {
		t.Fatalf("tools/list: %s", list.Body)
	}
	uni := s.post(sid, call(3, "unicode", `{"text":"𝄞 clef, 😀"}`))
	wantStatus(t, uni, http.StatusOK)
	if !strings.Contains(string(uni.Body), "𝄞 clef, 😀") || uni.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("unicode: %s %s", uni.Header.Get("Content-Type"), uni.Body)
	}
	big := s.post(sid, call(4, "big", `{"n":30000}`))
	wantStatus(t, big, http.StatusOK)
	if len(big.Body) < 30000 {
		t.Fatalf("big answer is %d bytes", len(big.Body))
	}
	workers := len(s.gemFiles())
	wantStatus(t, s.do(http.MethodDelete, sid, ""), http.StatusNoContent)
	mcptest.Eventually(t, 5*time.Second, "the worker gem is logged out after DELETE", func() bool { return len(s.gemFiles()) == workers-1 })
	wantError(t, s.post(sid, call(5, "echo", `{"text":"x"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
	wantError(t, s.do(http.MethodDelete, sid, ""), http.StatusNotFound, -32001, errkind.SessionNotFound)
}

func TestTransportTableRowsOnTheStandIn(t *testing.T) {
	s := start(t, "MCP_MAX_BODY=64KiB", "MCP_ALLOWED_ORIGINS=app.example.com")
	sid := s.open()
	rows := []struct {
		name              string
		method, sid, body string
		headers           []string
		status, code      int
		kind              string
	}{
		{"POST without session id", "POST", "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil, 400, -32600, "sessionRequired"},
		{"POST unknown session", "POST", "00000000000000000000000000000000", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil, 404, -32001, "sessionNotFound"},
		{"GET without session id", "GET", "", "", nil, 400, -32600, "sessionRequired"},
		{"GET unknown session", "GET", "00000000000000000000000000000000", "", nil, 404, -32001, "sessionNotFound"},
		{"DELETE without session id", "DELETE", "", "", nil, 400, -32600, "sessionRequired"},
		{"PUT", "PUT", sid, "", nil, 405, -32600, "methodNotAllowed"},
		{"unsupported MCP-Protocol-Version", "POST", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, []string{"Mcp-Protocol-Version", "2024-01-01"}, 400, -32600, "unsupportedProtocolVersion"},
		{"foreign Origin", "POST", "", initBody, []string{"Origin", "https://evil.example"}, 403, -32600, "originRefused"},
		{"foreign Host", "POST", "", initBody, []string{"Host", "evil.example.com"}, 403, -32600, "hostRefused"},
		{"malformed JSON", "POST", sid, `{"jsonrpc":`, nil, 400, -32700, ""},
		{"not JSON-RPC", "POST", sid, `{"id":1}`, nil, 400, -32600, ""},
		{"batch on 2025-11-25", "POST", sid, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, nil, 400, -32600, "batchRefused"},
		{"server/discover", "POST", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, nil, 400, -32601, "methodNotFound"},
		{"server/discover with the 2026-07-28 header but no _meta", "POST", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, []string{"Mcp-Protocol-Version", "2026-07-28"}, 400, -32602, "invalidMeta"},
		{"initialize with the 2026-07-28 header (no _meta): the revision removed it", "POST", "", initBody, []string{"Mcp-Protocol-Version", "2026-07-28"}, 404, -32601, "methodNotFound"},
		{"server/discover with an unknown version header", "POST", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, []string{"Mcp-Protocol-Version", "2099-01-01"}, 400, -32601, "methodNotFound"},
		{"initialize on a session", "POST", sid, initBody, nil, 400, -32600, "alreadyInitialized"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := s.in(t)
			a := s.do(r.method, r.sid, r.body, r.headers...)
			wantError(t, a, r.status, r.code, r.kind)
			if r.status == 405 && a.Header.Get("Allow") != "GET, POST, DELETE" {
				t.Fatalf("405 without Allow: %q", a.Header.Get("Allow"))
			}
		})
	}
	t.Run("allowed Origin", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, "Origin", "https://app.example.com"), http.StatusOK)
	})
	t.Run("invalid UTF-8 names the offset", func(t *testing.T) {
		s := s.in(t)
		body := call(6, "echo", `{"text":"ab`+"\xc3\x28"+`"}`)
		a := s.post(sid, body)
		wantError(t, a, http.StatusBadRequest, -32700, "")
		if off, _ := a.RPC.Error.Data["offset"].(float64); int(off) != strings.Index(body, "\xc3") {
			t.Fatalf("offset %v, want %d", a.RPC.Error.Data["offset"], strings.Index(body, "\xc3"))
		}
	})
	t.Run("body over MCP_MAX_BODY", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, call(7, "echo", `{"text":"`+strings.Repeat("x", 70<<10)+`"}`)), http.StatusRequestEntityTooLarge)
	})
	t.Run("notification and posted response", func(t *testing.T) {
		s := s.in(t)
		a := s.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		wantStatus(t, a, http.StatusAccepted)
		if len(a.Body) != 0 {
			t.Fatalf("202 with a body: %s", a.Body)
		}
		wantStatus(t, s.post(sid, `{"jsonrpc":"2.0","id":"srv-1","result":{}}`), http.StatusAccepted)
	})
	t.Run("ping", func(t *testing.T) {
		s := s.in(t)
		a := s.post(sid, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		wantStatus(t, a, http.StatusOK)
		if string(a.RPC.Result) != "{}" {
			t.Fatalf("ping: %s", a.Body)
		}
	})
	t.Run("healthz", func(t *testing.T) {
		resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("/healthz %d", resp.StatusCode)
		}
	})
	t.Run("the session still serves", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, call(8, "echo", `{"text":"ok"}`)), http.StatusOK)
	})
}

func TestBatchIsSplitOnA20250326Session(t *testing.T) {
	s := start(t)
	a := s.post("", initWith("2025-03-26"))
	wantStatus(t, a, http.StatusOK)
	sid := a.Header.Get("Mcp-Session-Id")
	b := s.post(sid, `[{"jsonrpc":"2.0","method":"notifications/initialized"},`+call(1, "echo", `{"text":"a"}`)+`,{"jsonrpc":"2.0","id":2,"method":"ping"},`+call(3, "echo", `{"text":"c"}`)+`]`,
		"Mcp-Protocol-Version", "2025-03-26")
	wantStatus(t, b, http.StatusOK)
	var out []struct {
		ID int `json:"id"`
	}
	if err := json.Unmarshal(b.Body, &out); err != nil || len(out) != 3 || out[0].ID != 1 || out[1].ID != 2 || out[2].ID != 3 {
		t.Fatalf("batch answer %s (%v)", b.Body, err)
	}
}

// A gem that dies in a call; each subtest is one step, in order.
func TestAGemThatDies(t *testing.T) {
	s := start(t, "MCP_MAX_SESSIONS=1")
	sid := s.open()
	t.Run("answers sessionGone under the call's id, without the full error", func(t *testing.T) {
		s := s.in(t)
		a := s.post(sid, call(77, "die", `{}`))
		if !wantError(t, a, http.StatusOK, -32001, errkind.SessionGone) {
			return
		}
		if string(a.RPC.ID) != "77" {
			t.Fatalf("sessionGone carries id %s", a.RPC.ID)
		}
		if strings.Contains(string(a.Body), "stand-in gem (session") {
			t.Fatalf("the full error text reached the client: %s", a.Body)
		}
	})
	t.Run("leaves its session not found", func(t *testing.T) {
		s := s.in(t)
		wantError(t, s.post(sid, call(78, "echo", `{"text":"x"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
	})
	t.Run("gives its slot back", func(t *testing.T) {
		s := s.in(t)
		s.open() // the only slot is free again
	})
}

// A gem killed with SIGKILL in a call; each subtest is one step, in order.
func TestAGemKilledMidCall(t *testing.T) {
	s := start(t, "MCP_MAX_SESSIONS=1")
	mcptest.Eventually(t, 10*time.Second, "the control session is logged in", func() bool { return len(s.gemFiles()) == 1 })
	before := s.gemFiles()
	sid := s.open()
	var pid int
	for n, p := range s.gemFiles() {
		if _, old := before[n]; !old {
			pid = p
		}
	}
	if pid == 0 {
		t.Fatalf("cannot find the session's gem among %v", s.gemFiles())
	}
	done := s.started(sid, call(5, "sleep", `{"ms":20000}`))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", pid, err)
	}
	t.Run("answers sessionGone under the call's id", func(t *testing.T) {
		select {
		case a := <-done:
			if wantError(t, a, http.StatusOK, -32001, errkind.SessionGone) && string(a.RPC.ID) != "5" {
				t.Fatalf("id %s", a.RPC.ID)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the call on a killed gem did not end")
		}
	})
	t.Run("leaves its session not found", func(t *testing.T) {
		s := s.in(t)
		wantError(t, s.post(sid, `{"jsonrpc":"2.0","id":6,"method":"ping"}`), http.StatusNotFound, -32001, errkind.SessionNotFound)
	})
	t.Run("gives its slot back", func(t *testing.T) { s.open() })
}

func TestThreeSessionsSleepingTwoSecondsRunInParallel(t *testing.T) {
	s := start(t)
	sids := []string{s.open(), s.open(), s.open()}
	begin := time.Now()
	var wg sync.WaitGroup
	for i, sid := range sids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := s.try(http.MethodPost, sid, call(i, "sleep", `{"ms":2000}`))
			if err != nil || a.Status != http.StatusOK || a.RPC.Error != nil {
				t.Errorf("sleep: %v %d %s", err, a.Status, a.Body)
			}
		}()
	}
	wg.Wait()
	took := time.Since(begin)
	t.Logf("three 2 s sleeps on three sessions: %v", took)
	if took > 4500*time.Millisecond {
		t.Fatalf("took %v: the sessions did not run in parallel (serial is 6 s)", took)
	}
}

func TestPingIsAnsweredQuicklyWhileItsSessionSleeps(t *testing.T) {
	s := start(t)
	sid := s.open()
	done := s.started(sid, call(1, "sleep", `{"ms":2000}`))
	a := s.post(sid, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	wantStatus(t, a, http.StatusOK)
	t.Logf("ping behind a running sleep: %v", a.Took)
	if a.Took > time.Second { // generous for a loaded machine; it is measured in milliseconds
		t.Fatalf("ping took %v while its session slept", a.Took)
	}
	if r := <-done; r.Status != http.StatusOK || r.Took < 1500*time.Millisecond {
		t.Fatalf("the sleep: %d after %v", r.Status, r.Took)
	}
}

func TestTheCapHoldsUnderTwentyConcurrentInitializes(t *testing.T) {
	s := start(t)
	mcptest.Eventually(t, 10*time.Second, "the control session is logged in", func() bool { return len(s.gemFiles()) == 1 })
	var mu sync.Mutex
	opened, refused := 0, 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := s.try(http.MethodPost, "", initBody)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case a.Status == http.StatusOK && a.Header.Get("Mcp-Session-Id") != "":
				opened++
			case a.RPC.Kind() == errkind.SessionLimit:
				refused++
			default:
				t.Errorf("unexpected %d %s", a.Status, a.Body)
			}
		}()
	}
	wg.Wait()
	if opened != 3 || refused != 17 {
		t.Fatalf("opened %d refused %d; want 3 and 17", opened, refused)
	}
	if n := len(s.gemFiles()); n != 4 {
		t.Fatalf("%d stand-in gems live (want 3 workers + the control session)", n)
	}
}

func TestNotificationsCancelledOfASleep(t *testing.T) {
	s := start(t)
	sid := s.open()
	done := s.started(sid, call(11, "sleep", `{"ms":30000}`))
	t.Run("ends it, both POSTs answered 202", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, cancelOf("11")), http.StatusAccepted)
		select {
		case a := <-done:
			wantStatus(t, a, http.StatusAccepted)
			if len(a.Body) != 0 {
				t.Fatalf("the cancelled request got a body: %s", a.Body)
			}
			if a.Took > 5*time.Second {
				t.Fatalf("cancel took %v", a.Took)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the sleep was not ended by notifications/cancelled")
		}
	})
	t.Run("leaves the session serving", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, call(12, "echo", `{"text":"x"}`)), http.StatusOK)
	})
}

func TestRequestTimeoutAnswersMinus32001WithTheRequestsId(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_REQUEST_TIMEOUT=1")
	sid := s.open()
	a := s.post(sid, call("deadline-1", "sleep", `{"ms":30000}`))
	wantError(t, a, http.StatusOK, -32001, errkind.RequestTimeout)
	if string(a.RPC.ID) != `"deadline-1"` {
		t.Fatalf("id %s", a.RPC.ID)
	}
	if a.Took > 5*time.Second {
		t.Fatalf("a 1 s deadline took %v", a.Took)
	}
	wantStatus(t, s.post(sid, call(2, "echo", `{"text":"after"}`)), http.StatusOK)
}

// SIGTERM breaks running calls, logs every gem out and exits 0.
func TestSIGTERMWithCallsRunning(t *testing.T) {
	s := start(t, "MCP_SHUTDOWN_GRACE=1")
	a, b := s.open(), s.open()
	results := []<-chan answer{s.async(a, call(1, "sleep_immune", `{"ms":60000}`)), s.async(b, call(2, "sleep", `{"ms":60000}`))}
	time.Sleep(300 * time.Millisecond)
	if n := len(s.ourGems()); n != 3 {
		t.Fatalf("%d gems before SIGTERM, want 3 (two workers and the control session)", n)
	}
	begin := time.Now()
	code := s.stop(15 * time.Second)
	took := time.Since(begin)
	t.Run("exits 0", func(t *testing.T) {
		if code != 0 {
			t.Fatalf("exit code %d after SIGTERM", code)
		}
		t.Logf("SIGTERM to exit with two running calls: %v", took)
	})
	t.Run("answers each running call shuttingDown", func(t *testing.T) {
		for _, ch := range results {
			select {
			case r := <-ch:
				if r.Err != nil {
					t.Fatalf("a running call got no answer at shutdown: %v", r.Err)
				}
				wantError(t, r, http.StatusOK, -32001, errkind.ShuttingDown)
			case <-time.After(5 * time.Second):
				t.Fatal("a running call's POST did not end with the server")
			}
		}
	})
	t.Run("logs every gem out", func(t *testing.T) {
		s := s.in(t)
		if left := s.ourGems(); len(left) != 0 {
			t.Fatalf("stand-in gems alive after SIGTERM: %v", left)
		}
		if !strings.Contains(s.log.String(), "every worker gem logged out") {
			t.Fatalf("no final log line")
		}
	})
}

func TestAClientThatNeverFinishesItsRequestIsDropped(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_READ_TIMEOUT=1")
	addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/mcp")
	sent := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\""
	if d := mcptest.HeldFor(t, addr, sent, 10*time.Second); d > 4*time.Second {
		t.Fatalf("a stalled client was held %v (read timeout 1 s)", d)
	}
	wantStatus(t, s.post("", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`), http.StatusBadRequest) // still serving
}

func TestTraceLogsBothDirectionsIncludingRefusals(t *testing.T) {
	s := start(t, "MCP_TRACE=1", "MCP_TRACE_LIMIT=64")
	s.post("", initBody, "Origin", "https://evil.example", "Authorization", "Bearer do-not-log-me")
	for _, want := range []string{`"dir":"in"`, `"dir":"out"`, `"status":403`, "originRefused", "message trace: ON", "...(+"} {
		mcptest.Eventually(t, 5*time.Second, "the trace shows "+want, func() bool { return strings.Contains(s.log.String(), want) })
	}
	if strings.Contains(s.log.String(), "do-not-log-me") {
		t.Fatal("a header reached the trace")
	}
}

func TestOversizedHeadersAreRefused(t *testing.T) {
	s := start(t)
	addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "+strings.Repeat("p", 100<<10)+"\r\n\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a 100 KiB header: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", resp.StatusCode)
	}
}

func TestABadSettingRefusesToStartNamingIt(t *testing.T) {
	binserver.StandinHome(t)
	out, err := exec_(binary, "MCP_MAX_SESSIONS=lots", "MCP_PORT=0")
	if err == nil {
		t.Fatalf("started with a bad MCP_MAX_SESSIONS: %s", out)
	}
	if !strings.Contains(out, "MCP_MAX_SESSIONS") || !strings.Contains(out, "-max-sessions") {
		t.Fatalf("the refusal does not name the setting: %s", out)
	}
}
