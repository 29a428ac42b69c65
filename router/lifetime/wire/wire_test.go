package wire_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/gemfail"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime/wire"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse/ssetest"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/fakeworker"
)

// stone is a control session's readings that a test can change while the engine runs.
type stone struct {
	mu sync.Mutex
	st worker.StoneStatus
}

func (s *stone) ReadStone(context.Context) (worker.StoneStatus, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st, nil
}

func (s *stone) set(st worker.StoneStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
}

// fixture is the real router with the fake worker, wired to router/sse and router/lifetime
// the way cmd/mcp-gemstone wires them, on a real socket and the real clock with short intervals.
type fixture struct {
	t       *testing.T
	ts      *httptest.Server
	srv     *router.Server
	l       *fakeworker.Launcher
	streams *wire.Streams
	eng     *lifetime.Engine
	stone   *stone
}

// fast is a policy scaled down so end-to-end tests run in seconds.
func fast() lifetime.Config {
	c := lifetime.Defaults()
	c.PassInterval = 50 * time.Millisecond
	c.IdleTimeout = lifetime.After(time.Hour)
	c.StreamlessIdleTimeout = lifetime.After(time.Hour)
	c.StreamLossGrace = lifetime.After(time.Hour)
	c.ProbeInterval = lifetime.Off()
	c.ProbeTimeout = 300 * time.Millisecond
	c.MaxCommitsBehind = 0
	c.StuckViewGrace = lifetime.Off()
	c.PinnedViewGrace = lifetime.Off()
	return c
}

func newFixture(t *testing.T, cfg lifetime.Config, sseOpts sse.Options) *fixture {
	t.Helper()
	l := fakeworker.New()
	st := &stone{st: worker.StoneStatus{CommitRecordBacklog: -1, SignalAbortBacklog: -1}}
	streams := wire.New(wire.Options{SSE: sseOpts, Log: zerolog.Nop()})
	srv := router.New(router.Options{
		Launcher:    l,
		Login:       worker.LoginSpec{User: "u", Password: "p"},
		Prepare:     worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID:    "r1",
		MaxSessions: 3,
		Classify:    gemfail.Classify,
		Streams:     streams,
		Hooks:       streams.Hooks(session.Hooks{}),
		Log:         zerolog.Nop(),
	})
	eng, err := lifetime.New(cfg, streams, st)
	if err != nil {
		t.Fatalf("lifetime.New: %v", err)
	}
	streams.Bind(srv.Sessions(), eng)
	eng.Start()
	ts := httptest.NewServer(srv.Handler())
	f := &fixture{t: t, ts: ts, srv: srv, l: l, streams: streams, eng: eng, stone: st}
	t.Cleanup(func() {
		eng.Stop()
		ts.CloseClientConnections()
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Close(ctx)
	})
	return f
}

type rpcReply struct {
	Status int
	Header http.Header
	Body   []byte
	Error  *mcptest.Error
}

func (f *fixture) post(sid, body string) rpcReply {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.ts.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := rpcReply{Status: resp.StatusCode, Header: resp.Header, Body: b}
	if len(b) > 0 && b[0] == '{' {
		var env struct {
			Error json.RawMessage `json:"error"`
		}
		_ = json.Unmarshal(b, &env)
		if len(env.Error) > 0 {
			_ = json.Unmarshal(env.Error, &r.Error)
		}
	}
	return r
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func (f *fixture) open(version string) string {
	f.t.Helper()
	r := f.post("", fmt.Sprintf(initBody, version))
	if r.Status != http.StatusOK {
		f.t.Fatalf("initialize: %d %s", r.Status, r.Body)
	}
	return r.Header.Get("Mcp-Session-Id")
}

// get opens GET /mcp and reads its frames on a goroutine.
func (f *fixture) get(sid, lastEventID string) *ssetest.Stream {
	f.t.Helper()
	return ssetest.Open(f.t, f.ts.URL+"/mcp", sid, lastEventID, 64)
}

func (f *fixture) gone(sid string) bool {
	return f.post(sid, `{"jsonrpc":"2.0","id":99,"method":"tools/list"}`).Status == http.StatusNotFound
}

func TestGETOpensTheSessionStreamWithPrimingAndKeepalive(t *testing.T) {
	f := newFixture(t, fast(), sse.Options{Keepalive: 50 * time.Millisecond})
	sid := f.open("2025-11-25")
	s := f.get(sid, "")
	if s.Resp.StatusCode != http.StatusOK || s.Resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %q", s.Resp.StatusCode, s.Resp.Header.Get("Content-Type"))
	}
	prime := s.Next(t, 2*time.Second, func(fr ssetest.Frame) bool { return true })
	if prime.ID == "" || prime.Retry == "" || prime.Data != "" {
		t.Fatalf("first frame %+v, want the priming event with retry", prime)
	}
	s.Next(t, 2*time.Second, func(fr ssetest.Frame) bool { return fr.Comment == "keepalive" })
}

