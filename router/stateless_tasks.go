package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// The tasks extension (io.modelcontextprotocol/tasks) on the stateless revision. The router owns
// tasks: a task is a call in flight in some gem, whose answer is kept when it ends until its
// time to live runs out, in a table bounded in count and in bytes. Which call becomes a task is
// the tool's decision, told during the call through the channel (the worker contract's
// becomeTask notification), and is honoured only for a client that declared the extension in
// this request's capabilities; a tool that must run as a task refuses such a client itself
// (-32021).

const (
	extTasks = "io.modelcontextprotocol/tasks"
	// becomeTaskMethod is the channel notification by which a running tool asks to continue as
	// a task: the client's request is answered with a CreateTaskResult at once.
	becomeTaskMethod = "notifications/io.github.gemstone-mcp/becomeTask"

	taskTTL          = 10 * time.Minute
	taskPollInterval = 500 * time.Millisecond
	// The task table's bounds. A task is never forgotten before its ttlMs to make room: a call
	// that would pass a bound simply does not become a task (it answers its request as any
	// call does), and a result that would pass one is kept as a failure naming it.
	maxTasks = 256
	// maxTasksPerOwner is one token subject's share of the table in the network-facing mode
	// (the local mode has no subjects to tell apart).
	maxTasksPerOwner = 64
	taskResultLimit  = 4 << 20
	taskBytesLimit   = 64 << 20
)

type task struct {
	id      string
	f       *flight
	created time.Time

	// guarded by taskTable.mu
	cancelled  bool
	lastStatus string
	updated    time.Time
	final      *taskView // the outcome, once the call has ended
}

type taskTable struct {
	mu    sync.Mutex
	tasks map[string]*task
}

// taskView is what tasks/get tells of a task at one moment.
type taskView struct {
	status string
	parked []*question
	result json.RawMessage
	err    json.RawMessage
}

// view answers the task's state now, and settles what looking at it settles: questions the
// call asked since the last look join the flight's parked ones, a finished call's outcome
// becomes the task's final view (the flight then lets go of its reply), and a new status
// moves updated to now. The caller holds the table's lock.
func (t *task) view(now time.Time) taskView {
	if t.final != nil {
		return *t.final
	}
	f := t.f
	f.mu.Lock()
	for _, ev := range f.takeEventsLocked() {
		if ev.q != nil {
			f.parked = append(f.parked, ev.q)
		}
	}
	finished, reply := f.finished, f.reply
	parked := append([]*question(nil), f.parked...)
	f.mu.Unlock()
	var v taskView
	switch {
	case t.cancelled:
		v.status = "cancelled"
	case finished:
		v = outcomeOf(reply)
		t.final = &v
		// The answer is kept once, as the outcome; the flight lets go of it.
		f.mu.Lock()
		f.reply = nil
		f.mu.Unlock()
	case len(parked) > 0:
		v.status, v.parked = "input_required", parked
	default:
		v.status = "working"
	}
	if v.status != t.lastStatus {
		t.lastStatus, t.updated = v.status, now
	}
	return v
}

// outcomeOf is the terminal view of a task whose call answered reply.
func outcomeOf(reply []byte) taskView {
	var v taskView
	outer, err := jsonrpc.Members(reply)
	switch {
	case len(reply) > taskResultLimit:
		v.status = "failed"
		v.err = boundError(fmt.Sprintf("the task's result (%d bytes) is larger than the task result bound (%d bytes)", len(reply), taskResultLimit))
	case err == nil && len(outer["result"]) > 0:
		v.status, v.result = "completed", outer["result"]
	case err == nil && len(outer["error"]) > 0:
		v.status, v.err = "failed", outer["error"]
	default:
		v.status = "failed"
		v.err, _ = json.Marshal(jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the call ended without an answer"})
	}
	return v
}

func boundError(message string) json.RawMessage {
	b, _ := json.Marshal(jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: message, Data: kindOnly{errkind.TaskResultTooLarge}})
	return b
}

