//go:build proof

package load

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// 64 clients, each on its own session (its own gem), each making 2,000 echo calls one after
// another: every call answered once, with its own id and its own bytes.
func TestSixtyFourClientsTimesTwoThousandCallsLoseNothing(t *testing.T) {
	const clients, calls = 64, 2000
	s := start(t, "MCP_MAX_SESSIONS=none")
	res, err := harness.RunLoad(bounded(t, 4*time.Minute), harness.LoadOptions{
		URL: s.URL, Sessions: clients, Workers: clients, Calls: calls,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("64 clients x 2000 calls: %v", res)
	if res.Sent != clients*calls {
		t.Errorf("sent %d calls, want %d (the run was cut short)", res.Sent, clients*calls)
	}
	if res.OK != res.Sent || res.Failed != 0 || res.Mismatched != 0 || res.Duplicated != 0 {
		t.Errorf("lost or wrong answers: %v; first: %s", res, res.FirstProblem)
	}
	// /metrics counted the same: every call ok, 64 sessions opened and deleted, no session id.
	wantMetrics(t, s, map[string]float64{
		`mcp_calls_total{method="tools/call",outcome="ok"}`:    clients * calls,
		`mcp_call_duration_seconds_count{method="tools/call"}`: clients * calls,
		`mcp_sessions_opened_total`:                            clients,
		`mcp_sessions_ended_total{reason="deleted"}`:           clients,
		`mcp_sessions_open`:                                    0,
	})
}

// wantMetrics scrapes /metrics and checks the given samples, and that no session id leaked.
func wantMetrics(t *testing.T, s *harness.Server, want map[string]float64) {
	t.Helper()
	ctx := bounded(t, 10*time.Second)
	var got map[string]float64
	var text string
	// Sessions end just after their DELETE is answered: give the counters a moment.
	ok := harness.WaitFor(ctx, 5*time.Second, func() bool {
		var err error
		got, text, err = s.Scrape(ctx)
		if err != nil {
			return false
		}
		for k, v := range want {
			if got[k] != v {
				return false
			}
		}
		return true
	})
	if !ok {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("/metrics %s = %v, want %v", k, got[k], v)
			}
		}
	}
	if id := harness.SessionIDShape.FindString(text); id != "" {
		t.Errorf("/metrics shows a session id: %s", id)
	}
}

// A gem SIGKILLed in the middle of a call, 50 times over: each time the call is answered
// -32001 sessionGone with its own id, the session id is 404 afterwards, and the slot is back
// (the cap is 1, so the next initialize succeeding proves it).
func TestAGemKilledMidCallFiftyTimesOver(t *testing.T) {
	s := start(t, "MCP_MAX_SESSIONS=1")
	c := client(s)
	ctx := bounded(t, 3*time.Minute)
	waitForControlSession(t, s) // its gem must not be taken for a session's
	for round := range 50 {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) { killMidCall(ctx, t, s, c, round) })
	}
	t.Run("every death is counted", func(t *testing.T) {
		wantMetrics(t, s, map[string]float64{
			`mcp_calls_total{method="tools/call",outcome="sessionGone"}`: 50,
			`mcp_sessions_ended_total{reason="gemDied"}`:                 50,
			`mcp_sessions_open`: 0,
		})
	})
}

