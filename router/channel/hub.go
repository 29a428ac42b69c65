package channel

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// Defaults of the channel's limits. They are mechanism, written down in the worker contract,
// not deployment policy.
const (
	// answerOverhead is room for the frame's envelope around a client's answer and the
	// worker's own id that replaces the client-facing one (ids are at most 1 KiB).
	answerOverhead = 4 << 10
	// DefaultMaxFrame is the largest frame either side may send (1 MiB).
	DefaultMaxFrame = 1 << 20
	// DefaultHelloTimeout is how long a new connection has to name its session.
	DefaultHelloTimeout = 5 * time.Second
	// DefaultWriteTimeout bounds every frame written to a worker: a worker that does not read
	// its answers loses its connection instead of holding a router goroutine.
	DefaultWriteTimeout = 5 * time.Second
	// DefaultMaxConns is how many connections one session's worker may hold at once.
	DefaultMaxConns = 4
	// DefaultMaxAsks is how many questions to the client one connection may have outstanding.
	DefaultMaxAsks = 8
	// DefaultMaxUnnamed is how many connections may wait for their hello at once: any local
	// process (a client's own gem through execute_code) can connect, and each costs a goroutine
	// until its hello or its timeout. Past it a connection is refused at once.
	DefaultMaxUnnamed = 16
	// helloLimit bounds the first frame: a hello is a version and a 64-character secret, so a
	// stranger cannot make the router allocate a full frame before it has named a session.
	helloLimit = 4 << 10
	// ProtocolVersion is the channel protocol a hello must name.
	ProtocolVersion = 1
	// endedMemory is how many ended sessions' secrets are remembered, so a late worker is
	// refused as "session ended" rather than as a stranger.
	endedMemory = 1024
)

// Refusal kinds, as logged and counted.
const (
	RefusedNotLoopback   = "notLoopback"
	RefusedNoHello       = "noHello"
	RefusedBadHello      = "badHello"
	RefusedBadSecret     = "badSecret"
	RefusedSessionEnded  = errkind.SessionEnded
	RefusedTooManyConns  = "tooManyConnections"
	RefusedFrameTooLarge = "frameTooLarge"
	RefusedBadFrame      = "badFrame"
	RefusedUnreadAnswer  = "unreadAnswer"
	RefusedTooManyHellos = "tooManyUnnamed"
)

// Options configure a Hub. Zero values take the defaults above; Address defaults to
// 127.0.0.1:0 (a free loopback port chosen per router).
type Options struct {
	Address      string
	MaxFrame     int
	HelloTimeout time.Duration
	WriteTimeout time.Duration
	MaxConns     int
	MaxAsks      int
	MaxUnnamed   int
	Log          zerolog.Logger
}

func (o Options) withDefaults() Options {
	if o.Address == "" {
		o.Address = "127.0.0.1:0"
	}
	if o.MaxFrame <= 0 {
		o.MaxFrame = DefaultMaxFrame
	}
	if o.HelloTimeout <= 0 {
		o.HelloTimeout = DefaultHelloTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxAsks <= 0 {
		o.MaxAsks = DefaultMaxAsks
	}
	if o.MaxUnnamed <= 0 {
		o.MaxUnnamed = DefaultMaxUnnamed
	}
	return o
}

type secretKey [sha256.Size]byte

// Hub is one router's channel listener and the endpoints its workers may connect to, by
// secret (each session holds its own endpoint: session.Held).
type Hub struct {
	o   Options
	ln  net.Listener
	log zerolog.Logger

	mu         sync.Mutex
	bySecret   map[secretKey]*Endpoint
	ended      map[secretKey]struct{}
	endedOrder []secretKey
	conns      map[net.Conn]struct{}
	unnamed    int // connections still waiting for their hello
	refusals   map[string]uint64
	closed     bool
	wg         sync.WaitGroup
}

// Listen opens the channel's listener. The address must be a loopback one: the channel
// carries a session's secret and its client's questions, and is never meant to leave the host.
func Listen(o Options) (*Hub, error) {
	o = o.withDefaults()
	host, _, err := net.SplitHostPort(o.Address)
	if err != nil {
		return nil, fmt.Errorf("channel: address %q: %w", o.Address, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("channel: address %q is not a loopback address", o.Address)
	}
	ln, err := net.Listen("tcp", o.Address)
	if err != nil {
		return nil, fmt.Errorf("channel: listen on %s: %w", o.Address, err)
	}
	h := &Hub{
		o: o, ln: ln, log: o.Log.With().Str("component", "channel").Logger(),
		bySecret: map[secretKey]*Endpoint{},
		ended:    map[secretKey]struct{}{}, conns: map[net.Conn]struct{}{}, refusals: map[string]uint64{},
	}
	h.wg.Add(1)
	go h.accept()
	return h, nil
}

// Address is where workers connect (host:port), as it goes into the prepare config.
func (h *Hub) Address() string { return h.ln.Addr().String() }

// Open makes the endpoint of a new session and mints its secret.
func (h *Hub) Open(sessionID string) (*Endpoint, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, fmt.Errorf("channel: cannot make a secret: %w", err)
	}
	secret := hex.EncodeToString(raw[:])
	e := newEndpoint(h, sessionID, secret)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("channel: the hub is closed")
	}
	h.bySecret[e.key] = e
	return e, nil
}

