package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring/wiringtest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
)

// A call of the 2026-07-28 revision (stateless_calls.go): a question the tool asks during the
// call is answered as an input_required result, and the client's retry, carrying the signed
// requestState and its inputResponses, resumes the same call in its gem. The questions come
// over the worker-to-router channel, so these tests run on the assembled router.

// assembledFront is a client of the router assembled as bin/mcp-gemstone assembles it
// (wiringtest.Serve): the channel is a plug-in package router does not import, so what needs it
// (a question during a call, a call that becomes a task) is tested on this.
type assembledFront struct {
	t *testing.T
	c *mcptest.Client
}

func newAssembledFront(t *testing.T, tune ...func(*router.Options)) *assembledFront {
	t.Helper()
	_, base := wiringtest.Serve(t, tune...)
	return &assembledFront{t: t, c: &mcptest.Client{URL: base + "/mcp"}}
}

// frontAnswer is a decoded answer to a 2026-07-28 request.
type frontAnswer struct {
	mcptest.Answer
	result map[string]json.RawMessage
}

func (a frontAnswer) str(member string) string {
	var s string
	_ = json.Unmarshal(a.result[member], &s)
	return s
}

// send posts one 2026-07-28 request; caps is the client capabilities object; headers follow
// (an X-Principal).
func (f *assembledFront) send(method, params, caps string, headers ...string) frontAnswer {
	f.t.Helper()
	a, err := f.c.Stateless(1, method, params, caps, "", append([]string{"Accept", "application/json"}, headers...)...)
	if err != nil {
		f.t.Fatalf("%s: %v", method, err)
	}
	out := frontAnswer{Answer: a}
	if len(a.RPC.Result) > 0 {
		if err := json.Unmarshal(a.RPC.Result, &out.result); err != nil {
			f.t.Fatalf("%s: result %s: %v", method, a.RPC.Result, err)
		}
	}
	return out
}

const elicitationCaps = `{"elicitation":{}}`

func TestStatelessRequestStateIsTamperProof(t *testing.T) {
	f := newFixture(t)
	for _, bad := range []string{`null`, `7`, `{"user_name":12345}`} {
		t.Run("inputResponses "+bad, func(t *testing.T) {
			r := f.in(t).stateless(statelessBody(10, "tools/call", `"name":"echo","arguments":{"text":"x"},"inputResponses":`+bad))
			wantError(t, r, http.StatusBadRequest, -32602, errkind.InvalidInputResponses)
		})
	}
	for _, state := range []string{"garbage", "eyJmIjoiZmwtMSJ9.AAAA", ""} {
		t.Run("requestState "+state, func(t *testing.T) {
			r := f.in(t).stateless(statelessBody(9, "tools/call", `"name":"echo","arguments":{"text":"x"},"requestState":"`+state+`","inputResponses":{}`))
			wantError(t, r, http.StatusBadRequest, -32602, errkind.BadRequestState)
		})
	}
}

