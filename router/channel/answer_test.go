package channel

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sseEvent is one parsed event.
type sseEvent struct{ id, data, retry string }

func readEvents(t *testing.T, body io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur != (sseEvent{}) {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "retry: "):
			cur.retry = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data += line[6:]
		}
	}
	return out
}

func post(t *testing.T, url, accept string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const bothTypes = "application/json, text/event-stream"

func TestAnAnswerWithoutMessagesIsPlainJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-11-25"})
		a.Final(http.StatusOK, http.Header{"Mcp-Session-Id": {"s"}}, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	defer srv.Close()
	resp := post(t, srv.URL, bothTypes)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
		resp.Header.Get("Mcp-Session-Id") != "s" || string(body) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
}

func TestMessagesTurnTheAnswerIntoAPrimedStreamThatEndsWithTheResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-11-25"})
		for _, m := range []string{`{"n":1}`, `{"n":2}`, `{"n":3}`} {
			if err := a.Message([]byte(m)); err != nil {
				t.Errorf("Message: %v", err)
			}
		}
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	resp := post(t, srv.URL, bothTypes)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	ev := readEvents(t, resp.Body)
	want := []string{"", `{"n":1}`, `{"n":2}`, `{"n":3}`, `{"final":true}`}
	if len(ev) != len(want) {
		t.Fatalf("events %+v", ev)
	}
	for i, e := range ev {
		if e.data != want[i] {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	if ev[0].id != "1-1-0" || ev[0].retry == "" || ev[4].id != "1-1-4" {
		t.Fatalf("priming or ids wrong: %+v", ev)
	}
}

func TestOlderRevisionsGetNoPrimingEvent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-06-18"})
		_ = a.Message([]byte(`{"n":1}`))
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	ev := readEvents(t, post(t, srv.URL, bothTypes).Body)
	if len(ev) != 2 || ev[0].data != `{"n":1}` {
		t.Fatalf("events %+v", ev)
	}
}

func TestAClientThatTakesOnlyJSONGetsNoMessagesButItsAnswer(t *testing.T) {
	errs := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-11-25"})
		errs <- a.Message([]byte(`{"n":1}`))
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	resp := post(t, srv.URL, "application/json")
	body, _ := io.ReadAll(resp.Body)
	if err := <-errs; !errors.Is(err, ErrNoStream) || string(body) != `{"final":true}` {
		t.Fatalf("err %v body %s", err, body)
	}
}

func TestAStreamClosedMidCallIsResumedByAGETWithLastEventID(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if !ep.Resume(w, r) {
				http.Error(w, "standalone", http.StatusTeapot)
			}
			return
		}
		a := NewAnswer(w, r, ep, AnswerOptions{ProtocolVersion: "2025-11-25"})
		// The call runs on in this handler after its POST's response has ended.
		_ = a.Message([]byte(`{"before":true}`))
		if err := a.CloseStream(); err != nil {
			t.Errorf("CloseStream: %v", err)
		}
		_ = a.Message([]byte(`{"after":true}`))
		<-release
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	ev := readEvents(t, post(t, srv.URL, bothTypes).Body) // ends when the stream is closed
	if len(ev) != 2 || ev[1].data != `{"before":true}` {
		t.Fatalf("POST stream %+v", ev)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Last-Event-ID", ev[1].id)
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := readEvents(t, resp.Body)
	if len(got) != 2 || got[0].data != `{"after":true}` || got[1].data != `{"final":true}` {
		t.Fatalf("resumed %+v", got)
	}
	// A GET naming the standalone lane, or no id of ours, is not a resumption; one naming a
	// POST stream with nothing more to replay is refused, never served as the standalone stream.
	for id, want := range map[string]int{"0-1-3": http.StatusTeapot, "junk": http.StatusTeapot, "9-1-1": http.StatusConflict, ev[1].id: http.StatusConflict} {
		req.Header.Set("Last-Event-ID", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Last-Event-ID %s: %d, want %d", id, resp.StatusCode, want)
		}
	}
}

func TestAStreamCutByTheNetworkMidCallIsResumedFromItsLastEventID(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	cut, release := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if !ep.Resume(w, r) {
				http.Error(w, "standalone", http.StatusTeapot)
			}
			return
		}
		a := NewAnswer(w, r, ep, AnswerOptions{ProtocolVersion: "2025-11-25"})
		_ = a.Message([]byte(`{"seen":true}`))
		<-r.Context().Done() // the client's connection is gone
		close(cut)
		<-release
		_ = a.Message([]byte(`{"missed":true}`))
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	resp := post(t, srv.URL, bothTypes)
	br := bufio.NewReader(resp.Body)
	var last string
	for last == "" || !strings.HasPrefix(last, "id: 1-1-1") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("POST stream: %v", err)
		}
		if strings.HasPrefix(line, "id: ") {
			last = line
		}
	}
	resp.Body.Close() // a proxy cuts the stream mid-call
	<-cut
	close(release)
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Last-Event-ID", strings.TrimSpace(strings.TrimPrefix(last, "id: ")))
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	ev := readEvents(t, got.Body)
	if len(ev) != 2 || ev[0].data != `{"missed":true}` || ev[1].data != `{"final":true}` {
		t.Fatalf("resumed %+v, want the missed message and the response", ev)
	}
}

func TestASilentCallWithAProgressTokenIsKeptAliveWithIncreasingProgress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-11-25"})
		a.KeepProgress([]byte(`"tok"`), 40*time.Millisecond)
		time.Sleep(150 * time.Millisecond) // the worker says nothing
		// Its own first step is not above the keepalives already sent: dropped. Its next is.
		_ = a.Message([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":0}}`))
		_ = a.Message([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":50}}`))
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	resp := post(t, srv.URL, bothTypes)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("a silent call with a progress token is answered %q", ct)
	}
	ev := readEvents(t, resp.Body)
	last, keepalives := -1.0, 0
	for _, e := range ev[1 : len(ev)-1] {
		var m struct {
			Method string
			Params struct {
				ProgressToken string
				Progress      float64
			}
		}
		if err := json.Unmarshal([]byte(e.data), &m); err != nil || m.Method != "notifications/progress" || m.Params.ProgressToken != "tok" {
			t.Fatalf("event %q is not progress for the token", e.data)
		}
		if m.Params.Progress <= last {
			t.Fatalf("progress went from %v to %v: it must increase", last, m.Params.Progress)
		}
		if m.Params.Progress < 1 {
			keepalives++
		}
		last = m.Params.Progress
	}
	if keepalives < 2 || last != 50 || ev[len(ev)-1].data != `{"final":true}` {
		t.Fatalf("events %+v: want keepalives every 40 ms, the worker's 50, then the response", ev)
	}
}

func TestNoKeepaliveWithoutAProgressToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := NewAnswer(w, r, nil, AnswerOptions{ProtocolVersion: "2025-11-25"})
		a.KeepProgress(nil, 20*time.Millisecond)
		time.Sleep(80 * time.Millisecond)
		a.Final(http.StatusOK, nil, []byte(`{"final":true}`))
	}))
	defer srv.Close()
	if ct := post(t, srv.URL, bothTypes).Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("without a token the answer stays JSON: %q", ct)
	}
}
