package mcptest

import (
	"net"
	"testing"
	"time"
)

func TestHeldForMeasuresUntilTheServerDropsTheConnectionOrTheLimit(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	drop := make(chan bool, 2)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if <-drop {
				time.Sleep(50 * time.Millisecond)
				c.Close()
			} else {
				defer c.Close() // held until the listener goes
			}
		}
	}()
	drop <- true
	if d := HeldFor(t, ln.Addr().String(), "GET / HTTP/1.1\r\n", 5*time.Second); d > 3*time.Second {
		t.Fatalf("a connection the server dropped after 50 ms was held %v", d)
	}
	drop <- false
	if d := HeldFor(t, ln.Addr().String(), "", 200*time.Millisecond); d < 200*time.Millisecond {
		t.Fatalf("a connection the server kept answered after %v, before the 200 ms limit", d)
	}
}
