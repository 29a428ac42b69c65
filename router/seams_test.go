package router_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/fakeworker"
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

func TestTheResponseModeIsBegunPerRequestWithItsSessionAndMessage(t *testing.T) {
	mode := &recordingMode{}
	f := newFixture(t, func(o *router.Options, _ *fakeworker.Launcher) { o.Responses = mode })
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

func TestPrepareSessionAdjustsEachSessionsConfigAndCanRefuse(t *testing.T) {
	refuse := false
	f := newFixture(t, func(o *router.Options, _ *fakeworker.Launcher) {
		o.MaxSessions = 1
		o.PrepareSession = func(_ context.Context, id string, cfg *worker.PrepareConfig) error {
			if refuse {
				return errors.New("no channel port free")
			}
			cfg.Channel = &worker.Channel{Address: "127.0.0.1:1", Secret: "secret-for-" + id}
			return nil
		}
	})
	sid := f.open()
	if ch := f.l.Configs()[0].Channel; ch == nil || ch.Secret != "secret-for-"+sid {
		t.Fatalf("prepare config channel %+v", ch)
	}
	f.do(http.MethodDelete, sid, "")
	refuse = true
	r := f.post("", initBody)
	wantError(t, r, http.StatusOK, -32001, "prepareFailed")
	if strings.Contains(string(r.Body), "no channel port") {
		t.Fatalf("the internal reason reached the client: %s", r.Body)
	}
	if f.srv.Sessions().Used() != 0 || f.l.Launches() != 1 {
		t.Fatalf("used %d launches %d", f.srv.Sessions().Used(), f.l.Launches())
	}
}
