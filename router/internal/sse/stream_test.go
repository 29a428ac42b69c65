package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// frame is one parsed SSE frame as a client sees it.
type frame struct {
	id, data, retry string
	hasID, hasData  bool
	comment         string
}

// sseReader parses frames off a response body, the way a client's EventSource does. It
// passes over the opening ": stream open" comment unless raw is set (one test checks it).
type sseReader struct {
	r   *bufio.Reader
	raw bool
}

func (sr *sseReader) next() (frame, error) {
	for {
		f, err := sr.frame()
		if err != nil || sr.raw || f.comment != "stream open" {
			return f, err
		}
	}
}

func (sr *sseReader) frame() (frame, error) {
	var f frame
	var data []string
	seen := false
	for {
		line, err := sr.r.ReadString('\n')
		if err != nil {
			return f, err
		}
		line = strings.TrimRight(line, "\n")
		if line == "" {
			if !seen {
				continue
			}
			if f.hasData {
				f.data = strings.Join(data, "\n")
			}
			return f, nil
		}
		seen = true
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
			f.comment = value
		case "id":
			f.id, f.hasID = value, true
		case "data":
			data = append(data, value)
			f.hasData = true
		case "retry":
			f.retry = value
		}
	}
}

// nextEvent skips comments and answers the next frame carrying data.
func (sr *sseReader) nextEvent(t *testing.T) frame {
	t.Helper()
	for {
		f, err := sr.next()
		if err != nil {
			t.Fatalf("reading stream: %v", err)
		}
		if f.hasData && f.data != "" {
			return f
		}
	}
}

// ended reads the stream in the background and delivers the error that ends it.
func (sr *sseReader) ended() <-chan error {
	c := make(chan error, 1)
	go func() {
		for {
			if _, err := sr.next(); err != nil {
				c <- err
				return
			}
		}
	}()
	return c
}

type harness struct {
	t       *testing.T
	sess    *Stream
	srv     *httptest.Server
	mu      sync.Mutex
	closed  []uint64
	closedC chan uint64
	version string
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, closedC: make(chan uint64, 16), version: "2025-11-25"}
	opts.OnStreamClosed = func(gen uint64) {
		h.mu.Lock()
		h.closed = append(h.closed, gen)
		h.mu.Unlock()
		h.closedC <- gen
	}
	h.sess = NewStream(opts)
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.sess.ServeStream(w, r, r.Header.Get("MCP-Protocol-Version"))
	}))
	t.Cleanup(func() {
		h.sess.Close()
		h.srv.CloseClientConnections()
		h.srv.Close()
	})
	return h
}

// open starts a GET and answers its response and a reader; cancel ends it from the client side.
func (h *harness) open(lastEventID, version string) (*http.Response, *sseReader, context.CancelFunc) {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.srv.URL, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		cancel()
		h.t.Fatalf("GET: %v", err)
	}
	h.t.Cleanup(func() { cancel(); resp.Body.Close() })
	return resp, &sseReader{r: bufio.NewReader(resp.Body)}, cancel
}

// waitOpen waits until the session reports generation gen open.
func (h *harness) waitOpen(gen uint64) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if g, open := h.sess.Generation(); g == gen && open {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	g, open := h.sess.Generation()
	h.t.Fatalf("stream %d never opened (generation %d, open %v)", gen, g, open)
}

func TestAStreamOpensAsAnUncachedEventStream(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	resp, _, _ := h.open("", "2025-06-18")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q, want text/event-stream", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
		t.Errorf("Cache-Control %q lacks no-cache", cc)
	}
}

func TestAnIdleStreamSendsKeepalives(t *testing.T) {
	h := newHarness(t, Options{Keepalive: 50 * time.Millisecond})
	_, sr, _ := h.open("", "2025-06-18")
	start := time.Now()
	f, err := sr.next()
	if err != nil {
		t.Fatal(err)
	}
	if f.comment != "keepalive" {
		t.Fatalf("first frame %+v, want the keepalive comment", f)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("keepalive took %v at a 50ms interval", el)
	}
}

