package router

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

const (
	// settleWindow is how long a flight waits after a worker's question for further questions
	// of the same round, so questions a tool asks together reach the client in one result.
	settleWindow = 25 * time.Millisecond
	// maxFlightEvents and maxFlightBytes bound the notifications a flight holds: while a
	// request is attached, the worker waits for its client to take them (backpressure); while
	// none is, further notifications are dropped (a worker's questions are always kept: the
	// channel bounds those).
	maxFlightEvents = 256
	maxFlightBytes  = 1 << 20
	// maxFlights bounds the calls kept in flight for the stateless wire at once.
	maxFlights = 1024
)

// question is a worker's request to the client, awaiting its answer through inputResponses.
type question struct {
	key    string
	srvID  json.RawMessage
	method string
	params json.RawMessage
}

type flightEvent struct {
	msg    []byte
	method string
	q      *question
}

// flight is one stateless call running in a gem: the request that started it and any retry
// carrying its requestState attach to it in turn.
type flight struct {
	s     *statelessServer
	id    string
	sess  *session.Session
	owner session.Owner // the principal whose request started it
	name  string

	// What the call runs with, for run: the starting request's message (its method and id name
	// the call) and context (its token chooses the call's grant), and what to do when it ends.
	msg     jsonrpc.Message
	ctx     context.Context
	release func()
	unbind  func()

	mu     sync.Mutex
	events []flightEvent
	bytes  int // of the notifications in events
	// room is closed when events are taken or the request detaches, wake when anything a pass
	// reads changes. Each is made by whoever first waits on it (nil: nobody waits), so a call
	// that nobody has to wait for makes neither.
	room     chan struct{}
	wake     chan struct{}
	callDone bool // the gem has answered: its session no longer runs this call
	finished bool
	status   int
	header   http.Header // extra headers of the answer (a step-up's WWW-Authenticate)
	reply    []byte
	parked   []*question
	round    int
	attached bool // an HTTP request is serving this flight
	// wantsTask: the tool asked to continue as a task; task: it does (the task table has it).
	wantsTask bool
	task      bool
	// caps are the capabilities the request's client declared in its _meta (as sent: read
	// only when the worker asks a question); a question that needs another is answered -32021
	// in the worker, never put to the client.
	caps json.RawMessage
	// held is the starting request while its goroutine is running the call: an answer it is
	// given before the call ends (input_required, a task) must close its connection (heldClose).
	held *http.Request
	// unserved says nothing serves the flight yet while its call runs on held's goroutine
	// (runFlight): startServingLocked serves it through held, with heldServe, on a goroutine of
	// its own, which closes served when it is done. Kept in the flight, not in a closure, since
	// nearly every call ends with nothing to serve.
	unserved  bool
	heldServe heldServe
	served    chan struct{}
}

// heldServe is what serving a flight through the request running its call takes besides that
// request.
type heldServe struct {
	w         http.ResponseWriter
	req       statelessRequest
	responses map[string]json.RawMessage
}

// capabilityFor names the client capability a question to the client relies on.
var capabilityFor = map[string]string{
	"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots",
}

func (f *flight) signalLocked() {
	if f.wake != nil {
		close(f.wake)
		f.wake = nil
	}
}

func (f *flight) roomLocked() {
	if f.room != nil {
		close(f.room)
		f.room = nil
	}
}

// waitChannelLocked is ch, made first when nobody waits on it yet.
func waitChannelLocked(ch *chan struct{}) chan struct{} {
	if *ch == nil {
		*ch = make(chan struct{})
	}
	return *ch
}

// takeEventsLocked hands over what the flight holds and makes room for more. With nothing
// held nobody waits for room (the worker waits only while the flight holds something), so
// there is no one to wake.
func (f *flight) takeEventsLocked() []flightEvent {
	events := f.events
	if len(events) == 0 {
		return nil
	}
	f.events, f.bytes = nil, 0
	f.roomLocked()
	return events
}

