package channel

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/pending"
)

// CallStream is where the messages of one running call go: the answer to its POST.
type CallStream interface {
	// Message writes a notification or request ahead of the call's response. It must be
	// bounded in time (a write deadline): the worker's frames wait behind it.
	Message(msg []byte) error
	// CloseStream ends the response stream now; what follows waits for the client to resume.
	CloseStream() error
}

// Relay is what an endpoint needs of its session once the session exists.
type Relay struct {
	// Pending numbers the requests sent to the client and matches its answers.
	Pending *pending.Table
	// Standalone sends a notification bound to no call on the session's GET stream; it
	// reports false when it could not (no stream pathway). Nil: such notifications are dropped.
	Standalone func(msg []byte) bool
}

// Endpoint is one session's end of the channel.
type Endpoint struct {
	hub       *Hub
	sessionID string
	secret    string
	key       secretKey
	done      chan struct{}

	mu       sync.Mutex
	relay    Relay
	calls    map[string]*boundCall
	conns    map[*conn]struct{}
	closed   bool
	lanes    uint64             // the last POST stream lane handed out (0 is the GET stream)
	resuming map[uint64]*Answer // closed POST streams a GET may resume
}

type boundCall struct {
	stream CallStream
	done   chan struct{}

	ep   *Endpoint
	key  string
	once sync.Once
}

// unbind ends the binding (Bind's answer): once, however often it is called.
func (b *boundCall) unbind() {
	b.once.Do(func() {
		b.ep.mu.Lock()
		if b.ep.calls[b.key] == b {
			delete(b.ep.calls, b.key)
		}
		b.ep.mu.Unlock()
		close(b.done)
	})
}

func newEndpoint(h *Hub, sessionID, secret string) *Endpoint {
	return &Endpoint{
		hub: h, sessionID: sessionID, secret: secret, key: sha256.Sum256([]byte(secret)),
		done: make(chan struct{}), calls: map[string]*boundCall{}, conns: map[*conn]struct{}{},
		resuming: map[uint64]*Answer{},
	}
}

// Secret is the session's secret, for the prepare config only. Never log it.
func (e *Endpoint) Secret() string { return e.secret }

// Address is the hub's address, for the prepare config.
func (e *Endpoint) Address() string { return e.hub.Address() }

// attach gives the endpoint its session's pathways (Join, once the session exists).
func (e *Endpoint) attach(r Relay) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.relay = r
}

// Bind makes s the stream of the call with that JSON-RPC id until unbind is called (when
// the call has ended). Messages for a call that is not bound are dropped, and questions
// for it are answered callEnded.
func (e *Endpoint) Bind(id json.RawMessage, s CallStream) (unbind func()) {
	b := &boundCall{stream: s, done: make(chan struct{}), ep: e, key: callKey(id)}
	e.mu.Lock()
	e.calls[b.key] = b
	e.mu.Unlock()
	return b.unbind
}

func (e *Endpoint) call(id json.RawMessage) *boundCall {
	if len(id) == 0 || string(id) == "null" {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls[callKey(id)]
}

// callKey matches the id a worker frame names to the call it was bound under by value, not by
// text: the worker echoes the id through its own JSON writer, which may escape a string or
// spell a number differently from the client. (Duplicates and cancellations match by exact
// text, jsonrpc.IDKey; here the worst a collision could do is route a message to the
// other of two queued calls whose ids the client made equal in value.)
func callKey(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) != nil {
			return ""
		}
		return "s:" + s
	}
	if f, ok := plainInteger(id); ok {
		return numberKey(f)
	}
	if f, err := strconv.ParseFloat(string(id), 64); err == nil {
		return numberKey(f)
	}
	return "t:" + string(id)
}

// numberKey is a number's key: its float64's bits, so that every spelling of one value
// (7, 7.0, 7e0) has the same key.
func numberKey(f float64) string {
	var k [10]byte
	k[0], k[1] = 'n', ':'
	binary.BigEndian.PutUint64(k[2:], math.Float64bits(f))
	return string(k[:])
}

// plainInteger reads an id of up to 15 digits with an optional minus, the common spelling,
// without a string conversion; its float64 is exact, as ParseFloat's would be.
func plainInteger(id []byte) (float64, bool) {
	digits := id
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if len(digits) < len(id) {
		f = -f
	}
	return f, true
}

