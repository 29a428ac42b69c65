// Command standin-gem is one "gem" of the GCI test stand-in: the OS process the stand-in
// libgcits starts for each login. It is NOT GemStone; it exists so that the Go binding can
// be tested against real processes, sockets, breaks and deaths.
//
// The library starts it with its end of a socketpair as fd 3 and speaks the frame protocol
// of test/standin/README.md over it. One goroutine reads frames; an mcpHandle: call runs on
// its own goroutine so that a break frame reaches it while it runs. The worker-class receiver is
// served by worker/workertest/fixtureworker; System answers the control calls (stopSession:, session);
// execute answers only the control session's tagged sources of docs/worker-contract.md.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"

	"github.com/gemstone-mcp/mcp-gemstone/test/standin/gemproto"
	"syscall"
)

// gciFd is the descriptor the library hands the gem its socket on.
const gciFd = 3

func main() {
	// A gem is one thread. With one P the reader and the call goroutine never hand work to
	// another OS thread, and a non-blocking socket lets the reader park in the runtime's
	// netpoller instead of sitting in read(2), where sysmon keeps taking its P away and waking
	// other threads. Both only cut the stand-in's own overhead (docs/performance.md); if the
	// flag cannot be set, the blocking read still works.
	runtime.GOMAXPROCS(1)
	_ = syscall.SetNonblock(gciFd, true)
	conn := os.NewFile(gciFd, "gci-socket")
	if conn == nil {
		fmt.Fprintln(os.Stderr, "standin-gem: no GCI socket on fd 3; this program is started by the stand-in libgcits")
		os.Exit(2)
	}
	g := newGem(conn, os.Getpid())
	os.Exit(g.serve(bufio.NewReaderSize(conn, 1<<16)))
}

// gem is one logged-in stand-in gem.
type gem struct {
	out io.Writer
	pid int

	writeMu sync.Mutex // one frame at a time on the socket

	mu      sync.Mutex
	running bool
	breaks  chan fixtureBreak
	calls   chan gemproto.Frame // to the call goroutine (runCalls)

	session  int
	sessions sessionDir
	login    loginInfo
	state    *workerState
	model    *modelLink // the model stone, in model mode (GSMODEL_STONE); else nil
}

func newGem(out io.Writer, pid int) *gem {
	return &gem{out: out, pid: pid, state: &workerState{}, calls: make(chan gemproto.Frame, 1)}
}

func (g *gem) send(kind byte, payload []byte) error {
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	return gemproto.WriteFrame(g.out, kind, payload)
}

// serve logs in and then answers frames until the library says quit or goes away. It
// answers the process exit code.
func (g *gem) serve(in io.Reader) int {
	if !g.acceptLogin(in) {
		return 0
	}
	defer g.sessions.unregister(g.session, g.pid)
	g.unregisterOnTerm()
	go g.runCalls()
	for {
		f, err := gemproto.ReadFrame(in)
		if err != nil {
			return 0 // the library closed the socket: the session is over
		}
		switch f.Type {
		case gemproto.TypeQuit:
			return 0
		case gemproto.TypeBreak:
			g.deliverBreak(len(f.Payload) > 0 && f.Payload[0] == 1)
		case gemproto.TypePerform, gemproto.TypeExecute:
			g.start(f)
		default:
			fmt.Fprintf(os.Stderr, "standin-gem: ignoring a frame of unknown type %q\n", f.Type)
		}
	}
}