func TestGETWithoutPrimingFor20250618(t *testing.T) {
	f := newFixture(t, fast(), sse.Options{Keepalive: 50 * time.Millisecond})
	sid := f.open("2025-06-18")
	s := f.get(sid, "")
	if fr := s.Next(t, 2*time.Second, func(ssetest.Frame) bool { return true }); fr.Comment != "keepalive" || fr.ID != "" || fr.Retry != "" {
		t.Fatalf("first frame %+v, want a keepalive and no priming event", fr)
	}
}

func TestSecondGETEndsTheFirstThroughTheRouter(t *testing.T) {
	f := newFixture(t, fast(), sse.Options{Keepalive: time.Hour})
	sid := f.open("2025-11-25")
	first := f.get(sid, "")
	first.Next(t, 2*time.Second, func(ssetest.Frame) bool { return true }) // primed: open
	second := f.get(sid, "")
	if !first.Ended(2 * time.Second) {
		t.Fatal("the first stream is still open 2s after a second GET")
	}
	st, _ := f.streams.Stream(sid)
	st.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/x"}`))
	if fr := second.Next(t, 2*time.Second, ssetest.IsEvent); !strings.Contains(fr.Data, "notifications/x") {
		t.Fatalf("second stream got %+v", fr)
	}
	if f.gone(sid) {
		t.Fatal("a stream handover released the session")
	}
}

func TestLastEventIDReplaysExactlyTheMissedEventsThroughTheRouter(t *testing.T) {
	f := newFixture(t, fast(), sse.Options{Keepalive: time.Hour})
	sid := f.open("2025-11-25")
	first := f.get(sid, "")
	first.Next(t, 2*time.Second, func(ssetest.Frame) bool { return true })
	st, _ := f.streams.Stream(sid)
	for i := 1; i <= 4; i++ {
		st.Send([]byte(fmt.Sprintf(`{"n":%d}`, i)))
	}
	var resumeFrom string
	for i := 1; i <= 4; i++ {
		fr := first.Next(t, 2*time.Second, ssetest.IsEvent)
		if i == 1 {
			resumeFrom = fr.ID
		}
	}
	first.Cancel()
	first.Ended(2 * time.Second)
	st.Send([]byte(`{"n":5}`))
	second := f.get(sid, resumeFrom)
	for i := 2; i <= 5; i++ {
		if fr := second.Next(t, 2*time.Second, ssetest.IsEvent); fr.Data != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("replay delivered %q, want n=%d", fr.Data, i)
		}
	}
	st.Send([]byte(`{"n":6}`))
	if fr := second.Next(t, 2*time.Second, ssetest.IsEvent); fr.Data != `{"n":6}` {
		t.Fatalf("after the replay got %q, want n=6 (nothing twice)", fr.Data)
	}
}

func TestUnansweredProbeReleasesTheGemAndTheClientMeets404(t *testing.T) {
	cfg := fast()
	cfg.ProbeInterval = lifetime.After(100 * time.Millisecond)
	f := newFixture(t, cfg, sse.Options{Keepalive: time.Hour})
	sid := f.open("2025-06-18")
	s := f.get(sid, "")
	ping := s.Next(t, 3*time.Second, ssetest.IsEvent)
	if !strings.Contains(ping.Data, `"method":"ping"`) || !strings.Contains(ping.Data, `"srv-`) {
		t.Fatalf("probe %q, want a ping with a srv- id", ping.Data)
	}
	// Polled without requests: a request would itself be proof of life.
	mcptest.Eventually(t, 5*time.Second, "gem logged out after an unanswered probe", func() bool { return f.l.Live() == 0 })
	if !f.gone(sid) {
		t.Fatal("released session still answers")
	}
	if n := f.eng.Stats().Reaped[lifetime.KindProbeUnanswered]; n != 1 {
		t.Fatalf("reaped for probeUnanswered %d times, want 1", n)
	}
}