// cancelCall ends the flight's call through its session's escalation (soft break, hard break,
// stop), unless the gem has already answered it: checked under the flight's lock, which the call
// takes before its gem is released, so a cancellation never reaches a later call on the same
// gem that happens to carry the same JSON-RPC id.
func (f *flight) cancelCall(why string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.callDone {
		return false
	}
	found := f.sess.Cancel(jsonrpc.IDKey(f.msg.ID))
	if found {
		f.s.o.Log.Info().Str("session", f.sess.ID()).Str("method", jsonrpc.Clip(f.msg.Method)).Str("id", jsonrpc.Clip(string(f.msg.ID))).
			Msg("stateless: call cancelled: " + why)
	}
	return found
}

// Message implements CallSink.
func (f *flight) Message(msg []byte) error {
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &env) != nil {
		return nil
	}
	if len(env.ID) == 0 && f.s.listeners.offer(f.owner, env.Method, msg) {
		return nil
	}
	if len(env.ID) == 0 && env.Method == becomeTaskMethod {
		f.mu.Lock()
		f.wantsTask = true
		f.signalLocked()
		f.startServingLocked()
		f.mu.Unlock()
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.startServingLocked()
	if len(env.ID) == 0 {
		// Backpressure: the worker's channel waits here while its client catches up.
		for f.attached && f.bytes > 0 && (f.bytes+len(msg) > maxFlightBytes || len(f.events) >= maxFlightEvents) {
			room := waitChannelLocked(&f.room)
			f.mu.Unlock()
			<-room
			f.mu.Lock()
		}
		if f.bytes+len(msg) > maxFlightBytes || len(f.events) >= maxFlightEvents {
			return nil // nobody is reading: a notification of an unattended flight is dropped
		}
		f.bytes += len(msg)
	}
	ev := flightEvent{msg: msg, method: env.Method}
	if len(env.ID) > 0 {
		key := ""
		_ = json.Unmarshal(jsonrpc.MetaValue(env.Params, metaInputKey), &key)
		if key == "" {
			_ = json.Unmarshal(env.ID, &key)
		}
		ev.q = &question{key: key, srvID: env.ID, method: env.Method, params: env.Params}
		if need := capabilityFor[env.Method]; need != "" {
			var caps map[string]json.RawMessage
			_ = json.Unmarshal(f.caps, &caps)
			if _, ok := caps[need]; !ok {
				refusal := jsonrpc.ErrorResponse(env.ID, &jsonrpc.Error{Code: codeMissingClientCapability,
					Message: "the client did not declare the " + need + " capability this request needs",
					Data:    capabilityData{Kind: errkind.MissingCapability, RequiredCapabilities: map[string]any{need: map[string]any{}}}})
				_ = f.sess.Pending().Deliver(env.ID, refusal)
				return nil
			}
		}
	}
	f.events = append(f.events, ev)
	f.signalLocked()
	return nil
}

// CloseStream implements CallSink: the stateless wire has no stream to resume.
func (f *flight) CloseStream() error {
	return errors.New("a stateless call's answer cannot be resumed; the stream stays open")
}

// runStateless serves a request that is not answered by the front end: a retry carrying a
// requestState resumes its parked call; anything else starts a call on a pool gem.
func (s *statelessServer) runStateless(w http.ResponseWriter, r *http.Request, req statelessRequest) {
	var responses map[string]json.RawMessage
	if raw, ok := req.params.Lookup("inputResponses"); ok && mrtrMethods[req.m.Method] {
		var err error
		if responses, err = inputResponses(raw); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody(req.m.ID, jsonrpc.CodeInvalidParams, "Invalid params: "+err.Error(), errkind.InvalidInputResponses))
			return
		}
	}
	if raw := req.params.Get("requestState"); len(raw) > 0 && mrtrMethods[req.m.Method] {
		f, err := s.resumeFlight(r, req, raw)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody(req.m.ID, jsonrpc.CodeInvalidParams,
				"Invalid params: requestState "+err.Error()+"; send the request again without it", errkind.BadRequestState))
			return
		}
		s.serveFlight(w, r, req, f, responses)
		return
	}
	if req.m.Method == "tools/call" {
		var refusal []byte
		if req.m, refusal = withParamHeaders(r, req.m); refusal != nil {
			writeJSON(w, http.StatusBadRequest, refusal)
			return
		}
	}
	sess, release, answered := s.statelessGem(w, r, req)
	if answered {
		return
	}
	f, err := s.startFlight(r.Context(), sess, req, release)
	if err != nil {
		release()
		writeJSON(w, http.StatusServiceUnavailable, errorBody(req.m.ID, jsonrpc.CodeServer, err.Error(), errkind.TooManyCalls))
		return
	}
	s.runFlight(w, r, req, f, responses)
}