// One call asking two questions, one per round: each subtest is one round of the same call,
// in order.
func TestAQuestionDuringAStatelessCallIsAnsweredByARetryOfTheSameCall(t *testing.T) {
	f := newAssembledFront(t)
	const multi = `"name":"test_input_required_result_multi_round","arguments":{}`
	var first, second string
	t.Run("the first question is an input_required result", func(t *testing.T) {
		r := f.send("tools/call", multi, elicitationCaps)
		if r.str("resultType") != "input_required" || !strings.Contains(string(r.result["inputRequests"]), `"step1"`) || r.str("requestState") == "" {
			t.Fatalf("round 1: %s, want input_required asking step1 with a requestState", r.RPC.Result)
		}
		first = r.str("requestState")
	})
	t.Run("the retry resumes the call, which asks its next question under a new state", func(t *testing.T) {
		r := f.send("tools/call", multi+`,"requestState":"`+first+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Ada"}}}`, elicitationCaps)
		if r.str("resultType") != "input_required" || !strings.Contains(string(r.result["inputRequests"]), `"step2"`) || r.str("requestState") == first {
			t.Fatalf("round 2: %s, want input_required asking step2 with a new requestState", r.RPC.Result)
		}
		second = r.str("requestState")
	})
	t.Run("a spent requestState is refused", func(t *testing.T) {
		old := f.send("tools/call", multi+`,"requestState":"`+first+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Eve"}}}`, elicitationCaps)
		mcptest.WantError(t, old.Answer, http.StatusBadRequest, -32602, errkind.BadRequestState)
	})
	t.Run("the last retry answers from every round", func(t *testing.T) {
		r := f.send("tools/call", multi+`,"requestState":"`+second+`","inputResponses":{"step2":{"action":"accept","content":{"color":"green"}}}`, elicitationCaps)
		if r.str("resultType") != "complete" || !strings.Contains(string(r.result["content"]), "Ada likes green") {
			t.Fatalf("round 3: %s, want the answer built from both rounds (the spent state touched nothing)", r.RPC.Result)
		}
	})
}

// A call answered input_required goes on in the goroutine of the request it answered, which
// holds that request's HTTP/1.1 connection until the call ends: the answer closes the
// connection, so that the retry cannot queue behind the very call it resumes. When the server
// begins to shut down, a parked call ends at once (its question answered inputAbandoned) instead
// of holding the shutdown's grace for a retry that can no longer come.
func TestAParkedCallClosesItsConnectionAndEndsWhenTheServerShutsDown(t *testing.T) {
	srv, base := wiringtest.Serve(t)
	closes := &closeRecorder{}
	f := &assembledFront{t: t, c: &mcptest.Client{URL: base + "/mcp", HTTP: &http.Client{Transport: closes}}}
	const multi = `"name":"test_input_required_result_multi_round","arguments":{}`
	r := f.send("tools/call", multi, elicitationCaps)
	if r.str("resultType") != "input_required" {
		t.Fatalf("%s, want input_required", r.RPC.Result)
	}
	if !closes.last.Load() {
		t.Errorf("the input_required answer does not close its connection (Connection: close)")
	}
	srv.BeginShutdown()
	deadline := time.Now().Add(10 * time.Second)
	for {
		retry := f.send("tools/call", multi+`,"requestState":"`+r.str("requestState")+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Ada"}}}`, elicitationCaps)
		if retry.str("resultType") == "input_required" {
			t.Fatalf("the retry after the shutdown began resumed the call: %s", retry.RPC.Result)
		}
		if retry.Status == http.StatusBadRequest {
			mcptest.WantError(t, retry.Answer, http.StatusBadRequest, -32602, errkind.BadRequestState) // the call has ended
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the parked call still runs 10 s after the shutdown began: %d %s", retry.Status, retry.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Over HTTP/2 a stream ends only when its handler returns, so a call whose request is answered
// before it ends must not run in that handler: the input_required answer reaches its client, and
// the retry resumes the call.
func TestAQuestionOverHTTP2IsAnsweredWhileTheCallWaits(t *testing.T) {
	_, base, client := wiringtest.ServeHTTP2(t)
	f := &assembledFront{t: t, c: &mcptest.Client{URL: base + "/mcp", HTTP: client}}
	client.Timeout = 10 * time.Second // a stream held by its call would run past this
	const multi = `"name":"test_input_required_result_multi_round","arguments":{}`
	r := f.send("tools/call", multi, elicitationCaps)
	if r.str("resultType") != "input_required" {
		t.Fatalf("%s, want input_required", r.RPC.Result)
	}
	retry := f.send("tools/call", multi+`,"requestState":"`+r.str("requestState")+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Ada"}}}`, elicitationCaps)
	if retry.str("resultType") != "input_required" || !strings.Contains(string(retry.result["inputRequests"]), `"step2"`) {
		t.Fatalf("the retry: %s, want the call's next question", retry.RPC.Result)
	}
}

// closeRecorder is a transport that notes whether the last answer closed its connection (the
// client removes a Connection: close header from what it hands on, and sets Close instead).
type closeRecorder struct{ last atomic.Bool }

func (c *closeRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		c.last.Store(resp.Close)
	}
	return resp, err
}

func TestAQuestionNeedingACapabilityTheClientDidNotDeclareNeverReachesIt(t *testing.T) {
	f := newAssembledFront(t)
	r := f.send("tools/call", `"name":"test_input_required_result_elicitation","arguments":{}`, `{"sampling":{}}`)
	if r.str("resultType") != "complete" || r.result["inputRequests"] != nil {
		t.Fatalf("an elicitation for a client without the capability: %s, want no input_required", r.RPC.Result)
	}
	if !strings.Contains(string(r.result["content"]), "elicitation") || string(r.result["isError"]) != "true" {
		t.Fatalf("the tool's answer %s should be its error naming the missing elicitation capability", r.RPC.Result)
	}
}

// A request waiting for a pool gem ends a call parked for its client's input only on a pool
// gem; a call parked on the gem of a session opened with open_session frees no pool gem and is
// left alone.
func TestAWaitingRequestNeverPreemptsACallParkedOnAnOpenedSessionsGem(t *testing.T) {
	f := newAssembledFront(t, func(o *router.Options) { o.StatelessPool = 1 })
	opened := f.send("tools/call", `"name":"open_session","arguments":{}`, `{}`)
	var sc struct {
		Session string `json:"session"`
	}
	if json.Unmarshal(opened.result["structuredContent"], &sc) != nil || sc.Session == "" {
		t.Fatalf("open_session: %s", opened.Body)
	}
	call := `"name":"test_input_required_result_elicitation","arguments":{"session":"` + sc.Session + `"}`
	ask := f.send("tools/call", call, elicitationCaps)
	if ask.str("resultType") != "input_required" {
		t.Fatalf("the elicitation in the session: %s, want input_required", ask.Body)
	}
	// The pool's one gem is busy; a second stateless request waits for it (and may preempt a
	// parked call of the pool), but must not end this one.
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = f.c.Stateless(3, "tools/call", `"name":"sleep","arguments":{"ms":600}`, `{}`, "", "Accept", "application/json")
	}()
	time.Sleep(150 * time.Millisecond)
	f.send("tools/list", "", `{}`)
	<-done
	retry := f.send("tools/call", call+`,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Ada"}}},"requestState":"`+ask.str("requestState")+`"`, elicitationCaps)
	if !strings.Contains(string(retry.result["content"]), "Hello, Ada!") {
		t.Fatalf("the retry of the call parked in the session: %s, want it resumed and answered", retry.Body)
	}
}
