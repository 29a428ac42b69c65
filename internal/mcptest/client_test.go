package mcptest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

func TestAnEventStreamWithNoResponseIsAnError(t *testing.T) {
	_, msg, err := readEventResponse(strings.NewReader(": only a comment\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n"))
	if err == nil || msg != nil {
		t.Errorf("a stream that ends with no response answered %q, %v", msg, err)
	}
}

// echoServer answers every request with what it saw: an SSE answer (a notification, then the
// response) for a POST that accepts one, and the request's headers as JSON otherwise.
func echoServer(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodPost && strings.Contains(string(b), `"sse"`) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "id: 1\nretry: 100\ndata:\n\n"+
				"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"result\":1}}\n\n"+
				"data: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32001,\"message\":\"m\",\"data\":{\"kind\":\"k\"}}}\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"host":"`+r.Host+`","sid":"`+r.Header.Get("Mcp-Session-Id")+
			`","version":"`+r.Header.Get("Mcp-Protocol-Version")+`","auth":"`+r.Header.Get("Authorization")+
			`","type":"`+r.Header.Get("Content-Type")+`","last":"`+r.Header.Get("Last-Event-ID")+`","accept":"`+r.Header.Get("Accept")+`"}}`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestClientSend(t *testing.T) {
	ts := echoServer(t)
	t.Run("sends the session's headers", func(t *testing.T) {
		c := &Client{URL: ts.URL, Protocol: "2025-06-18", Header: http.Header{"Authorization": {"Bearer x"}}}
		a := c.Send(t, http.MethodPost, "s1", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Host", "example.test")
		for _, want := range []string{`"host":"example.test"`, `"sid":"s1"`, `"version":"2025-06-18"`, `"auth":"Bearer x"`,
			`"type":"application/json"`, `"accept":"application/json, text/event-stream"`} {
			if !strings.Contains(string(a.RPC.Result), want) {
				t.Errorf("the request lacked %s: %s", want, a.RPC.Result)
			}
		}
	})
	t.Run("sends no protocol version without a session", func(t *testing.T) {
		a := (&Client{URL: ts.URL, Protocol: "2025-06-18"}).Send(t, http.MethodPost, "", `{}`)
		if !strings.Contains(string(a.RPC.Result), `"version":""`) {
			t.Errorf("a request without a session sent a protocol version: %s", a.RPC.Result)
		}
	})
}

func TestClientReadsTheResponseEventOfAnSSEAnswerPastNotifications(t *testing.T) {
	ts := echoServer(t)
	a, err := (&Client{URL: ts.URL}).Post(context.Background(), "s", []byte(`{"sse":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.RPC.Kind() != "k" || string(a.RPC.ID) != "3" || !strings.Contains(string(a.Body), "notifications/progress") {
		t.Fatalf("decoded %+v from %q", a.RPC, a.Body)
	}
}

// An answer that is not JSON-RPC (an OAuth refusal) is still an answer; Decode says it is none.
func TestClientKeepsAnAnswerThatIsNotJSONRPC(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"invalid_token"}`)
	}))
	defer ts.Close()
	a, err := (&Client{URL: ts.URL}).Post(context.Background(), "", []byte(`{}`))
	t.Run("as an answer", func(t *testing.T) {
		if err != nil || a.Status != http.StatusUnauthorized {
			t.Fatalf("an OAuth refusal: %d, %v", a.Status, err)
		}
	})
	t.Run("that Decode refuses", func(t *testing.T) {
		if _, err := a.Decode(); err == nil {
			t.Fatal("an OAuth error object decoded as JSON-RPC")
		}
	})
}

func TestClientStreamOpensAGETWithItsLastEventID(t *testing.T) {
	ts := echoServer(t)
	resp := (&Client{URL: ts.URL, Protocol: "2025-11-25"}).Stream(t, "s2", "7")
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`"sid":"s2"`, `"last":"7"`, `"accept":"text/event-stream"`, `"version":"2025-11-25"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("GET lacked %s: %s", want, b)
		}
	}
}

func TestClientDeleteEndsTheSession(t *testing.T) {
	ts := echoServer(t)
	if code, err := (&Client{URL: ts.URL, Protocol: "2025-11-25"}).Delete(context.Background(), "s2"); err != nil || code != http.StatusNoContent {
		t.Fatalf("DELETE: %d, %v", code, err)
	}
}

// recorder is a testing.TB that keeps what a helper reports; Fatalf ends the goroutine, as
// testing's does.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func TestWantError(t *testing.T) {
	refused := Answer{Status: http.StatusBadRequest, Body: []byte("{}"),
		RPC: RPC{Error: &Error{Code: -32600, Data: map[string]any{"kind": errkind.BatchRefused}}}}
	for _, c := range []struct {
		name           string
		a              Answer
		wantOK         bool
		errors, fatals int
	}{
		{"the wanted error", refused, true, 0, 0},
		{"status, code and kind all differ", Answer{Status: http.StatusOK, Body: []byte("{}"),
			RPC: RPC{Error: &Error{Code: -32001, Data: map[string]any{"kind": errkind.SessionLimit}}}}, false, 3, 0},
		{"no error object", Answer{Status: http.StatusBadRequest, Body: []byte("{}"), RPC: RPC{Result: []byte("{}")}}, false, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			ok := false
			done := make(chan struct{})
			go func() {
				defer close(done)
				ok = WantError(r, c.a, http.StatusBadRequest, -32600, errkind.BatchRefused)
			}()
			<-done
			if ok != c.wantOK || len(r.errors) != c.errors || len(r.fatals) != c.fatals {
				t.Errorf("answered %v with errors %q and fatals %q: want %v, %d errors, %d fatals",
					ok, r.errors, r.fatals, c.wantOK, c.errors, c.fatals)
			}
		})
	}
}