func TestStreamStartsWithACommentSoTheClientSeesItOpenAtOnce(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr, _ := h.open("", "2025-06-18")
	sr.raw = true
	f, err := sr.next()
	if err != nil || f.comment != "stream open" || f.hasID || f.hasData {
		t.Fatalf("first frame %+v (%v), want the comment \"stream open\"", f, err)
	}
}

func TestA20251125StreamOpensWithAPrimingEventCarryingRetry(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour, Retry: 1500 * time.Millisecond})
	_, sr, _ := h.open("", "2025-11-25")
	f, err := sr.next()
	if err != nil {
		t.Fatal(err)
	}
	if !f.hasID || f.id != "0-1-0" {
		t.Fatalf("priming event id %q (present %v), want 0-1-0", f.id, f.hasID)
	}
	if !f.hasData || f.data != "" {
		t.Fatalf("priming event data %q, want an empty data field", f.data)
	}
	if f.retry != "1500" {
		t.Fatalf("retry %q, want 1500", f.retry)
	}
}

func TestNoPrimingEventOrRetryFor20250618(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr, _ := h.open("", "2025-06-18")
	h.waitOpen(1)
	h.sess.Send([]byte(`{"jsonrpc":"2.0","method":"ping","id":"srv-1"}`))
	f, err := sr.next()
	if err != nil {
		t.Fatal(err)
	}
	if f.retry != "" {
		t.Fatalf("retry %q sent to a 2025-06-18 client", f.retry)
	}
	if f.data != `{"jsonrpc":"2.0","method":"ping","id":"srv-1"}` || f.id != "0-1-1" {
		t.Fatalf("first frame %+v, want the message itself with id 0-1-1 (no priming event)", f)
	}
}

func TestEveryEventCarriesAnIDInSendOrder(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr, _ := h.open("", "2025-11-25")
	h.waitOpen(1)
	for i := 1; i <= 3; i++ {
		if seq := h.sess.Send([]byte(fmt.Sprintf(`{"n":%d}`, i))); seq != uint64(i) {
			t.Fatalf("Send %d answered seq %d", i, seq)
		}
	}
	for i := 1; i <= 3; i++ {
		f := sr.nextEvent(t)
		if want := fmt.Sprintf("0-1-%d", i); f.id != want {
			t.Fatalf("event %d id %q, want %q", i, f.id, want)
		}
		if want := fmt.Sprintf(`{"n":%d}`, i); f.data != want {
			t.Fatalf("event %d data %q, want %q", i, f.data, want)
		}
	}
}

func TestMessagesQueuedBeforeAnyStreamAreDeliveredWhenOneOpens(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	h.sess.Send([]byte(`{"early":1}`))
	h.sess.Send([]byte(`{"early":2}`))
	if p := h.sess.Pending(); p != 2 {
		t.Fatalf("pending %d, want 2", p)
	}
	_, sr, _ := h.open("", "2025-06-18")
	if f := sr.nextEvent(t); f.data != `{"early":1}` {
		t.Fatalf("first event %q", f.data)
	}
	if f := sr.nextEvent(t); f.data != `{"early":2}` {
		t.Fatalf("second event %q", f.data)
	}
}

func TestMultiLineDataIsSplitIntoDataLines(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr, _ := h.open("", "2025-06-18")
	h.waitOpen(1)
	h.sess.Send([]byte("{\n  \"a\": 1\r\n}"))
	if f := sr.nextEvent(t); f.data != "{\n  \"a\": 1\n}" {
		t.Fatalf("rejoined data %q", f.data)
	}
}

