package router_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// recordingMode is a ResponseMode that remembers what it was begun for and answers as JSON.
type recordingMode struct {
	mu    sync.Mutex
	begun []string
}

func (m *recordingMode) Begin(w http.ResponseWriter, r *http.Request, sess *session.Session, msg jsonrpc.Message) router.Answer {
	m.mu.Lock()
	m.begun = append(m.begun, sess.ID()+" "+msg.Method+" "+string(msg.ID))
	m.mu.Unlock()
	return router.JSONResponses{}.Begin(w, r, sess, msg)
}

func TestTheResponseModeIsBegunForEachRequestTheWorkerAnswers(t *testing.T) {
	mode := &recordingMode{}
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Responses = mode })
	sid := f.open()
	f.post(sid, call(7, "echo", `{"text":"x"}`))
	f.post(sid, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)               // answered by the front end
	f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`) // no answer to write
	mode.mu.Lock()
	defer mode.mu.Unlock()
	if len(mode.begun) != 2 || mode.begun[0] != sid+" initialize 1" || mode.begun[1] != sid+" tools/call 7" {
		t.Fatalf("begun %v", mode.begun)
	}
}

func TestPrepareSession(t *testing.T) {
	refuse := false
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.MaxSessions = 1
		o.PrepareSession = func(_ context.Context, id string, cfg *worker.PrepareConfig) (router.SessionPart, error) {
			if refuse {
				return nil, errors.New("no channel port free")
			}
			cfg.Channel = &worker.Channel{Address: "127.0.0.1:1", Secret: "secret-for-" + id}
			return nil, nil
		}
	})
	t.Run("adjusts each session's prepare config", func(t *testing.T) {
		f := f.in(t)
		sid := f.open()
		if ch := f.l.Configs()[0].Channel; ch == nil || ch.Secret != "secret-for-"+sid {
			t.Errorf("prepare config channel %+v", ch)
		}
		f.do(http.MethodDelete, sid, "")
	})
	t.Run("can refuse a session without telling the client why", func(t *testing.T) {
		refuse = true
		r := f.in(t).post("", initBody)
		wantError(t, r, http.StatusOK, -32001, errkind.PrepareFailed)
		if strings.Contains(string(r.Body), "no channel port") {
			t.Errorf("the internal reason reached the client: %s", r.Body)
		}
		if f.srv.Sessions().Used() != 0 || f.l.Launches() != 1 {
			t.Errorf("used %d launches %d", f.srv.Sessions().Used(), f.l.Launches())
		}
	})
}

// recordedPart is a plug-in's part of a session: it records the session it joined and closes.
type recordedPart struct {
	mu     sync.Mutex
	joined string
	closed int
}

func (p *recordedPart) Join(s *session.Session) { p.mu.Lock(); p.joined = s.ID(); p.mu.Unlock() }
func (p *recordedPart) Close()                  { p.mu.Lock(); p.closed++; p.mu.Unlock() }
func (p *recordedPart) state() (string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.joined, p.closed
}

func TestAPreparedPart(t *testing.T) {
	var parts []*recordedPart
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.PrepareSession = func(context.Context, string, *worker.PrepareConfig) (router.SessionPart, error) {
			p := &recordedPart{}
			parts = append(parts, p)
			return p, nil
		}
	})
	sid := f.open()
	t.Run("joins its session", func(t *testing.T) {
		if joined, closed := parts[0].state(); joined != sid || closed != 0 {
			t.Errorf("open session's part: joined %q closed %d", joined, closed)
		}
		if held, ok := session.Held[*recordedPart](mustSession(t, f, sid)); !ok || held != parts[0] {
			t.Error("the session does not hold its part")
		}
	})
	t.Run("is closed once when its session ends", func(t *testing.T) {
		wantStatus(t, f.in(t).do(http.MethodDelete, sid, ""), http.StatusNoContent)
		if _, closed := parts[0].state(); closed != 1 {
			t.Fatalf("ended session's part closed %d times", closed)
		}
	})
	t.Run("is closed once when its login fails", func(t *testing.T) {
		f.l.LoginError = errors.New("stone refused")
		wantError(t, f.in(t).post("", initBody), http.StatusOK, -32001, "")
		if len(parts) != 2 {
			t.Fatalf("%d parts prepared, want 2", len(parts))
		}
		if joined, closed := parts[1].state(); joined != "" || closed != 1 {
			t.Fatalf("failed login's part: joined %q closed %d", joined, closed)
		}
	})
}

func mustSession(t *testing.T, f *fixture, sid string) *session.Session {
	t.Helper()
	sess, ok := f.srv.Sessions().Get(sid)
	if !ok {
		t.Fatalf("session %s is not in the table", sid)
	}
	return sess
}
