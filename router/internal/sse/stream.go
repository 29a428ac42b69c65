package sse

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// The bounds of the pathway. They are mechanism, not deployment policy: sized to proxies, NAT
// idle timers and a client's reconnect, not to any one deployment.
const (
	// DefaultOutboxLimit is how many undelivered messages a session holds; past it the oldest
	// is dropped and the gap logged.
	DefaultOutboxLimit = 256
	// DefaultReplayLimit is how many delivered messages a session keeps for Last-Event-ID.
	DefaultReplayLimit = 256
	// DefaultKeepalive is the interval of the keepalive comment, under the idle timeouts of
	// common proxies and NAT tables.
	DefaultKeepalive = 15 * time.Second
	// DefaultRetry is the reconnect delay announced to 2025-11-25 clients (SEP-1699), well
	// inside the default stream-loss grace so a reconnecting client keeps its session.
	DefaultRetry = time.Second
)

// PrimingSince is the first protocol revision that gets the priming event and retry field.
const PrimingSince = "2025-11-25"

// Options configure a Stream. Zero values take the defaults above.
type Options struct {
	OutboxLimit  int
	ReplayLimit  int
	Keepalive    time.Duration
	WriteTimeout time.Duration
	Retry        time.Duration
	// HandoverWait bounds how long a new stream waits for the stream it supersedes to finish
	// its frame in progress. Default: WriteTimeout plus one second, since no frame can take
	// longer than its write deadline.
	HandoverWait time.Duration
	// Logger receives the gaps (outbox overflow, a resume from beyond the replay buffer) and
	// the ends of streams. It should already carry the session id.
	Logger zerolog.Logger
	// OnStreamClosed is called when the current stream ends for any reason other than being
	// superseded by a newer GET or the session being closed: the client hung up, or a write
	// failed or timed out. The lifetime policy starts its stream-loss grace from it. It is
	// called without any lock held, on the goroutine that served the stream.
	OnStreamClosed func(gen uint64)
	// OnDrop is called for each message dropped from a full outbox (metrics). It is called with
	// the session's lock held and must not call back into the session.
	OnDrop func()
}

func (o Options) withDefaults() Options {
	if o.OutboxLimit <= 0 {
		o.OutboxLimit = DefaultOutboxLimit
	}
	if o.ReplayLimit <= 0 {
		o.ReplayLimit = DefaultReplayLimit
	}
	if o.Keepalive <= 0 {
		o.Keepalive = DefaultKeepalive
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Retry <= 0 {
		o.Retry = DefaultRetry
	}
	if o.HandoverWait <= 0 {
		o.HandoverWait = o.WriteTimeout + time.Second
	}
	return o
}

// Stats counts what happened on a session's pathway, for logs and metrics.
type Stats struct {
	Sent           uint64 // messages accepted into the outbox
	Dropped        uint64 // messages dropped from a full outbox
	Delivered      uint64 // events written, replays included
	Replayed       uint64 // events written again for a Last-Event-ID resume
	Streams        uint64 // GET streams opened
	Resumes        uint64 // GETs whose Last-Event-ID was honoured
	StaleResumes   uint64 // GETs whose Last-Event-ID had fallen out of the replay buffer
	UnknownResumes uint64 // GETs whose Last-Event-ID was not one this session issued
	WriteFailures  uint64 // streams ended by a failed or timed-out write
}

// Stream is one MCP session's server-to-client pathway. All methods are safe for concurrent
// use. The zero value is not usable; call NewStream.
type Stream struct {
	opts Options
	log  zerolog.Logger

	mu     sync.Mutex
	lane   *lane
	gen    uint64   // the generation of the newest stream, 0 before the first
	cur    *getConn // the stream that may take messages, nil when none is open
	closed bool
	stats  Stats
	gap    gap // messages dropped since the last one a stream took
}

// gap is a run of messages the outbox dropped.
type gap struct {
	count       uint64
	first, last uint64
}

// stream is one GET request's hold on the session.
type getConn struct {
	gen  uint64
	stop chan struct{} // closed when the stream must end (superseded, session closed)
	done chan struct{} // closed when its writer has returned
	wake chan struct{} // a message is waiting
}

// NewStream makes the pathway of one session.
func NewStream(opts Options) *Stream {
	opts = opts.withDefaults()
	return &Stream{opts: opts, log: opts.Logger, lane: newLane(opts.OutboxLimit, opts.ReplayLimit)}
}

// Send queues msg for the session's standalone stream and answers its position in the lane.
// It never blocks: with no stream open the message waits in the outbox for the next GET, and
// a full outbox drops its oldest message. After Close it drops msg and answers 0.
func (s *Stream) Send(msg []byte) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0
	}
	return s.pushLocked(msg)
}

