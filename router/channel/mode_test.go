package channel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// nextStream records that the wrapped stream opener served a GET.
type nextStream struct{ served int }

func (n *nextStream) ServeStream(w http.ResponseWriter, _ *http.Request, _ *session.Session) {
	n.served++
	w.WriteHeader(http.StatusTeapot)
}

func TestPrepareSessionsChannelConfig(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h}
	var a, b worker.PrepareConfig
	if _, err := m.PrepareSession(context.Background(), "s1", &a); err != nil {
		t.Fatal(err)
	}
	_, _ = m.PrepareSession(context.Background(), "s2", &b)
	t.Run("names the hub's address and a secret", func(t *testing.T) {
		if a.Channel == nil || a.Channel.Address != h.Address() || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a.Channel.Secret) {
			t.Fatalf("channel config %+v", a.Channel)
		}
	})
	t.Run("gives each session its own secret", func(t *testing.T) {
		if a.Channel == nil || b.Channel == nil || a.Channel.Secret == b.Channel.Secret {
			t.Fatal("two sessions share a secret")
		}
	})
}

// joined prepares a session's endpoint and gives it the session, as the router does once
// the login has succeeded.
func joined(t *testing.T, m *Mode, id string) (*session.Session, *Endpoint) {
	t.Helper()
	var cfg worker.PrepareConfig
	part, err := m.PrepareSession(context.Background(), id, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(context.Background(), id, nil, session.Options{})
	part.Join(sess)
	sess.Hold(part)
	return sess, part.(*Endpoint)
}

func TestTheEndpoint(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h}
	sess, ep := joined(t, m, "s1")
	t.Run("is the part its session holds", func(t *testing.T) {
		if !ep.attached() || endpointOf(sess) != ep {
			t.Fatalf("attached %v, held %v", ep.attached(), endpointOf(sess))
		}
	})
	t.Run("ends at Close, refusing nothing", func(t *testing.T) {
		ep.Close()
		select {
		case <-ep.done:
		default:
			t.Fatal("Close left the endpoint open")
		}
		if len(h.Refusals()) != 0 {
			t.Fatalf("refusals %v", h.Refusals())
		}
	})
}

func TestServeStreamHandsEveryGETButAPOSTStreamsToTheWrappedOpener(t *testing.T) {
	h := newHub(t, Options{})
	next := &nextStream{}
	m := &Mode{Hub: h, Streams: next}
	sess, _ := joined(t, m, "s1")
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
			t.Errorf("Last-Event-ID %q: %d, want %d", last, w.Code, want)
		}
	}
	if next.served != 3 {
		t.Fatalf("wrapped opener served %d of 3", next.served)
	}
}

func TestBeginBindsTheRequestUntilItsAnswerIsFinal(t *testing.T) {
	h := newHub(t, Options{})
	m := &Mode{Hub: h}
	sess, ep := joined(t, m, "s1")
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