// inputResponses reads params.inputResponses: an object whose every member is an object (an
// elicitation, sampling or roots result); the error names what is not.
func inputResponses(raw json.RawMessage) (map[string]json.RawMessage, error) {
	m, err := jsonrpc.Members(raw)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("inputResponses must be an object mapping each input key to the client's result")
	}
	for k, v := range m {
		if len(v) == 0 || v[0] != '{' {
			return nil, errors.New("inputResponses[" + quote(jsonrpc.Clip(k)) + "] must be an object (an elicitation, sampling or roots result)")
		}
	}
	return m, nil
}

// startFlight runs the request on sess in the background; release runs when the call ends,
// however it ends (a pool gem goes back to the pool; a handle's gem stays its client's).
func (s *statelessServer) startFlight(ctx context.Context, sess *session.Session, req statelessRequest, release func()) (*flight, error) {
	// A flight's id is no secret (a requestState naming it is MACed, and a retry must also pass
	// the owner check): a counter, not the CSPRNG, on this per-request path.
	var id [24]byte
	f := &flight{s: s, id: string(strconv.AppendUint(append(id[:0], "fl-"...), s.flightSeq.Add(1), 10)), sess: sess,
		name: req.name, attached: true, caps: req.caps,
		msg: req.m, ctx: ctx, release: release, unbind: func() {}}
	owner, err := s.owner(ctx)
	if err != nil {
		return nil, err
	}
	f.owner = owner
	s.flightsMu.Lock()
	if len(s.flights) >= maxFlights {
		s.flightsMu.Unlock()
		return nil, errors.New("too many stateless calls are in flight; send it again later")
	}
	s.flights[f.id] = f
	s.flightsMu.Unlock()
	if sb, ok := s.o.Responses.(SinkBinder); ok {
		f.unbind = sb.BindSink(sess, req.m.ID, f)
	}
	return f, nil
}

// runFlight runs the flight's call on the goroutine of the HTTP/1 request that started it, and
// serves the flight through that request: a call that nothing interrupts (no notification, no question,
// no task, its client still there) is answered by this goroutine when it ends, handed to no
// other. When something needs serving while the call runs (the worker sends a message, or the
// client leaves, which the departure sweep notices), serveFlight starts on a goroutine of its
// own and this one waits for it after the call. That goroutine may answer before the call ends
// (input_required, a task): the call goes on here, and the answer closes the connection
// (heldClose), since this request holds it until the call ends and a client that sent its
// retry on it would wait on itself.
func (s *statelessServer) runFlight(w http.ResponseWriter, r *http.Request, req statelessRequest, f *flight, responses map[string]json.RawMessage) {
	if r.ProtoMajor != 1 {
		// An HTTP/2 answer's stream ends only when its handler returns: an answer given before
		// the call ends (input_required, a task) would not reach its client while the call held
		// the handler, so the call runs on a goroutine of its own.
		go f.run()
		s.serveFlight(w, r, req, f, responses)
		return
	}
	f.mu.Lock()
	f.held, f.unserved, f.heldServe = r, true, heldServe{w, req, responses}
	f.mu.Unlock()
	s.watchDepartures()
	defer s.heldCalls.Add(-1)
	f.run()
	f.mu.Lock()
	f.held = nil
	serveHere, served := f.unserved, f.served
	f.unserved, f.heldServe = false, heldServe{}
	f.mu.Unlock()
	if serveHere {
		if !s.answerAtOnce(w, f) {
			s.serveFlight(w, r, req, f, responses)
		}
		return
	}
	<-served
}

