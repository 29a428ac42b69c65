package channel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// DefaultResumeHold is how long the rest of a closed POST stream waits for its client's GET
// after the call has answered.
const DefaultResumeHold = time.Minute

var (
	// ErrNoStream: the client did not accept text/event-stream, so nothing can precede the
	// response. (The router maps it to its own ErrNoStream.)
	ErrNoStream = errors.New("channel: the client does not accept an event stream on this request")
	// ErrStreamGone: the response stream broke (a write failed or timed out) or is finished.
	ErrStreamGone = errors.New("channel: the response stream is gone")
	// ErrStreamCut: the response stream was cut (its client went away, or a write failed)
	// mid-call; the message and everything after it are held for the client's resume.
	ErrStreamCut = errors.New("channel: the response stream was cut; what follows is held for the client's resume")
	// ErrCannotResume: closing the stream would leave the client nothing to resume from.
	ErrCannotResume = errors.New("channel: the stream has no event id a client could resume from (priming needs 2025-11-25)")
)

// AnswerOptions configure an Answer.
type AnswerOptions struct {
	// ProtocolVersion is the session's revision: 2025-11-25 and later get the priming event.
	ProtocolVersion string
	WriteTimeout    time.Duration // default sse.DefaultWriteTimeout
	Retry           time.Duration // default sse.DefaultRetry
	ResumeHold      time.Duration // default DefaultResumeHold
}

type answerState int

const (
	stateIdle      answerState = iota // nothing written: the answer may still be plain JSON
	stateStreaming                    // text/event-stream open on the POST
	stateDetached                     // the POST's stream was closed mid-call; events are held for a GET
	stateDone                         // the response is written (or the stream broke)
)

type heldEvent struct {
	seq  uint64
	data []byte
}

// resumeKeep bounds what a POST stream keeps of the events it already wrote, so that a client
// whose stream was cut can resume from the last id it saw: events beyond it are dropped
// oldest first (the final response is always kept).
const resumeKeep = 1 << 20

// Answer is the answer to one POSTed request that a worker may speak during. It stays
// application/json until the first message, then becomes an SSE stream on lane "lane" of
// the session's event ids ("<lane>-1-<seq>", the form router/internal/sse uses; lane 0 is the GET
// stream).
type Answer struct {
	ep        *Endpoint
	w         http.ResponseWriter
	o         AnswerOptions
	canStream bool
	reqCtx    context.Context // the POST's: done when its client goes away
	unbind    func()          // ends the binding of the call to the endpoint; set by Mode.Begin

	mu       sync.Mutex
	state    answerState
	ew       *sse.EventWriter
	lane     uint64
	seq      uint64
	held     []heldEvent // written events (kept for a resume) while streaming; events to replay once detached
	heldSize int

	// The progress keepalive (KeepProgress): the client's token, the last progress value it
	// was sent, and the timer that fires when the worker has been silent for the interval.
	progressToken json.RawMessage
	progressLast  float64
	progressSent  bool
	progressEvery time.Duration
	progressTimer *time.Timer
	finished      bool
	changed       chan struct{} // closed and replaced whenever held or finished changes
}

// NewAnswer starts the answer to r on w. ep may be nil (no resumption then).
func NewAnswer(w http.ResponseWriter, r *http.Request, ep *Endpoint, o AnswerOptions) *Answer {
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = sse.DefaultWriteTimeout
	}
	if o.Retry <= 0 {
		o.Retry = sse.DefaultRetry
	}
	if o.ResumeHold <= 0 {
		o.ResumeHold = DefaultResumeHold
	}
	return &Answer{
		ep: ep, w: w, o: o, canStream: sse.Accepts(r.Header.Get("Accept")) == sse.Names, reqCtx: r.Context(),
		changed: make(chan struct{}), unbind: func() {},
	}
}

func (a *Answer) eventID(seq uint64) string {
	return sse.EventID{Lane: a.lane, Gen: 1, Seq: seq}.String()
}