func TestASecondGETSupersedesTheFirst(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr1, _ := h.open("", "2025-06-18")
	h.waitOpen(1)
	_, sr2, _ := h.open("", "2025-06-18")
	h.waitOpen(2)

	select {
	case err := <-sr1.ended():
		if err != io.EOF && !strings.Contains(err.Error(), "EOF") {
			t.Logf("first stream ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("first stream still open 2s after a second GET")
	}
	h.sess.Send([]byte(`{"to":"second"}`))
	if f := sr2.nextEvent(t); f.data != `{"to":"second"}` || f.id != "0-2-1" {
		t.Fatalf("second stream got %+v, want the message with id 0-2-1", f)
	}
	select {
	case gen := <-h.closedC:
		t.Fatalf("OnStreamClosed(%d) called for a superseded stream; supersession is not a loss", gen)
	default:
	}
	if gen, open := h.sess.Generation(); gen != 2 || !open {
		t.Fatalf("generation (%d, %v), want (2, true)", gen, open)
	}
}

func TestClientHangUpIsNoticedWithoutWaitingForKeepalive(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, _, cancel := h.open("", "2025-06-18")
	h.waitOpen(1)
	start := time.Now()
	cancel()
	select {
	case gen := <-h.closedC:
		if gen != 1 {
			t.Fatalf("closed generation %d, want 1", gen)
		}
		// Generous bound for a loaded machine; the point is that it is not the hour-long keepalive.
		if el := time.Since(start); el > 2*time.Second {
			t.Fatalf("hang-up noticed after %v", el)
		}
		t.Logf("hang-up noticed after %v", time.Since(start))
	case <-time.After(5 * time.Second):
		t.Fatal("hang-up not noticed within 5s")
	}
	if _, open := h.sess.Generation(); open {
		t.Fatal("session still reports an open stream after the hang-up")
	}
}

func TestClientThatStopsReadingIsCutWithinTheWriteTimeout(t *testing.T) {
	const writeTimeout = 300 * time.Millisecond
	h := newHarness(t, Options{Keepalive: time.Hour, WriteTimeout: writeTimeout, HandoverWait: time.Second})
	mcptest.StalledStream(t, h.srv.Listener.Addr().String(),
		"GET / HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n")
	h.waitOpen(1)

	big := []byte(`{"pad":"` + strings.Repeat("x", 64<<10) + `"}`)
	start := time.Now()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			h.sess.Send(big)
			time.Sleep(time.Millisecond)
		}
	}()
	defer close(stop)
	select {
	case gen := <-h.closedC:
		if gen != 1 {
			t.Fatalf("closed generation %d, want 1", gen)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a client that stopped reading still holds its stream after 30s")
	}
	// Filling the socket buffers takes part of this; the bound is generous for a loaded host,
	// and far below "never", which is what an unbounded write gives.
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("stream cut only %v after the writes began (write timeout %v)", el, writeTimeout)
	}
	t.Logf("stream cut %v after the writes began (write timeout %v)", time.Since(start), writeTimeout)
	if st := h.sess.Stats(); st.WriteFailures != 1 {
		t.Fatalf("WriteFailures %d, want 1", st.WriteFailures)
	}
}

func TestLastEventIDReplaysExactlyTheMissedEvents(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr1, cancel1 := h.open("", "2025-11-25")
	h.waitOpen(1)
	for i := 1; i <= 5; i++ {
		h.sess.Send([]byte(fmt.Sprintf(`{"n":%d}`, i)))
	}
	var lastSeen string
	for i := 1; i <= 5; i++ {
		f := sr1.nextEvent(t)
		if i == 2 {
			lastSeen = f.id // the client "lost" everything after the second event
		}
	}
	cancel1()
	<-h.closedC
	h.sess.Send([]byte(`{"n":6}`)) // sent while no stream is open
	h.sess.Send([]byte(`{"n":7}`))

	_, sr2, _ := h.open(lastSeen, "2025-11-25")
	prime, err := sr2.next()
	if err != nil || prime.id != "0-2-2" || prime.data != "" {
		t.Fatalf("priming event %+v (%v), want id 0-2-2 resuming after position 2", prime, err)
	}
	for i := 3; i <= 7; i++ {
		f := sr2.nextEvent(t)
		if want := fmt.Sprintf(`{"n":%d}`, i); f.data != want {
			t.Fatalf("replayed %q, want %q", f.data, want)
		}
		if want := fmt.Sprintf("0-2-%d", i); f.id != want {
			t.Fatalf("replayed id %q, want %q", f.id, want)
		}
	}
	h.sess.Send([]byte(`{"n":8}`))
	if f := sr2.nextEvent(t); f.data != `{"n":8}` {
		t.Fatalf("after the replay got %q, want the next new message (no duplicates)", f.data)
	}
	st := h.sess.Stats()
	if st.Resumes != 1 || st.Replayed != 3 {
		t.Fatalf("Resumes %d Replayed %d, want 1 and 3 (events 3-5 went out twice)", st.Resumes, st.Replayed)
	}
}

