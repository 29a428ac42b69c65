package router_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func busy(f *fixture, sid string) func() bool {
	return func() bool {
		s, ok := f.srv.Sessions().Get(sid)
		if !ok {
			return false
		}
		_, running := s.InFlight()
		return running
	}
}

func cancelOf(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user pressed Esc"}}`
}

// Both POSTs, the call's and the cancel's, are answered 202, and the session serves on.
func TestACancelledNotificationEndsItsCall(t *testing.T) {
	for _, tool := range []string{"sleep", "sleep_soft_immune"} {
		t.Run(tool, func(t *testing.T) {
			f := newFixture(t)
			sid := f.open()
			done := make(chan reply, 1)
			start := time.Now()
			go func() { done <- f.post(sid, call(5, tool, `{"ms":20000}`)) }()
			mcptest.Eventually(t, 2*time.Second, "the call is running", busy(f, sid))
			r := f.post(sid, cancelOf("5"))
			wantStatus(t, r, http.StatusAccepted)
			select {
			case r := <-done:
				wantStatus(t, r, http.StatusAccepted)
				if len(r.Body) != 0 {
					t.Fatalf("the cancelled request got a body: %s", r.Body)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the cancelled call did not end")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("cancel took %v", d)
			}
			r = f.post(sid, call(6, "echo", `{"text":"still here"}`))
			wantStatus(t, r, http.StatusOK)
			if !strings.Contains(string(r.Body), "still here") {
				t.Fatalf("the session stopped serving after a cancel: %s", r.Body)
			}
		})
	}
}

func TestCancellingAQueuedRequestMeansItNeverRuns(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	first := make(chan reply, 1)
	second := make(chan reply, 1)
	go func() { first <- f.post(sid, call(1, "sleep", `{"ms":800}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the first call is running", busy(f, sid))
	go func() { second <- f.post(sid, call("q2", "echo", `{"text":"never"}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the second call is queued", func() bool {
		s, _ := f.srv.Sessions().Get(sid)
		return s.Queued() == 1
	})
	wantStatus(t, f.post(sid, cancelOf(`"q2"`)), http.StatusAccepted)
	r := <-second
	wantStatus(t, r, http.StatusAccepted)
	wantStatus(t, <-first, http.StatusOK)
}

func TestARequestTimeout(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.RequestTimeout = 200 * time.Millisecond })
	sid := f.open()
	t.Run("answers -32001 with the request's id, naming the setting", func(t *testing.T) {
		r := f.in(t).post(sid, call("slow-1", "sleep", `{"ms":20000}`))
		if !wantError(t, r, http.StatusOK, -32001, errkind.RequestTimeout) {
			return
		}
		if string(r.RPC.ID) != `"slow-1"` {
			t.Errorf("the deadline answer carries id %s, want \"slow-1\"", r.RPC.ID)
		}
		if !strings.Contains(r.RPC.Error.Message, "MCP_REQUEST_TIMEOUT") {
			t.Errorf("message %q should name MCP_REQUEST_TIMEOUT", r.RPC.Error.Message)
		}
		if e, _ := r.RPC.Error.Data["ending"].(string); e != "ended by soft break" {
			t.Errorf("data.ending %q, want the soft break", e)
		}
	})
	t.Run("leaves the session serving", func(t *testing.T) {
		wantStatus(t, f.in(t).post(sid, call(2, "echo", `{"text":"x"}`)), http.StatusOK)
	})
}

