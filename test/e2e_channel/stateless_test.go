package e2echannel

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// statelessServer is the front end assembled as bin/mcp-gemstone assembles it (wiring.Assemble:
// the lifetime policy, the channel), on in-process fixture workers that reach the channel over
// TCP; it answers the URL of /mcp.
func statelessServer(t *testing.T) string {
	t.Helper()
	return assembled(t) + "/mcp"
}

// assembled serves an assembled front end for the test's life and answers its base URL; tune
// adjusts the options.
func assembled(t *testing.T, tune ...func(*router.Options)) string {
	t.Helper()
	l := workertest.New()
	o := router.Options{
		Launcher: l,
		Prepare:  worker.PrepareConfig{WorkerClass: "McpServer"},
		RouterID: "r1",
		Log:      zerolog.Nop(),
	}
	for _, f := range tune {
		f(&o)
	}
	asm, err := wiring.Assemble(o, wiring.Parts{Lifetime: lifetime.Defaults(), Stone: &workertest.Control{L: l}, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if asm.Hub == nil {
		t.Fatal("the assembly opened no worker-to-router channel")
	}
	ts := httptest.NewServer(asm.Server.Handler())
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		asm.Server.Close(ctx)
		asm.CloseChannel()
	})
	return ts.URL
}

type rpcReply struct {
	status int
	Result map[string]json.RawMessage `json:"result"`
	Error  *struct {
		Code int `json:"code"`
		Data struct {
			Kind string `json:"kind"`
		} `json:"data"`
	} `json:"error"`
}

func (r rpcReply) str(member string) string {
	var s string
	_ = json.Unmarshal(r.Result[member], &s)
	return s
}

// stateless sends one 2026-07-28 request; caps is the client capabilities object.
func stateless(t *testing.T, url, method, params, caps string) rpcReply {
	t.Helper()
	a, err := (&mcptest.Client{URL: url}).Stateless(1, method, params, caps, "", "Accept", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	var r rpcReply
	if err := json.Unmarshal(a.Body, &r); err != nil {
		t.Fatalf("%s: %d %s", method, a.Status, a.Body)
	}
	r.status = a.Status
	return r
}

func TestAStatelessToolsQuestionIsAnInputRequiredResultAndItsRetryResumesTheSameCall(t *testing.T) {
	url := statelessServer(t)
	r := stateless(t, url, "tools/call", `"name":"test_input_required_result_multi_round","arguments":{}`, `{"elicitation":{}}`)
	if r.str("resultType") != "input_required" || !strings.Contains(string(r.Result["inputRequests"]), `"step1"`) {
		t.Fatalf("round 1: %v, want input_required asking step1", r.Result)
	}
	first := r.str("requestState")
	r = stateless(t, url, "tools/call", `"name":"test_input_required_result_multi_round","arguments":{},"requestState":"`+first+
		`","inputResponses":{"step1":{"action":"accept","content":{"name":"Ada"}}}`, `{"elicitation":{}}`)
	if r.str("resultType") != "input_required" || !strings.Contains(string(r.Result["inputRequests"]), `"step2"`) || r.str("requestState") == first {
		t.Fatalf("round 2: %v, want input_required asking step2 with a new requestState", r.Result)
	}
	second := r.str("requestState")
	// The first round's state is spent: replaying it is refused and touches nothing.
	old := stateless(t, url, "tools/call", `"name":"test_input_required_result_multi_round","arguments":{},"requestState":"`+first+
		`","inputResponses":{"step1":{"action":"accept","content":{"name":"Eve"}}}`, `{"elicitation":{}}`)
	if old.Error == nil || old.Error.Code != -32602 || old.Error.Data.Kind != errkind.BadRequestState {
		t.Fatalf("replayed requestState: %+v, want -32602 badRequestState", old)
	}
	r = stateless(t, url, "tools/call", `"name":"test_input_required_result_multi_round","arguments":{},"requestState":"`+second+
		`","inputResponses":{"step2":{"action":"accept","content":{"color":"green"}}}`, `{"elicitation":{}}`)
	if r.str("resultType") != "complete" || !strings.Contains(string(r.Result["content"]), "Ada likes green") {
		t.Fatalf("round 3: %v, want the answer built from both rounds", r.Result)
	}
}

func TestAQuestionNeedingACapabilityTheClientDidNotDeclareNeverReachesIt(t *testing.T) {
	url := statelessServer(t)
	r := stateless(t, url, "tools/call", `"name":"test_input_required_result_elicitation","arguments":{}`, `{"sampling":{}}`)
	if r.str("resultType") != "complete" || r.Result["inputRequests"] != nil {
		t.Fatalf("an elicitation for a client without the capability: %v, want no input_required", r.Result)
	}
	if !strings.Contains(string(r.Result["content"]), "elicitation") || string(r.Result["isError"]) != "true" {
		t.Fatalf("the tool's answer %v should be its error naming the missing elicitation capability", r.Result)
	}
}

// Issue 25 item 10: a request waiting for a pool gem ends a call parked for its client's input
// only on a pool gem; a call parked on the gem of a session opened with open_session frees no
// pool gem and is left alone.
func TestAWaitingRequestNeverPreemptsACallParkedOnAnOpenedSessionsGem(t *testing.T) {
	url := assembled(t, func(o *router.Options) { o.StatelessPool = 1 }) + "/mcp"
	opened := stateless(t, url, "tools/call", `"name":"open_session","arguments":{}`, `{}`)
	var sc struct {
		Session string `json:"session"`
	}
	if json.Unmarshal(opened.Result["structuredContent"], &sc) != nil || sc.Session == "" {
		t.Fatalf("open_session: %+v", opened)
	}
	call := `"name":"test_input_required_result_elicitation","arguments":{"session":"` + sc.Session + `"}`
	ask := stateless(t, url, "tools/call", call, `{"elicitation":{}}`)
	if ask.str("resultType") != "input_required" {
		t.Fatalf("the elicitation in the session: %+v, want input_required", ask)
	}
	// The pool's one gem is busy; a second stateless request waits for it (and may preempt a
	// parked call of the pool), but must not end this one.
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = (&mcptest.Client{URL: url}).Stateless(3, "tools/call", `"name":"sleep","arguments":{"ms":600}`, `{}`, "", "Accept", "application/json")
	}()
	time.Sleep(150 * time.Millisecond)
	stateless(t, url, "tools/list", "", `{}`)
	<-done
	retry := stateless(t, url, "tools/call", call+`,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"`+ask.str("requestState")+`"`, `{"elicitation":{}}`)
	if !strings.Contains(string(retry.Result["content"]), "Hello, Ada!") {
		t.Fatalf("the retry of the call parked in the session: %+v, want it resumed and answered", retry)
	}
}
