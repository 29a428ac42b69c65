package e2elifetime

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest/ssetest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
)

func TestAGETStream(t *testing.T) {
	f := newFixture(t, fast(), router.StreamOptions{Keepalive: 100 * time.Millisecond})
	sid := f.open("2025-11-25")
	s := f.get(sid, "")
	t.Run("opens primed with retry", func(t *testing.T) {
		if s.Resp.StatusCode != http.StatusOK || s.Resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("GET /mcp: %d %q", s.Resp.StatusCode, s.Resp.Header.Get("Content-Type"))
		}
		if prime := s.Next(t, 5*time.Second, ssetest.AnyFrame); prime.ID == "" || prime.Retry == "" || prime.Data != "" {
			t.Fatalf("first frame %+v, want the 2025-11-25 priming event with retry", prime)
		}
	})
	t.Run("is kept alive", func(t *testing.T) {
		start := time.Now()
		s.Next(t, 5*time.Second, func(fr ssetest.Frame) bool { return fr.Comment == "keepalive" })
		t.Logf("keepalive after %v (interval 100ms)", time.Since(start))
	})
}

func TestSecondGETEndsTheFirst(t *testing.T) {
	f := newFixture(t, fast(), router.StreamOptions{Keepalive: time.Hour})
	sid := f.open("2025-11-25")
	first := f.get(sid, "")
	first.Next(t, 5*time.Second, ssetest.AnyFrame)
	start := time.Now()
	second := f.get(sid, "")
	if !first.Ended(3 * time.Second) {
		t.Fatal("the first stream is still open 3s after a second GET")
	}
	t.Logf("first stream ended %v after the second GET", time.Since(start))
	second.Next(t, 5*time.Second, ssetest.AnyFrame) // the second one is primed and open
	st := mapped(f.srv.Sessions().Get(sid)).Stream()
	st.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/e2e"}`))
	if fr := second.Next(t, 5*time.Second, ssetest.IsEvent); !strings.Contains(fr.Data, "notifications/e2e") {
		t.Fatalf("second stream got %+v", fr)
	}
}

func TestClientThatStopsReadingIsCutWithinTheWriteTimeout(t *testing.T) {
	const writeTimeout = 500 * time.Millisecond
	cfg := fast()
	cfg.StreamLossGrace = lifetime.After(200 * time.Millisecond)
	f := newFixture(t, cfg, router.StreamOptions{Keepalive: time.Hour, WriteTimeout: writeTimeout})
	sid := f.open("2025-06-18")
	pid := f.gemPID(sid)
	addr := f.ts.Listener.Addr().String()
	mcptest.StalledStream(t, addr, fmt.Sprintf(
		"GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n", addr, sid))
	st := mapped(f.srv.Sessions().Get(sid)).Stream()
	big := []byte(`{"jsonrpc":"2.0","method":"notifications/pad","params":{"p":"` + strings.Repeat("x", 64<<10) + `"}}`)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			st.Send(big)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	start := time.Now()
	mcptest.Eventually(t, 20*time.Second, "the stalled stream is cut", func() bool {
		return st.Stats().WriteFailures == 1
	})
	t.Logf("stalled stream cut %v after the writes began (write timeout %v)", time.Since(start), writeTimeout)
	// A cut stream is a lost stream: after the grace the gem goes.
	mcptest.Eventually(t, 10*time.Second, "gem process gone after the stream-loss grace", func() bool { return !mcptest.Alive(pid) })
	if n := f.eng.Stats().Reaped[lifetime.KindStreamLost]; n != 1 {
		t.Fatalf("reaped for streamLost %d times, want 1", n)
	}
}

// probed is a 2025-06-18 session probed every 200 ms with its GET stream open: the policy,
// the fixture, the session, its gem's pid and the stream.
func probed(t *testing.T) (lifetime.Config, *fixture, string, int, *ssetest.Stream) {
	t.Helper()
	cfg := fast()
	cfg.ProbeInterval = lifetime.After(200 * time.Millisecond)
	f := newFixture(t, cfg, router.StreamOptions{Keepalive: time.Hour})
	sid := f.open("2025-06-18")
	pid := f.gemPID(sid)
	s := f.get(sid, "")
	return cfg, f, sid, pid, s
}

