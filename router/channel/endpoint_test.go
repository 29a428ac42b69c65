package channel

import (
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
)

// A worker echoes a call's id through its own JSON writer; every spelling of the same value
// must find the call, and different values must not.
func TestCallKeyMatchesAnIDByValue(t *testing.T) {
	same := [][]string{
		{`7`, `7.0`, `7e0`, `70e-1`},
		{`-12`, `-12.0`, `-1.2e1`},
		{`10000001`, `10000001.0`, `1.0000001e7`},
		{`123456789012345`, `1.23456789012345e14`},
		{`"a"`, `"\u0061"`},
	}
	var keys []string
	for _, spellings := range same {
		want := callKey(json.RawMessage(spellings[0]))
		for _, s := range spellings[1:] {
			if got := callKey(json.RawMessage(s)); got != want {
				t.Errorf("id %s keyed %q, id %s %q: the same value", s, got, spellings[0], want)
			}
		}
		keys = append(keys, want)
	}
	keys = append(keys, callKey(json.RawMessage(`8`)), callKey(json.RawMessage(`"7"`)), callKey(json.RawMessage(`1234567890123456`)))
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("two different ids share the key %q", k)
		}
		seen[k] = true
	}
}

// The endpoint (endpoint.go): relaying a session's notifications and questions between its
// worker and its calls.

func TestNotificationsReachTheBoundCallInTheOrderSent(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	rec := newRecorder()
	unbind := ep.Bind(json.RawMessage(`7`), rec)
	defer unbind()
	w := connect(t, h, ep)
	for i := 0; i < 200; i++ {
		w.send(map[string]any{"call": 7, "message": map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
			"params": map[string]any{"progressToken": "p", "progress": i}}})
	}
	for i := 0; i < 200; i++ {
		var m struct {
			Params struct{ Progress int } `json:"params"`
		}
		_ = json.Unmarshal([]byte(rec.next(t)), &m)
		if m.Params.Progress != i {
			t.Fatalf("message %d carried progress %d", i, m.Params.Progress)
		}
	}
}

func TestNotificationsOutsideACall(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	standalone := make(chan string, 4)
	ep.attach(Relay{Pending: pending.New(0), Standalone: func(m []byte) bool { standalone <- string(m); return true }})
	rec := newRecorder()
	ep.Bind(json.RawMessage(`"a"`), rec)() // bound and at once unbound: the call ended
	w := connect(t, h, ep)
	w.send(map[string]any{"call": "a", "message": map[string]any{"jsonrpc": "2.0", "method": "notifications/message"}})
	w.send(map[string]any{"message": map[string]any{"jsonrpc": "2.0", "method": "notifications/resources/updated",
		"params": map[string]any{"uri": "test://watched-resource"}}})
	t.Run("of no call go to the standalone stream", func(t *testing.T) {
		select {
		case m := <-standalone:
			if !strings.Contains(m, "resources/updated") {
				t.Fatalf("standalone got %s", m)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the unbound notification did not reach the standalone stream")
		}
	})
	t.Run("of an ended call are dropped", func(t *testing.T) {
		if len(rec.msgs) != 0 || len(standalone) != 0 {
			t.Fatalf("the ended call's notification was relayed: %v", rec.msgs)
		}
	})
}

// The client sees the request under an id of the router's; its answer reaches the worker under
// the worker's own.
func TestAWorkersRequestIsRenumberedBothWays(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	table := pending.New(0)
	ep.attach(Relay{Pending: table})
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`1`), rec)()
	w := connect(t, h, ep)
	srvID := ask(t, w, rec, "w-1")
	if !table.Resolve(json.RawMessage(`"`+srvID+`"`), json.RawMessage(`{"jsonrpc":"2.0","id":"`+srvID+`","result":{"action":"accept","content":{"name":"x"}}}`)) {
		t.Fatal("the client's answer matched no pending request")
	}
	answer := w.read()
	var msg struct {
		ID     string `json:"id"`
		Result struct{ Action string }
	}
	if err := json.Unmarshal(answer["message"], &msg); err != nil || msg.ID != "w-1" || msg.Result.Action != "accept" {
		t.Fatalf("answer to the worker: %s", answer["message"])
	}
}