// Close ends the endpoint with its session: the secret stops working, connections close,
// questions still waiting are answered sessionEnded.
func (e *Endpoint) Close() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	e.closed = true
	close(e.done)
	conns := make([]*conn, 0, len(e.conns))
	for c := range e.conns {
		conns = append(conns, c)
	}
	e.mu.Unlock()
	e.hub.forget(e)
	for _, c := range conns {
		c.nc.Close()
	}
}

func (e *Endpoint) addConn(c *conn) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return RefusedSessionEnded, false
	}
	if len(e.conns) >= e.hub.o.MaxConns {
		return RefusedTooManyConns, false
	}
	e.conns[c] = struct{}{}
	return "", true
}

func (e *Endpoint) dropConn(c *conn) {
	e.mu.Lock()
	delete(e.conns, c)
	e.mu.Unlock()
}

func (e *Endpoint) attached() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.relay.Pending != nil
}

func (e *Endpoint) currentRelay() Relay {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.relay
}

// conn is one authenticated worker connection.
type conn struct {
	hub  *Hub
	ep   *Endpoint
	nc   net.Conn
	wmu  sync.Mutex
	asks chan struct{} // a slot per outstanding question
}

// frame is what a worker sends after its hello.
type frame struct {
	Call        json.RawMessage `json:"call"`
	Message     json.RawMessage `json:"message"`
	CloseStream bool            `json:"closeStream"`
	// Flush asks for {"flushed": Flush} once every earlier frame of the connection has been
	// relayed: a worker sends it before answering a call it spoke during, so that nothing it
	// sent can arrive after the call's response.
	Flush json.RawMessage `json:"flush"`
}

// envelope is the part of a JSON-RPC message the router reads.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
}

func (c *conn) readLoop(br *bufio.Reader) {
	remote := c.nc.RemoteAddr().String()
	for {
		raw, err := readFrame(br, c.hub.o.MaxFrame)
		if err != nil {
			if errors.Is(err, ErrFrameTooLarge) {
				// The stream cannot be resynchronised without reading what we refuse to read.
				c.hub.refuse(RefusedFrameTooLarge, remote, err)
				c.hub.answerHello(c.nc, RefusedFrameTooLarge, "frame over the limit; connection closed")
			}
			return
		}
		c.handle(raw, remote)
	}
}

func (c *conn) handle(raw []byte, remote string) {
	var f frame
	if err := json.Unmarshal(raw, &f); err != nil {
		c.hub.refuse(RefusedBadFrame, remote, err)
		return
	}
	log := c.hub.log.With().Str("session", c.ep.sessionID).Str("call", jsonrpc.Clip(string(f.Call))).Logger()
	if len(f.Flush) > 0 {
		// Frames are relayed one after another on this goroutine, so everything sent before
		// this one is already on the client's stream.
		payload, _ := json.Marshal(struct {
			Flushed json.RawMessage `json:"flushed"`
		}{f.Flush})
		if err := c.write(payload); err != nil {
			c.hub.refuse(RefusedUnreadAnswer, remote, err)
			c.nc.Close()
		}
		return
	}
	if f.CloseStream {
		if b := c.ep.call(f.Call); b != nil {
			if err := b.stream.CloseStream(); err != nil {
				log.Debug().Err(err).Msg("channel: closeStream not honoured")
			}
		} else {
			log.Debug().Msg("channel: closeStream for a call that is not running; ignored")
		}
		if len(f.Message) == 0 {
			return
		}
	}
	var env envelope
	if json.Unmarshal(f.Message, &env) != nil || env.JSONRPC != "2.0" || env.Method == nil || *env.Method == "" {
		c.hub.refuse(RefusedBadFrame, remote, errors.New("message is not a JSON-RPC 2.0 request or notification"))
		return
	}
	b := c.ep.call(f.Call)
	if len(env.ID) == 0 {
		c.notify(b, f, *env.Method, log)
		return
	}
	if b == nil {
		c.answerError(env.ID, errkind.CallEnded, "the call this request belongs to is not running (or the frame named none)")
		return
	}
	select {
	case c.asks <- struct{}{}:
	default:
		c.answerError(env.ID, errkind.TooManyRequests, "too many requests to the client are outstanding on this connection")
		return
	}
	relay := c.ep.currentRelay()
	if relay.Pending == nil {
		<-c.asks
		c.answerError(env.ID, errkind.NoClient, "the session is not ready to ask its client anything")
		return
	}
	// Written now, in frame order, so the request follows every notification sent before it.
	p := relay.Pending.Start(*env.Method)
	if err := b.stream.Message(withID(f.Message, p.ID)); err != nil && !errors.Is(err, ErrStreamCut) {
		<-c.asks
		c.answerError(env.ID, errkind.NoStream, "the client's response stream cannot carry the request: "+err.Error())
		return
	}
	go c.await(env.ID, p, b)
}

