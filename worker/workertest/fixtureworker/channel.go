package fixtureworker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// The worker side of the worker-to-router channel (docs/worker-contract.md, "The
// worker-to-router channel"), written from that page alone, as a Smalltalk worker's would be:
// its own framing, its own hello, no code shared with the router.

// channelConfig is the prepare config's channel member.
type channelConfig struct {
	Version  int    `json:"version"`
	Address  string `json:"address"`
	Secret   string `json:"secret"`
	MaxFrame int    `json:"maxFrame"`
}

// Channel limits on the worker side.
const (
	channelDialTimeout  = 2 * time.Second
	channelHelloTimeout = 5 * time.Second
	channelWriteTimeout = 5 * time.Second
	// channelAskTimeout bounds a request's wait when the router's own timeout answer is lost;
	// it is longer than the router's longest (MCP_ELICITATION_TIMEOUT, 10 minutes by default).
	channelAskTimeout   = 15 * time.Minute
	defaultMaxFrame     = 1 << 20
	channelProtocolVers = 1
)

var (
	errNoChannel   = errors.New("the prepare config offered no channel")
	errChannelDown = errors.New("the channel to the router is not reachable")
)

// logLevels are the MCP (syslog) levels, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func levelRank(level string) int {
	for i, l := range logLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// channelClient is one worker's connection to its router. It connects on first use and
// again after a lost connection; a worker that cannot reach the router keeps working and
// says so once on stderr (the gem's log).
type channelClient struct {
	cfg channelConfig

	mu      sync.Mutex // guards everything below; held for a whole frame write
	conn    net.Conn
	nextID  int
	waiters map[string]chan json.RawMessage
	warned  bool
	// unflushed says frames were sent since the last flush: the call must flush before it
	// answers, or its last messages could reach the router after its response.
	unflushed bool
}

func newChannelClient(cfg *channelConfig) *channelClient {
	if cfg == nil || cfg.Address == "" {
		return nil
	}
	c := *cfg
	if c.MaxFrame <= 0 {
		c.MaxFrame = defaultMaxFrame
	}
	return &channelClient{cfg: c, waiters: map[string]chan json.RawMessage{}}
}

// writeFrame writes one length-prefixed JSON frame.
func writeFrame(conn net.Conn, payload []byte) error {
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(payload)))
	_ = conn.SetWriteDeadline(time.Now().Add(channelWriteTimeout))
	if _, err := conn.Write(append(head[:], payload...)); err != nil {
		return fmt.Errorf("channel write: %w", err)
	}
	return nil
}

func readFrame(r io.Reader, limit int) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n == 0 || int64(n) > int64(limit) {
		return nil, fmt.Errorf("channel frame of %d bytes is outside 1..%d", n, limit)
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(r, buf)
	return buf, err
}

// connectLocked dials, says hello and starts the reader. Called with mu held.
func (cc *channelClient) connectLocked() error {
	if cc.conn != nil {
		return nil
	}
	conn, err := net.DialTimeout("tcp", cc.cfg.Address, channelDialTimeout)
	if err != nil {
		return cc.downLocked(err)
	}
	hello := marshal(map[string]any{"hello": channelProtocolVers, "secret": cc.cfg.Secret})
	if err := writeFrame(conn, hello); err != nil {
		conn.Close()
		return cc.downLocked(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(channelHelloTimeout))
	br := bufio.NewReader(conn)
	ack, err := readFrame(br, cc.cfg.MaxFrame)
	if err != nil {
		conn.Close()
		return cc.downLocked(err)
	}
	var a struct {
		OK    bool `json:"ok"`
		Error struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(ack, &a) != nil || !a.OK {
		conn.Close()
		return cc.downLocked(fmt.Errorf("the router refused the channel: %s: %s", a.Error.Kind, a.Error.Message))
	}
	_ = conn.SetReadDeadline(time.Time{})
	cc.conn = conn
	go cc.read(conn, br)
	return nil
}

func (cc *channelClient) downLocked(err error) error {
	if !cc.warned {
		cc.warned = true
		fmt.Fprintf(os.Stderr, "fixture worker: the channel to the router is unavailable (%v); tools go on without progress, logging or questions to the client\n", err)
	}
	return fmt.Errorf("%w: %w", errChannelDown, err)
}

// read delivers the router's answers to the waiting requests until the connection ends.
func (cc *channelClient) read(conn net.Conn, br *bufio.Reader) {
	for {
		frame, err := readFrame(br, cc.cfg.MaxFrame)
		if err != nil {
			break
		}
		var f struct {
			Message json.RawMessage `json:"message"`
			Flushed json.RawMessage `json:"flushed"`
		}
		var env struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(frame, &f) != nil {
			continue
		}
		key := string(f.Flushed)
		if key == "" {
			if json.Unmarshal(f.Message, &env) != nil {
				continue
			}
			key = string(env.ID)
		}
		cc.mu.Lock()
		if ch, ok := cc.waiters[key]; ok {
			delete(cc.waiters, key)
			ch <- f.Message
		}
		cc.mu.Unlock()
	}
	cc.mu.Lock()
	if cc.conn == conn {
		cc.conn = nil
		for id, ch := range cc.waiters {
			delete(cc.waiters, id)
			close(ch)
		}
	}
	cc.mu.Unlock()
	conn.Close()
}

// send writes one frame, connecting first if need be.
func (cc *channelClient) send(frame map[string]any) error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.sendLocked(frame)
}

func (cc *channelClient) sendLocked(frame map[string]any) error {
	if err := cc.connectLocked(); err != nil {
		return err
	}
	if err := writeFrame(cc.conn, marshal(frame)); err != nil {
		cc.conn.Close()
		cc.conn = nil
		return cc.downLocked(err)
	}
	cc.unflushed = true
	return nil
}

// flush waits (at most channelHelloTimeout) until the router has relayed every frame sent so
// far, so that a call's messages all precede its response. Nothing sent: nothing to wait for.
func (cc *channelClient) flush(call json.RawMessage) {
	cc.mu.Lock()
	if !cc.unflushed || cc.conn == nil {
		cc.mu.Unlock()
		return
	}
	cc.nextID++
	token := strconv.Quote("f-" + strconv.Itoa(cc.nextID))
	ch := make(chan json.RawMessage, 1)
	cc.waiters[token] = ch
	err := cc.sendLocked(map[string]any{"call": call, "flush": json.RawMessage(token)})
	cc.unflushed = false
	cc.mu.Unlock()
	if err == nil {
		select {
		case <-ch:
		case <-time.After(channelHelloTimeout):
		}
	}
	cc.mu.Lock()
	delete(cc.waiters, token)
	cc.mu.Unlock()
}

// request sends a JSON-RPC request bound to call and answers a channel on which the
// router's response arrives (closed if the connection is lost first).
func (cc *channelClient) request(call json.RawMessage, method string, params any) (<-chan json.RawMessage, func(), error) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.nextID++
	id := strconv.Quote("w-" + strconv.Itoa(cc.nextID))
	ch := make(chan json.RawMessage, 1)
	cc.waiters[id] = ch
	msg := map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}
	if err := cc.sendLocked(map[string]any{"call": call, "message": msg}); err != nil {
		delete(cc.waiters, id)
		return nil, nil, err
	}
	forget := func() {
		cc.mu.Lock()
		delete(cc.waiters, id)
		cc.mu.Unlock()
	}
	return ch, forget, nil
}