// answerAtOnce answers the flight's request with the call's answer when the call left nothing
// else to serve (no message, no question, no task): the common call, answered without the
// serving loop. false: serveFlight must serve it.
func (s *statelessServer) answerAtOnce(w http.ResponseWriter, f *flight) bool {
	f.mu.Lock()
	if !f.finished || f.task || f.wantsTask || len(f.events) > 0 || len(f.parked) > 0 {
		f.mu.Unlock()
		return false
	}
	f.attached = false
	status, header, reply := f.status, f.header, f.reply
	f.mu.Unlock()
	s.dropFlight(f)
	_ = writeAnswer(w, status, header, reply)
	return true
}

// writeAnswer writes a call's answer as one JSON response (header: extra headers, a step-up's
// WWW-Authenticate; no body: the status alone).
func writeAnswer(w http.ResponseWriter, status int, header http.Header, body []byte) error {
	for k, vs := range header {
		w.Header()[k] = vs
	}
	return writeJSON(w, status, body)
}

// startServingLocked starts serving the flight on a goroutine of its own, once, if its call is
// running on its request's goroutine and nothing serves it yet.
func (f *flight) startServingLocked() {
	if !f.unserved {
		return
	}
	f.unserved = false
	f.served = make(chan struct{})
	go f.serveHeld(f.held, f.heldServe, f.served)
}

// serveHeld serves the flight through r, the request running its call, and closes served.
func (f *flight) serveHeld(r *http.Request, hs heldServe, served chan struct{}) {
	defer close(served)
	defer func() {
		if p := recover(); p != nil {
			f.s.o.Log.Error().Interface("panic", p).Bytes("stack", debug.Stack()).Msg("serving a stateless call panicked (a bug)")
		}
	}()
	f.s.serveFlight(hs.w, r, hs.req, f, hs.responses)
}

// heldClose marks an answer given while r's goroutine still runs the call (f.held, only ever an
// HTTP/1 request: runFlight) to close its connection: the client must send its next request,
// the retry above all, on another.
func (f *flight) heldClose(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	held := f.held == r
	f.mu.Unlock()
	if held {
		w.Header().Set("Connection", "close")
	}
}

// run runs the flight's call on its gem: the call may outlive its request (a parked question,
// a task), so it runs under the server's context, but the request's token still chooses its
// grant.
func (f *flight) run() {
	s := f.s
	status, reply := s.forward(withValuesOf(s.base, f.ctx), f.sess, f.msg)
	f.mu.Lock()
	f.callDone = true
	f.mu.Unlock()
	status, header, reply := s.stepUp(f.ctx, f.msg, status, reply)
	f.unbind()
	if len(reply) > 0 {
		var code int
		reply, code = stampReply(f.msg.Method, statelessAdvice(reply))
		if status == http.StatusOK {
			status = statelessStatus(code)
		}
	}
	// The gem goes back before the answer does: a client that sends its next request the
	// moment it reads this one finds it idle instead of logging another gem in.
	f.release()
	f.finish(status, header, reply)
}

// finish records the call's answer. A flight no request is attached to is dropped at once,
// with what it holds: its client left (and the call was cancelled), or it was parked and its
// question ran out before any retry came, which is also when that retry's requestState expires.
func (f *flight) finish(status int, header http.Header, reply []byte) {
	f.mu.Lock()
	f.finished, f.status, f.header, f.reply = true, status, header, reply
	f.signalLocked()
	abandoned := !f.attached && !f.task
	if abandoned {
		f.takeEventsLocked()
		f.parked = nil
	}
	isTask := f.task
	f.mu.Unlock()
	if abandoned {
		f.s.dropFlight(f)
	}
	if isTask {
		f.s.settleTask(f)
	}
}

func (s *statelessServer) dropFlight(f *flight) {
	s.flightsMu.Lock()
	delete(s.flights, f.id)
	s.flightsMu.Unlock()
}

