// Package e2echannel drives bin/mcp-gemstone on the GCI test stand-in through the
// worker-to-router channel end to end: a real gem process (test/standin/gem running
// worker/workertest/fixtureworker) connects to the router's channel and speaks during its calls; the
// client sees it on the POST's event stream, answers the gem's questions with POSTs, and
// resumes a stream the gem had closed. The refusals a stranger meets are checked against the
// running binary too (the channel's own unit tests cover the rest, router/channel).
package e2echannel

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

var serverBinary string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "mcp-channel-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e_channel:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		if serverBinary, err = harness.BuildServer(dir); err != nil {
			fmt.Fprintln(os.Stderr, "e2e_channel:", err)
			return 1
		}
		return m.Run()
	}())
}

// mcpSession is a running server with one initialized session.
type mcpSession struct {
	t   *testing.T
	srv *harness.Server // nil for the in-process router
	url string
	sid string
	n   int
}

// as makes the subtest t the test s's helpers report to, and the returned func puts the parent
// back: a subtest that failed through its parent's *testing.T would stop the parent's goroutine
// from its own, which the testing package reports as a misuse instead of the failure. (Swapped
// rather than copied, as the other rigs' in(t) copy, since the session's request ids must stay
// one sequence; a test's subtests run one after another.)
func (s *mcpSession) as(t *testing.T) (restore func()) {
	parent := s.t
	s.t = t
	return func() { s.t = parent }
}

func open(t *testing.T) *mcpSession {
	t.Helper()
	return openWith(t)
}

// openWith is open with extra environment (NAME=value) for the server.
func openWith(t *testing.T, env ...string) *mcpSession {
	t.Helper()
	srv, err := harness.Start(harness.Options{Binary: serverBinary, Dir: t.TempDir(), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Stop(30 * time.Second)
		if left := srv.LiveGems(); len(left) > 0 {
			harness.KillGems(left)
			t.Errorf("stand-in gems left alive: %v", left)
		}
	})
	c := &harness.Client{URL: srv.URL, HTTP: http.DefaultClient, Protocol: harness.ProtocolVersion}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sid, err := c.Open(ctx)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, srv.Log())
	}
	return &mcpSession{t: t, srv: srv, url: srv.URL, sid: sid, n: 100}
}

// post sends one message on the session and answers the raw response (closed at cleanup).
func (s *mcpSession) post(body string) *http.Response {
	s.t.Helper()
	return s.postTo(s.url, s.sid, body)
}

func (s *mcpSession) postTo(url, sid, body string) *http.Response {
	s.t.Helper()
	return (&mcptest.Client{URL: url, Protocol: harness.ProtocolVersion}).Response(s.t, http.MethodPost, sid, body)
}

func (s *mcpSession) call(tool, args, meta string) *http.Response {
	s.n++
	params := `{"name":"` + tool + `","arguments":` + args
	if meta != "" {
		params += `,"_meta":` + meta
	}
	return s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}}`, s.n, params))
}

// event is one server-sent event.
type event struct {
	id    string
	retry string
	data  string
}

// events reads a stream's events as they come, until the stream ends or 20 s pass.
func events(t *testing.T, body io.Reader) <-chan event {
	out := make(chan event, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		var cur event
		seen := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if seen {
					out <- cur
				}
				cur, seen = event{}, false
			case strings.HasPrefix(line, "id: "):
				cur.id, seen = line[4:], true
			case strings.HasPrefix(line, "retry: "):
				cur.retry, seen = line[7:], true
			case strings.HasPrefix(line, "data: "):
				cur.data, seen = cur.data+line[6:], true
			}
		}
	}()
	return out
}

func next(t *testing.T, ch <-chan event) event {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended early")
		}
		return e
	case <-time.After(20 * time.Second):
		t.Fatal("no event within 20 s")
		return event{}
	}
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProgressToken string  `json:"progressToken"`
		Progress      float64 `json:"progress"`
		Level         string  `json:"level"`
		Data          string  `json:"data"`
		Message       string  `json:"message"`
	} `json:"params"`
	Result *struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	} `json:"result"`
}

func decode(t *testing.T, e event) message {
	t.Helper()
	var m message
	if err := json.Unmarshal([]byte(e.data), &m); err != nil {
		t.Fatalf("event data %q: %v", e.data, err)
	}
	return m
}

func TestAToolThatSaysNothingIsStillAnsweredAsJSON(t *testing.T) {
	s := open(t)
	resp := s.call("echo", `{"text":"plain"}`, "")
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" || !strings.Contains(string(body), "plain") {
		t.Fatalf("%s %s", ct, body)
	}
}

func TestProgressArrivesInOrderOnThePOSTStreamBeforeTheResult(t *testing.T) {
	s := open(t)
	resp := s.call("test_tool_with_progress", `{}`, `{"progressToken":"tok-1"}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	ev := events(t, resp.Body)
	if prime := next(t, ev); prime.data != "" || prime.id == "" || prime.retry == "" {
		t.Fatalf("first event is not a priming event: %+v", prime)
	}
	for _, want := range []float64{0, 50, 100} {
		m := decode(t, next(t, ev))
		if m.Method != "notifications/progress" || m.Params.ProgressToken != "tok-1" || m.Params.Progress != want {
			t.Fatalf("want progress %v, got %+v", want, m)
		}
	}
	if m := decode(t, next(t, ev)); m.Result == nil || m.Result.Content[0].Text != `"tok-1"` {
		t.Fatalf("result %+v", m)
	}
}

