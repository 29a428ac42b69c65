package e2echannel

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// The tasks extension of the 2026-07-28 revision (router/stateless_tasks.go): a task needs the
// worker-to-router channel, so its tests are here rather than in package router.

const withTasks = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

func pollTask(t *testing.T, url, id string, until func(rpcReply) bool) rpcReply {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := stateless(t, url, "tasks/get", `"taskId":"`+id+`"`, withTasks)
		if until(r) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Without the tasks extension a call answers its request and there are no tasks to ask about.
func TestWithoutTheTasksExtensionThereAreNoTasks(t *testing.T) {
	url := statelessServer(t)
	sync := stateless(t, url, "tools/call", `"name":"slow_compute","arguments":{"seconds":0.1,"label":"s"}`, `{}`)
	if sync.str("resultType") != "complete" || sync.Result["taskId"] != nil {
		t.Errorf("without the extension: %v, want a plain result", sync.Result)
	}
	if r := stateless(t, url, "tasks/get", `"taskId":"task-x"`, `{}`); r.Error == nil || r.Error.Code != -32021 || r.status != http.StatusBadRequest {
		t.Errorf("tasks/get without the extension: %d %+v, want 400 -32021", r.status, r.Error)
	}
}

func TestAnUnknownTaskIsInvalidParams(t *testing.T) {
	url := statelessServer(t)
	if r := stateless(t, url, "tasks/get", `"taskId":"task-unknown"`, withTasks); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("unknown task: %+v, want -32602", r.Error)
	}
}

func TestATaskRunsOnAfterItsRequestIsAnswered(t *testing.T) {
	url := statelessServer(t)
	created := stateless(t, url, "tools/call", `"name":"slow_compute","arguments":{"seconds":0.3,"label":"t"}`, withTasks)
	id := created.str("taskId")
	if created.str("resultType") != "task" || id == "" || created.str("status") != "working" {
		t.Fatalf("with the extension: %v, want a CreateTaskResult", created.Result)
	}
	done := pollTask(t, url, id, func(r rpcReply) bool { return r.str("status") == "completed" })
	if !strings.Contains(string(done.Result["result"]), "computed t") {
		t.Fatalf("completed task: %v, want the tool's result inlined", done.Result)
	}
}

func TestATaskWaitingForInputGoesOnWithTasksUpdate(t *testing.T) {
	url := statelessServer(t)
	asks := stateless(t, url, "tools/call", `"name":"confirm_delete","arguments":{"filename":"f.txt"}`, withTasks)
	waiting := pollTask(t, url, asks.str("taskId"), func(r rpcReply) bool { return r.str("status") == "input_required" })
	if !strings.Contains(string(waiting.Result["inputRequests"]), `"confirm"`) {
		t.Fatalf("task waiting for input: %v, want inputRequests.confirm", waiting.Result)
	}
	ack := stateless(t, url, "tasks/update", `"taskId":"`+asks.str("taskId")+`","inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`, withTasks)
	if ack.str("resultType") != "complete" || ack.Result["status"] != nil {
		t.Fatalf("tasks/update ack: %v", ack.Result)
	}
	if r := pollTask(t, url, asks.str("taskId"), func(r rpcReply) bool { return r.str("status") == "completed" }); r.str("status") != "completed" {
		t.Fatalf("after tasks/update: %v, want completed", r.Result)
	}
}

// A cancelled task's call is ended in its gem, which then serves the pool again at once.
func TestACancelledTaskEndsItsCallInItsGem(t *testing.T) {
	url := statelessServer(t)
	long := stateless(t, url, "tools/call", `"name":"slow_compute","arguments":{"seconds":60,"label":"c"}`, withTasks)
	if r := stateless(t, url, "tasks/cancel", `"taskId":"`+long.str("taskId")+`"`, withTasks); r.str("resultType") != "complete" {
		t.Fatalf("tasks/cancel: %v", r.Result)
	}
	if r := pollTask(t, url, long.str("taskId"), func(r rpcReply) bool { return r.str("status") == "cancelled" }); r.str("status") != "cancelled" {
		t.Fatalf("after tasks/cancel: %v, want cancelled", r.Result)
	}
	// The cancelled call was ended in its gem: the pool serves again at once.
	start := time.Now()
	if r := stateless(t, url, "tools/call", `"name":"greet","arguments":{"name":"x"}`, `{}`); !strings.Contains(string(r.Result["content"]), "Hello, x!") {
		t.Fatalf("after the cancel: %v %+v", r.Result, r.Error)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("a call after the cancel waited %v: the cancelled task still held its gem", time.Since(start))
	}
}

