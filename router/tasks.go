package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
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
	maxTasks         = 256
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

// view reads a task's state; the caller holds the table's lock.
func (t *task) view(now time.Time) taskView {
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
		outer, err := jsonrpc.Members(reply)
		switch {
		case len(reply) > taskResultLimit:
			v.status = "failed"
			v.err, _ = json.Marshal(jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("the task's result (%d bytes) is larger than the task result bound (%d bytes)", len(reply), taskResultLimit)})
		case err == nil && len(outer["result"]) > 0:
			v.status, v.result = "completed", outer["result"]
		case err == nil && len(outer["error"]) > 0:
			v.status, v.err = "failed", outer["error"]
		default:
			v.status = "failed"
			v.err, _ = json.Marshal(jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the call ended without an answer"})
		}
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

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// sweepLocked forgets terminal tasks past their time to live, and the oldest terminal ones
// while the table holds more results than taskBytesLimit or more tasks than keep.
func (s *Server) sweepLocked(now time.Time, keep int) {
	tt := &s.tasks
	var done []*task
	total := 0
	for id, t := range tt.tasks {
		v := t.view(now)
		if !terminal(v.status) {
			continue
		}
		if now.Sub(t.updated) > taskTTL {
			delete(tt.tasks, id)
			continue
		}
		done = append(done, t)
		total += len(v.result) + len(v.err)
	}
	sort.Slice(done, func(i, j int) bool { return done[i].updated.Before(done[j].updated) })
	for _, t := range done {
		if total <= taskBytesLimit && len(tt.tasks) <= keep {
			break
		}
		v := t.view(now)
		total -= len(v.result) + len(v.err)
		delete(tt.tasks, t.id)
		s.o.Log.Info().Str("task", t.id).Msg("task forgotten before its time to live: the task table is full")
	}
}

// createTask turns a flight into a task and answers its CreateTaskResult; nil when the table
// cannot take another task (the call then goes on answering its request synchronously).
func (s *Server) createTask(ctx context.Context, f *flight, req statelessRequest) []byte {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	now := time.Now()
	t := &task{id: "task-" + hex.EncodeToString(b[:]), f: f, created: now, updated: now, lastStatus: "working"}
	s.tasks.mu.Lock()
	s.sweepLocked(now, maxTasks-1)
	if len(s.tasks.tasks) >= maxTasks {
		s.tasks.mu.Unlock()
		s.o.Log.Warn().Int("limit", maxTasks).Msg("a call asked to become a task, but the task table is full of running tasks; it answers synchronously")
		return nil
	}
	s.tasks.tasks[t.id] = t
	s.tasks.mu.Unlock()
	s.dropFlight(f) // a task is reached by its id, never by a requestState
	f.mu.Lock()
	f.task = true
	f.mu.Unlock()
	s.o.Log.Info().Str("task", t.id).Str("session", f.sess.ID()).Msg("call continues as a task")
	return jsonrpc.ResultResponse(req.m.ID, map[string]any{
		"resultType": "task", "taskId": t.id, "status": "working",
		"createdAt": stamp(now), "lastUpdatedAt": stamp(now),
		"ttlMs": taskTTL.Milliseconds(), "pollIntervalMs": taskPollInterval.Milliseconds(),
	})
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// serveTask answers tasks/get, tasks/update and tasks/cancel.
func (s *Server) serveTask(w http.ResponseWriter, r *http.Request, req statelessRequest) {
	m := req.m
	if !req.tasks {
		writeJSON(w, http.StatusBadRequest, errorBody(m.ID, codeMissingClientCapability,
			"Missing required client capability: "+m.Method+" needs the "+extTasks+" extension in _meta's clientCapabilities.extensions",
			"missingCapability", "requiredCapabilities", map[string]any{"extensions": map[string]any{extTasks: map[string]any{}}}))
		return
	}
	var responses map[string]json.RawMessage
	if m.Method == "tasks/update" {
		raw, ok := req.params["inputResponses"]
		var why string
		if responses, why = inputResponses(raw); !ok || why != "" {
			if why == "" {
				why = "tasks/update needs params.inputResponses"
			}
			writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: "+why, "invalidInputResponses"))
			return
		}
	}
	now := time.Now()
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	s.sweepLocked(now, maxTasks)
	t := s.tasks.tasks[req.name]
	if t == nil || !s.owns(r.Context(), t.f.owner) {
		writeJSON(w, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: no task "+quote(jsonrpc.Clip(req.name))+" (unknown, expired, or not yours)", "unknownTask"))
		return
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
		writeJSON(w, http.StatusOK, ack)
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
		for _, q := range answered {
			msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.srvID, "result": responses[q.key]})
			if err := f.sess.Pending().Deliver(q.srvID, msg); err != nil {
				s.o.Log.Debug().Err(err).Str("task", t.id).Msg("tasks/update: an input response found no waiting question")
			}
		}
		writeJSON(w, http.StatusOK, ack)
	default:
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
		writeJSON(w, http.StatusOK, jsonrpc.ResultResponse(m.ID, out))
	}
}

// declaresTasks says a request's client capabilities name the tasks extension, under member
// names read exactly (an "Extensions" member declares nothing).
func declaresTasks(caps json.RawMessage) bool {
	c, err := jsonrpc.Members(caps)
	if err != nil {
		return false
	}
	ext, err := jsonrpc.Members(c["extensions"])
	if err != nil {
		return false
	}
	v, ok := ext[extTasks]
	return ok && len(v) > 0 && v[0] == '{'
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