func TestUnansweredProbeReleasesTheGemProcess(t *testing.T) {
	cfg, f, sid, pid, s := probed(t)
	sent := time.Now()
	ping := s.Next(t, 5*time.Second, ssetest.IsEvent)
	if !strings.Contains(ping.Data, `"method":"ping"`) || !strings.Contains(ping.Data, `"id":"srv-`) {
		t.Fatalf("probe %q, want a ping with a srv- id", ping.Data)
	}
	// Polled from outside: a request would itself be proof of life.
	mcptest.Eventually(t, 10*time.Second, "gem process gone after an unanswered probe", func() bool { return !mcptest.Alive(pid) })
	t.Logf("gem gone %v after the probe was sent (probe timeout %v)", time.Since(sent), cfg.ProbeTimeout)
	if n := f.eng.Stats().Reaped[lifetime.KindProbeUnanswered]; n != 1 {
		t.Fatalf("reaped for probeUnanswered %d times, want 1", n)
	}
	if code := f.answers(sid); code != http.StatusNotFound {
		t.Fatalf("request after the release: %d, want 404", code)
	}
}

func TestAnsweredProbesKeepTheGemProcess(t *testing.T) {
	_, f, sid, pid, s := probed(t)
	answered := 0
	for start := time.Now(); time.Since(start) < 2*time.Second; {
		fr := s.Next(t, 5*time.Second, ssetest.IsEvent)
		var ping struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(fr.Data), &ping); err != nil {
			t.Fatal(err)
		}
		if r := f.post(sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, ping.ID)); r.Status != http.StatusAccepted {
			t.Fatalf("answering the probe: %d %s", r.Status, r.Body)
		}
		answered++
	}
	if answered < 4 {
		t.Fatalf("%d probes answered in 2s at a 200ms interval, want at least 4", answered)
	}
	if !mcptest.Alive(pid) {
		t.Fatal("the gem of a client that answered every probe is gone")
	}
	if st := f.eng.Stats(); st.ProbesAnswered < 4 || len(st.Reaped) != 0 {
		t.Fatalf("engine stats %+v", st)
	}
}

// A streamless session is reaped after its interval, and not before.
func TestAStreamlessSessionIsReapedAtItsInterval(t *testing.T) {
	cfg := fast()
	cfg.StreamlessIdleTimeout = lifetime.After(time.Second)
	f := newFixture(t, cfg, router.StreamOptions{})
	sid := f.open("2025-06-18")
	pid := f.gemPID(sid)
	time.Sleep(600 * time.Millisecond)
	if r := f.post(sid, mcptest.ToolCall(2, "echo", `{"text":"still here"}`)); r.Status != http.StatusOK {
		t.Fatalf("call at 0.6s: %d %s", r.Status, r.Body)
	}
	last := time.Now()
	time.Sleep(800 * time.Millisecond)
	if !mcptest.Alive(pid) {
		t.Fatalf("gem released %v after the last request, before the 1s interval", time.Since(last))
	}
	mcptest.Eventually(t, 10*time.Second, "streamless gem process gone", func() bool { return !mcptest.Alive(pid) })
	if el := time.Since(last); el < time.Second {
		t.Fatalf("released %v after the last request", el)
	}
	t.Logf("released %v after the last request (interval 1s, pass 50ms)", time.Since(last))
	if code := f.answers(sid); code != http.StatusNotFound {
		t.Fatalf("request after the release: %d, want 404", code)
	}
}

func TestLastEventIDReplaysExactlyTheMissedEvents(t *testing.T) {
	f := newFixture(t, fast(), router.StreamOptions{Keepalive: time.Hour})
	sid := f.open("2025-11-25")
	first := f.get(sid, "")
	first.Next(t, 5*time.Second, ssetest.AnyFrame)
	st := mapped(f.srv.Sessions().Get(sid)).Stream()
	for i := 1; i <= 5; i++ {
		st.Send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/n","params":{"n":%d}}`, i)))
	}
	var resumeFrom string
	for i := 1; i <= 5; i++ {
		fr := first.Next(t, 5*time.Second, ssetest.IsEvent)
		if i == 2 {
			resumeFrom = fr.ID
		}
	}
	first.Cancel()
	first.Ended(5 * time.Second)
	st.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/n","params":{"n":6}}`))
	second := f.get(sid, resumeFrom)
	for i := 3; i <= 6; i++ {
		fr := second.Next(t, 5*time.Second, ssetest.IsEvent)
		if !strings.Contains(fr.Data, fmt.Sprintf(`{"n":%d}`, i)) {
			t.Fatalf("replay delivered %q, want n=%d", fr.Data, i)
		}
	}
	st.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/n","params":{"n":7}}`))
	if fr := second.Next(t, 5*time.Second, ssetest.IsEvent); !strings.Contains(fr.Data, `{"n":7}`) {
		t.Fatalf("after the replay got %q, want n=7 and nothing twice", fr.Data)
	}
}