// startLocked opens the event stream on the POST.
func (a *Answer) startLocked() error {
	if !a.canStream {
		return ErrNoStream
	}
	a.lane = 1
	if a.ep != nil {
		a.lane = a.ep.nextLane()
	}
	a.ew = sse.NewEventWriter(a.w, a.o.WriteTimeout)
	if err := a.ew.StartStream(); err != nil {
		a.state = stateDone
		return err
	}
	a.state = stateStreaming
	if a.o.ProtocolVersion >= sse.PrimingSince {
		if err := a.ew.Prime(a.eventID(0), a.o.Retry); err != nil {
			a.state = stateDone
			return err
		}
	}
	go a.watchCut()
	return nil
}

// watchCut detaches the stream when its client goes away mid-call (a proxy or the network cut
// it): what follows is held for the client's GET with the last event id it saw, as the
// priming event and retry invited it to.
func (a *Answer) watchCut() {
	<-a.reqCtx.Done()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state == stateStreaming {
		a.detachLocked()
	}
}

// keepLocked records an event for a resume, within resumeKeep (older events go first).
func (a *Answer) keepLocked(ev heldEvent) {
	a.held = append(a.held, ev)
	a.heldSize += len(ev.data)
	for len(a.held) > 1 && a.heldSize > resumeKeep {
		a.heldSize -= len(a.held[0].data)
		a.held = a.held[1:]
	}
}

// detachLocked turns a stream that can no longer be written into one a GET may resume: the
// events kept so far, and everything after, wait for it.
func (a *Answer) detachLocked() {
	a.state = stateDetached
	if a.ep != nil {
		a.ep.holdLane(a.lane, a)
	}
	a.signalLocked()
}

// progressStep is what each keepalive adds to the last progress value: small and exact in
// binary, so a worker's own next step (a whole number, a percentage) stays above it.
const progressStep = 1.0 / 1024

// KeepProgress keeps a long call alive for a client that sent progressToken: whenever the
// worker has sent nothing for every, the client gets a notifications/progress for that token
// (the answer turns into an event stream if it was not one yet), its progress a little above
// the last the client saw. Clients reset their request timeout on progress; a call answered
// as plain JSON would otherwise send nothing until it ends. The worker's own progress for the
// token passes through unless it would not increase (MCP requires progress to increase), in
// which case it is dropped. A zero every or an empty token does nothing.
func (a *Answer) KeepProgress(token json.RawMessage, every time.Duration) {
	if len(token) == 0 || every <= 0 || !a.canStream {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.progressToken, a.progressEvery = token, every
	a.progressTimer = time.AfterFunc(every, a.keepalive)
}

func (a *Answer) keepalive() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state == stateDone || a.finished || a.progressTimer == nil {
		return
	}
	next := a.progressLast + progressStep
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
		"params": map[string]any{"progressToken": a.progressToken, "progress": next,
			"message": "still running (the server's keepalive: the tool has reported nothing for " + a.progressEvery.String() + ")"}})
	if err == nil {
		if err = a.messageLocked(msg); err == nil || errors.Is(err, ErrStreamCut) {
			a.progressLast, a.progressSent = next, true
		}
	}
	a.progressTimer.Reset(a.progressEvery)
}

// workerProgress reads the progress value of msg when it is a notifications/progress for the
// keepalive's token.
func (a *Answer) workerProgress(msg []byte) (float64, bool) {
	m, err := jsonrpc.Members(msg)
	if err != nil || string(m["method"]) != `"notifications/progress"` {
		return 0, false
	}
	p, err := jsonrpc.Members(m["params"])
	if err != nil || string(p["progressToken"]) != string(a.progressToken) {
		return 0, false
	}
	var v float64
	if json.Unmarshal(p["progress"], &v) != nil {
		return 0, false
	}
	return v, true
}