func TestALastEventIDOutsideTheReplayBuffer(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour, ReplayLimit: 2})
	_, sr1, cancel1 := h.open("", "2025-06-18")
	h.waitOpen(1)
	for i := 1; i <= 5; i++ {
		h.sess.Send([]byte(fmt.Sprintf(`{"n":%d}`, i)))
	}
	for i := 1; i <= 5; i++ {
		sr1.nextEvent(t)
	}
	cancel1()
	<-h.closedC

	resp, sr2, _ := h.open("0-1-1", "2025-06-18")
	t.Run("still opens the stream", func(t *testing.T) {
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, want 200: the stream still opens", resp.StatusCode)
		}
	})
	t.Run("names the gap first", func(t *testing.T) {
		f, err := sr2.next()
		if err != nil || !strings.Contains(f.comment, "no longer held") {
			t.Fatalf("first frame %+v (%v), want a comment naming the gap", f, err)
		}
	})
	t.Run("replays what is left", func(t *testing.T) {
		for _, want := range []string{`{"n":4}`, `{"n":5}`} {
			if f := sr2.nextEvent(t); f.data != want {
				t.Fatalf("replayed %q, want %q", f.data, want)
			}
		}
	})
	t.Run("is counted as a stale resume", func(t *testing.T) {
		if st := h.sess.Stats(); st.StaleResumes != 1 {
			t.Fatalf("StaleResumes %d, want 1", st.StaleResumes)
		}
	})
}

func TestUnknownLastEventIDOpensWithoutReplay(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	h.sess.Send([]byte(`{"n":1}`))
	resp, sr, _ := h.open("not-an-id-of-ours", "2025-06-18")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
	f, err := sr.next()
	if err != nil || !strings.Contains(f.comment, "not recognised") {
		t.Fatalf("first frame %+v (%v), want a comment saying the id was not recognised", f, err)
	}
	// The undelivered message still arrives: an unknown resume point loses nothing pending.
	if f := sr.nextEvent(t); f.data != `{"n":1}` {
		t.Fatalf("got %q, want the pending message", f.data)
	}
	if st := h.sess.Stats(); st.UnknownResumes != 1 {
		t.Fatalf("UnknownResumes %d, want 1", st.UnknownResumes)
	}
}

func TestAFullOutbox(t *testing.T) {
	var logs mcptest.LogBuffer
	h := newHarness(t, Options{Keepalive: time.Hour, Logger: zerolog.New(&logs)})
	for i := 1; i <= 300; i++ {
		h.sess.Send([]byte(fmt.Sprintf(`{"n":%d}`, i)))
	}
	t.Run("counts the dropped", func(t *testing.T) {
		if st := h.sess.Stats(); st.Dropped != 44 || st.Sent != 300 {
			t.Fatalf("Dropped %d Sent %d, want 44 and 300", st.Dropped, st.Sent)
		}
	})
	t.Run("keeps the newest 256", func(t *testing.T) {
		if p := h.sess.Pending(); p != DefaultOutboxLimit {
			t.Fatalf("pending %d, want %d", p, DefaultOutboxLimit)
		}
		_, sr, _ := h.open("", "2025-06-18")
		if f := sr.nextEvent(t); f.data != `{"n":45}` || f.id != "0-1-45" {
			t.Fatalf("first delivered %+v, want message 45 (the oldest 44 dropped)", f)
		}
	})
	t.Run("logs the gap when it opens and when it closes", func(t *testing.T) {
		out := logs.String()
		if n := strings.Count(out, "dropping the oldest"); n != 1 {
			t.Fatalf("%d 'dropping' lines, want 1:\n%s", n, out)
		}
		if n := strings.Count(out, "outbox gap"); n != 1 || !strings.Contains(out, `"dropped":44`) || !strings.Contains(out, `"fromSeq":1`) || !strings.Contains(out, `"toSeq":44`) {
			t.Fatalf("gap line missing or wrong (want one, dropped 44, seq 1-44):\n%s", out)
		}
	})
}