// serveFlight serves a flight through the HTTP request attached to it (startFlight and
// resumeFlight attach it): answers the parked questions the request answers, relays
// notifications (SSE once there is one), and ends with the call's response or with an
// input_required result when the worker asks what the request did not answer. A client that
// leaves before that end (its request's context ends, or a write to it fails) cancels the call:
// the revision makes a disconnect the cancellation.
func (s *statelessServer) serveFlight(w http.ResponseWriter, r *http.Request, req statelessRequest, f *flight, responses map[string]json.RawMessage) {
	// detach ends this request's hold on the flight, once: on the way out, or before an answer
	// that is flushed while the call goes on, so that a retry its client sends at once finds the
	// flight free.
	var detached bool
	detach := func() {
		if detached {
			return
		}
		detached = true
		f.mu.Lock()
		f.attached = false
		f.roomLocked()
		finished := f.finished && !f.task
		f.mu.Unlock()
		if finished {
			s.dropFlight(f)
		}
	}
	defer detach()
	var used map[string]bool // made by the first claim: nearly every call has none
	// claim says this request's inputResponses answer q, once; deliver hands that answer to the
	// worker, outside the flight's lock.
	claim := func(q *question) bool {
		if _, ok := responses[q.key]; !ok || used[q.key] {
			return false
		}
		if used == nil {
			used = map[string]bool{}
		}
		used[q.key] = true
		return true
	}
	deliver := func(q *question) {
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.srvID, "result": responses[q.key]})
		if err := f.sess.Pending().Deliver(q.srvID, msg); err != nil {
			s.o.Log.Debug().Err(err).Str("key", jsonrpc.Clip(q.key)).Msg("stateless: an input response found no waiting question")
		}
	}
	for _, q := range f.claimParked(claim) {
		deliver(q)
	}

	var stream *sse.EventWriter
	accepts := sse.Accepts(r.Header.Get("Accept")) == sse.Names
	write := func(msg []byte) error {
		if !accepts {
			return nil
		}
		if stream == nil {
			f.heldClose(w, r) // the stream may end in input_required or a task before the call
			stream = sse.NewEventWriter(w, 0)
			if err := stream.StartStream(); err != nil {
				return err
			}
		}
		return stream.Event("", msg)
	}
	final := func(status int, header http.Header, body []byte) error {
		if stream != nil {
			if err := stream.Event("", body); err != nil {
				return err
			}
			stream.Finish()
			return nil
		}
		return writeAnswer(w, status, header, body)
	}
	gone := func(why string) {
		f.cancelCall(why)
	}
	// early answers the request before its call ends (a task, input_required): this request
	// lets go of the flight first, so a retry sent the moment the answer arrives finds it free,
	// and the answer is flushed at once, since this request's handler may be the one running the
	// call (heldClose).
	early := func(body []byte) error {
		f.heldClose(w, r)
		detach()
		if err := final(http.StatusOK, nil, body); err != nil {
			return err
		}
		return http.NewResponseController(w).Flush()
	}
	var settle <-chan time.Time
	for {
		p := f.pass(claim)
		for _, ev := range p.relay {
			if ev.q != nil {
				deliver(ev.q)
				continue
			}
			if keepNotification(ev.method, ev.msg, req.logLevel) {
				if err := write(ev.msg); err != nil {
					gone("its client stopped reading its stream")
					return
				}
			}
		}
		if p.parkedNow {
			settle = time.After(settleWindow)
		}
		if p.took {
			continue // drain before deciding: the final answer comes after the messages
		}
		if p.wantsTask && req.tasks && req.m.Method == "tools/call" {
			if body := s.createTask(r.Context(), f, req); body != nil {
				_ = early(body) // a task goes on when its creator leaves: tasks/get finds it
				return
			}
		}
		if p.finished {
			_ = final(p.status, p.header, p.reply)
			return
		}
		if p.parked > 0 && settle == nil {
			settle = time.After(0)
		}
		select {
		case <-p.wake:
		case <-settle:
			// The questions are read before the request lets go: a parked call no request holds
			// may be preempted.
			if early(s.inputRequired(req, f)) != nil {
				gone("its client left before it read the input_required result")
			}
			return
		case <-r.Context().Done():
			gone("its client disconnected")
			return
		}
	}
}