// SendOn queues msg only if the stream of generation gen is still the open one, so a message
// whose meaning depends on the stream (a liveness probe) is never parked for another stream.
func (s *Stream) SendOn(gen uint64, msg []byte) (seq uint64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cur == nil || s.cur.gen != gen {
		return 0, false
	}
	return s.pushLocked(msg), true
}

func (s *Stream) pushLocked(msg []byte) uint64 {
	data := append([]byte(nil), msg...)
	seq, dropped, didDrop := s.lane.push(data)
	s.stats.Sent++
	if didDrop {
		s.stats.Dropped++
		if s.opts.OnDrop != nil {
			s.opts.OnDrop()
		}
		// One line when a gap opens and one when it closes, not one per message: a flood
		// into a full outbox must not become a flood in the log.
		if s.gap.count == 0 {
			s.gap.first = dropped
			s.log.Warn().Uint64("droppedSeq", dropped).Int("outboxLimit", s.opts.OutboxLimit).
				Msg("sse outbox full: dropping the oldest undelivered messages")
		}
		s.gap.count++
		s.gap.last = dropped
	}
	if s.cur != nil {
		select {
		case s.cur.wake <- struct{}{}:
		default:
		}
	}
	return seq
}

// Generation answers the generation of the newest stream and whether it is open now. A
// session that never had a stream answers (0, false).
func (s *Stream) Generation() (gen uint64, open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen, s.cur != nil
}

// Stats answers a snapshot of the counters.
func (s *Stream) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Pending answers how many messages wait for a stream.
func (s *Stream) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lane.pending()
}

// Close ends the session's pathway: the open stream ends promptly (without a farewell: the
// client learns the session is gone from the 404 on its next request), queued messages are
// discarded, and later GETs are answered 404. OnStreamClosed is not called for it.
func (s *Stream) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.cur != nil {
		close(s.cur.stop)
		s.cur = nil
	}
	s.lane = newLane(s.opts.OutboxLimit, s.opts.ReplayLimit)
}

// ServeStream serves a GET that opens the standalone stream. The caller has already checked
// the session id, the protocol version header and authentication; protocolVersion is the
// revision negotiated for this session, which decides whether the stream starts with the
// SEP-1699 priming event. It returns when the stream ends: the client hung up, a write failed
// or timed out, a newer GET superseded it, or the session was closed.
func (s *Stream) ServeStream(w http.ResponseWriter, r *http.Request, protocolVersion string) {
	s.ServeStreamUntil(w, r, protocolVersion, nil)
}

// ServeStreamUntil is ServeStream that also ends the stream when until closes: the caller's
// session ending, watched by the stream's own goroutine rather than by one more goroutine per
// stream (an idle router holds one stream per session).
func (s *Stream) ServeStreamUntil(w http.ResponseWriter, r *http.Request, protocolVersion string, until <-chan struct{}) {
	st, prev, cursor, note, ok := s.attach(r.Header.Get("Last-Event-ID"))
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if prev != nil {
		s.awaitHandover(prev)
	}
	ew := NewEventWriter(w, s.opts.WriteTimeout)
	failed := s.serve(r, ew, st, cursor, note, protocolVersion >= PrimingSince, until)
	ew.Finish()
	s.detach(st, failed, !isClosed(until))
}

// isClosed says whether ch is closed; a nil channel never is.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// attach makes a new stream the current one, superseding any open stream, and decides where
// it starts in the lane from the client's Last-Event-ID.
func (s *Stream) attach(lastEventID string) (st, prev *getConn, cursor uint64, note string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, 0, "", false
	}
	s.gen++
	st = &getConn{gen: s.gen, stop: make(chan struct{}), done: make(chan struct{}), wake: make(chan struct{}, 1)}
	prev = s.cur
	if prev != nil {
		close(prev.stop)
	}
	s.cur = st
	s.stats.Streams++
	cursor, note = s.resumePointLocked(lastEventID)
	return st, prev, cursor, note, true
}