func TestACallThatIgnoresBothBreaksIsStoppedWithItsSession(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.RequestTimeout = 100 * time.Millisecond
		o.MaxSessions = 1
	})
	sid := f.open()
	r := f.post(sid, call(3, "sleep_immune", `{"ms":20000}`))
	wantError(t, r, http.StatusOK, -32001, errkind.RequestTimeout)
	if e, _ := r.RPC.Error.Data["ending"].(string); e != "ended by stopping the session" {
		t.Fatalf("data.ending %q, want the stop", e)
	}
	wantError(t, f.post(sid, call(4, "echo", `{"text":"x"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
	f.open() // its slot came back
}

func TestADeadGemsSessionEndsWithSessionGone(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxSessions = 1 })
	sid := f.open()
	r := f.post(sid, call(42, "die", `{}`))
	wantError(t, r, http.StatusOK, -32001, errkind.SessionGone)
	if string(r.RPC.ID) != "42" {
		t.Fatalf("sessionGone carries id %s, want 42", r.RPC.ID)
	}
	if strings.Contains(string(r.Body), "fake gem:") {
		t.Fatalf("the full error text reached the client: %s", r.Body)
	}
	if !strings.Contains(f.log.String(), "the die tool ended the gem") {
		t.Fatalf("the full reason is not in the log")
	}
	wantError(t, f.post(sid, call(43, "echo", `{"text":"x"}`)), http.StatusNotFound, -32001, errkind.SessionNotFound)
	if u := f.srv.Sessions().Used(); u != 0 {
		t.Fatalf("%d slots taken after the gem died", u)
	}
	if f.l.Live() != 0 {
		t.Fatalf("the dead gem's session was not logged out")
	}
	f.open()
}

func TestGemKilledMidCallAnswersSessionGone(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	done := make(chan reply, 1)
	go func() { done <- f.post(sid, call(8, "sleep", `{"ms":20000}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the call is running", busy(f, sid))
	if !f.l.Kill(1) {
		t.Fatal("no gem 1 to kill")
	}
	r := <-done
	wantError(t, r, http.StatusOK, -32001, errkind.SessionGone)
	if string(r.RPC.ID) != "8" {
		t.Fatalf("id %s, want 8", r.RPC.ID)
	}
	wantStatus(t, f.post(sid, call(9, "echo", `{"text":"x"}`)), http.StatusNotFound)
}

// flakyLauncher wraps the fake so its gems fail with an ordinary (non-fatal) GemStone error.
type flakyLauncher struct{ *workertest.Launcher }

type flakyGem struct{ worker.Gem }

func (l flakyLauncher) Launch(ctx context.Context, s worker.LoginSpec, c worker.PrepareConfig) (worker.Gem, error) {
	g, err := l.Launcher.Launch(ctx, s, c)
	if err != nil {
		return nil, err
	}
	return flakyGem{g}, nil
}

func (g flakyGem) Handle(ctx context.Context, msg []byte) ([]byte, error) {
	if strings.Contains(string(msg), "explode") {
		return nil, &worker.Failure{Kind: worker.Other, Number: 2010, Safe: "GemStone error 2010 (runtime error)",
			Err: errors.New("a doesNotUnderstand in the worker at /secret/path")}
	}
	return g.Gem.Handle(ctx, msg)
}

func TestAnOrdinaryWorkerError(t *testing.T) {
	f := newFixture(t, func(o *router.Options, l *workertest.Launcher) { o.Launcher = flakyLauncher{l} })
	sid := f.open()
	t.Run("answers workerError with its number and without its text", func(t *testing.T) {
		r := f.in(t).post(sid, call(1, "echo", `{"text":"explode"}`))
		if !wantError(t, r, http.StatusOK, -32603, errkind.WorkerError) {
			return
		}
		if n, _ := r.RPC.Error.Data["number"].(float64); n != 2010 {
			t.Errorf("data.number %v, want 2010", r.RPC.Error.Data["number"])
		}
		if strings.Contains(string(r.Body), "/secret/path") {
			t.Errorf("the worker error's text reached the client: %s", r.Body)
		}
	})
	t.Run("leaves the session serving", func(t *testing.T) {
		wantStatus(t, f.in(t).post(sid, call(2, "echo", `{"text":"fine"}`)), http.StatusOK)
	})
}

// A failing tool is the worker's own answer, passed through.
func TestAFailingToolIsTheWorkersIsErrorResult(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	r := f.post(sid, call(3, "fail", `{"kind":"boom"}`))
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(string(r.RPC.Result), `"isError":true`) {
		t.Fatalf("a tool error should come back as the worker's isError result: %s", r.Body)
	}
}

func TestLongLoginIsBoundedByLoginTimeout(t *testing.T) {
	f := newFixture(t, func(o *router.Options, l *workertest.Launcher) {
		o.LoginTimeout = 100 * time.Millisecond
		l.LoginDelay = 10 * time.Second
	})
	start := time.Now()
	r := f.post("", initBody)
	wantError(t, r, http.StatusOK, -32001, errkind.LoginTimeout)
	if !strings.Contains(r.RPC.Error.Message, "MCP_LOGIN_TIMEOUT") {
		t.Fatalf("message %q should name MCP_LOGIN_TIMEOUT", r.RPC.Error.Message)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatalf("a stuck login held initialize for %v", time.Since(start))
	}
	if f.srv.Sessions().Used() != 0 {
		t.Fatal("the abandoned login kept its slot")
	}
}