// A tool that asks to become a task (the worker contract's becomeTask, sent on every call of
// run_test_class) answers a 2025-11-25 session exactly as before: the notification is the
// worker's word to the router, so it neither reaches the client nor turns the answer into an
// event stream.
func TestBecomeTaskNeverReachesASessionClient(t *testing.T) {
	url := statelessServer(t)
	c := &mcptest.Client{URL: url}
	sid, err := c.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Send(t, http.MethodPost, sid, mcptest.ToolCall(2, "slow_compute", `{"seconds":0,"label":"x"}`),
		"Accept", "application/json, text/event-stream")
	if a.Status != http.StatusOK || a.RPC.Error != nil || !strings.Contains(string(a.RPC.Result), "computed x") {
		t.Fatalf("slow_compute on a session: %d %s", a.Status, a.Body)
	}
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("the answer is %q, want application/json: a call whose tool says nothing to its client pays for no stream", ct)
	}
	if strings.Contains(string(a.Body), "becomeTask") {
		t.Errorf("the router's own notification reached the client: %s", a.Body)
	}
}

// Clients that ask tasks/get for a large result and do not read it held the task table's lock
// while their answers waited, and every tasks/* call and task creation waited with them.
func TestAnUnreadTaskAnswerHoldsNoOneElsesTaskCall(t *testing.T) {
	_, base := hardened(t)
	host := strings.TrimPrefix(base, "http://")
	c := &mcptest.Client{URL: base + "/mcp"}
	id := startTask(t, c, 1, "big_task", `{"n":4000000}`)
	if st, _ := taskStatus(t, c, id, 20*time.Second); st != "completed" {
		t.Fatalf("big_task: %s", st)
	}
	body := statelessBody(2, "tasks/get", `"taskId":"`+id+`"`, "")
	body = strings.Replace(body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":`+tasksCaps, 1)
	req := strings.Replace(rawPost(host, id, body), "Mcp-Method: tools/call", "Mcp-Method: tasks/get", 1)
	for range 12 {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4096)
		}
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond) // their answers are being written, and not read
	created := make(chan string, 1)
	go func() {
		a, _ := c.Stateless(3, "tools/call", `"name":"slow_compute","arguments":{"seconds":0,"label":"x"}`, tasksCaps, "")
		created <- string(a.Body)
	}()
	select {
	case b := <-created:
		if !strings.Contains(b, `"resultType":"task"`) && !strings.Contains(b, "computed x") {
			t.Fatalf("another client's call: %s", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("another client's task-creating call waited over 10 s behind tasks/get answers nobody reads")
	}
}

// A task result over the 4 MiB bound was reported as a small failure but kept whole until the
// task expired.
func TestATaskResultOverItsBoundIsNotKept(t *testing.T) {
	_, base := hardened(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	before := liveHeap()
	var ids []string
	for i := range 6 {
		ids = append(ids, startTask(t, c, i+1, "big_task", `{"n":8388608}`))
	}
	for _, id := range ids {
		if st, kind := taskStatus(t, c, id, 30*time.Second); st != "failed" || kind != errkind.TaskResultTooLarge {
			t.Fatalf("an 8 MiB task result: status %s kind %s, want failed taskResultTooLarge", st, kind)
		}
	}
	grew := int64(liveHeap()) - int64(before)
	t.Logf("live heap with six 8 MiB results refused: %+d KiB", grew>>10)
	if grew > 16*mib {
		t.Fatalf("live heap +%d MiB with six task results refused as over the bound, want at most 16", grew/mib)
	}
}

// 260 short tasks from one client made the table forget another client's finished, unfetched
// task long before its ttlMs.
func TestAFinishedTaskIsKeptForItsTimeToLiveWhateverOthersCreate(t *testing.T) {
	_, base := hardened(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	victim := startTask(t, c, 1, "slow_compute", `{"seconds":0,"label":"mine"}`)
	if st, _ := taskStatus(t, c, victim, 20*time.Second); st != "completed" {
		t.Fatalf("victim's task: %s", st)
	}
	plain := 0
	for i := range 260 {
		a, err := c.Stateless(i+10, "tools/call", `"name":"slow_compute","arguments":{"seconds":0,"label":"x"}`, tasksCaps, "")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(a.Body), "computed x") {
			plain++ // the table took no further task: the call answered as a plain call
		}
	}
	if st, kind := taskStatus(t, c, victim, time.Second); st != "completed" {
		t.Fatalf("after another client's 260 tasks the finished task is %s (%s), want still completed", st, kind)
	}
	if plain == 0 {
		t.Fatalf("260 tasks on a table of 256 all became tasks")
	}
}
