package router_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func TestASecondRequestQueuesBehindTheFirst(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	first := make(chan time.Time, 1)
	go func() {
		r := f.post(sid, call(1, "sleep", `{"ms":500}`))
		if r.Status != http.StatusOK || r.RPC.Error != nil {
			t.Errorf("sleep: %d %s", r.Status, r.Body)
		}
		first <- time.Now()
	}()
	mcptest.Eventually(t, 2*time.Second, "the sleep is running", busy(f, sid))
	sent := time.Now()
	r := f.post(sid, call(2, "echo", `{"text":"after"}`))
	waited := time.Since(sent)
	wantStatus(t, r, http.StatusOK)
	// The echo itself takes microseconds: it can only have taken this long by queueing.
	if waited < 300*time.Millisecond {
		t.Fatalf("the echo took %v: it did not wait behind the running sleep", waited)
	}
	<-first
}

func TestSessionsRunInParallel(t *testing.T) {
	f := newFixture(t)
	sids := []string{f.open(), f.open(), f.open()}
	start := time.Now()
	var wg sync.WaitGroup
	for i, sid := range sids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.post(sid, call(i, "sleep", `{"ms":1000}`))
			if r.Status != http.StatusOK || r.RPC.Error != nil {
				t.Errorf("sleep on %s: %d %s", sid, r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	// Serial would be 3 s; generous bound, the point is overlap.
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Fatalf("three 1 s sleeps on three sessions took %v", d)
	}
}

func TestALongCallDelaysNeitherAnotherSessionNorNewConnections(t *testing.T) {
	f := newFixture(t)
	slow, other := f.open(), f.open()
	done := make(chan reply, 1)
	go func() { done <- f.post(slow, call(1, "sleep", `{"ms":3000}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the sleep is running", busy(f, slow))
	start := time.Now()
	wantStatus(t, f.post(other, call(2, "echo", `{"text":"x"}`)), http.StatusOK)
	resp, err := http.Get(f.ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	third := f.open()
	if d := time.Since(start); d > time.Second {
		t.Fatalf("another session, /healthz and a new initialize took %v behind a long call", d)
	}
	_ = third
	f.post(slow, cancelOf("1"))
	<-done
}

// The session's GET stream; each subtest is one step of the same stream's life, in order.
func TestTheSessionsGETStream(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Stream = sse.Options{Keepalive: 50 * time.Millisecond}
	})
	sid := f.open()
	resp := f.client(&http.Client{Timeout: 5 * time.Second}).Stream(t, sid, "")
	rd := bufio.NewReader(resp.Body)
	t.Run("opens as an event stream", func(t *testing.T) {
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("GET /mcp: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	})
	t.Run("is kept alive", func(t *testing.T) {
		keepalives := 0
		for keepalives < 2 {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("stream ended early: %v", err)
			}
			if strings.HasPrefix(line, ": keepalive") {
				keepalives++
			}
		}
	})
	t.Run("ends with its session", func(t *testing.T) {
		wantStatus(t, f.in(t).do(http.MethodDelete, sid, ""), http.StatusNoContent)
		if !mcptest.EndsWithin(rd, 2*time.Second) {
			t.Fatal("the stream outlived its session")
		}
	})
}

func TestGetThatDoesNotAcceptEventStreamIs406(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	wantError(t, f.do(http.MethodGet, sid, "", "Accept", "application/json"), http.StatusNotAcceptable, -32600, errkind.NotAcceptable)
}

// Shutdown with a call running; each subtest is one step of the same shutdown, in order.
func TestShutdownWithACallRunning(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	f.open()
	done := make(chan reply, 1)
	go func() { done <- f.post(sid, call(1, "sleep_soft_immune", `{"ms":20000}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the sleep is running", busy(f, sid))
	f.srv.BeginShutdown()
	t.Run("refuses a new session", func(t *testing.T) {
		wantError(t, f.in(t).post("", initBody), http.StatusServiceUnavailable, -32001, errkind.ShuttingDown)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f.srv.Close(ctx)
	t.Run("ends the running call with shuttingDown", func(t *testing.T) {
		wantError(t, <-done, http.StatusOK, -32001, errkind.ShuttingDown)
	})
	t.Run("logs every gem out", func(t *testing.T) {
		if n := f.l.Live(); n != 0 {
			t.Fatalf("%d gems still logged in after Close", n)
		}
	})
	t.Run("answers healthz 503", func(t *testing.T) {
		health, err := http.Get(f.ts.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		health.Body.Close()
		if health.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("/healthz during shutdown: %d", health.StatusCode)
		}
	})
}

// uncancellableLauncher finishes its login even after its context is cancelled, as a GCI
// login past its point of no return does.
type uncancellableLauncher struct {
	*workertest.Launcher
	started chan struct{}
}

func (l uncancellableLauncher) Launch(ctx context.Context, s worker.LoginSpec, c worker.PrepareConfig) (worker.Gem, error) {
	close(l.started)
	time.Sleep(300 * time.Millisecond)
	return l.Launcher.Launch(context.Background(), s, c)
}

func TestCloseDuringALoginLeavesNoGemBehind(t *testing.T) {
	started := make(chan struct{})
	f := newFixture(t, func(o *router.Options, l *workertest.Launcher) {
		o.Launcher = uncancellableLauncher{Launcher: l, started: started}
	})
	done := make(chan reply, 1)
	go func() { done <- f.post("", initBody) }()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f.srv.Close(ctx)
	r := <-done
	wantError(t, r, http.StatusServiceUnavailable, -32001, errkind.ShuttingDown)
	if n := f.l.Live(); n != 0 {
		t.Fatalf("%d gems logged in after Close", n)
	}
	if u := f.srv.Sessions().Used(); u != 0 {
		t.Fatalf("%d slots taken after Close", u)
	}
}