// notify sends a notification bound to call (nil: not bound to any call). Failures are
// swallowed: a worker that cannot reach the channel keeps working.
func (w *Worker) notify(call json.RawMessage, method string, params any) {
	if w.channel == nil {
		return
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	frame := map[string]any{"message": msg}
	if call != nil {
		frame["call"] = call
	}
	_ = w.channel.send(frame)
}

// log sends notifications/message when level is at or above the session's logging level.
func (w *Worker) log(call json.RawMessage, level, logger, data string) {
	w.mu.Lock()
	min := w.logLevel
	w.mu.Unlock()
	if levelRank(level) < levelRank(min) {
		return
	}
	w.notify(call, "notifications/message", map[string]any{"level": level, "logger": logger, "data": data})
}

func (w *Worker) setLogLevel(level string) {
	w.mu.Lock()
	w.logLevel = level
	w.mu.Unlock()
}

// closeStream asks the router to end the call's response stream now (the client resumes it
// with GET and Last-Event-ID).
func (w *Worker) closeStream(call json.RawMessage) error {
	if w.channel == nil {
		return errNoChannel
	}
	return w.channel.send(map[string]any{"call": call, "closeStream": true})
}

// rpcFailure is a JSON-RPC error answer to a request the worker sent.
type rpcFailure struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *rpcFailure) Error() string {
	return fmt.Sprintf("the client or router answered error %d: %s %s", e.Code, e.Message, e.Data)
}

// ask sends a request to the client through the router and waits for its result. A break
// or a stop ends the wait and the call, as it would end a Smalltalk socket read.
func (c *call) ask(method string, params any) (json.RawMessage, error) {
	if c.w.channel == nil {
		return nil, errNoChannel
	}
	answers, forget, err := c.w.channel.request(c.id, method, params)
	if err != nil {
		return nil, err
	}
	defer forget()
	timeout := time.NewTimer(channelAskTimeout)
	defer timeout.Stop()
	breaks := c.breaks
	for {
		select {
		case raw, ok := <-answers:
			if !ok {
				return nil, fmt.Errorf("%w: connection lost while waiting", errChannelDown)
			}
			var resp struct {
				Result json.RawMessage `json:"result"`
				Error  *rpcFailure     `json:"error"`
			}
			if err := json.Unmarshal(raw, &resp); err != nil {
				return nil, fmt.Errorf("the router's answer is not a JSON-RPC response: %w", err)
			}
			if resp.Error != nil {
				return nil, resp.Error
			}
			return resp.Result, nil
		case b, ok := <-breaks:
			if !ok {
				breaks = nil
				continue
			}
			return nil, &BreakError{Break: b}
		case <-c.ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrStopped, c.ctx.Err())
		case <-timeout.C:
			return nil, fmt.Errorf("no answer from the router within %s", channelAskTimeout)
		}
	}
}

// isCallEnding says err ends the call itself (a break or a stop) rather than the tool.
func isCallEnding(err error) bool {
	var be *BreakError
	return errors.As(err, &be) || errors.Is(err, ErrStopped)
}
