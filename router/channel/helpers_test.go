package channel

import (
	"bufio"
	"encoding/json"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

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

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