// resumePointLocked answers the position after which the new stream starts. Without a
// Last-Event-ID that is everything not yet handed out. With one this session issued, it is
// that position, so everything after it is replayed. With one that fell out of the replay
// buffer, the stream replays what is still held and says, in a comment, what was lost: the
// MCP transport lets a server replay (MAY) and forbids only replaying another stream's
// messages, so the stream opens either way rather than leaving the client without one.
func (s *Stream) resumePointLocked(lastEventID string) (uint64, string) {
	l := s.lane
	if lastEventID == "" {
		return l.delivered, ""
	}
	id, err := ParseEventID(lastEventID)
	if err != nil || id.Lane != StandaloneLane || id.Seq > l.lastSeq || id.Gen > s.gen {
		s.stats.UnknownResumes++
		s.log.Warn().Str("lastEventId", jsonrpc.Clip(lastEventID)).
			Msg("sse resume: Last-Event-ID was not issued by this session; opening without replay")
		return l.delivered, "Last-Event-ID not recognised; nothing replayed"
	}
	if id.Seq < l.replayFloor {
		s.stats.StaleResumes++
		s.log.Warn().Str("lastEventId", jsonrpc.Clip(lastEventID)).Uint64("lostThrough", l.replayFloor).
			Int("replayLimit", s.opts.ReplayLimit).
			Msg("sse resume: Last-Event-ID fell out of the replay buffer; replaying what is left")
		return l.replayFloor, fmt.Sprintf("events after %s through sequence %d are no longer held; replaying from there",
			id, l.replayFloor)
	}
	s.stats.Resumes++
	return id.Seq, ""
}

// awaitHandover waits for the superseded stream's writer to return, so the new stream's first
// frame follows the old stream's last. The wait is bounded: no frame outlasts its deadline.
func (s *Stream) awaitHandover(prev *getConn) {
	t := time.NewTimer(s.opts.HandoverWait)
	defer t.Stop()
	select {
	case <-prev.done:
	case <-t.C:
		s.log.Warn().Uint64("gen", prev.gen).Msg("sse handover: superseded stream did not end in time")
	}
}

// serve writes the stream until it ends and answers whether a write failed.
func (s *Stream) serve(r *http.Request, ew *EventWriter, st *getConn, cursor uint64, note string, prime bool, until <-chan struct{}) (failed bool) {
	if err := ew.StartStream(); err != nil {
		return true
	}
	// A first byte at once, for clients, proxies and people with curl who wait for one
	// before they believe the stream is open; SSE clients ignore comments.
	if err := ew.Comment("stream open"); err != nil {
		return true
	}
	if prime {
		id := EventID{Lane: StandaloneLane, Gen: st.gen, Seq: cursor}
		if err := ew.Prime(id.String(), s.opts.Retry); err != nil {
			return true
		}
	}
	if note != "" {
		if err := ew.Comment(note); err != nil {
			return true
		}
	}
	keepalive := time.NewTimer(UntilBeat(s.opts.Keepalive))
	defer keepalive.Stop()
	ctx := r.Context()
	for {
		for {
			m, ok, current := s.take(st, cursor)
			if !current {
				return false
			}
			if !ok {
				break
			}
			id := EventID{Lane: StandaloneLane, Gen: st.gen, Seq: m.seq}
			if err := ew.Event(id.String(), m.data); err != nil {
				s.log.Info().Err(err).Uint64("gen", st.gen).Msg("sse stream: write failed; ending stream")
				return true
			}
			cursor = m.seq
		}
		select {
		case <-ctx.Done():
			return false
		case <-st.stop:
			return false
		case <-until:
			return false
		case <-st.wake:
		case <-keepalive.C:
			if err := ew.Comment("keepalive"); err != nil {
				s.log.Info().Err(err).Uint64("gen", st.gen).Msg("sse stream: keepalive failed; ending stream")
				return true
			}
			keepalive.Reset(UntilBeat(s.opts.Keepalive))
		}
	}
}

// take hands the stream the next message after cursor, if the stream is still current.
func (s *Stream) take(st *getConn, cursor uint64) (m message, ok, current bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != st {
		return message{}, false, false
	}
	m, ok = s.lane.next(cursor)
	if ok && s.gap.count > 0 {
		s.log.Warn().Uint64("dropped", s.gap.count).Uint64("fromSeq", s.gap.first).Uint64("toSeq", s.gap.last).
			Uint64("droppedTotal", s.stats.Dropped).Msg("sse outbox gap: messages dropped before a stream could take them")
		s.gap = gap{}
	}
	if ok {
		replay := m.seq <= s.lane.delivered
		s.lane.handOut(m.seq)
		s.stats.Delivered++
		if replay {
			s.stats.Replayed++
		}
	}
	return m, ok, true
}

// detach ends a stream's hold on the session and reports a stream the client lost.
// A stream ended because its caller's session ended (report false) is not a lost stream: the
// lifetime policy has nothing left to judge.
func (s *Stream) detach(st *getConn, failed, report bool) {
	s.mu.Lock()
	lost := s.cur == st
	if lost {
		s.cur = nil
	}
	if failed {
		s.stats.WriteFailures++
	}
	s.mu.Unlock()
	close(st.done)
	if lost && report && s.opts.OnStreamClosed != nil {
		s.opts.OnStreamClosed(st.gen)
	}
}