func TestViewHygiene(t *testing.T) {
	cfg := fast()
	cfg.MaxCommitsBehind = 20
	f := newFixture(t, cfg, router.StreamOptions{})
	idle := f.open("2025-06-18")
	busy := f.open("2025-06-18")
	for _, sid := range []string{idle, busy} {
		if r := f.post(sid, mcptest.ToolCall(2, "set_view_status", `{"commitsBehind":30}`)); r.Status != http.StatusOK || r.RPC.Error != nil {
			t.Fatalf("set_view_status: %d %s", r.Status, r.Body)
		}
	}
	done := make(chan rpcReply, 1)
	go func() { done <- f.post(busy, mcptest.ToolCall(3, "sleep", `{"ms":1500}`)) }()
	t.Run("refreshes only the session behind, not the busy one", func(t *testing.T) {
		mcptest.Eventually(t, 5*time.Second, "the idle session refreshed", func() bool { return f.eng.Stats().Refreshes >= 1 })
		time.Sleep(300 * time.Millisecond)
		if n := f.eng.Stats().Refreshes; n != 1 {
			t.Fatalf("%d refreshes while the busy session's call ran, want exactly 1 (the idle session)", n)
		}
	})
	t.Run("moves the view of the session behind", func(t *testing.T) {
		f := f.in(t)
		// What the idle worker's gem reports now: its view moved (the text result is the view status).
		if r := f.post(idle, mcptest.ToolCall(4, "set_view_status", `{}`)); !strings.Contains(string(r.Body), `\"commitsBehind\":0`) {
			t.Fatalf("view status after the refresh: %s, want commitsBehind 0", r.Body)
		}
	})
	t.Run("refreshes the busy one once its call is over", func(t *testing.T) {
		if r := <-done; r.Status != http.StatusOK || r.RPC.Error != nil {
			t.Fatalf("the busy session's call: %d %s", r.Status, r.Body)
		}
		mcptest.Eventually(t, 5*time.Second, "the busy session refreshed once its call was over", func() bool { return f.eng.Stats().Refreshes == 2 })
	})
}

// underPressure is a session under a policy that ends a call pinning the oldest commit record
// after grace once the stone is 20 commits behind.
func underPressure(t *testing.T, grace time.Duration) (*fixture, string) {
	t.Helper()
	cfg := fast()
	cfg.MaxCommitsBehind = 20
	cfg.PinnedViewGrace = lifetime.After(grace)
	f := newFixture(t, cfg, router.StreamOptions{})
	return f, f.open("2025-06-18")
}

func TestACallPinningTheOldestCommitRecordUnderPressure(t *testing.T) {
	f, sid := underPressure(t, 300*time.Millisecond)
	setReadings(t, fmt.Sprintf("500 20 %d", f.gemSession(sid)))
	t.Run("is ended, saying why", func(t *testing.T) {
		f := f.in(t)
		start := time.Now()
		r := f.post(sid, mcptest.ToolCall(2, "sleep", `{"ms":20000}`))
		if r.RPC.Error == nil || r.RPC.Error.Code != -32001 || r.RPC.Error.Data["kind"] != lifetime.KindPinnedView {
			t.Fatalf("answer %d %s, want -32001 with data.kind pinnedView", r.Status, r.Body)
		}
		if !strings.Contains(r.RPC.Error.Message, "oldest commit record") || !strings.Contains(r.RPC.Error.Message, "500") {
			t.Fatalf("message %q does not say why", r.RPC.Error.Message)
		}
		t.Logf("pinning call ended after %v (grace 300ms)", time.Since(start))
	})
	t.Run("leaves its session serving", func(t *testing.T) {
		f := f.in(t)
		setReadings(t, "0 20")
		if r := f.post(sid, mcptest.ToolCall(3, "echo", `{"text":"after"}`)); r.Status != http.StatusOK || r.RPC.Error != nil {
			t.Fatalf("the session after its call was ended: %d %s", r.Status, r.Body)
		}
	})
}

func TestQuietRepositoryNeverEndsALongCall(t *testing.T) {
	f, sid := underPressure(t, 100*time.Millisecond)
	setReadings(t, fmt.Sprintf("3 20 %d", f.gemSession(sid)))
	if r := f.post(sid, mcptest.ToolCall(2, "sleep", `{"ms":1000}`)); r.Status != http.StatusOK || r.RPC.Error != nil {
		t.Fatalf("a long call on a quiet repository: %d %s", r.Status, r.Body)
	}
}