// flightPass is what one pass of serveFlight acts on, all of it read in one lock section, so
// the messages it relays, the call's end and the task request it sees are of one moment; what
// changes after it closes wake.
type flightPass struct {
	relay     []flightEvent // notifications, and questions this request answers, in order
	took      bool          // the pass took events: drain again before deciding
	parkedNow bool          // a question this request does not answer was parked
	parked    int           // questions parked, awaiting a retry
	wake      chan struct{}
	wantsTask bool // the tool asked to continue as a task and is not one yet
	finished  bool
	status    int
	header    http.Header
	reply     []byte
}

// pass takes what the flight holds: questions claim accepts go to relay with the
// notifications, any other question is parked for the client's retry.
func (f *flight) pass(claim func(*question) bool) flightPass {
	f.mu.Lock()
	defer f.mu.Unlock()
	events := f.takeEventsLocked()
	p := flightPass{took: len(events) > 0, wantsTask: f.wantsTask && !f.task,
		finished: f.finished, status: f.status, header: f.header, reply: f.reply}
	for _, ev := range events {
		if ev.q == nil || claim(ev.q) {
			p.relay = append(p.relay, ev)
			continue
		}
		f.parked = append(f.parked, ev.q)
		p.parkedNow = true
	}
	p.parked = len(f.parked)
	if !p.took && !p.finished { // only such a pass can end in a wait
		p.wake = waitChannelLocked(&f.wake)
	}
	return p
}

// claimParked takes the parked questions claim accepts (a retry's inputResponses answer them)
// and keeps the rest parked.
func (f *flight) claimParked(claim func(*question) bool) []*question {
	f.mu.Lock()
	defer f.mu.Unlock()
	var claimed []*question
	kept := f.parked[:0]
	for _, q := range f.parked {
		if claim(q) {
			claimed = append(claimed, q)
		} else {
			kept = append(kept, q)
		}
	}
	f.parked = kept
	return claimed
}

// preemptParked ends one parked call whose client has not come back with its answer, so that
// its pool gem can serve a request that is waiting now: a pool gem waits for a client's input
// only while nobody else needs it. Its questions are answered with an error naming why, the
// tool ends as on any refused question, and the client's later retry finds the call ended.
func (s *statelessServer) preemptParked() bool {
	s.flightsMu.Lock()
	var victim *flight
	for _, f := range s.flights {
		f.mu.Lock()
		idle := f.waitsForRetryLocked() && !f.task
		f.mu.Unlock()
		if idle && s.pool.ids.has(f.sess.ID()) { // a handle's gem frees no pool gem
			victim = f
			break
		}
	}
	s.flightsMu.Unlock()
	if victim == nil {
		return false
	}
	victim.abandonParked("the client did not come back with its input before the gem was needed by another request")
	s.o.Log.Info().Str("session", victim.sess.ID()).Str("method", jsonrpc.Clip(victim.msg.Method)).
		Msg("stateless: a call waiting for its client's input was ended to free its pool gem")
	return true
}

// endParked ends every call that waits for a client's retry, as the server begins to shut
// down: no retry can reach it any more, and its request's goroutine, which runs the call
// (runFlight), would hold the HTTP server's shutdown for the whole grace.
func (s *statelessServer) endParked() {
	s.flightsMu.Lock()
	var parked []*flight
	for _, f := range s.flights {
		f.mu.Lock()
		if f.waitsForRetryLocked() {
			parked = append(parked, f)
		}
		f.mu.Unlock()
	}
	s.flightsMu.Unlock()
	for _, f := range parked {
		f.abandonParked("the server is shutting down")
	}
	if len(parked) > 0 {
		s.o.Log.Info().Int("calls", len(parked)).Msg("shutdown: calls waiting for their clients' input were ended")
	}
}

// waitsForRetryLocked says the call is parked: it waits for its client's retry to answer its
// questions, and no request serves it.
func (f *flight) waitsForRetryLocked() bool {
	return !f.attached && !f.finished && len(f.parked) > 0
}