func TestLogMessagesFollowTheSessionsLevel(t *testing.T) {
	s := open(t)
	s.n++
	lvl := s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"logging/setLevel","params":{"level":"warning"}}`, s.n))
	if b, _ := io.ReadAll(lvl.Body); !strings.Contains(string(b), `"result":{}`) {
		t.Fatalf("setLevel warning: %s", b)
	}
	quiet := s.call("test_tool_with_logging", `{}`, "")
	if ct := quiet.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("info messages below the warning level were sent (%s)", ct)
	}
	s.n++
	s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"logging/setLevel","params":{"level":"debug"}}`, s.n))
	ev := events(t, s.call("test_tool_with_logging", `{}`, "").Body)
	next(t, ev) // priming
	for _, want := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if m := decode(t, next(t, ev)); m.Method != "notifications/message" || m.Params.Level != "info" || m.Params.Data != want {
			t.Fatalf("want log %q, got %+v", want, m)
		}
	}
	if m := decode(t, next(t, ev)); m.Result == nil {
		t.Fatalf("want the result last, got %+v", m)
	}
}

// An elicitation goes to the client, and its answer back to the gem.
func TestAnElicitationRoundTripsThroughTheClient(t *testing.T) {
	s := open(t)
	ev := events(t, s.call("test_elicitation", `{"message":"who are you?"}`, "").Body)
	next(t, ev) // priming
	ask := decode(t, next(t, ev))
	if ask.Method != "elicitation/create" || ask.Params.Message != "who are you?" || !strings.HasPrefix(string(ask.ID), `"srv-`) {
		t.Fatalf("request toward the client %+v", ask)
	}
	answer := s.post(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"action":"accept","content":{"username":"ada"}}}`)
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("the client's answer got %d", answer.StatusCode)
	}
	m := decode(t, next(t, ev))
	if m.Result == nil || !strings.Contains(m.Result.Content[0].Text, "action=accept") || !strings.Contains(m.Result.Content[0].Text, "ada") {
		t.Fatalf("result %+v", m)
	}
}

func TestAStreamTheGemClosesIsResumedByGETWithLastEventID(t *testing.T) {
	s := open(t)
	resp := s.call("test_reconnection", `{}`, "")
	var last string
	for e := range events(t, resp.Body) { // ends when the router closes the stream mid-call
		if e.data != "" {
			t.Fatalf("an event other than the priming one came before the close: %+v", e)
		}
		last = e.id
	}
	if last == "" {
		t.Fatal("the closed stream gave no event id to resume from")
	}
	m := decode(t, next(t, events(t, s.get(last).Body)))
	if m.Result == nil || !strings.Contains(m.Result.Content[0].Text, "Reconnection test completed") {
		t.Fatalf("resumed %+v", m)
	}
}

var channelAddress = regexp.MustCompile(`"address":"(127\.0\.0\.1:\d+)"[^\n]*worker-to-router channel listening`)

func TestStrangersOnTheChannel(t *testing.T) {
	s := open(t)
	m := channelAddress.FindStringSubmatch(s.srv.Log())
	if m == nil {
		t.Fatalf("the server did not log its channel address:\n%s", s.srv.Log())
	}
	hello := func(payload []byte, announce uint32) string {
		nc, err := net.DialTimeout("tcp", m[1], 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		var head [4]byte
		binary.BigEndian.PutUint32(head[:], announce)
		_, _ = nc.Write(append(head[:], payload...))
		_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(nc, head[:]); err != nil {
			t.Fatalf("no answer to the hello: %v", err)
		}
		body := make([]byte, binary.BigEndian.Uint32(head[:]))
		_, _ = io.ReadFull(nc, body)
		return string(body)
	}
	t.Run("with a wrong secret are refused", func(t *testing.T) {
		wrong := []byte(`{"hello":1,"secret":"0000000000000000000000000000000000000000000000000000000000000000"}`)
		if a := hello(wrong, uint32(len(wrong))); !strings.Contains(a, `"kind":"badSecret"`) {
			t.Fatalf("wrong secret answered %s", a)
		}
	})
	t.Run("with an oversized hello are refused", func(t *testing.T) {
		if a := hello(nil, 64<<20); !strings.Contains(a, `"kind":"frameTooLarge"`) {
			t.Fatalf("oversized hello answered %s", a)
		}
	})
	t.Run("are logged without the secret", func(t *testing.T) {
		if !harness.WaitFor(context.Background(), 5*time.Second, func() bool {
			log := s.srv.Log()
			return strings.Contains(log, `"refused":"badSecret"`) && strings.Contains(log, `"refused":"frameTooLarge"`)
		}) {
			t.Fatalf("refusals not logged:\n%s", s.srv.Log())
		}
		if strings.Contains(s.srv.Log(), "0000000000000000000000000000000000000000000000000000000000000000") {
			t.Fatal("a secret reached the log")
		}
	})
}
