package gsmodel

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"unicode/utf8"
)

// The model's stone as a server, so that the GCI stand-in's gems (separate OS processes) can be
// sessions of one shared model image, as real gems are sessions of one stone. A gem dials the
// stone's Unix socket, logs in, and forwards the worker-class calls it is given; breaks go the
// same way. One connection is one session; closing it logs the session out and discards its
// uncommitted work. Smalltalk runs one session at a time under the image's interpreter lock,
// which a running session hands over every few thousand sends, so a long call does not starve
// the others.
//
// Wire format: one JSON object per line in each direction.
//
//	-> {"op":"login","user":"DataCurator"}       <- {"ok":true,"session":3} | {"kind":"error",...}
//	-> {"op":"perform","receiver":"McpServer","selector":"mcpHandle:","args":[{"bytes":"..."}]}
//	<- {"kind":"bytes","bytes":"..."} | {"kind":"int","int":7} | {"kind":"special","special":"nil"}
//	   | {"kind":"error","number":2010,"text":"...","context":true}
//	-> {"op":"execute","source":"..."}           <- as perform
//	-> {"op":"break","hard":false}               (no answer: the running call ends with 6003/6004)

// StoneRequest is one message from a gem.
type StoneRequest struct {
	Op       string     `json:"op"`
	User     string     `json:"user,omitempty"`
	Receiver string     `json:"receiver,omitempty"`
	Selector string     `json:"selector,omitempty"`
	Args     []StoneArg `json:"args,omitempty"`
	Source   string     `json:"source,omitempty"`
	Hard     bool       `json:"hard,omitempty"`
}

// StoneArg is one argument: a byte object, a SmallInteger or nil/true/false.
type StoneArg struct {
	Bytes   []byte `json:"bytes,omitempty"`
	Int     *int64 `json:"int,omitempty"`
	Special string `json:"special,omitempty"`
}

