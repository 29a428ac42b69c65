package channel

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
)

func newHub(t *testing.T, o Options) *Hub {
	t.Helper()
	o.Log = zerolog.Nop()
	h, err := Listen(o)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// worker is a test worker's raw connection.
type testWorker struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

func dial(t *testing.T, h *Hub) *testWorker {
	t.Helper()
	nc, err := net.Dial("tcp", h.Address())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { nc.Close() })
	return &testWorker{t: t, nc: nc, br: bufio.NewReader(nc)}
}

func (w *testWorker) send(v any) {
	w.t.Helper()
	b, ok := v.([]byte)
	if !ok {
		b, _ = json.Marshal(v)
	}
	if _, err := w.nc.Write(appendFrame(nil, b)); err != nil {
		w.t.Fatalf("worker write: %v", err)
	}
}

// read answers the next frame as a map, or fails the test after 5 s.
func (w *testWorker) read() map[string]json.RawMessage {
	w.t.Helper()
	_ = w.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := readFrame(w.br, DefaultMaxFrame)
	if err != nil {
		w.t.Fatalf("worker read: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		w.t.Fatalf("frame %q: %v", raw, err)
	}
	return m
}

// closedByRouter reports whether the router closed the connection within 5 s.
func (w *testWorker) closedByRouter() bool {
	_ = w.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, err := readFrame(w.br, 64<<20); err != nil {
			return !isTimeout(err)
		}
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func connect(t *testing.T, h *Hub, ep *Endpoint) *testWorker {
	t.Helper()
	w := dial(t, h)
	w.send(map[string]any{"hello": 1, "secret": ep.Secret()})
	if ack := w.read(); string(ack["ok"]) != "true" {
		t.Fatalf("hello refused: %v", ack)
	}
	return w
}

func kindOf(t *testing.T, m map[string]json.RawMessage) string {
	t.Helper()
	var e struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(m["error"], &e)
	return e.Kind
}

func waitRefusal(t *testing.T, h *Hub, kind string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second) // generous: the machine is shared
	for h.Refusals()[kind] == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no %s refusal counted: %v", kind, h.Refusals())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder is a CallStream that keeps what it is given.
type recorder struct {
	mu     sync.Mutex
	msgs   []string
	got    chan string
	closed bool
}

func newRecorder() *recorder { return &recorder{got: make(chan string, 1000)} }

func (r *recorder) Message(msg []byte) error {
	r.mu.Lock()
	r.msgs = append(r.msgs, string(msg))
	r.mu.Unlock()
	r.got <- string(msg)
	return nil
}

func (r *recorder) CloseStream() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	return nil
}

func (r *recorder) next(t *testing.T) string {
	t.Helper()
	select {
	case m := <-r.got:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no message reached the call's stream")
		return ""
	}
}

func TestListenRefusesANonLoopbackAddress(t *testing.T) {
	if _, err := Listen(Options{Address: "0.0.0.0:0"}); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("want a loopback refusal, got %v", err)
	}
}

func TestAWrongSecret(t *testing.T) {
	h := newHub(t, Options{})
	if _, err := h.Open("s1"); err != nil {
		t.Fatal(err)
	}
	w := dial(t, h)
	w.send(map[string]any{"hello": 1, "secret": "not-the-secret"})
	t.Run("is refused by its kind", func(t *testing.T) {
		if ack := w.read(); string(ack["ok"]) != "false" || kindOf(t, ack) != RefusedBadSecret {
			t.Fatalf("ack %v", ack)
		}
	})
	t.Run("closes the connection", func(t *testing.T) {
		if !w.closedByRouter() {
			t.Fatal("connection left open after a wrong secret")
		}
	})
	t.Run("is counted", func(t *testing.T) { waitRefusal(t, h, RefusedBadSecret) })
}

func TestAClosedSessionsSecretIsRefusedAsSessionEnded(t *testing.T) {
	h := newHub(t, Options{})
	ep, _ := h.Open("s1")
	live := connect(t, h, ep)
	ep.Close()
	if !live.closedByRouter() {
		t.Fatal("the session's open connection survived its end")
	}
	w := dial(t, h)
	w.send(map[string]any{"hello": 1, "secret": ep.Secret()})
	if ack := w.read(); kindOf(t, ack) != RefusedSessionEnded {
		t.Fatalf("ack %v", ack)
	}
	waitRefusal(t, h, RefusedSessionEnded)
}

func TestAConnectionWithoutAHelloIsClosedInTime(t *testing.T) {
	h := newHub(t, Options{HelloTimeout: 150 * time.Millisecond})
	silent := dial(t, h)
	if !silent.closedByRouter() {
		t.Fatal("a silent connection was kept")
	}
	waitRefusal(t, h, RefusedNoHello)
}