// killMidCall is one round: open a session (its slot is back), kill its gem mid-call, and see
// the call answered sessionGone under its own id and the session 404 afterwards.
func killMidCall(ctx context.Context, t *testing.T, s *harness.Server, c *harness.Client, round int) {
	before := s.GemPIDs()
	sid, err := c.Open(ctx)
	if err != nil {
		t.Fatalf("round %d: initialize (is the slot back?): %v", round, err)
	}
	gem := newGem(before, s.GemPIDs())
	if gem == 0 {
		t.Fatalf("round %d: cannot tell the session's gem (before %v, after %v)", round, before, s.GemPIDs())
	}
	id := int64(1000 + round)
	answered := make(chan harness.Answer, 1)
	go func() {
		a, err := c.Post(ctx, sid, harness.CallBody(id, "sleep", `{"ms":20000}`))
		if err != nil {
			t.Errorf("round %d: the killed call got no HTTP answer: %v", round, err)
		}
		answered <- a
	}()
	time.Sleep(30 * time.Millisecond) // the call is on its way or running: either way it is mid-call
	harness.KillGems([]int{gem})
	var a harness.Answer
	select {
	case a = <-answered:
	case <-time.After(10 * time.Second):
		t.Fatalf("round %d: no answer within 10 s of the gem's death", round)
	}
	r, err := a.Decode()
	if err != nil || a.Status != http.StatusOK || r.Error == nil || r.Error.Code != -32001 || r.Kind() != errkind.SessionGone {
		t.Fatalf("round %d: want 200 with -32001 sessionGone, got %d %s (%v)", round, a.Status, a.Body, err)
	}
	if string(r.ID) != strconv.FormatInt(id, 10) {
		t.Fatalf("round %d: sessionGone answered id %s, want %d", round, r.ID, id)
	}
	next, err := c.Post(ctx, sid, harness.CallBody(id+1, "echo", `{"text":"x"}`))
	if err != nil || next.Status != http.StatusNotFound {
		t.Fatalf("round %d: the dead session's next request: %d %s (%v), want 404", round, next.Status, next.Body, err)
	}
}

func waitForControlSession(t *testing.T, s *harness.Server) {
	t.Helper()
	if !harness.WaitFor(context.Background(), 10*time.Second, func() bool {
		return strings.Contains(s.Log(), "control session logged in")
	}) {
		t.Fatal("the control session did not log in within 10 s")
	}
}

func newGem(before, after map[int]int) int {
	for n, pid := range after {
		if _, ok := before[n]; !ok {
			return pid
		}
	}
	return 0
}

// A call that ignores both breaks (sleep_immune) under MCP_REQUEST_TIMEOUT=1s is ended by the
// escalation (soft break, hard break 300 ms later, stopSession from the control session) and
// answered within its budget: the timeout, two break gaps, and three seconds of slack (the call
// would otherwise run 60 s).
func TestHungGemIsEndedByTheEscalationWithinItsBudget(t *testing.T) {
	s := start(t, "MCP_MAX_SESSIONS=2", "MCP_REQUEST_TIMEOUT=1s")
	c := client(s)
	ctx := bounded(t, time.Minute)
	waitForControlSession(t, s)
	before := s.GemPIDs()
	sid, err := c.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gem := newGem(before, s.GemPIDs())
	t0 := time.Now()
	a, err := c.Post(ctx, sid, harness.CallBody(7, "sleep_immune", `{"ms":60000}`))
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	const budget = time.Second + 2*300*time.Millisecond + 3*time.Second // generous: a shared machine
	if took > budget {
		t.Errorf("the hung call was answered after %v, budget %v", took, budget)
	}
	r, err := a.Decode()
	if err != nil || r.Error == nil || r.Error.Code != -32001 || r.Kind() != errkind.RequestTimeout || string(r.ID) != "7" {
		t.Fatalf("want -32001 requestTimeout for id 7, got %d %s", a.Status, a.Body)
	}
	if ending, _ := r.Error.Data["ending"].(string); ending == "" {
		t.Errorf("the answer does not say which escalation step ended the call: %s", a.Body)
	}
	if !harness.WaitFor(ctx, 5*time.Second, func() bool { return !slices.Contains(s.LiveGems(), gem) }) {
		t.Errorf("the stopped gem (pid %d) is still alive", gem)
	}
	if next, _ := c.Post(ctx, sid, harness.CallBody(8, "echo", `{"text":"x"}`)); next.Status != http.StatusNotFound {
		t.Errorf("after its gem was stopped the session answered %d %s, want 404", next.Status, next.Body)
	}
	// A soft-immune call is ended by the hard break, and there the session keeps serving.
	sid2, err := c.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, _ = c.Post(ctx, sid2, harness.CallBody(9, "sleep_soft_immune", `{"ms":60000}`))
	if r, err := a.Decode(); err != nil || r.Kind() != errkind.RequestTimeout {
		t.Fatalf("soft-immune call: want requestTimeout, got %d %s", a.Status, a.Body)
	}
	echo, _ := c.Post(ctx, sid2, harness.CallBody(10, "echo", `{"text":"still here"}`))
	if r, err := echo.Decode(); err != nil || r.Error != nil {
		t.Fatalf("after a hard break the session must keep serving; got %d %s", echo.Status, echo.Body)
	}
	wantMetrics(t, s, map[string]float64{
		`mcp_calls_total{method="tools/call",outcome="requestTimeout"}`: 2,
		`mcp_call_endings_total{step="stop"}`:                           1,
		`mcp_call_endings_total{step="hardBreak"}`:                      1,
		`mcp_sessions_open`:                                             1,
	})
}