// forget removes an endpoint that closed; its secret is remembered as ended.
func (h *Hub) forget(e *Endpoint) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.bySecret[e.key] == e {
		delete(h.bySecret, e.key)
	}
	h.ended[e.key] = struct{}{}
	h.endedOrder = append(h.endedOrder, e.key)
	if len(h.endedOrder) > endedMemory {
		delete(h.ended, h.endedOrder[0])
		h.endedOrder = h.endedOrder[1:]
	}
}

// Refusals counts refused connections and frames by kind (for tests and logs).
func (h *Hub) Refusals() map[string]uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]uint64, len(h.refusals))
	for k, v := range h.refusals {
		out[k] = v
	}
	return out
}

// Close stops listening, closes every endpoint and connection, and waits for their goroutines.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	eps := make([]*Endpoint, 0, len(h.bySecret))
	for _, e := range h.bySecret {
		eps = append(eps, e)
	}
	for c := range h.conns {
		c.Close()
	}
	h.mu.Unlock()
	err := h.ln.Close()
	for _, e := range eps {
		e.Close()
	}
	h.wg.Wait()
	return err
}

func (h *Hub) accept() {
	defer h.wg.Done()
	for {
		nc, err := h.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			h.log.Warn().Err(err).Msg("channel accept failed")
			time.Sleep(50 * time.Millisecond)
			continue
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			nc.Close()
			return
		}
		if h.unnamed >= h.o.MaxUnnamed {
			h.mu.Unlock()
			h.refuse(RefusedTooManyHellos, nc.RemoteAddr().String(), nil)
			// A fresh connection's send buffer takes this at once; the deadline is a backstop.
			h.answerHello(nc, RefusedTooManyHellos, "too many connections are waiting for their hello; try again")
			nc.Close()
			continue
		}
		h.unnamed++
		h.conns[nc] = struct{}{}
		h.wg.Add(1)
		h.mu.Unlock()
		go h.serve(nc)
	}
}

func (h *Hub) refuse(kind, remote string, detail error) {
	h.mu.Lock()
	h.refusals[kind]++
	h.mu.Unlock()
	ev := h.log.Warn().Str("refused", kind).Str("remote", remote)
	if detail != nil {
		ev = ev.Err(detail)
	}
	ev.Msg("channel refused a worker connection or frame")
}

// hello is the first frame of a connection.
type hello struct {
	Hello  *int   `json:"hello"`
	Secret string `json:"secret"`
}

func (h *Hub) serve(nc net.Conn) {
	defer h.wg.Done()
	defer func() {
		h.mu.Lock()
		delete(h.conns, nc)
		h.mu.Unlock()
		nc.Close()
	}()
	named := false
	helloDone := func() {
		if !named {
			named = true
			h.mu.Lock()
			h.unnamed--
			h.mu.Unlock()
		}
	}
	defer helloDone()
	remote := nc.RemoteAddr().String()
	if a, ok := nc.RemoteAddr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		h.refuse(RefusedNotLoopback, remote, nil)
		return
	}
	_ = nc.SetReadDeadline(time.Now().Add(h.o.HelloTimeout))
	br := bufio.NewReader(nc)
	frame, err := readFrame(br, min(h.o.MaxFrame, helloLimit))
	if err != nil {
		kind := RefusedNoHello
		if errors.Is(err, ErrFrameTooLarge) {
			kind = RefusedFrameTooLarge
		}
		h.refuse(kind, remote, err)
		h.answerHello(nc, kind, "the first frame must be a hello within the hello timeout and the frame limit")
		return
	}
	var hi hello
	if json.Unmarshal(frame, &hi) != nil || hi.Hello == nil || *hi.Hello != ProtocolVersion || hi.Secret == "" {
		h.refuse(RefusedBadHello, remote, nil)
		h.answerHello(nc, RefusedBadHello, fmt.Sprintf(`the first frame must be {"hello":%d,"secret":"..."}`, ProtocolVersion))
		return
	}
	key := sha256.Sum256([]byte(hi.Secret))
	h.mu.Lock()
	ep := h.bySecret[key]
	_, ended := h.ended[key]
	h.mu.Unlock()
	if ep == nil {
		kind, msg := RefusedBadSecret, "no session has that secret"
		if ended {
			kind, msg = RefusedSessionEnded, "the session of that secret has ended"
		}
		h.refuse(kind, remote, nil)
		h.answerHello(nc, kind, msg)
		return
	}
	c := &conn{hub: h, ep: ep, nc: nc, asks: make(chan struct{}, h.o.MaxAsks)}
	if kind, ok := ep.addConn(c); !ok {
		h.refuse(kind, remote, nil)
		h.answerHello(nc, kind, "the session does not take this connection ("+kind+")")
		return
	}
	defer ep.dropConn(c)
	helloDone()
	_ = nc.SetReadDeadline(time.Time{})
	if err := c.write([]byte(`{"ok":true,"channel":1}`)); err != nil {
		return
	}
	h.log.Debug().Str("session", ep.sessionID).Str("remote", remote).Msg("worker connected to the channel")
	c.readLoop(br)
}

func (h *Hub) answerHello(nc net.Conn, kind, message string) {
	b, _ := json.Marshal(map[string]any{"ok": false, "error": map[string]string{"kind": kind, "message": message}})
	_ = nc.SetWriteDeadline(time.Now().Add(h.o.WriteTimeout))
	_, _ = nc.Write(appendFrame(nil, b))
}