// abandonParked answers the flight's parked questions with an error saying why: the tool ends
// as on any refused question, and a later retry finds the call ended.
func (f *flight) abandonParked(why string) {
	f.mu.Lock()
	parked := f.parked
	f.parked = nil
	f.mu.Unlock()
	for _, q := range parked {
		msg := jsonrpc.ErrorResponse(q.srvID, &jsonrpc.Error{Code: jsonrpc.CodeServer, Message: why, Data: kindOnly{errkind.InputAbandoned}})
		_ = f.sess.Pending().Deliver(q.srvID, msg)
	}
}

// inputRequests is the inputRequests member that hands parked questions to the client, by
// the key each answer must come back under.
func inputRequests(parked []*question) map[string]any {
	requests := make(map[string]any, len(parked))
	for _, q := range parked {
		params := q.params
		if len(params) == 0 {
			params = json.RawMessage("{}")
		}
		requests[q.key] = map[string]any{"method": q.method, "params": params}
	}
	return requests
}

// inputRequired is the answer that hands the flight's parked questions to the client, with the
// requestState its retry must carry.
func (s *statelessServer) inputRequired(req statelessRequest, f *flight) []byte {
	f.mu.Lock()
	f.round++
	requests := inputRequests(f.parked)
	round := f.round
	wait := time.Duration(0)
	for _, q := range f.parked {
		wait = max(wait, s.pendingTimeout(q.method))
	}
	f.mu.Unlock()
	state := s.signState(requestState{Flight: f.id, Round: round, Method: f.msg.Method, Name: f.name,
		Expires: time.Now().Add(wait).Unix()})
	return jsonrpc.ResultResponse(req.m.ID, map[string]any{
		"resultType": "input_required", "inputRequests": requests, "requestState": state,
	})
}

// pendingTimeout is how long the pending table waits for the client's answer to a question of
// this method, so a requestState lives exactly as long as the question it answers.
func (s *statelessServer) pendingTimeout(method string) time.Duration {
	if d, ok := s.o.PendingTimeouts[method]; ok && d > 0 {
		return d
	}
	if s.o.PendingTimeout > 0 {
		return s.o.PendingTimeout
	}
	return DefaultPendingTimeout
}

// requestState is what a requestState names: the parked call, which of its rounds, for which
// request, until when. The client holds it; the MAC makes it tamper-proof.
type requestState struct {
	Flight  string `json:"f"`
	Round   int    `json:"r"`
	Method  string `json:"m"`
	Name    string `json:"n"`
	Expires int64  `json:"e"`
}