func TestAnsweredProbesKeepTheGemButDoNotResetTheIdleClock(t *testing.T) {
	cfg := fast()
	cfg.ProbeInterval = lifetime.After(100 * time.Millisecond)
	cfg.IdleTimeout = lifetime.After(1500 * time.Millisecond)
	cfg.StreamlessIdleTimeout = lifetime.After(time.Second)
	f := newFixture(t, cfg, sse.Options{Keepalive: time.Hour})
	sid := f.open("2025-06-18")
	s := f.get(sid, "")
	start := time.Now()
	answered := 0
	for time.Since(start) < 1200*time.Millisecond {
		fr := s.Next(t, 3*time.Second, ssetest.IsEvent)
		var ping struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(fr.Data), &ping); err != nil {
			t.Fatal(err)
		}
		r := f.post(sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, ping.ID))
		if r.Status != http.StatusAccepted {
			t.Fatalf("answer to the probe: %d", r.Status)
		}
		answered++
	}
	if answered < 3 {
		t.Fatalf("only %d probes in 1.2s at a 100ms interval", answered)
	}
	if n := f.eng.Stats().Reaped[lifetime.KindProbeUnanswered]; n != 0 {
		t.Fatal("an answering client was released as unanswered")
	}
	// Answers are not activity: the idle deadline, counted from initialize, still arrives.
	mcptest.Eventually(t, 5*time.Second, "released at the idle deadline", func() bool {
		return f.eng.Stats().Reaped[lifetime.KindIdle] == 1
	})
	if !f.gone(sid) {
		t.Fatal("reaped session still answers")
	}
}

func TestStreamlessSessionIsReleasedAfterItsIntervalAndNotBefore(t *testing.T) {
	cfg := fast()
	cfg.StreamlessIdleTimeout = lifetime.After(time.Second)
	f := newFixture(t, cfg, sse.Options{})
	sid := f.open("2025-06-18")
	time.Sleep(700 * time.Millisecond)
	if r := f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); r.Status != http.StatusOK {
		t.Fatalf("tools/list at 0.7s: %d", r.Status)
	}
	last := time.Now()
	time.Sleep(800 * time.Millisecond)
	if f.l.Live() != 1 || f.eng.Stats().Reaped[lifetime.KindStreamlessIdle] != 0 {
		t.Fatalf("released %v after its last request, before the 1s interval", time.Since(last))
	}
	mcptest.Eventually(t, 5*time.Second, "streamless session released", func() bool { return f.l.Live() == 0 })
	if el := time.Since(last); el < time.Second {
		t.Fatalf("released %v after its last request", el)
	}
	if !f.gone(sid) {
		t.Fatal("released session still answers")
	}
}

func TestClosedStreamIsReleasedAfterTheGraceUnlessReopened(t *testing.T) {
	cfg := fast()
	cfg.StreamLossGrace = lifetime.After(300 * time.Millisecond)
	f := newFixture(t, cfg, sse.Options{Keepalive: time.Hour})

	kept := f.open("2025-06-18")
	s1 := f.get(kept, "")
	time.Sleep(50 * time.Millisecond)
	s1.Cancel()
	time.Sleep(100 * time.Millisecond)
	f.get(kept, "") // reattached inside the grace

	lost := f.open("2025-06-18")
	s2 := f.get(lost, "")
	time.Sleep(50 * time.Millisecond)
	closedAt := time.Now()
	s2.Cancel()
	mcptest.Eventually(t, 5*time.Second, "session whose client hung up is released", func() bool {
		return f.eng.Stats().Reaped[lifetime.KindStreamLost] == 1
	})
	if el := time.Since(closedAt); el < 300*time.Millisecond {
		t.Fatalf("released %v after the hang-up, inside the 300ms grace", el)
	}
	if !f.gone(lost) {
		t.Fatal("released session still answers")
	}
	if f.gone(kept) {
		t.Fatal("a session that reopened its stream inside the grace was released")
	}
}

func TestClientPingAfterAHangUpRetractsTheGraceButKeepsNoGemPastTheStreamlessDeadline(t *testing.T) {
	cfg := fast()
	cfg.StreamLossGrace = lifetime.After(300 * time.Millisecond)
	cfg.StreamlessIdleTimeout = lifetime.After(1500 * time.Millisecond)
	f := newFixture(t, cfg, sse.Options{Keepalive: time.Hour})
	sid := f.open("2025-06-18")
	st := f.get(sid, "")
	time.Sleep(50 * time.Millisecond)
	closedAt := time.Now()
	st.Cancel()
	time.Sleep(100 * time.Millisecond)
	// The front end answers the ping itself; it never reaches the gem or the activity clock.
	if r := f.post(sid, `{"jsonrpc":"2.0","id":7,"method":"ping"}`); r.Status != http.StatusOK {
		t.Fatalf("ping: %d %s", r.Status, r.Body)
	}
	time.Sleep(500 * time.Millisecond) // well past the 300ms grace
	if n := f.eng.Stats().Reaped[lifetime.KindStreamLost]; n != 0 || f.l.Live() != 1 {
		t.Fatalf("a client that pinged inside the grace was released (streamLost %d, live gems %d)", n, f.l.Live())
	}
	// Pings keep coming, but they are not requests: the streamless deadline, counted from the
	// hang-up, still arrives.
	stop, stopped := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); <-stopped }()
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				req, _ := http.NewRequest(http.MethodPost, f.ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":8,"method":"ping"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Session-Id", sid)
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}
		}
	}()
	mcptest.Eventually(t, 5*time.Second, "pinging streamless session released", func() bool {
		return f.eng.Stats().Reaped[lifetime.KindStreamlessIdle] == 1
	})
	if el := time.Since(closedAt); el < 1500*time.Millisecond {
		t.Fatalf("released %v after the hang-up, inside the 1.5s streamless interval", el)
	}
}

