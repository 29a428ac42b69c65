//go:build proof

package nginx

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// keepaliveInterval is the router's keepalive period on the GET stream (15 s, not configurable
// from the binary); the stream is held past two of them.
const keepaliveInterval = 15 * time.Second

// A session through nginx with TLS terminated by it: plain HTTP is redirected, a call echoes its
// bytes, the GET stream stays open past two keepalives with each one arriving as it is written, a
// stream reopened with Last-Event-ID is served, an answer stream closed mid-call (SEP-1699) is
// resumed by GET with Last-Event-ID, and DELETE ends the session. The subtests are the steps,
// in order.
func TestASessionThroughNginxWithTLS(t *testing.T) {
	r := startRouter(t)
	p := startNginx(t, map[string]string{"": port(t, r.URL)})
	c := p.client(4)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("plain HTTP is only redirected to https", func(t *testing.T) {
		plain := &http.Client{Transport: c.HTTP.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := plain.Post("http://"+ServerName+"/mcp", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != "https://"+ServerName+"/mcp" {
			t.Errorf("plain HTTP answered %d Location %q, want 308 to https", resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	sid, err := c.Open(ctx)
	if err != nil {
		t.Fatalf("initialize through nginx: %v", err)
	}
	t.Run("a call echoes its bytes", func(t *testing.T) {
		const text = "through nginx: héllo 😀"
		a, err := c.Post(ctx, sid, harness.CallBody(2, "echo", harness.EchoArgs(text)))
		if err != nil {
			t.Fatal(err)
		}
		rpc, err := a.Decode()
		if err != nil || rpc.Error != nil {
			t.Fatalf("echo through nginx: %d %s", a.Status, a.Body)
		}
		if got, _, _ := harness.ToolText(rpc.Result); got != text {
			t.Errorf("echo through nginx answered %q, want %q", got, text)
		}
	})

	var lastID string
	t.Run("the GET stream outlives two keepalives, each arriving as written", func(t *testing.T) {
		// Every comment or event line must arrive when written (proxy_buffering off) and the
		// stream must outlive two keepalives (proxy_read_timeout above the interval).
		streamCtx, stopStream := context.WithTimeout(ctx, 2*keepaliveInterval+10*time.Second)
		defer stopStream()
		_, lines := openStream(t, streamCtx, c, sid)
		t0 := time.Now()
		var keepalives int
		var at [2]time.Duration
		for keepalives < 2 {
			line, err := lines.ReadString('\n')
			if err != nil {
				t.Fatalf("the stream through nginx ended after %v with %d keepalives: %v", time.Since(t0).Round(time.Millisecond), keepalives, err)
			}
			switch {
			case strings.HasPrefix(line, "id:"):
				lastID = strings.TrimSpace(strings.TrimPrefix(line, "id:"))
			case strings.HasPrefix(line, ":") && strings.Contains(line, "keepalive"):
				at[keepalives] = time.Since(t0)
				keepalives++
				t.Logf("keepalive %d through nginx after %v", keepalives, time.Since(t0).Round(time.Millisecond))
			}
		}
		// Keepalives fall on the router's shared beat (router/internal/sse.UntilBeat): the first within one
		// interval of the stream opening, the next one interval after it.
		if at[0] > keepaliveInterval+2*time.Second {
			t.Errorf("the first keepalive came %v after the stream opened: later than one interval", at[0])
		}
		if gap := at[1] - at[0]; gap < keepaliveInterval-2*time.Second || gap > keepaliveInterval+2*time.Second {
			t.Errorf("keepalives %v apart through nginx: not the router's %v interval", gap, keepaliveInterval)
		}
	})

	t.Run("a GET with Last-Event-ID is served as a stream", func(t *testing.T) {
		// When the router numbered its events, the id is the last one seen; otherwise any id
		// the router must treat as unknown.
		if lastID == "" {
			lastID = "0-1-0"
			t.Log("the stream carried no event ids (the router's GET stream sends comments only): resuming from an arbitrary id")
		}
		resumeCtx, stopResume := context.WithTimeout(ctx, 5*time.Second)
		defer stopResume()
		openStream(t, resumeCtx, c, sid, "Last-Event-ID", lastID)
	})

	t.Run("an answer stream closed mid-call is resumed", func(t *testing.T) { resumeAnswerStream(t, ctx, c, sid) })

	t.Run("DELETE ends the session", func(t *testing.T) {
		if code, err := c.Delete(ctx, sid); err != nil || code != http.StatusNoContent {
			t.Errorf("DELETE through nginx: %d (%v), want 204", code, err)
		}
		if a, _ := c.Post(ctx, sid, harness.CallBody(3, "echo", `{"text":"x"}`)); a.Status != http.StatusNotFound {
			t.Errorf("after DELETE through nginx: %d, want 404", a.Status)
		}
	})
}

// Two routers behind one nginx, each with MCP_ROUTER_ID: sessions are spread over both, every
// request of a session reaches the router whose id prefixes its session id (the call succeeds
// and the gem is that router's), and a session id of router A is 404 on router B.
func TestTwoRoutersBehindNginxKeepEachSessionOnItsOwnRouter(t *testing.T) {
	r1 := startRouter(t, "MCP_ROUTER_ID=r1")
	r2 := startRouter(t, "MCP_ROUTER_ID=r2")
	byID := map[string]*harness.Server{"r1": r1, "r2": r2}
	p := startNginx(t, map[string]string{"r1": port(t, r1.URL), "r2": port(t, r2.URL)})
	c := p.client(8)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	count := map[string]int{}
	var sids []string
	for range 8 {
		sid, err := c.Open(ctx)
		if err != nil {
			t.Fatalf("initialize through nginx: %v", err)
		}
		owner, _, ok := strings.Cut(sid, "-")
		if !ok || byID[owner] == nil {
			t.Fatalf("session id %q carries no router id", sid)
		}
		count[owner]++
		sids = append(sids, sid)
	}
	if count["r1"] == 0 || count["r2"] == 0 {
		t.Errorf("8 sessions all went to one router: %v", count)
	}
	for i, sid := range sids {
		for j := range 5 {
			a, err := c.Post(ctx, sid, harness.CallBody(int64(10*i+j+2), "echo", harness.EchoArgs(sid)))
			if err != nil {
				t.Fatal(err)
			}
			rpc, err := a.Decode()
			if err != nil || rpc.Error != nil {
				t.Fatalf("session %s call %d through nginx: %d %s (routed to the wrong router?)", sid, j, a.Status, a.Body)
			}
		}
	}
	for owner, s := range byID {
		// Each router's gems: its sessions plus its control session.
		if got := len(s.LiveGems()); got != count[owner]+1 {
			t.Errorf("router %s runs %d gems, want %d sessions + 1 control", owner, got, count[owner])
		}
	}
	// Directly, bypassing nginx: a session of one router is unknown to the other.
	direct := func(s *harness.Server) *harness.Client {
		return &harness.Client{URL: s.URL, HTTP: harness.NewHTTPClient(2, 10*time.Second), Protocol: harness.ProtocolVersion}
	}
	for _, sid := range sids {
		owner, _, _ := strings.Cut(sid, "-")
		other := map[string]string{"r1": "r2", "r2": "r1"}[owner]
		a, err := direct(byID[other]).Post(ctx, sid, harness.CallBody(99, "echo", `{"text":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != http.StatusNotFound {
			t.Errorf("session %s of router %s on router %s: %d, want 404", sid, owner, other, a.Status)
		}
		if a, _ := direct(byID[owner]).Post(ctx, sid, harness.CallBody(100, "echo", `{"text":"x"}`)); a.Status != http.StatusOK {
			t.Errorf("session %s on its own router directly: %d, want 200", sid, a.Status)
		}
	}
	for _, sid := range sids {
		if code, _ := c.Delete(ctx, sid); code != http.StatusNoContent {
			t.Errorf("DELETE %s through nginx: %d", sid, code)
		}
	}
}

// resumeAnswerStream is SEP-1699 through nginx: the fixture tool test_reconnection makes the
// router answer on an SSE stream that opens with a priming event, close that stream mid-call,
// and deliver the result to a GET carrying Last-Event-ID. Through nginx this proves the priming
// event is not held in a buffer, the close reaches the client, and Last-Event-ID reaches the router.
func resumeAnswerStream(t *testing.T, ctx context.Context, c *harness.Client, sid string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL,
		strings.NewReader(string(harness.CallBody(42, "test_reconnection", `{}`))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", harness.ProtocolVersion)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("test_reconnection through nginx answered %d %s, want an SSE stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := readEvents(t, bufio.NewReader(resp.Body))
	if len(events) == 0 || events[0].id == "" || events[0].data != "" {
		t.Fatalf("the answer stream did not open with a priming event (an id, no data): %+v", events)
	}
	for _, e := range events {
		if strings.Contains(e.data, `"id":42`) {
			t.Fatalf("the result came on the stream the router was to close: %+v", events)
		}
	}
	last := events[len(events)-1].id
	streamCtx, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	_, lines := openStream(t, streamCtx, c, sid, "Last-Event-ID", last)
	for {
		e, ok := readEvent(lines)
		if !ok {
			t.Fatalf("the GET with Last-Event-ID %s through nginx ended without the call's result", last)
		}
		if strings.Contains(e.data, `"id":42`) {
			if !strings.Contains(e.data, `"result"`) || e.id == "" {
				t.Fatalf("the resumed result event: %+v", e)
			}
			return
		}
	}
}

type event struct{ id, data string }

// readEvent reads one SSE event (comments skipped); false at the end of the stream.
func readEvent(r *bufio.Reader) (event, bool) {
	var e event
	seen := false
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "id:"):
			e.id, seen = strings.TrimSpace(strings.TrimPrefix(line, "id:")), true
		case strings.HasPrefix(line, "data:"):
			e.data, seen = e.data+strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "), true
		case strings.HasPrefix(line, "event:"), strings.HasPrefix(line, "retry:"):
			seen = true
		case line == "" && seen:
			return e, true
		}
		if err != nil {
			return e, false
		}
	}
}

// readEvents reads events until the stream ends.
func readEvents(t *testing.T, r *bufio.Reader) []event {
	t.Helper()
	var out []event
	for {
		e, ok := readEvent(r)
		if !ok {
			return out
		}
		out = append(out, e)
	}
}