// internalNotification says msg is a notification of the worker contract's own namespace,
// addressed to the router (docs/worker-contract.md): a session's call answers as it always
// did, so a worker that asks to become a task on every call costs its client nothing.
func internalNotification(msg []byte) bool {
	if !bytes.Contains(msg, []byte(router.InternalMethodPrefix)) {
		return false
	}
	m, err := jsonrpc.Members(msg)
	if err != nil || len(m["id"]) > 0 {
		return false
	}
	var method string
	return json.Unmarshal(m["method"], &method) == nil && strings.HasPrefix(method, router.InternalMethodPrefix)
}

// Message implements CallStream.
func (a *Answer) Message(msg []byte) error {
	if internalNotification(msg) {
		return nil // the worker speaking to the router (becomeTask): never a client's business
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.progressTimer != nil {
		if v, ok := a.workerProgress(msg); ok {
			if a.progressSent && v <= a.progressLast {
				return nil // below a keepalive already sent: passing it on would break the order
			}
			a.progressLast, a.progressSent = v, true
			a.progressTimer.Reset(a.progressEvery) // only progress resets a client's timeout
		}
	}
	return a.messageLocked(msg)
}

func (a *Answer) messageLocked(msg []byte) error {
	if a.state == stateIdle {
		if err := a.startLocked(); err != nil {
			return err
		}
	}
	switch a.state {
	case stateStreaming:
		a.seq++
		a.keepLocked(heldEvent{a.seq, msg})
		if err := a.ew.Event(a.eventID(a.seq), msg); err != nil {
			// Cut mid-call: the message is kept with the others for the client's resume.
			a.detachLocked()
			return fmt.Errorf("%w (%v)", ErrStreamCut, err)
		}
		return nil
	case stateDetached:
		a.seq++
		a.keepLocked(heldEvent{a.seq, msg})
		a.signalLocked()
		return nil
	}
	return ErrStreamGone
}

// CloseStream implements CallStream: the POST's stream ends now and what follows is held
// for a GET carrying one of its event ids (SEP-1699 polling).
func (a *Answer) CloseStream() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state == stateIdle {
		if err := a.startLocked(); err != nil {
			return err
		}
	}
	if a.state != stateStreaming {
		return ErrStreamGone
	}
	if a.o.ProtocolVersion < sse.PrimingSince && a.seq == 0 {
		return ErrCannotResume
	}
	if err := a.endResponseLocked(); err != nil {
		return err
	}
	a.state = stateDetached
	if a.ep != nil {
		a.ep.holdLane(a.lane, a)
	}
	return nil
}

// endResponseLocked ends the HTTP response while its handler still waits for the call: the
// connection is taken over, the chunked body is terminated and the connection closed, so the
// client sees its stream end cleanly. Only HTTP/1.x allows it; elsewhere the stream stays
// open and the worker's request to close it is refused.
func (a *Answer) endResponseLocked() error {
	// Every event was flushed when written; Hijack flushes what net/http still holds.
	conn, rw, err := http.NewResponseController(a.w).Hijack()
	if err != nil {
		return fmt.Errorf("channel: cannot end the response mid-call: %w", err)
	}
	_ = conn.SetWriteDeadline(time.Now().Add(a.o.WriteTimeout))
	_, _ = rw.WriteString("0\r\n\r\n")
	_ = rw.Flush()
	return conn.Close()
}

