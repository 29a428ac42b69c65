package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
)

// The tasks extension (stateless_tasks.go). A call becomes a task when its tool says so over
// the worker-to-router channel, a plug-in package router does not import, so these tests
// assemble the router with it as the binary does (internal/wiring) on the in-process fake
// worker. The task paths that need a hostile client or a measured heap are in
// test/e2e_channel/tasks_test.go.

const tasksCaps = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// start calls tool with args as a client declaring the extension and answers the task's id.
func (f *assembledFront) start(tool, args string, headers ...string) string {
	f.t.Helper()
	a := f.send("tools/call", `"name":"`+tool+`","arguments":`+args, tasksCaps, headers...)
	if a.str("resultType") != "task" || a.str("taskId") == "" {
		f.t.Fatalf("%s: %s, want a CreateTaskResult", tool, a.Body)
	}
	return a.str("taskId")
}

// pollUntil asks tasks/get about id until its status is want (10 s at most) and answers the
// last answer.
func (f *assembledFront) pollUntil(id, want string, headers ...string) frontAnswer {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		a := f.send("tasks/get", `"taskId":"`+id+`"`, tasksCaps, headers...)
		if a.str("status") == want || time.Now().After(deadline) {
			return a
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestATaskCallIsAnsweredAtOnceWithACreateTaskResult(t *testing.T) {
	f := newAssembledFront(t)
	start := time.Now()
	a := f.send("tools/call", `"name":"slow_compute","arguments":{"seconds":30,"label":"t"}`, tasksCaps)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the CreateTaskResult took %v: it waited for the call", took)
	}
	wantStatus(t, a.Answer, http.StatusOK)
	if a.str("resultType") != "task" || !strings.HasPrefix(a.str("taskId"), "task-") || a.str("status") != "working" {
		t.Errorf("result %s, want resultType task, a task- id, status working", a.RPC.Result)
	}
	if string(a.result["ttlMs"]) != "600000" || string(a.result["pollIntervalMs"]) != "500" {
		t.Errorf("ttlMs %s pollIntervalMs %s, want 600000 and 500", a.result["ttlMs"], a.result["pollIntervalMs"])
	}
	created, err := time.Parse(time.RFC3339Nano, a.str("createdAt"))
	if err != nil || a.str("lastUpdatedAt") != a.str("createdAt") || time.Since(created) > time.Minute {
		t.Errorf("createdAt %q lastUpdatedAt %q, want the same RFC 3339 time, now", a.str("createdAt"), a.str("lastUpdatedAt"))
	}
}

// declaresTasks reads the client's capabilities by their exact member names: only an
// extensions object naming the extension with an object makes a call a task.
func TestACallIsATaskOnlyForAClientDeclaringTheExtension(t *testing.T) {
	f := newAssembledFront(t)
	for _, c := range []struct{ name, caps string }{
		{"no extensions", `{}`},
		{"Extensions in another case", `{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"the extension as true", `{"extensions":{"io.modelcontextprotocol/tasks":true}}`},
		{"another extension", `{"extensions":{"io.example/other":{}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := f.send("tools/call", `"name":"slow_compute","arguments":{"seconds":0.05,"label":"s"}`, c.caps)
			if a.str("resultType") != "complete" || a.result["taskId"] != nil || !strings.Contains(string(a.result["content"]), "computed s") {
				t.Errorf("caps %s: %s, want the tool's plain result", c.caps, a.Body)
			}
		})
	}
}

func TestServerDiscoverAdvertisesTheTasksExtension(t *testing.T) {
	f := newAssembledFront(t)
	a := f.send("server/discover", "", `{}`)
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(a.result["capabilities"], &caps); err != nil {
		t.Fatalf("capabilities %s: %v", a.result["capabilities"], err)
	}
	if string(caps.Extensions["io.modelcontextprotocol/tasks"]) != "{}" {
		t.Errorf("capabilities %s, want extensions naming io.modelcontextprotocol/tasks", a.result["capabilities"])
	}
	if !strings.Contains(string(a.result["capabilities"]), `"tools"`) {
		t.Errorf("capabilities %s lost the worker's tools capability", a.result["capabilities"])
	}
}

func TestATaskRunsOnAfterItsRequestIsAnswered(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("slow_compute", `{"seconds":0.3,"label":"t"}`)
	if a := f.send("tasks/get", `"taskId":"`+id+`"`, tasksCaps); a.str("status") != "working" {
		t.Errorf("a task at once: %s, want working", a.RPC.Result)
	}
	done := f.pollUntil(id, "completed")
	if !strings.Contains(string(done.result["result"]), "computed t") || done.str("resultType") != "complete" {
		t.Fatalf("completed task: %s, want resultType complete and the tool's result inlined", done.RPC.Result)
	}
	if done.str("lastUpdatedAt") == done.str("createdAt") {
		t.Errorf("completed task: lastUpdatedAt %s is still createdAt", done.str("lastUpdatedAt"))
	}
}

func TestAFailedTasksErrorIsInlined(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("protocol_error_job", `{}`)
	done := f.pollUntil(id, "failed")
	if done.str("status") != "failed" || !strings.Contains(string(done.result["error"]), "protocol_error_job") || done.result["result"] != nil {
		t.Fatalf("a task whose call answered an error: %s, want failed with the error inlined", done.RPC.Result)
	}
}

func TestATaskWaitingForInputShowsItsQuestion(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("confirm_delete", `{"filename":"f.txt"}`)
	waiting := f.pollUntil(id, "input_required")
	if waiting.str("status") != "input_required" || !strings.Contains(string(waiting.result["inputRequests"]), `"confirm"`) {
		t.Fatalf("task waiting for input: %s, want input_required with inputRequests.confirm", waiting.RPC.Result)
	}
}

func TestTasksUpdateLetsAWaitingTaskGoOn(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("confirm_delete", `{"filename":"f.txt"}`)
	f.pollUntil(id, "input_required")
	ack := f.send("tasks/update", `"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`, tasksCaps)
	if ack.str("resultType") != "complete" || ack.result["status"] != nil {
		t.Fatalf("tasks/update: %s, want a bare complete", ack.Body)
	}
	if r := f.pollUntil(id, "completed"); !strings.Contains(string(r.result["result"]), "confirm_delete f.txt") {
		t.Fatalf("after tasks/update: %s, want completed with the tool's answer", r.RPC.Result)
	}
}

func TestTasksUpdateWithoutInputResponsesIsInvalidParams(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("confirm_delete", `{"filename":"f.txt"}`)
	for _, c := range []struct{ name, params string }{
		{"none", `"taskId":"` + id + `"`},
		{"not an object", `"taskId":"` + id + `","inputResponses":[1]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			mcptest.WantError(t, f.send("tasks/update", c.params, tasksCaps).Answer, http.StatusBadRequest, -32602, errkind.InvalidInputResponses)
		})
	}
}

func TestTasksCancelEndsTheCallInItsGem(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("slow_compute", `{"seconds":60,"label":"c"}`)
	if a := f.send("tasks/cancel", `"taskId":"`+id+`"`, tasksCaps); a.str("resultType") != "complete" || a.result["status"] != nil {
		t.Fatalf("tasks/cancel: %s, want a bare complete", a.Body)
	}
	if a := f.pollUntil(id, "cancelled"); a.str("status") != "cancelled" {
		t.Fatalf("after tasks/cancel: %s, want cancelled", a.RPC.Result)
	}
	start := time.Now()
	if a := f.send("tools/call", `"name":"greet","arguments":{"name":"x"}`, `{}`); !strings.Contains(string(a.result["content"]), "Hello, x!") {
		t.Fatalf("a call after the cancel: %s", a.Body)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("a call after the cancel waited %v: the cancelled task still held its gem", time.Since(start))
	}
}

func TestCancellingAFinishedTaskLeavesItsOutcome(t *testing.T) {
	f := newAssembledFront(t)
	id := f.start("slow_compute", `{"seconds":0,"label":"d"}`)
	f.pollUntil(id, "completed")
	if a := f.send("tasks/cancel", `"taskId":"`+id+`"`, tasksCaps); a.str("resultType") != "complete" {
		t.Fatalf("tasks/cancel of a finished task: %s, want complete", a.Body)
	}
	if a := f.send("tasks/get", `"taskId":"`+id+`"`, tasksCaps); a.str("status") != "completed" || !strings.Contains(string(a.result["result"]), "computed d") {
		t.Fatalf("a finished task after tasks/cancel: %s, want still completed with its result", a.RPC.Result)
	}
}

func TestTasksRequestsWithoutTheExtensionNameTheMissingCapability(t *testing.T) {
	f := newAssembledFront(t)
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		t.Run(method, func(t *testing.T) {
			a := f.send(method, `"taskId":"task-x","inputResponses":{}`, `{}`)
			if mcptest.WantError(t, a.Answer, http.StatusBadRequest, -32021, errkind.MissingCapability) &&
				!strings.Contains(a.RPC.Error.Message, "io.modelcontextprotocol/tasks") {
				t.Errorf("message %q should name the extension", a.RPC.Error.Message)
			}
		})
	}
}

func TestAnUnknownTaskIsInvalidParams(t *testing.T) {
	f := newAssembledFront(t)
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		t.Run(method, func(t *testing.T) {
			a := f.send(method, `"taskId":"task-unknown","inputResponses":{}`, tasksCaps)
			if mcptest.WantError(t, a.Answer, http.StatusBadRequest, -32602, errkind.UnknownTask) &&
				!strings.Contains(a.RPC.Error.Message, `"task-unknown"`) {
				t.Errorf("message %q should name the task asked about", a.RPC.Error.Message)
			}
		})
	}
}

// With an identity a task belongs to the subject whose request created it: another subject
// is told it is unknown, exactly as for an id that never existed.
func TestAnotherSubjectsTaskIsUnknownToIt(t *testing.T) {
	f := newAssembledFront(t, func(o *router.Options) { o.Auth, o.Identity = headerAuth, &testIdentity{} })
	id := f.start("slow_compute", `{"seconds":0,"label":"mine"}`, "X-Principal", "alice")
	if a := f.pollUntil(id, "completed", "X-Principal", "alice"); a.str("status") != "completed" {
		t.Fatalf("alice's own task: %s, want completed", a.Body)
	}
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		t.Run(method, func(t *testing.T) {
			a := f.send(method, `"taskId":"`+id+`","inputResponses":{}`, tasksCaps, "X-Principal", "mallory")
			mcptest.WantError(t, a.Answer, http.StatusBadRequest, -32602, errkind.UnknownTask)
		})
	}
	if a := f.send("tasks/get", `"taskId":"`+id+`"`, tasksCaps, "X-Principal", "alice"); a.str("status") != "completed" {
		t.Fatalf("alice's task after mallory's tasks/cancel: %s, want still completed", a.Body)
	}
}
