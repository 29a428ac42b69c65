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
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring/wiringtest"
)

// The tasks extension of the 2026-07-28 revision through the whole path: what a session-era
// client sees of a tool that asks to become a task, and the task table against clients that
// hold their answers or fill it. The extension's own behaviours (tasks/get, tasks/update,
// tasks/cancel, unknown and foreign tasks) are tested in router/stateless_tasks_test.go.

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
	_, base := wiringtest.Serve(t)
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
	_, base := wiringtest.Serve(t)
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
	_, base := wiringtest.Serve(t)
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