func (c *conn) notify(b *boundCall, f frame, method string, log zerolog.Logger) {
	if b != nil {
		switch err := b.stream.Message(f.Message); {
		case errors.Is(err, ErrStreamCut): // once per stream: the write that found it cut
			log.Info().Err(err).Str("method", method).Msg("channel: the call's response stream was cut; the call goes on and its further messages are held for the client's resume")
		case errors.Is(err, ErrStreamGone):
			log.Debug().Err(err).Str("method", method).Msg("channel: notification not delivered")
		case err != nil: // the write that found the stream broken: once per stream, so worth an operator's eye
			log.Info().Err(err).Str("method", method).Msg("channel: the call's response stream failed; the call goes on and its further messages are dropped")
		}
		return
	}
	if len(f.Call) > 0 && string(f.Call) != "null" {
		log.Debug().Str("method", method).Msg("channel: notification for a call that is not running; dropped")
		return
	}
	relay := c.ep.currentRelay()
	if relay.Standalone == nil || !relay.Standalone(f.Message) {
		log.Debug().Str("method", method).Msg("channel: no standalone stream for an unbound notification; dropped")
	}
}

// await waits for the client's answer to one request and writes it back to the worker.
func (c *conn) await(workerID json.RawMessage, p *pending.Call, b *boundCall) {
	defer func() { <-c.asks }()
	select {
	case <-p.Done():
		answer, err := p.Result()
		switch {
		case errors.Is(err, pending.ErrTimeout):
			c.answerError(workerID, errkind.Timeout, "the client did not answer in time")
		case errors.Is(err, pending.ErrAnswerTooLarge):
			c.answerError(workerID, errkind.AnswerTooLarge, "the client's answer was larger than the channel's frame limit; it was refused")
		case err != nil:
			c.answerError(workerID, errkind.SessionEnded, "the session ended before the client answered")
		default:
			c.answer(withID(answer, workerID))
		}
	case <-b.done:
		c.answerError(workerID, errkind.CallEnded, "the call ended before the client answered")
	case <-c.ep.done:
		c.answerError(workerID, errkind.SessionEnded, "the session ended before the client answered")
	}
}

func (c *conn) answerError(workerID json.RawMessage, kind, message string) {
	c.answer(jsonrpc.ErrorResponse(workerID, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: message,
		Data: map[string]any{"kind": kind}}))
}

func (c *conn) answer(msg []byte) {
	payload, _ := json.Marshal(struct {
		Message json.RawMessage `json:"message"`
	}{msg})
	if len(payload) > c.hub.o.MaxFrame {
		// Sent, it would make the worker drop the channel for good; an error keeps it.
		var env envelope
		_ = json.Unmarshal(msg, &env)
		c.hub.log.Warn().Str("session", c.ep.sessionID).Int("bytes", len(payload)).Int("limit", c.hub.o.MaxFrame).
			Msg("channel: an answer for the worker is over the frame limit; it gets an error instead")
		payload, _ = json.Marshal(struct {
			Message json.RawMessage `json:"message"`
		}{jsonrpc.ErrorResponse(env.ID, &jsonrpc.Error{Code: jsonrpc.CodeServer,
			Message: "the client's answer was larger than the channel's frame limit; it was refused",
			Data:    map[string]any{"kind": errkind.AnswerTooLarge}})})
	}
	if err := c.write(payload); err != nil {
		c.hub.refuse(RefusedUnreadAnswer, c.nc.RemoteAddr().String(), err)
		c.nc.Close()
	}
}

// write sends one frame under the write deadline.
func (c *conn) write(payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.nc.SetWriteDeadline(time.Now().Add(c.hub.o.WriteTimeout))
	_, err := c.nc.Write(appendFrame(nil, payload))
	return err
}

// withID answers msg with its id member replaced; everything else is kept as sent.
func withID(msg []byte, id json.RawMessage) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(msg, &fields) != nil {
		return msg
	}
	fields["id"] = id
	out, err := json.Marshal(fields)
	if err != nil {
		return msg
	}
	return out
}