func TestAQuestionTheClientNeverAnswersTimesOut(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	ep.attach(Relay{Pending: pending.New(100 * time.Millisecond)})
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`1`), rec)()
	w := connect(t, h, ep)
	ask(t, w, rec, "w-9")
	if id, kind := answerKind(t, w); id != "w-9" || kind != errkind.Timeout {
		t.Fatalf("answer %s %s", id, kind)
	}
}

func TestAQuestionEndsWithItsCall(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	ep.attach(Relay{Pending: pending.New(time.Minute)})
	rec := newRecorder()
	unbind := ep.Bind(json.RawMessage(`1`), rec)
	w := connect(t, h, ep)
	ask(t, w, rec, "w-2")
	unbind()
	if _, kind := answerKind(t, w); kind != errkind.CallEnded {
		t.Fatalf("kind %s", kind)
	}
	// A question for a call that is no longer running is answered at once.
	w.send(map[string]any{"call": 1, "message": map[string]any{"jsonrpc": "2.0", "id": "w-3", "method": "sampling/createMessage"}})
	if id, kind := answerKind(t, w); id != "w-3" || kind != errkind.CallEnded {
		t.Fatalf("answer %s %s", id, kind)
	}
}

func TestAQuestionEndsWithItsSession(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	ep.attach(Relay{Pending: pending.New(time.Minute)})
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`1`), rec)()
	w := connect(t, h, ep)
	ask(t, w, rec, "w-4")
	ep.Close()
	if !w.closedByRouter() {
		t.Fatal("the connection outlived its session")
	}
}

func TestAWorkerThatNeverReadsItsAnswersLosesItsConnection(t *testing.T) {
	h := newHub(t, Options{WriteTimeout: 200 * time.Millisecond, MaxAsks: 64})
	ep, _ := h.Open("s1")
	table := pending.New(time.Minute)
	ep.attach(Relay{Pending: table})
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`1`), rec)()
	w := connect(t, h, ep)
	_ = w.nc.(*net.TCPConn).SetReadBuffer(4096) // a small window fills fast
	const asks = 48
	for i := 0; i < asks; i++ {
		w.send(map[string]any{"call": 1, "message": map[string]any{"jsonrpc": "2.0", "id": i, "method": "sampling/createMessage"}})
	}
	big := strings.Repeat("x", 256<<10)
	for i := 0; i < asks; i++ {
		var out struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal([]byte(rec.next(t)), &out)
		table.Resolve(json.RawMessage(`"`+out.ID+`"`), json.RawMessage(`{"jsonrpc":"2.0","id":"`+out.ID+`","result":{"text":"`+big+`"}}`))
	}
	waitRefusal(t, h, RefusedUnreadAnswer)
	if !w.closedByRouter() {
		t.Fatal("the router kept the connection of a worker that does not read")
	}
}

func TestCloseStreamReachesTheBoundCall(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`"c"`), rec)()
	w := connect(t, h, ep)
	w.send(map[string]any{"call": "c", "closeStream": true})
	deadline := time.Now().Add(5 * time.Second)
	for {
		rec.mu.Lock()
		closed := rec.closed
		rec.mu.Unlock()
		if closed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("closeStream did not reach the call's stream")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestAFlushIsAnsweredAfterEveryEarlierFrameWasRelayed(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	rec := newRecorder()
	defer ep.Bind(json.RawMessage(`5`), rec)()
	w := connect(t, h, ep)
	for i := 0; i < 50; i++ {
		w.send(map[string]any{"call": 5, "message": map[string]any{"jsonrpc": "2.0", "method": "notifications/message"}})
	}
	w.send(map[string]any{"call": 5, "flush": "f-1"})
	if got := w.read(); string(got["flushed"]) != `"f-1"` {
		t.Fatalf("flush answer %v", got)
	}
	rec.mu.Lock()
	n := len(rec.msgs)
	rec.mu.Unlock()
	if n != 50 {
		t.Fatalf("flush answered with %d of 50 notifications relayed", n)
	}
}