func (g *gem) acceptLogin(in io.Reader) bool {
	f, err := gemproto.ReadFrame(in)
	if err != nil || f.Type != gemproto.TypeLogin {
		return false
	}
	p, err := gemproto.DecodeLogin(f.Payload)
	if err != nil {
		_ = g.send(gemproto.TypeError, (&gemproto.GemError{Number: 4147, Fatal: true, Message: "malformed stand-in login frame: " + err.Error()}).Encode())
		return false
	}
	info, denied := checkLogin(p)
	if denied != nil {
		_ = g.send(gemproto.TypeError, denied.Encode())
		return false
	}
	g.login = info
	if path := os.Getenv(modelStoneEnv); path != "" {
		m, err := dialModel(path, modelUser(info))
		if err != nil {
			_ = g.send(gemproto.TypeError, (&gemproto.GemError{Number: 4042, Fatal: true, Message: err.Error()}).Encode())
			return false
		}
		g.model = m
	}
	g.sessions = sessionDir{dir: p.SessionDir}
	n, err := g.sessions.register(g.pid)
	if err != nil {
		_ = g.send(gemproto.TypeError, (&gemproto.GemError{Number: 4042, Fatal: true, Message: "the stand-in gem could not register: " + err.Error()}).Encode())
		return false
	}
	g.session = n
	recordLogin(info, n)
	if err := g.send(gemproto.TypeHello, gemproto.Hello{Session: int32(n), Pid: int32(g.pid)}.Encode()); err != nil {
		g.sessions.unregister(n, g.pid)
		return false
	}
	return true
}

// unregisterOnTerm keeps the session directory clean when the gem is terminated, then dies
// of the signal so the library sees a gem killed by it.
func (g *gem) unregisterOnTerm() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		s := <-sig
		g.sessions.unregister(g.session, g.pid)
		signal.Reset(s)
		_ = syscall.Kill(g.pid, s.(syscall.Signal))
	}()
}

func (g *gem) deliverBreak(hard bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.breaks == nil {
		return // nothing running: a break is a no-op
	}
	if g.model != nil {
		g.model.breakCall(hard)
		return
	}
	b := softBreak
	if hard {
		b = hardBreak
	}
	select {
	case g.breaks <- b:
	default: // breaks pile up only if the call ignores them; dropping more is harmless
	}
}

// start runs a call; its result frame is written when it ends. A call that may block runs on
// the gem's call goroutine, so the reader goes on reading and a break reaches it.
func (g *gem) start(f gemproto.Frame) {
	g.mu.Lock()
	if g.running {
		g.mu.Unlock()
		// The library refuses a second call itself; this guards the protocol.
		_ = g.send(errorResult(2203, "a call is already in progress on this gem").Frame())
		return
	}
	g.running = true
	g.breaks = make(chan fixtureBreak, 4)
	g.mu.Unlock()
	if mayBlock(f) {
		g.calls <- f
		return
	}
	g.finish(f) // a call that cannot wait needs no hand-off: a shorter round trip
}

// runCalls is the call goroutine. It lives as long as the gem, as the one thread of a real
// gem does: a goroutine per call would grow a fresh stack through the JSON work every time.
func (g *gem) runCalls() {
	for f := range g.calls {
		g.finish(f)
	}
}

func (g *gem) finish(f gemproto.Frame) {
	g.mu.Lock()
	breaks := g.breaks
	g.mu.Unlock()
	r := g.run(f, breaks)
	g.mu.Lock()
	g.running = false
	g.breaks = nil
	g.mu.Unlock()
	if err := g.send(r.Frame()); err != nil && !errors.Is(err, syscall.EPIPE) {
		fmt.Fprintf(os.Stderr, "standin-gem: writing a result: %v\n", err)
	}
}

// mayBlock says whether a call can run long enough to be broken: only mcpHandle: runs tools.
func mayBlock(f gemproto.Frame) bool {
	if f.Type != gemproto.TypePerform {
		return false
	}
	p, err := gemproto.DecodePerform(f.Payload)
	return err != nil || p.Selector == "mcpHandle:"
}

func (g *gem) run(f gemproto.Frame, breaks chan fixtureBreak) gemproto.Answer {
	if f.Type == gemproto.TypeExecute {
		return g.execute(string(f.Payload))
	}
	p, err := gemproto.DecodePerform(f.Payload)
	if err != nil {
		return errorResult(2094, err.Error())
	}
	if p.Receiver == "System" {
		return g.system(p)
	}
	return g.workerCall(p, breaks)
}

// die ends the process the way a crashing gem would: no goodbye on the socket.
func (g *gem) die() {
	g.sessions.unregister(g.session, g.pid)
	os.Exit(3)
}
