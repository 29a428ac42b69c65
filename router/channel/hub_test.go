package channel

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The hub (hub.go): who may connect to the channel, and how many.

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