// settleTask takes in the outcome of a task's call that has just ended: a result over the
// result bound, or one the table's byte bound has no room for, is kept as a failure naming the
// bound, and the flight lets go of the answer at once rather than at the next look.
func (s *statelessServer) settleTask(f *flight) {
	now := time.Now()
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	s.sweepLocked(now)
	var t *task
	held := 0
	for _, x := range s.tasks.tasks {
		switch {
		case x.f == f:
			t = x
		case x.final != nil:
			held += len(x.final.result) + len(x.final.err)
		}
	}
	if t == nil || t.final != nil {
		return
	}
	v := t.view(now)
	if size := len(v.result) + len(v.err); terminal(v.status) && held+size > taskBytesLimit {
		v = taskView{status: "failed", err: boundError(fmt.Sprintf(
			"the task's result (%d bytes) does not fit in the task table's %d bytes, which other tasks' results hold; run it again later", size, taskBytesLimit))}
		t.final = &v
	}
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// sweepLocked forgets terminal tasks past their time to live, and answers the bytes the
// remaining results hold. Nothing else is forgotten: a full table takes no further task.
func (s *statelessServer) sweepLocked(now time.Time) (held int) {
	for id, t := range s.tasks.tasks {
		v := t.view(now)
		if !terminal(v.status) {
			continue
		}
		if now.Sub(t.updated) > taskTTL {
			delete(s.tasks.tasks, id)
			continue
		}
		held += len(v.result) + len(v.err)
	}
	return held
}

// roomForTaskLocked says why the table takes no further task of owner, "" when it does.
func (s *statelessServer) roomForTaskLocked(now time.Time, owner session.Owner) string {
	held := s.sweepLocked(now)
	switch {
	case len(s.tasks.tasks) >= maxTasks:
		return fmt.Sprintf("the task table holds its %d tasks", maxTasks)
	case held >= taskBytesLimit:
		return fmt.Sprintf("the task table's results fill its %d bytes", taskBytesLimit)
	}
	if s.o.Identity == nil {
		return ""
	}
	mine := 0
	for _, t := range s.tasks.tasks {
		if t.f.owner == owner {
			mine++
		}
	}
	if mine >= maxTasksPerOwner {
		return fmt.Sprintf("this subject holds its share of %d tasks", maxTasksPerOwner)
	}
	return ""
}

// createTask turns a flight into a task and answers its CreateTaskResult; nil when the table
// cannot take another task (the call then goes on answering its request synchronously).
func (s *statelessServer) createTask(ctx context.Context, f *flight, req statelessRequest) []byte {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	now := time.Now()
	t := &task{id: "task-" + hex.EncodeToString(b[:]), f: f, created: now, updated: now, lastStatus: "working"}
	s.tasks.mu.Lock()
	if why := s.roomForTaskLocked(now, f.owner); why != "" {
		s.tasks.mu.Unlock()
		s.o.Log.Warn().Str("session", f.sess.ID()).Msg("a call asked to become a task, but " + why + "; it answers its request as a plain call")
		return nil
	}
	s.tasks.tasks[t.id] = t
	s.tasks.mu.Unlock()
	s.dropFlight(f) // a task is reached by its id, never by a requestState
	f.mu.Lock()
	f.task = true
	finished := f.finished
	f.mu.Unlock()
	if finished {
		s.settleTask(f)
	}
	s.o.Log.Info().Str("task", t.id).Str("session", f.sess.ID()).Msg("call continues as a task")
	return jsonrpc.ResultResponse(req.m.ID, map[string]any{
		"resultType": "task", "taskId": t.id, "status": "working",
		"createdAt": stamp(now), "lastUpdatedAt": stamp(now),
		"ttlMs": taskTTL.Milliseconds(), "pollIntervalMs": taskPollInterval.Milliseconds(),
	})
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// serveTask answers tasks/get, tasks/update and tasks/cancel.
func (s *statelessServer) serveTask(w http.ResponseWriter, r *http.Request, req statelessRequest) {
	m := req.m
	if !req.tasks {
		writeJSON(w, http.StatusBadRequest, errorBodyWith(m.ID, codeMissingClientCapability,
			"Missing required client capability: "+m.Method+" needs the "+extTasks+" extension in _meta's clientCapabilities.extensions",
			capabilityData{Kind: errkind.MissingCapability, RequiredCapabilities: map[string]any{"extensions": map[string]any{extTasks: map[string]any{}}}}))
		return
	}
	var responses map[string]json.RawMessage
	if m.Method == "tasks/update" {
		raw, ok := req.params.Lookup("inputResponses")
		var err error
		if responses, err = inputResponses(raw); !ok || err != nil {
			why := "tasks/update needs params.inputResponses"
			if err != nil {
				why = err.Error()
			}
			writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: "+why, errkind.InvalidInputResponses))
			return
		}
	}
	status, body, deliver := s.taskAnswer(r.Context(), req, responses)
	deliver()
	// Built and written with the table's lock released: a large result costs its own request
	// the marshalling, and a client that does not read its answer holds only that request.
	writeJSON(w, status, body())
}

// taskAnswer decides the answer of a tasks/* request under the table's lock; deliver passes
// tasks/update's answers to the worker's waiting questions, after the lock is let go.
func (s *statelessServer) taskAnswer(ctx context.Context, req statelessRequest, responses map[string]json.RawMessage) (int, func() []byte, func()) {
	m := req.m
	nothing := func() {}
	bytesOf := func(b []byte) func() []byte { return func() []byte { return b } }
	now := time.Now()
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	s.sweepLocked(now)
	t := s.tasks.tasks[req.name]
	if t == nil || !s.owns(ctx, t.f.owner) {
		return http.StatusBadRequest, bytesOf(errorBody(m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: no task "+quote(jsonrpc.Clip(req.name))+" (unknown, expired, or not yours)", errkind.UnknownTask)), nothing
	}
	ack := jsonrpc.ResultResponse(m.ID, map[string]any{"resultType": "complete"})
	switch m.Method {
	case "tasks/cancel":
		if v := t.view(now); !terminal(v.status) {
			t.cancelled = true
			t.lastStatus, t.updated = "cancelled", now
			// The call ends through the session's escalation (soft break, hard break, stop).
			t.f.cancelCall("its task was cancelled by its client")
			s.o.Log.Info().Str("task", t.id).Msg("task cancelled by its client")
		}
		return http.StatusOK, bytesOf(ack), nothing
	case "tasks/update":
		t.view(now) // takes in questions asked since the last look
		f := t.f
		f.mu.Lock()
		kept := f.parked[:0]
		var answered []*question
		for _, q := range f.parked {
			if _, ok := responses[q.key]; ok {
				answered = append(answered, q)
			} else {
				kept = append(kept, q)
			}
		}
		f.parked = kept
		f.mu.Unlock()
		id := t.id
		return http.StatusOK, bytesOf(ack), func() {
			for _, q := range answered {
				msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.srvID, "result": responses[q.key]})
				if err := f.sess.Pending().Deliver(q.srvID, msg); err != nil {
					s.o.Log.Debug().Err(err).Str("task", id).Msg("tasks/update: an input response found no waiting question")
				}
			}
		}
	}
	v := t.view(now)
	out := map[string]any{
		"resultType": "complete", "taskId": t.id, "status": v.status,
		"createdAt": stamp(t.created), "lastUpdatedAt": stamp(t.updated),
		"ttlMs": taskTTL.Milliseconds(), "pollIntervalMs": taskPollInterval.Milliseconds(),
	}
	if len(v.parked) > 0 {
		out["inputRequests"] = inputRequests(v.parked)
	}
	if v.result != nil {
		out["result"] = v.result
	}
	if v.err != nil {
		out["error"] = v.err
	}
	return http.StatusOK, func() []byte { return jsonrpc.ResultResponse(m.ID, out) }, nothing
}

// declaresTasks says a request's client capabilities name the tasks extension, under member
// names read exactly (an "Extensions" member declares nothing).
func declaresTasks(caps json.RawMessage) bool {
	ext, found, err := jsonrpc.MemberOfValid(caps, "extensions")
	if err != nil || !found {
		return false
	}
	v, found, err := jsonrpc.MemberOfValid(ext, extTasks)
	return err == nil && found && len(v) > 0 && v[0] == '{'
}

// withTasksExtension adds the tasks extension to the worker's capabilities for server/discover:
// the router serves it whatever the worker is.
func withTasksExtension(caps json.RawMessage) json.RawMessage {
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(caps, &m)
	ext := map[string]json.RawMessage{}
	_ = json.Unmarshal(m["extensions"], &ext)
	ext[extTasks] = json.RawMessage("{}")
	m["extensions"], _ = json.Marshal(ext)
	out, err := json.Marshal(m)
	if err != nil {
		return caps
	}
	return out
}