func TestSendOnDeliversOnlyToTheNamedGeneration(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	if _, ok := h.sess.SendOn(0, []byte(`{}`)); ok {
		t.Fatal("SendOn succeeded with no stream open")
	}
	h.open("", "2025-06-18")
	h.waitOpen(1)
	if _, ok := h.sess.SendOn(1, []byte(`{"probe":1}`)); !ok {
		t.Fatal("SendOn refused the open generation")
	}
	h.open("", "2025-06-18")
	h.waitOpen(2)
	if _, ok := h.sess.SendOn(1, []byte(`{"probe":2}`)); ok {
		t.Fatal("SendOn accepted a superseded generation")
	}
}

func TestCloseLeavesTheSessionWithoutAStream(t *testing.T) {
	h := newHarness(t, Options{Keepalive: time.Hour})
	_, sr, _ := h.open("", "2025-06-18")
	h.waitOpen(1)
	h.sess.Close()
	select {
	case <-sr.ended():
	case <-time.After(2 * time.Second):
		t.Fatal("stream still open 2s after Close")
	}
	select {
	case gen := <-h.closedC:
		t.Fatalf("OnStreamClosed(%d) after Close; a closed session has no grace to start", gen)
	default:
	}
	resp, _, _ := h.open("", "2025-06-18")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET after Close: status %d, want 404", resp.StatusCode)
	}
	if seq := h.sess.Send([]byte(`{}`)); seq != 0 {
		t.Fatalf("Send after Close answered %d, want 0", seq)
	}
}

func TestStreamEndsWhenItsUntilChannelClosesWithoutReportingALoss(t *testing.T) {
	closed := make(chan uint64, 1)
	sess := NewStream(Options{Keepalive: time.Hour, OnStreamClosed: func(gen uint64) { closed <- gen }})
	until := make(chan struct{})
	served := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(served)
		sess.ServeStreamUntil(w, r, "2025-06-18", until)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sr := &sseReader{r: bufio.NewReader(resp.Body), raw: true}
	if f, err := sr.next(); err != nil || f.comment != "stream open" {
		t.Fatalf("first frame %+v (%v), want the stream open comment", f, err)
	}
	close(until)
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream was still served 5 s after until closed")
	}
	if _, err := sr.next(); err == nil {
		t.Fatal("the client read another frame after the stream ended")
	}
	select {
	case gen := <-closed:
		t.Fatalf("OnStreamClosed(%d) for a stream ended by its session: the lifetime policy would start a stream-loss grace", gen)
	default:
	}
}

func TestEveryMessageDroppedFromAFullOutboxIsReported(t *testing.T) {
	var drops int
	sess := NewStream(Options{Keepalive: time.Hour, OutboxLimit: 4, OnDrop: func() { drops++ }})
	defer sess.Close()
	for i := range 10 {
		sess.Send([]byte(`{"n":` + strconv.Itoa(i) + `}`))
	}
	if drops != 6 || sess.Stats().Dropped != 6 {
		t.Fatalf("10 messages into an outbox of 4: OnDrop called %d times, Stats().Dropped %d; want 6 and 6", drops, sess.Stats().Dropped)
	}
}
