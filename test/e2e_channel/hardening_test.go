package e2echannel

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring/wiringtest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// Issue 25's hostile and careless stateless clients, against the front end assembled as
// bin/mcp-gemstone assembles it, its fixture workers speaking over the TCP channel. Memory is
// measured as live heap after GC (runtime.ReadMemStats after runtime.GC), in this process,
// which holds the router.

// liveHeap is the heap in use after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

const mib = 1 << 20

// statelessBody is a 2026-07-28 request body (id 0: a notification).
func statelessBody(id int, method, params, extraMeta string) string {
	meta := `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}` + extraMeta
	if params != "" {
		params += ","
	}
	idPart := ""
	if id != 0 {
		idPart = fmt.Sprintf(`"id":%d,`, id)
	}
	return `{"jsonrpc":"2.0",` + idPart + `"method":"` + method + `","params":{` + params + `"_meta":{` + meta + `}}}`
}

// rawPost is the HTTP/1.1 text of a stateless tools/call of tool, for a client that will stop
// reading its answer.
func rawPost(host, tool, body string) string {
	return "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\n" +
		"Mcp-Method: tools/call\r\nMcp-Name: " + tool + "\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
}

// waitFor polls cond for up to d; false when it never held.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func heldFlights(srv *router.Server) int { n, _, _ := srv.StatelessHeld(); return n }

// Two long calls whose clients leave held both pool gems, and every later client waited for
// them to end on their own (the revision: a disconnect is the cancellation).
// A disconnect cancels a stateless call and frees its pool gem.
func TestADisconnectedStatelessCall(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	sleep := statelessBody(1, "tools/call", `"name":"sleep","arguments":{"ms":120000}`, "")
	done := make(chan error, 2)
	for range 2 {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, err := c.Do(ctx, http.MethodPost, "", []byte(sleep),
				"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "sleep")
			done <- err
		}()
	}
	for range 2 {
		if err := <-done; err == nil {
			t.Fatal("a 120 s sleep answered within its client's 1 s")
		}
	}
	t.Run("frees its pool gem for the next client", func(t *testing.T) {
		wantEchoWithin20s(t, c, 2, `{"text":"next"}`, "next", "echo after the disconnects",
			"the abandoned calls still hold the pool gems")
	})
	t.Run("is cancelled, then forgotten", func(t *testing.T) {
		if !waitFor(10*time.Second, func() bool { return heldFlights(srv) == 0 }) {
			t.Fatalf("%d calls still held after their clients left and the calls ended", heldFlights(srv))
		}
	})
}

// A call runs on its own request's goroutine, so a timer sweeps for clients that left; it rests
// while no call runs and must wake for the next one. Calls come and go, the sweep rests, then a
// client leaves a long call in a GemStone session it opened: the call is cancelled, and the
// session's next call runs at once.
func TestADepartureIsNoticedAfterTheSweepHasRested(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	handle, err := harness.OpenHandle(context.Background(), c)
	if err != nil {
		t.Fatalf("open_session: %v", err)
	}
	for i := range 3 {
		a, err := c.Stateless(2+i, "tools/call", `"name":"echo","arguments":{"session":"`+handle+`","text":"warm"}`, `{}`, "")
		if err != nil || !strings.Contains(string(a.Body), "warm") {
			t.Fatalf("echo %d: %v %s", i, err, a.Body)
		}
	}
	time.Sleep(200 * time.Millisecond) // several sweep periods with no call running
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	sleep := statelessBody(9, "tools/call", `"name":"sleep","arguments":{"session":"`+handle+`","ms":120000}`, "")
	if _, err := c.Do(ctx, http.MethodPost, "", []byte(sleep),
		"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "sleep"); err == nil {
		t.Fatal("a 120 s sleep answered within its client's 0.5 s")
	}
	if !waitFor(10*time.Second, func() bool { return heldFlights(srv) == 0 }) {
		t.Fatalf("%d calls still held 10 s after their client left: the departure went unnoticed", heldFlights(srv))
	}
	wantEchoWithin20s(t, c, 10, `{"session":"`+handle+`","text":"after"}`, "after", "the session's next call after the departure",
		"the abandoned sleep still runs in its gem")
}