func TestAHelloOfAnotherVersionIsRefused(t *testing.T) {
	h := newHub(t, Options{HelloTimeout: 150 * time.Millisecond})
	bad := dial(t, h)
	bad.send(map[string]any{"hello": 2, "secret": "x"})
	if ack := bad.read(); kindOf(t, ack) != RefusedBadHello {
		t.Fatalf("ack %v", ack)
	}
}

func TestAnOversizedFrameClosesTheConnectionWithoutReadingIt(t *testing.T) {
	h := newHub(t, Options{MaxFrame: 1024})
	ep, _ := h.Open("s1")
	w := connect(t, h, ep)
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], 1<<30)
	if _, err := w.nc.Write(head[:]); err != nil {
		t.Fatal(err)
	}
	if !w.closedByRouter() {
		t.Fatal("connection kept after an oversized frame")
	}
	waitRefusal(t, h, RefusedFrameTooLarge)
}

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

// ask sends a request for call 1 and answers the id the router gave it toward the client.
func ask(t *testing.T, w *testWorker, rec *recorder, workerID string) string {
	t.Helper()
	w.send(map[string]any{"call": 1, "message": map[string]any{"jsonrpc": "2.0", "id": workerID,
		"method": "elicitation/create", "params": map[string]any{"message": "name?"}}})
	var out struct {
		ID     string `json:"id"`
		Method string `json:"method"`
		Params struct{ Message string }
	}
	if err := json.Unmarshal([]byte(rec.next(t)), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.ID, pending.IDPrefix) || out.Method != "elicitation/create" || out.Params.Message != "name?" {
		t.Fatalf("request toward the client: %+v", out)
	}
	return out.ID
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

func answerKind(t *testing.T, w *testWorker) (id, kind string) {
	t.Helper()
	var msg struct {
		ID    string `json:"id"`
		Error struct {
			Code int
			Data struct{ Kind string }
		}
	}
	_ = json.Unmarshal(w.read()["message"], &msg)
	if msg.Error.Code != -32001 {
		t.Fatalf("want a -32001 answer, got %+v", msg)
	}
	return msg.ID, msg.Error.Data.Kind
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

func TestTooManyConnectionsForOneSessionAreRefused(t *testing.T) {
	h := newHub(t, Options{MaxConns: 1})
	ep, _ := h.Open("s1")
	connect(t, h, ep)
	w := dial(t, h)
	w.send(map[string]any{"hello": 1, "secret": ep.Secret()})
	if ack := w.read(); kindOf(t, ack) != RefusedTooManyConns {
		t.Fatalf("ack %v", ack)
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

// Connections that never say hello are bounded in number (each costs a goroutine until its
// hello timeout) and in what their first frame may make the router allocate: 50 of them, each
// announcing a 1 MiB frame, cost +50 goroutines and +51 MiB for the hello timeout.
func TestConnectionsWaitingForTheirHelloAreBounded(t *testing.T) {
	h := newHub(t, Options{HelloTimeout: 3 * time.Second})
	before := liveHeap()
	goroutines := runtime.NumGoroutine()
	for i := range 50 {
		// Half announce a full frame, half a small one; none sends it whole.
		var head [4]byte
		binary.BigEndian.PutUint32(head[:], map[bool]uint32{true: DefaultMaxFrame, false: 1000}[i%2 == 0])
		w := dial(t, h)
		_, _ = w.nc.Write(head[:])
		_, _ = w.nc.Write([]byte(`{"hello":1,`))
	}
	time.Sleep(300 * time.Millisecond)
	grew, more := int64(liveHeap())-int64(before), runtime.NumGoroutine()-goroutines
	t.Logf("50 connections waiting for a hello: %+d KiB live heap, %+d goroutines, %d refusals counted", grew>>10, more, h.Refusals()[RefusedTooManyHellos])
	if more > DefaultMaxUnnamed+8 || grew > 4<<20 {
		t.Fatalf("50 connections without a hello: %+d goroutines, live heap %+d KiB; want at most %d waiting and a few KiB each",
			more, grew>>10, DefaultMaxUnnamed)
	}
	if h.Refusals()[RefusedTooManyHellos] == 0 {
		t.Fatal("no connection was refused as one too many waiting for its hello")
	}
	// A worker with a real hello still gets in once the strangers are gone.
	ep, _ := h.Open("s1")
	waitRefusal(t, h, RefusedNoHello)
	connect(t, h, ep)
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