// A client that hangs up while its call runs does not end the session (MCP: a disconnect is
// not a cancellation): the next call on the same session is answered.
func TestClientThatDisconnectsMidCallLeavesTheSessionServing(t *testing.T) {
	s := start(t)
	c := client(s)
	ctx := bounded(t, time.Minute)
	sid, err := c.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, err := c.Post(short, sid, harness.CallBody(int64(100+round), "sleep", `{"ms":400}`))
		cancel()
		if err == nil {
			t.Fatalf("round %d: the 400 ms call finished within the client's 100 ms", round)
		}
		id := int64(200 + round)
		a, err := c.Post(ctx, sid, harness.CallBody(id, "echo", harness.EchoArgs("after hang-up")))
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Decode()
		if err != nil || r.Error != nil || string(r.ID) != strconv.FormatInt(id, 10) {
			t.Fatalf("round %d: after a client hung up mid-call the session answered %d %s", round, a.Status, a.Body)
		}
		if text, _, _ := harness.ToolText(r.Result); text != "after hang-up" {
			t.Fatalf("round %d: echo answered %q", round, text)
		}
	}
	// A client chooses method names: one shaped like a session id must not become a label.
	evil := `{"jsonrpc":"2.0","id":77,"method":"x/` + sid + `"}`
	if a, err := c.Post(ctx, sid, []byte(evil)); err != nil || a.Status != http.StatusOK {
		t.Fatalf("unknown method: %d %s %v", a.Status, a.Body, err)
	}
	wantMetrics(t, s, map[string]float64{
		`mcp_calls_total{method="other",outcome="ok"}`: 1,
		`mcp_sessions_open`:                            1,
	})
}

// SIGTERM while 16 clients are calling: the server exits 0 within its grace and close budget
// and leaves no gem process behind (start's cleanup checks the gems; this checks the code).
func TestSIGTERMUnderLoad(t *testing.T) {
	s := start(t, "MCP_MAX_SESSIONS=none", "MCP_SHUTDOWN_GRACE=2s")
	ctx := bounded(t, time.Minute)
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	var wg sync.WaitGroup
	var res harness.LoadResult
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, _ = harness.RunLoad(loadCtx, harness.LoadOptions{URL: s.URL, Sessions: 16, Workers: 16, Duration: 20 * time.Second})
	}()
	if !harness.WaitFor(ctx, 10*time.Second, func() bool { return len(s.LiveGems()) >= 16 }) {
		t.Fatalf("the 16 sessions did not open: %d gems", len(s.LiveGems()))
	}
	time.Sleep(500 * time.Millisecond) // calls are flowing
	t0 := time.Now()
	code := s.Stop(40 * time.Second)
	took := time.Since(t0)
	stopLoad()
	wg.Wait()
	t.Run("exits 0", func(t *testing.T) {
		if code != 0 {
			t.Fatalf("exit code %d after SIGTERM under load (took %v), want 0", code, took)
		}
	})
	t.Run("leaves no gem", func(t *testing.T) {
		if left := s.LiveGems(); len(left) > 0 {
			t.Fatalf("gems alive after the server exited: %v", left)
		}
	})
	t.Run("after answering calls", func(t *testing.T) {
		t.Logf("stopped in %v under load; the load had %d calls answered before the stop", took, res.OK)
		if res.OK == 0 {
			t.Errorf("no call was answered before the stop: %v (%s)", res, res.FirstProblem)
		}
	})
}