func TestViewHygieneRefreshesTheBehindSessionAndNotTheBusyOne(t *testing.T) {
	cfg := fast()
	cfg.MaxCommitsBehind = 20
	f := newFixture(t, cfg, sse.Options{})
	idle := f.open("2025-06-18")
	busy := f.open("2025-06-18")
	for _, sid := range []string{idle, busy} {
		r := f.post(sid, mcptest.ToolCall(2, "set_view_status", `{"commitsBehind":30}`))
		if r.Status != http.StatusOK {
			t.Fatalf("set_view_status: %d %s", r.Status, r.Body)
		}
	}
	done := make(chan rpcReply, 1)
	go func() { done <- f.post(busy, mcptest.ToolCall(3, "sleep", `{"ms":800}`)) }()
	mcptest.Eventually(t, 3*time.Second, "the idle session refreshed", func() bool { return f.eng.Stats().Refreshes >= 1 })
	time.Sleep(200 * time.Millisecond)
	if n := f.eng.Stats().Refreshes; n != 1 {
		t.Fatalf("%d refreshes while the busy session's call ran, want 1 (the idle one only)", n)
	}
	if r := <-done; r.Status != http.StatusOK {
		t.Fatalf("the busy session's call: %d %s", r.Status, r.Body)
	}
	mcptest.Eventually(t, 3*time.Second, "the busy session refreshed once its call ended", func() bool { return f.eng.Stats().Refreshes == 2 })
}

func TestCallPinningTheOldestRecordUnderPressureIsEndedWithAReason(t *testing.T) {
	cfg := fast()
	cfg.MaxCommitsBehind = 20
	cfg.PinnedViewGrace = lifetime.After(200 * time.Millisecond)
	f := newFixture(t, cfg, sse.Options{})
	sid := f.open("2025-06-18")
	var gemSession int
	for _, s := range f.srv.Sessions().All() {
		gemSession = s.Gem().Prepared().GemSession
	}
	f.stone.set(worker.StoneStatus{CommitRecordBacklog: 500, SignalAbortBacklog: 20, OldestCRSessions: []int{gemSession}})
	start := time.Now()
	r := f.post(sid, mcptest.ToolCall(2, "sleep", `{"ms":10000}`))
	if r.Error == nil || r.Error.Code != -32001 || r.Error.Data["kind"] != lifetime.KindPinnedView {
		t.Fatalf("answer %d %s, want -32001 with data.kind pinnedView", r.Status, r.Body)
	}
	if !strings.Contains(r.Error.Message, "oldest commit record") {
		t.Fatalf("message %q does not say why", r.Error.Message)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("ended only after %v", el)
	}
	f.stone.set(worker.StoneStatus{CommitRecordBacklog: 0, SignalAbortBacklog: 20})
	if f.gone(sid) {
		t.Fatal("ending the call ended the session")
	}
}

func TestQuietRepositoryLetsALongCallRun(t *testing.T) {
	cfg := fast()
	cfg.MaxCommitsBehind = 20
	cfg.PinnedViewGrace = lifetime.After(100 * time.Millisecond)
	f := newFixture(t, cfg, sse.Options{})
	sid := f.open("2025-06-18")
	var gemSession int
	for _, s := range f.srv.Sessions().All() {
		gemSession = s.Gem().Prepared().GemSession
	}
	f.stone.set(worker.StoneStatus{CommitRecordBacklog: 3, SignalAbortBacklog: 20, OldestCRSessions: []int{gemSession}})
	r := f.post(sid, mcptest.ToolCall(2, "sleep", `{"ms":700}`))
	if r.Status != http.StatusOK || r.Error != nil {
		t.Fatalf("a long call on a quiet repository: %d %s", r.Status, r.Body)
	}
}