// wantEchoWithin20s sends a stateless echo with args and fails t unless text comes back within
// 20 s; what names the call, and stuck says what no answer means.
func wantEchoWithin20s(t *testing.T, c *mcptest.Client, id int, args, text, what, stuck string) {
	t.Helper()
	answered := make(chan mcptest.Answer, 1)
	go func() {
		a, _ := c.Stateless(id, "tools/call", `"name":"echo","arguments":`+args, `{}`, "")
		answered <- a
	}()
	select {
	case a := <-answered:
		if !strings.Contains(string(a.Body), text) {
			t.Fatalf("%s: %d %s", what, a.Status, a.Body)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s got no answer in 20 s: %s", what, stuck)
	}
}

// A stateless call's client may cancel it with notifications/cancelled naming its id.
func TestNotificationsCancelledEndsTheStatelessCallItNames(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	answered := make(chan mcptest.Answer, 1)
	go func() {
		a, _ := c.Stateless(41, "tools/call", `"name":"sleep","arguments":{"ms":120000}`, `{}`, "")
		answered <- a
	}()
	if !waitFor(10*time.Second, func() bool { return heldFlights(srv) == 1 }) {
		t.Fatal("the sleep call never started")
	}
	time.Sleep(100 * time.Millisecond) // let it reach its gem
	a, err := c.Do(context.Background(), http.MethodPost, "",
		[]byte(statelessBody(0, "notifications/cancelled", `"requestId":41`, "")),
		"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "notifications/cancelled")
	if err != nil || a.Status != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %d %v", a.Status, err)
	}
	select {
	case a := <-answered:
		if a.Status != http.StatusAccepted || len(a.Message) != 0 {
			t.Fatalf("the cancelled call answered %d %s, want 202 and no answer", a.Status, a.Body)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled call was still running 20 s later")
	}
	if !waitFor(10*time.Second, func() bool { return heldFlights(srv) == 0 }) {
		t.Fatalf("%d calls still held after the cancellation", heldFlights(srv))
	}
}

// One call to a tool that reports 512 KiB progress messages, whose client leaves at once, kept
// up to 256 of them (+130 MiB live) for ever.
// An abandoned call is dropped, and the messages it buffered are freed with it.
func TestAnAbandonedCallIsFreed(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	host := strings.TrimPrefix(base, "http://")
	before := liveHeap()
	body := statelessBody(1, "tools/call", `"name":"flood","arguments":{"kind":"progress","count":400,"size":524288}`, `,"progressToken":"p"`)
	conn := dialAndStall(t, host, rawPost(host, "flood", body))
	time.Sleep(300 * time.Millisecond)
	conn.Close()
	t.Run("the call is dropped", func(t *testing.T) {
		if !waitFor(20*time.Second, func() bool { return heldFlights(srv) == 0 }) {
			t.Fatalf("the abandoned call is still held 20 s after its client left (live heap +%d MiB)", (int64(liveHeap())-int64(before))/mib)
		}
	})
	t.Run("its buffered messages are freed", func(t *testing.T) {
		grew := int64(liveHeap()) - int64(before)
		t.Logf("live heap after the abandoned call was dropped: %+d KiB", grew>>10)
		if grew > 16*mib {
			t.Fatalf("live heap +%d MiB after the abandoned call was dropped, want at most 16", grew/mib)
		}
	})
}

// Calls answered input_required whose clients never retry: each ends when its question is
// given up on (here: when another request needs its pool gem) and is forgotten then.
func TestANeverRetriedInputRequiredCallIsForgottenWhenItEnds(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	c := &mcptest.Client{URL: base + "/mcp"}
	for i := range 6 {
		a, err := c.Stateless(i+1, "tools/call", `"name":"test_input_required_result_elicitation","arguments":{}`, `{"elicitation":{}}`, "")
		if err != nil || !strings.Contains(string(a.Body), "input_required") {
			t.Fatalf("call %d: %v %s", i, err, a.Body)
		}
	}
	if !waitFor(10*time.Second, func() bool { return heldFlights(srv) <= router.DefaultStatelessPool }) {
		t.Fatalf("%d calls held after six never-retried input_required answers on a pool of %d: the preempted ones were never forgotten",
			heldFlights(srv), router.DefaultStatelessPool)
	}
}

// Two clients that stop reading their stateless calls' streams: the worker waits for them as it
// does for a session's stream, instead of its messages piling up in the router.
func TestAStatelessCallsSlowReaderSlowsItsWorker(t *testing.T) {
	_, base := wiringtest.Serve(t)
	host := strings.TrimPrefix(base, "http://")
	before := liveHeap()
	body := statelessBody(1, "tools/call", `"name":"flood","arguments":{"kind":"progress","count":1000,"size":524288}`, `,"progressToken":"p"`)
	for range 2 {
		conn := dialAndStall(t, host, rawPost(host, "flood", body))
		t.Cleanup(func() { conn.Close() })
	}
	time.Sleep(3 * time.Second)
	grew := int64(liveHeap()) - int64(before)
	t.Logf("live heap with two stalled stateless streams: %+d KiB", grew>>10)
	if grew > 24*mib {
		t.Fatalf("live heap +%d MiB with two stalled stateless streams, want at most 24 (each call's buffer is 1 MiB)", grew/mib)
	}
}

// dialAndStall sends request on a fresh connection with a small receive window, reads the status
// line and nothing more, and answers the connection.
func dialAndStall(t *testing.T, addr, request string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, " 200 ") {
		conn.Close()
		t.Fatalf("status line %q (%v)", status, err)
	}
	return conn
}

const tasksCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// startTask calls tool as a task and answers its id.
func startTask(t *testing.T, c *mcptest.Client, id int, tool, args string) string {
	t.Helper()
	a, err := c.Stateless(id, "tools/call", `"name":"`+tool+`","arguments":`+args, tasksCaps, "")
	var res struct {
		ResultType string `json:"resultType"`
		TaskID     string `json:"taskId"`
	}
	if err != nil || json.Unmarshal(a.RPC.Result, &res) != nil || res.ResultType != "task" {
		t.Fatalf("%s as a task: %v %.300s", tool, err, a.Body)
	}
	return res.TaskID
}

// taskStatus polls tasks/get until the task is terminal (or d passes) and answers its status
// and its error's data.kind.
func taskStatus(t *testing.T, c *mcptest.Client, id string, d time.Duration) (status, kind string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		a, err := c.Stateless(9, "tasks/get", `"taskId":"`+id+`"`, tasksCaps, "")
		if err != nil {
			t.Fatal(err)
		}
		if a.RPC.Error != nil {
			return "error", fmt.Sprint(a.RPC.Error.Data["kind"])
		}
		var res struct {
			Status string `json:"status"`
			Error  struct {
				Data struct{ Kind string } `json:"data"`
			} `json:"error"`
		}
		_ = json.Unmarshal(a.RPC.Result, &res)
		if res.Status == "completed" || res.Status == "failed" || res.Status == "cancelled" || time.Now().After(deadline) {
			return res.Status, res.Error.Data.Kind
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A subscription filter is bounded (256 URIs, 64 KiB): sixteen streams subscribing to lists of
// 3.5 MB pinned about 20 MiB of live heap each, for as long as they stayed open.
func TestAListenStreamsSubscriptionListIsBounded(t *testing.T) {
	_, base := wiringtest.Serve(t)
	host := strings.TrimPrefix(base, "http://")
	uris := make([]string, 0, 40000)
	for i := range cap(uris) {
		uris = append(uris, fmt.Sprintf(`"test://static/uri/%070d"`, i))
	}
	list := strings.Join(uris, ",")
	body := statelessBody(1, "subscriptions/listen", `"notifications":{"resourcesListChanged":true,"resourceSubscriptions":[`+list+`]}`, "")
	req := strings.Replace(strings.Replace(rawPost(host, "x", body), "Mcp-Method: tools/call", "Mcp-Method: subscriptions/listen", 1),
		"Mcp-Name: x\r\n", "", 1)
	before := liveHeap()
	refused := 0
	for range 4 {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatal(err)
		}
		status, _ := bufio.NewReader(conn).ReadString('\n')
		if strings.Contains(status, " 400 ") {
			refused++
		}
	}
	grew := int64(liveHeap()) - int64(before)
	t.Logf("live heap with four %d-byte subscription lists asked for: %+d KiB", len(list), grew>>10)
	if refused != 4 || grew > 16*mib {
		t.Fatalf("%d of 4 oversized subscription filters refused, live heap +%d MiB; want all refused (400 subscriptionTooLarge) and at most +16 MiB", refused, grew/mib)
	}
	a, err := (&mcptest.Client{URL: base + "/mcp"}).Stateless(2, "subscriptions/listen",
		`"notifications":{"resourceSubscriptions":[`+strings.Join(uris[:257], ",")+`]}`, `{}`, "")
	if err != nil || a.Status != http.StatusBadRequest || a.RPC.Error == nil || a.RPC.Error.Data["kind"] != errkind.SubscriptionTooLarge {
		t.Fatalf("257 URIs: %v %d %.300s, want 400 subscriptionTooLarge", err, a.Status, a.Body)
	}
}
