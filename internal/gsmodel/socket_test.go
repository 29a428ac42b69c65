package gsmodel

import (
	"net"
	"strconv"
	"testing"
	"time"
)

// GsSocket over a real loopback connection: readWillNotBlockWithin: waits for the peer's bytes,
// read:into:startingAt: answers them, and 0 once the peer has closed (McpChannel gives the
// channel up then).
func TestGsSocketReadsALoopbackPeerUntilItCloses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		time.Sleep(300 * time.Millisecond) // longer than one read's own wait
		_, _ = c.Write([]byte("hello"))
		time.Sleep(100 * time.Millisecond)
		c.Close()
	}()
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	src := "| s buf n first closed | s := GsSocket new. " +
		"(s connectTo: " + port + " on: '127.0.0.1' timeoutMs: 2000) ifFalse: [^'no connect']. " +
		"(s readWillNotBlockWithin: 5000) ifFalse: [^'nothing came']. " +
		"buf := String new. n := s read: 10 into: buf startingAt: 1. first := buf copyFrom: 1 to: n. " +
		"(s readWillNotBlockWithin: 5000) ifFalse: [^'no close seen']. " +
		"closed := s read: 10 into: buf startingAt: 1. s close. " +
		"first , ' ' , closed printString"
	if got := run(t, s, src); got != "'hello 0'" {
		t.Errorf("got %s, want 'hello 0'", got)
	}
}
