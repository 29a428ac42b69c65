package router

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// A stateless call's cancellation (its client left, or tasks/cancel) is by JSON-RPC id on its
// gem. Once the gem has answered, the gem may already run another client's call with the same
// id: the flight's cancellation must then reach nothing (issue 25 item 17).
func TestACancellationAfterTheGemAnsweredReachesNoLaterCallWithTheSameID(t *testing.T) {
	srv := New(Options{Launcher: workertest.New(), Prepare: worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "r1", MaxSessions: 2, Log: zerolog.Nop()})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		srv.Close(context.Background())
	})
	c := &mcptest.Client{URL: ts.URL + "/mcp"}
	sid, err := c.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := srv.Sessions().Get(sid)
	later := make(chan string, 1)
	go func() {
		a, _ := c.Post(context.Background(), sid, []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":1500}}}`))
		later <- string(a.Body)
	}()
	mcptest.Eventually(t, 5*time.Second, "the later call with id 5 runs", sess.Busy)

	answered := &flight{s: srv.stateless, sess: sess, msg: jsonrpc.Message{Method: "tools/call", ID: json.RawMessage(`5`)}, callDone: true}
	if answered.cancelCall("its client left") {
		t.Fatal("the cancellation of a call its gem had answered ended a later call with the same id")
	}
	if body := <-later; strings.Contains(body, `"error":`) || strings.Contains(body, `"isError":true`) {
		t.Fatalf("the later call did not run to its end: %s", body)
	}

	// The same flight before its gem answered does end the call it names: the guard, not a
	// missing call, is what held above.
	go func() {
		a, _ := c.Post(context.Background(), sid, []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":30000}}}`))
		later <- string(a.Body)
	}()
	mcptest.Eventually(t, 5*time.Second, "the second call with id 5 runs", sess.Busy)
	running := &flight{s: srv.stateless, sess: sess, msg: jsonrpc.Message{Method: "tools/call", ID: json.RawMessage(`5`)}}
	if !running.cancelCall("its client left") {
		t.Fatal("the cancellation of a running call found no call with its id")
	}
	select {
	case <-later:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not end within 10 s")
	}
}