func (s *statelessServer) signState(st requestState) string {
	payload, _ := json.Marshal(st)
	mac := hmac.New(sha256.New, s.stateKey[:])
	mac.Write(payload)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// resumeFlight checks a retry's requestState and finds its parked call; the error's text
// completes "requestState ..." with what was wrong.
func (s *statelessServer) resumeFlight(r *http.Request, req statelessRequest, raw json.RawMessage) (*flight, error) {
	var token string
	if json.Unmarshal(raw, &token) != nil {
		return nil, errors.New("is not a string")
	}
	body, sig, ok := strings.Cut(token, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(body)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return nil, errors.New("is malformed")
	}
	mac := hmac.New(sha256.New, s.stateKey[:])
	mac.Write(payload)
	if !hmac.Equal(mac.Sum(nil), got) {
		return nil, errors.New("failed its integrity check (it was not issued by this server, or was altered)")
	}
	var st requestState
	if json.Unmarshal(payload, &st) != nil {
		return nil, errors.New("is malformed")
	}
	if time.Now().Unix() > st.Expires {
		return nil, errors.New("has expired")
	}
	if st.Method != req.m.Method || st.Name != req.name {
		return nil, errors.New("was issued for another request")
	}
	s.flightsMu.Lock()
	f := s.flights[st.Flight]
	s.flightsMu.Unlock()
	if f == nil || !s.owns(r.Context(), f.owner) {
		return nil, errors.New("names a call that has ended")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.round != st.Round:
		return nil, errors.New("was already used (a later round has begun)")
	case f.attached:
		return nil, errors.New("is being used by another request")
	}
	f.attached = true
	return f, nil
}

// keepNotification decides whether a worker's notification reaches a stateless client: log
// messages only when the request named a logLevel, and only at or above it.
func keepNotification(method string, msg []byte, level string) bool {
	if method != "notifications/message" {
		return true
	}
	if level == "" {
		return false
	}
	var n struct {
		Params struct {
			Level string `json:"level"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &n)
	return logRank(n.Params.Level) >= logRank(level)
}

func logRank(level string) int {
	for i, l := range []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"} {
		if l == level {
			return i
		}
	}
	return 0
}

// statelessAdvice rewrites the advice of an error answer written for sessions ("initialize a new
// session") for the stateless wire, which has no initialize: the client sends the request again
// and another gem serves it. Any other answer is returned as it is.
func statelessAdvice(reply []byte) []byte {
	// The byte search first: it rules out nearly every answer without parsing it.
	if !bytes.Contains(reply, []byte("initialize a new")) || !jsonrpc.IsErrorResponse(reply) {
		return reply
	}
	top, err := jsonrpc.Members(reply)
	if err != nil {
		return reply
	}
	e, err := jsonrpc.Members(top["error"])
	if err != nil {
		return reply
	}
	var msg string
	if json.Unmarshal(e["message"], &msg) != nil {
		return reply
	}
	at := strings.Index(msg, "; initialize a new")
	if at < 0 {
		return reply
	}
	advice := "; send the request again"
	if strings.Contains(msg[at:], "when it is back") {
		advice += " when the server is back"
	}
	var ok bool
	if e["message"], err = json.Marshal(msg[:at] + advice); err != nil {
		return reply
	}
	if top["error"], ok = marshalRaw(e); !ok {
		return reply
	}
	out, ok := marshalRaw(top)
	if !ok {
		return reply
	}
	return out
}

func marshalRaw(m map[string]json.RawMessage) ([]byte, bool) {
	b, err := json.Marshal(m)
	return b, err == nil
}

// cancelStateless honours a notifications/cancelled on the stateless wire. The revision's own
// cancellation there is the client leaving (serveFlight); a notice is matched to a call only
// when it is unambiguous: one call in flight, not a task (tasks/cancel ends those), started by
// this requester under that JSON-RPC id. Ids are the client's to choose and repeat, so a notice
// that could name two calls ends neither.
func (s *statelessServer) cancelStateless(r *http.Request, m jsonrpc.Message) {
	id, ok := jsonrpc.CancelledRequestID(m.Params)
	if !ok {
		return
	}
	var match []*flight
	s.flightsMu.Lock()
	for _, f := range s.flights {
		if jsonrpc.IDKey(f.msg.ID) == jsonrpc.IDKey(id) {
			match = append(match, f)
		}
	}
	s.flightsMu.Unlock()
	var mine []*flight
	for _, f := range match {
		f.mu.Lock()
		live := !f.task && !f.finished
		f.mu.Unlock()
		if live && s.owns(r.Context(), f.owner) {
			mine = append(mine, f)
		}
	}
	if len(mine) != 1 {
		s.o.Log.Info().Str("requestId", jsonrpc.Clip(string(id))).Int("matching", len(mine)).
			Msg("stateless: notifications/cancelled names no single call of its sender; ignored")
		return
	}
	mine[0].cancelCall("its client sent notifications/cancelled")
}

// StatelessHeld counts what the stateless wire holds now: calls in flight (running or parked),
// tasks in the task table, open subscriptions/listen streams. For tests and an operator's eye.
func (s *Server) StatelessHeld() (flights, tasks, listeners int) { return s.stateless.held() }

func (s *statelessServer) held() (flights, tasks, listeners int) {
	s.flightsMu.Lock()
	flights = len(s.flights)
	s.flightsMu.Unlock()
	s.tasks.mu.Lock()
	tasks = len(s.tasks.tasks)
	s.tasks.mu.Unlock()
	s.listeners.mu.Lock()
	listeners = len(s.listeners.set)
	s.listeners.mu.Unlock()
	return flights, tasks, listeners
}