// Final writes the response: plain JSON when nothing came before it, the last event of the
// stream otherwise, or held for the resuming GET when the stream was closed mid-call.
func (a *Answer) Final(status int, header http.Header, body []byte) {
	a.unbind() // nothing the worker sends from now on belongs to this answer
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.progressTimer != nil {
		a.progressTimer.Stop()
		a.progressTimer = nil
	}
	switch a.state {
	case stateIdle:
		for k, vs := range header {
			for _, v := range vs {
				a.w.Header().Add(k, v)
			}
		}
		if body == nil {
			a.w.WriteHeader(status)
			break
		}
		a.w.Header().Set("Content-Type", "application/json")
		a.w.Header().Set("Cache-Control", "no-store")
		_ = sse.WriteWhole(a.w, status, body, a.o.WriteTimeout)
	case stateStreaming:
		var err error
		if body != nil {
			a.seq++
			if err = a.ew.Event(a.eventID(a.seq), body); err != nil {
				a.detachLocked()
				a.seq-- // appended below as the detached stream's response
			}
		}
		if err == nil {
			a.ew.Finish()
			a.held, a.heldSize = nil, 0
			break
		}
		fallthrough
	case stateDetached:
		if body != nil {
			a.seq++
			a.held = append(a.held, heldEvent{a.seq, body}) // the response is kept whatever its size
		}
		a.finished = true
		a.signalLocked()
		if a.ep != nil {
			lane := a.lane
			time.AfterFunc(a.o.ResumeHold, func() { a.ep.dropLane(lane, a) })
		}
		return
	}
	a.state = stateDone
}

func (a *Answer) signalLocked() {
	close(a.changed)
	a.changed = make(chan struct{})
}

// serveResume writes the held events after seq "after" on a GET, until the response has
// been written, the client leaves, or the session ends.
func (a *Answer) serveResume(w http.ResponseWriter, r *http.Request, after uint64) {
	ew := sse.NewEventWriter(w, a.o.WriteTimeout)
	if err := ew.StartStream(); err != nil {
		return
	}
	defer ew.Finish()
	for {
		a.mu.Lock()
		var todo []heldEvent
		for _, ev := range a.held {
			if ev.seq > after {
				todo = append(todo, ev)
			}
		}
		finished, changed := a.finished, a.changed
		a.mu.Unlock()
		for i, ev := range todo {
			// The lane is let go before the stream's last event is written, so a client that
			// reads it and resumes at once finds nothing left (409); should that write fail,
			// the lane is held again and a later resume still gets the event.
			last := finished && i == len(todo)-1
			if last {
				a.ep.dropLane(a.lane, a)
			}
			if ew.Event(a.eventID(ev.seq), ev.data) != nil {
				if last {
					a.ep.holdLane(a.lane, a)
				}
				return
			}
			after = ev.seq
		}
		if finished {
			a.ep.dropLane(a.lane, a)
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-a.ep.done:
			return
		}
	}
}

func (e *Endpoint) nextLane() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lanes++
	return e.lanes
}

func (e *Endpoint) holdLane(lane uint64, a *Answer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.resuming[lane] = a
	}
}

func (e *Endpoint) dropLane(lane uint64, a *Answer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.resuming[lane] == a {
		delete(e.resuming, lane)
	}
}

// Resume serves a GET whose Last-Event-ID names a POST stream of this session that was
// closed or cut mid-call, and answers true; it answers false (and writes nothing) for any
// other GET, which the router then serves as the standalone stream. A POST stream's id that
// can no longer be resumed (its rest was fetched, or held past ResumeHold) is answered 409:
// served as the standalone stream, it would supersede the client's own GET stream, and a
// client running both reconnect loops would have them replace each other for ever.
func (e *Endpoint) Resume(w http.ResponseWriter, r *http.Request) bool {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		return false
	}
	id, err := sse.ParseEventID(last)
	if err != nil || id.Lane == sse.StandaloneLane {
		return false
	}
	e.mu.Lock()
	a := e.resuming[id.Lane]
	e.mu.Unlock()
	if a == nil {
		e.hub.log.Info().Str("session", e.sessionID).Str("lastEventId", last).
			Msg("resume of a POST stream that holds nothing more (its response was delivered, or held past the resume window); refused")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_ = sse.WriteBounded(w, jsonrpc.ErrorResponse(nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "Conflict: Last-Event-ID " + last + " names a response stream that holds nothing more to replay " +
				"(its response was delivered, or held longer than the resume window); open the standalone stream without it",
			Data: map[string]any{"kind": errkind.StreamNotResumable}}), 0)
		return true
	}
	a.serveResume(w, r, id.Seq)
	return true
}
