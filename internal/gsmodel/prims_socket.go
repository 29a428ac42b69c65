package gsmodel

import (
	"errors"
	"net"
	"os"
	"strconv"
	"time"
)

// GsSocket as far as McpChannel needs it, over real loopback sockets: the model's gem can dial a
// real router. A forked GsProcess is what the model cannot be (fork is not modelled), so a
// test that forks a server is skipped with that reason (modelLimit).

type gsSocket struct {
	conn    net.Conn
	ln      net.Listener
	lastErr string
	pending []byte // bytes readWillNotBlockWithin: read while it waited
	eof     bool   // the peer closed: a read answers 0 at once
}

// waitReadable waits up to d for a byte (or the peer's close), keeping what it read.
func (sk *gsSocket) waitReadable(d time.Duration) bool {
	if len(sk.pending) > 0 || sk.eof {
		return true
	}
	buf := make([]byte, 4096)
	_ = sk.conn.SetReadDeadline(time.Now().Add(d))
	n, err := sk.conn.Read(buf)
	sk.pending = append(sk.pending, buf[:n]...)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		sk.eof = true
		sk.lastErr = err.Error()
	}
	return n > 0 || sk.eof
}

// failed keeps err, when there is one, for lastErrorString, and tells whether there was.
func (sk *gsSocket) failed(err error) bool {
	if err != nil {
		sk.lastErr = err.Error()
	}
	return err != nil
}

func (s *Session) socketOf(v Value) *gsSocket {
	o := s.argObj(v)
	if sk, ok := o.ext.(*gsSocket); ok {
		return sk
	}
	sk := &gsSocket{}
	o.ext = sk
	return sk
}

// modelLimit signals that a test needs what the model cannot be; the suite runner reports such a
// test as skipped, with this reason.
func (s *Session) modelLimit(reason string) Value {
	return s.signalNew("Error", 1, modelLimitPrefix+reason, nil)
}

const modelLimitPrefix = "the model cannot be: "

func (img *Image) socketPrims(s *Session) {
	img.socketClientPrims(s)
	img.socketServerPrims(s)
}

// socketClientPrims: a GsSocket that dials, writes, reads and closes.
func (img *Image) socketClientPrims(s *Session) {
	img.prim(s, "GsSocket", "connectTo:on:timeoutMs:", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		host, _ := s.str(x[1])
		c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(s.argInt(x[0]))),
			time.Duration(s.argInt(x[2]))*time.Millisecond)
		if sk.failed(err) {
			return false
		}
		sk.conn = c
		return true
	})
	img.prim(s, "GsSocket", "write:", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		if sk.conn == nil {
			return s.signalNew("Error", 2718, "the socket is not connected", nil)
		}
		r := s.runes(x[0])
		b := make([]byte, len(r))
		for i, c := range r {
			b[i] = byte(c)
		}
		_ = sk.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
		n, err := sk.conn.Write(b)
		if sk.failed(err) {
			return nil
		}
		return int64(n)
	})
	img.prim(s, "GsSocket", "readWillNotBlockWithin:", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		if sk.conn == nil {
			return false
		}
		return sk.waitReadable(time.Duration(s.argInt(x[0])) * time.Millisecond)
	})
	img.prim(s, "GsSocket", "read:into:startingAt:", func(s *Session, a Value, x []Value) Value {
		// What is there already, waiting at most a moment for the first byte; 0 once the peer
		// has closed.
		sk := s.socketOf(a)
		if sk.conn == nil {
			return nil
		}
		sk.waitReadable(50 * time.Millisecond)
		n := s.argInt(x[0])
		if n > len(sk.pending) {
			n = len(sk.pending)
		}
		got := sk.pending[:n]
		sk.pending = sk.pending[n:]
		dst := s.argObj(x[1])
		start := s.argInt(x[2])
		st := s.wr(dst)
		for len(st.by) < start-1+n {
			st.by = append(st.by, 0)
		}
		for i, b := range got {
			st.by[start-1+i] = rune(b)
		}
		return int64(n)
	})
	img.prim(s, "GsSocket", "close", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		if sk.conn != nil {
			_ = sk.conn.Close()
		}
		if sk.ln != nil {
			_ = sk.ln.Close()
		}
		return a
	})
	img.prim(s, "GsSocket", "lastErrorString", func(s *Session, a Value, x []Value) Value {
		return s.newString(s.socketOf(a).lastErr)
	})
}

// socketServerPrims: a listening GsSocket, and Delay.
func (img *Image) socketServerPrims(s *Session) {
	img.prim(s, "GsSocket", "makeServer:atPort:", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.argInt(x[1]))))
		if sk.failed(err) {
			return nil
		}
		sk.ln = ln
		return a
	})
	img.prim(s, "GsSocket", "port", func(s *Session, a Value, x []Value) Value {
		sk := s.socketOf(a)
		if sk.ln != nil {
			return int64(sk.ln.Addr().(*net.TCPAddr).Port)
		}
		return nil
	})
	img.prim(s, "GsSocket", "accept", func(s *Session, a Value, x []Value) Value {
		return s.modelLimit("a GsSocket server that accepts while the same gem dials it needs a forked GsProcess")
	})
	img.prim(s, "Delay class", "forSeconds:", func(s *Session, a Value, x []Value) Value {
		d := s.newObject(a.(*Object))
		d.ext = time.Duration(s.argInt(x[0])) * time.Second
		return d
	})
	img.prim(s, "Delay", "wait", func(s *Session, a Value, x []Value) Value {
		if d, ok := a.(*Object).ext.(time.Duration); ok && d <= 5*time.Second {
			time.Sleep(d)
		}
		return a
	})
}