// StoneAnswer is the stone's answer to login, perform and execute.
type StoneAnswer struct {
	OK      bool   `json:"ok,omitempty"`
	Session int    `json:"session,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Bytes   []byte `json:"bytes,omitempty"`
	Int     int64  `json:"int,omitempty"`
	Special string `json:"special,omitempty"`
	Number  int    `json:"number,omitempty"`
	Text    string `json:"text,omitempty"`
	Context bool   `json:"context,omitempty"`
}

// Error numbers of a call ended by a break (gci-ts.md; test/standin/README.md).
const (
	errSoftBreak = 6003
	errHardBreak = 6004
)

// hardBreak unwinds a session's Smalltalk past every handler: no on:do: can catch it.
type hardBreak struct{}

// ServeStone answers gems on ln until it is closed.
func (img *Image) ServeStone(ln net.Listener) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			img.serveGem(c)
		}()
	}
}

type gemConn struct {
	img     *Image
	enc     *json.Encoder
	writeMu sync.Mutex
	s       *Session
	calls   chan StoneRequest
}

func (g *gemConn) answer(a StoneAnswer) {
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	_ = g.enc.Encode(a)
}

func (img *Image) serveGem(c net.Conn) {
	defer c.Close()
	g := &gemConn{img: img, enc: json.NewEncoder(c), calls: make(chan StoneRequest, 1)}
	dec := json.NewDecoder(bufio.NewReaderSize(c, 1<<16))
	done := make(chan struct{})
	defer func() {
		close(g.calls)
		<-done
		if g.s != nil {
			img.withLock(g.s.Logout)
		}
	}()
	go func() {
		defer close(done)
		for req := range g.calls {
			g.answer(g.run(req))
		}
	}()
	for {
		var req StoneRequest
		if err := dec.Decode(&req); err != nil {
			if g.s != nil && !errors.Is(err, io.EOF) {
				img.log(fmt.Sprintf("gsmodel stone: session %d: %v", g.s.id, err))
			}
			if g.s != nil {
				g.s.hard.Store(true) // the gem is gone: end whatever it was running
			}
			return
		}
		switch req.Op {
		case "break":
			if g.s != nil {
				if req.Hard {
					g.s.hard.Store(true)
				} else {
					g.s.interrupt.Store(true)
				}
			}
		case "login":
			g.answer(g.login(req.User))
		default:
			if g.s == nil {
				g.answer(StoneAnswer{Kind: "error", Number: 4100, Text: "not logged in to the model stone"})
				continue
			}
			g.calls <- req
		}
	}
}

func (g *gemConn) login(user string) StoneAnswer {
	if g.s != nil {
		return StoneAnswer{Kind: "error", Number: 2147, Text: "this connection is logged in already"}
	}
	var s *Session
	var err error
	g.img.withLock(func() { s, err = g.img.Login(user) })
	if err != nil {
		return StoneAnswer{Kind: "error", Number: 4051, Text: err.Error()}
	}
	g.s = s
	return StoneAnswer{OK: true, Session: s.id}
}

func (g *gemConn) run(req StoneRequest) (a StoneAnswer) {
	s := g.s
	s.interrupt.Store(false)
	s.hard.Store(false)
	g.img.withLock(func() {
		s.gil = true
		defer func() { s.gil = false }()
		var v Value
		var errText string
		var errNum int
		var ok bool
		switch req.Op {
		case "perform":
			v, errText, errNum, ok = s.Perform(req.Receiver, req.Selector, s.stoneArgs(req.Args))
		case "execute":
			v, errText, errNum, ok = s.Execute(req.Source)
		default:
			a = StoneAnswer{Kind: "error", Number: 2101, Text: "unknown request " + req.Op}
			return
		}
		if !ok {
			a = StoneAnswer{Kind: "error", Number: errNum, Text: errText,
				Context: errNum == errSoftBreak || errNum == errHardBreak}
			return
		}
		a = s.stoneAnswer(v)
	})
	return a
}

func (s *Session) stoneArgs(args []StoneArg) []Value {
	out := make([]Value, len(args))
	for i, a := range args {
		switch {
		case a.Int != nil:
			out[i] = *a.Int
		case a.Special == "true":
			out[i] = true
		case a.Special == "false":
			out[i] = false
		case a.Special == "nil":
			out[i] = nil
		default:
			r := make([]rune, len(a.Bytes))
			for j, b := range a.Bytes {
				r[j] = rune(b)
			}
			out[i] = s.newBytes(s.img.k.String, r)
		}
	}
	return out
}

// stoneAnswer converts a result for the GCI: a String family member as its bytes (a wide one
// as UTF-8), a SmallInteger, or nil/true/false.
func (s *Session) stoneAnswer(v Value) StoneAnswer {
	switch x := v.(type) {
	case nil:
		return StoneAnswer{Kind: "special", Special: "nil"}
	case bool:
		return StoneAnswer{Kind: "special", Special: fmt.Sprint(x)}
	case int64:
		return StoneAnswer{Kind: "int", Int: x}
	case *Object:
		if st := s.rd(x); st.by != nil {
			b := make([]byte, 0, len(st.by))
			for _, r := range st.by {
				if r > 0xFF {
					b = utf8.AppendRune(b, r)
				} else {
					b = append(b, byte(r))
				}
			}
			return StoneAnswer{Kind: "bytes", Bytes: b}
		}
	}
	return StoneAnswer{Kind: "error", Number: 2094, Text: "the model answers only byte objects, SmallIntegers, nil and Booleans over the GCI, not " + s.safePrint(v)}
}

// Perform sends selector to the global named receiver with args, as GciTsNbPerform does.
func (s *Session) Perform(receiver, selector string, args []Value) (v Value, errText string, errNum int, ok bool) {
	rcv, found := s.globalNamed(receiver)
	if !found {
		return nil, "no global named " + receiver, 2106, false
	}
	return s.guarded(func() Value { return s.send(rcv, selector, args) })
}

// withLock runs fn under the image's interpreter lock.
func (img *Image) withLock(fn func()) {
	img.gil.Lock()
	defer img.gil.Unlock()
	fn()
}

// yieldLock lets other sessions run: a session that holds the interpreter lock hands it over
// every yieldEvery sends.
const yieldEvery = 4096

func (s *Session) maybeYield() {
	if !s.gil {
		return
	}
	s.sends++
	if s.sends%yieldEvery != 0 {
		return
	}
	s.img.gil.Unlock()
	runtime.Gosched()
	s.img.gil.Lock()
}
