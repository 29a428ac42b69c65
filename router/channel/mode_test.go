package channel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// nextStream records that the wrapped stream opener served a GET.
type nextStream struct{ served int }

func (n *nextStream) ServeStream(w http.ResponseWriter, _ *http.Request, _ *session.Session) {
	n.served++
	w.WriteHeader(http.StatusTeapot)
}

func TestPrepareSessionGivesTheWorkerTheAddressAndAFreshSecret(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h}
	var a, b worker.PrepareConfig
	if err := m.PrepareSession(context.Background(), "s1", &a); err != nil {
		t.Fatal(err)
	}
	_ = m.PrepareSession(context.Background(), "s2", &b)
	if a.Channel == nil || a.Channel.Address != h.Address() || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a.Channel.Secret) {
		t.Fatalf("channel config %+v", a.Channel)
	}
	if a.Channel.Secret == b.Channel.Secret {
		t.Fatal("two sessions share a secret")
	}
}

func TestAnEndpointWhoseSessionNeverOpenedExpires(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h, Unclaimed: 50 * time.Millisecond}
	var cfg worker.PrepareConfig
	_ = m.PrepareSession(context.Background(), "failed-login", &cfg)
	deadline := time.Now().Add(5 * time.Second)
	for h.Endpoint("failed-login") != nil {
		if time.Now().After(deadline) {
			t.Fatal("the endpoint of a session that never opened was kept")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHooksAttachOnOpenAndCloseOnEndAndCallTheNextHooks(t *testing.T) {
	h := newHub(t, Options{})
	opened, ended := 0, 0
	m := &Mode{Hub: h, Unclaimed: 50 * time.Millisecond}
	hooks := m.Hooks(session.Hooks{
		Opened: func(*session.Session) { opened++ },
		Ended:  func(*session.Session, session.Reason) { ended++ },
	})
	var cfg worker.PrepareConfig
	_ = m.PrepareSession(context.Background(), "s1", &cfg)
	sess := session.New(context.Background(), "s1", nil, session.Options{})
	hooks.Opened(sess)
	time.Sleep(150 * time.Millisecond) // past Unclaimed: an attached endpoint must survive it
	ep := h.Endpoint("s1")
	if ep == nil || !ep.attached() || opened != 1 {
		t.Fatalf("after Opened: endpoint %v attached %v next %d", ep, ep != nil && ep.attached(), opened)
	}
	hooks.Ended(sess, session.Reason{Kind: "test"})
	if h.Endpoint("s1") != nil || ended != 1 {
		t.Fatalf("after Ended: endpoint kept or next hook not called (%d)", ended)
	}
}

func TestServeStreamHandsEveryGETButAPOSTStreamsToTheWrappedOpener(t *testing.T) {
	h := newHub(t, Options{})
	next := &nextStream{}
	m := &Mode{Hub: h, Streams: next}
	var cfg worker.PrepareConfig
	_ = m.PrepareSession(context.Background(), "s1", &cfg)
	sess := session.New(context.Background(), "s1", nil, session.Options{})
	// A POST stream's id with nothing left to replay is refused: served as the standalone
	// stream, it would supersede the client's own GET stream.
	for last, want := range map[string]int{"": http.StatusTeapot, "0-1-4": http.StatusTeapot, "not-an-id": http.StatusTeapot, "3-1-1": http.StatusConflict} {
		r := httptest.NewRequest(http.MethodGet, "/mcp", nil)
		if last != "" {
			r.Header.Set("Last-Event-ID", last)
		}
		w := httptest.NewRecorder()
		m.ServeStream(w, r, sess)
		if w.Code != want {
			t.Fatalf("Last-Event-ID %q: %d, want %d", last, w.Code, want)
		}
	}
	if next.served != 3 {
		t.Fatalf("wrapped opener served %d of 3", next.served)
	}
}

func TestBeginBindsTheRequestUntilItsAnswerIsFinal(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h}
	var cfg worker.PrepareConfig
	_ = m.PrepareSession(context.Background(), "s1", &cfg)
	sess := session.New(context.Background(), "s1", nil, session.Options{})
	ep := h.Endpoint("s1")
	msg := jsonrpc.Message{ID: []byte(`42`), Method: "tools/call"}
	ans := m.Begin(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", nil), sess, msg)
	if ep.call([]byte(`42`)) == nil {
		t.Fatal("the request is not bound while it runs")
	}
	ans.Final(http.StatusOK, nil, []byte(`{}`))
	if ep.call([]byte(`42`)) != nil {
		t.Fatal("the request is still bound after its answer")
	}
}
