package session

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// recorderGem records the order of the calls it runs; a call whose body holds "block" waits
// until released or cancelled.
type recorderGem struct {
	mu      sync.Mutex
	order   []string
	release chan struct{}
	closed  bool
	running int
	maxRun  int
}

func (g *recorderGem) Handle(ctx context.Context, msg []byte) ([]byte, error) {
	g.mu.Lock()
	g.running++
	g.maxRun = max(g.maxRun, g.running)
	g.order = append(g.order, string(msg))
	g.mu.Unlock()
	defer func() { g.mu.Lock(); g.running--; g.mu.Unlock() }()
	if string(msg) == "block" {
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return []byte("ok:" + string(msg)), nil
}
func (g *recorderGem) ViewStatus(context.Context) (worker.ViewStatus, error) {
	return worker.ViewStatus{}, nil
}
func (g *recorderGem) RefreshView(context.Context) (worker.RefreshResult, error) {
	return worker.RefreshResult{}, nil
}
func (g *recorderGem) Prepared() worker.PrepareResult { return worker.PrepareResult{} }
func (g *recorderGem) Close(context.Context) error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return nil
}

func req(id int, raw string) jsonrpc.Message {
	return jsonrpc.Message{Kind: jsonrpc.Request, ID: []byte(strconv.Itoa(id)), Method: "m", Raw: []byte(raw)}
}

func newSession(g worker.Gem, opts Options) (*Session, *Table) {
	opts.Log = zerolog.Nop()
	t := NewTable(1, Hooks{})
	slot, _ := t.Reserve()
	s := New(context.Background(), "sid", g, opts)
	t.Add(s, slot)
	return s, t
}

func TestCallsRunOneAtATimeInTheOrderTheyArrived(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	first := make(chan Outcome, 1)
	go func() { first <- s.Do(context.Background(), req(0, "block")) }()
	for s.Busy() == false || func() bool { _, ok := s.InFlight(); return !ok }() {
		time.Sleep(time.Millisecond)
	}
	var wg sync.WaitGroup
	for i := 1; i <= 20; i++ {
		// Each joins the line before the next is started: their order is fixed.
		wg.Add(1)
		go func() { defer wg.Done(); s.Do(context.Background(), req(i, "c"+strconv.Itoa(i))) }()
		for s.Queued() < i {
			time.Sleep(time.Millisecond)
		}
	}
	close(g.release)
	wg.Wait()
	<-first
	if g.maxRun != 1 {
		t.Fatalf("%d calls ran at once on one gem", g.maxRun)
	}
	for i := 1; i <= 20; i++ {
		if g.order[i] != "c"+strconv.Itoa(i) {
			t.Fatalf("call order %v", g.order)
		}
	}
}

func TestForwardTakesItsPlaceBeforeReturning(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	go s.Do(context.Background(), req(0, "block"))
	for _, ok := s.InFlight(); !ok; _, ok = s.InFlight() {
		time.Sleep(time.Millisecond)
	}
	done := make(chan struct{})
	_ = s.Forward(jsonrpc.Message{Kind: jsonrpc.Notification, Method: "n", Raw: []byte("notif")}, func(Outcome) { close(done) })
	after := make(chan Outcome, 1)
	go func() { after <- s.Do(context.Background(), req(2, "after")) }()
	close(g.release)
	<-done
	<-after
	if g.order[1] != "notif" || g.order[2] != "after" {
		t.Fatalf("order %v: the notification must run before the request sent after it", g.order)
	}
}

func TestIfIdleRunsOnlyBetweenCalls(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	ran, err := s.IfIdle(context.Background(), func(context.Context, worker.Gem) error { return nil })
	if !ran || err != nil {
		t.Fatalf("idle session: ran %v err %v", ran, err)
	}
	go s.Do(context.Background(), req(0, "block"))
	for !s.Busy() {
		time.Sleep(time.Millisecond)
	}
	if ran, _ := s.IfIdle(context.Background(), func(context.Context, worker.Gem) error { return nil }); ran {
		t.Fatal("IfIdle ran during a call")
	}
	close(g.release)
}

func TestEndCancelsCallsThenLogsOutThenFreesTheSlot(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	var ended []string
	s, tb := newSession(g, Options{})
	tb.hooks.Ended = func(s *Session, r Reason) { ended = append(ended, r.Kind) }
	out := make(chan Outcome, 1)
	go func() { out <- s.Do(context.Background(), req(0, "block")) }()
	for !s.Busy() {
		time.Sleep(time.Millisecond)
	}
	if !s.End(context.Background(), Reason{Kind: ReasonDeleted}) {
		t.Fatal("End said the session had already ended")
	}
	if o := <-out; o.Stopped != ErrSessionEnded {
		t.Fatalf("running call outcome %+v, want stopped by ErrSessionEnded", o)
	}
	if _, ok := tb.Get("sid"); ok || tb.Used() != 0 || !g.closed {
		t.Fatalf("after End: mapped %v used %d closed %v", ok, tb.Used(), g.closed)
	}
	if s.End(context.Background(), Reason{Kind: ReasonDeleted}) {
		t.Fatal("a second End ran again")
	}
	if len(ended) != 1 || ended[0] != ReasonDeleted {
		t.Fatalf("Ended hook calls %v", ended)
	}
	if o := s.Do(context.Background(), req(1, "x")); o.Stopped != ErrSessionEnded {
		t.Fatalf("a call after End: %+v", o)
	}
}

func TestEndInFlightStopsTheRunningCallWithTheGivenReason(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	out := make(chan Outcome, 1)
	go func() { out <- s.Do(context.Background(), req(0, "block")) }()
	for _, ok := s.InFlight(); !ok; _, ok = s.InFlight() {
		time.Sleep(time.Millisecond)
	}
	if c, _ := s.InFlight(); string(c.ID) != "0" || c.Method != "m" || c.Started.IsZero() {
		t.Fatalf("InFlight %+v", c)
	}
	stop := &Stop{Kind: "pinnedView", Reason: "the call held the oldest commit record too long"}
	if !s.EndInFlight(stop) {
		t.Fatal("no call in flight")
	}
	if o := <-out; o.Stopped != stop {
		t.Fatalf("outcome %+v", o)
	}
	if o := s.Do(context.Background(), req(1, "next")); o.Err != nil || string(o.Reply) != "ok:next" {
		t.Fatalf("the session stopped serving: %+v", o)
	}
}

func TestTouchMovesTheActivityClock(t *testing.T) {
	now := time.Unix(1000, 0)
	s, _ := newSession(&recorderGem{}, Options{Now: func() time.Time { return now }})
	if !s.LastActivity().Equal(now) {
		t.Fatalf("LastActivity %v at creation", s.LastActivity())
	}
	now = now.Add(time.Minute)
	s.Touch()
	if !s.LastActivity().Equal(now) {
		t.Fatalf("LastActivity %v after Touch", s.LastActivity())
	}
}

func TestQueuedNotifications(t *testing.T) {
	note := func(raw string) jsonrpc.Message {
		return jsonrpc.Message{Kind: jsonrpc.Notification, Method: "n", Raw: []byte(raw)}
	}
	blocked := func(o Options) (*Session, *recorderGem) {
		g := &recorderGem{release: make(chan struct{})}
		s, _ := newSession(g, o)
		go s.Do(context.Background(), req(0, "block"))
		for _, ok := s.InFlight(); !ok; _, ok = s.InFlight() {
			time.Sleep(time.Millisecond)
		}
		return s, g
	}
	// The first three subtests are steps on one session, in order.
	s, g := blocked(Options{MaxQueuedNotifications: 200, MaxQueuedNotificationBytes: 1000})
	var wg sync.WaitGroup
	t.Run("hold no goroutine", func(t *testing.T) {
		before := runtime.NumGoroutine()
		for i := range 100 { // 100 notifications of 10 bytes: exactly the byte bound
			wg.Add(1)
			if err := s.Forward(note(fmt.Sprintf("note-%05d", i)), func(Outcome) { wg.Done() }); err != nil {
				wg.Done()
				t.Errorf("notification %d refused under the bound: %v", i, err)
			}
		}
		if grown := runtime.NumGoroutine() - before; grown > 10 {
			t.Errorf("100 queued notifications added %d goroutines; a queued message must hold none", grown)
		}
	})
	t.Run("are bounded in bytes", func(t *testing.T) {
		var full *QueueFullError
		if err := s.Forward(note("x"), nil); !errors.As(err, &full) || full.Count != 100 || full.Bytes != 1000 {
			t.Errorf("past the byte bound: %v, want a QueueFullError at 100 notifications, 1000 bytes", err)
		}
	})
	t.Run("are taken again once the queue drains", func(t *testing.T) {
		close(g.release)
		wg.Wait()
		if err := s.Forward(note("again"), nil); err != nil {
			t.Errorf("once the queue has drained, notifications are taken again: %v", err)
		}
	})
	t.Run("are bounded in count", func(t *testing.T) {
		s2, _ := blocked(Options{MaxQueuedNotifications: 2})
		_, _ = s2.Forward(note("a"), nil), s2.Forward(note("b"), nil)
		var full *QueueFullError
		if err := s2.Forward(note("c"), nil); !errors.As(err, &full) || full.MaxCount != 2 {
			t.Errorf("past the count bound: %v", err)
		}
		s2.End(context.Background(), Reason{Kind: "test"})
	})
}

// part records when it was closed, and whether the gem was logged out by then.
type part struct {
	gem    *recorderGem
	closed int
	gemOut bool
}

func (p *part) Close() {
	p.closed++
	p.gem.mu.Lock()
	p.gemOut = p.gem.closed
	p.gem.mu.Unlock()
}

func TestEndingASession(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, tbl := newSession(g, Options{})
	a, b := &part{gem: g}, &part{gem: g}
	s.Hold(a)
	s.Hold(b)
	if got, ok := Held[*part](s); !ok || got != a {
		t.Fatalf("Held answered %v %v, want the first part held", got, ok)
	}
	endedBefore := false
	tbl.hooks.Ended = func(*Session, Reason) { endedBefore = a.closed == 0 }
	s.End(context.Background(), Reason{Kind: ReasonDeleted})
	s.End(context.Background(), Reason{Kind: ReasonDeleted})
	t.Run("closes every part once, after the logout", func(t *testing.T) {
		if a.closed != 1 || b.closed != 1 || !a.gemOut || !b.gemOut {
			t.Fatalf("parts closed %d and %d times, gem out first: %v %v", a.closed, b.closed, a.gemOut, b.gemOut)
		}
	})
	t.Run("tells the table once the parts are released", func(t *testing.T) {
		if endedBefore {
			t.Fatal("the table's Ended hook ran before the parts were released")
		}
	})
	t.Run("leaves no part held", func(t *testing.T) {
		if _, ok := Held[*part](s); ok {
			t.Fatal("an ended session still holds its parts")
		}
	})
	t.Run("closes its stream", func(t *testing.T) {
		w := httptest.NewRecorder()
		s.Stream().ServeStreamUntil(w, httptest.NewRequest(http.MethodGet, "/mcp", nil), "", nil)
		if w.Code != http.StatusNotFound {
			t.Fatalf("GET on an ended session's stream: %d, want 404 (closed)", w.Code)
		}
	})
	t.Run("closes a part given later at once", func(t *testing.T) {
		late := &part{gem: g}
		s.Hold(late)
		if late.closed != 1 {
			t.Fatal("a part given to an ended session was not closed at once")
		}
	})
}

func TestAPreludeRunsInTheCallsTurnRightBeforeItsMessage(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	blocked := make(chan Outcome)
	go func() { blocked <- s.Do(context.Background(), req(1, "block")) }()
	for {
		if _, ok := s.InFlight(); ok {
			break
		}
	}
	done := make(chan Outcome)
	go func() {
		done <- s.DoAfter(context.Background(), req(2, "second"), func(_ context.Context, gem worker.Gem) error {
			gem.(*recorderGem).mu.Lock()
			defer gem.(*recorderGem).mu.Unlock()
			g.order = append(g.order, "prelude")
			return nil
		})
	}()
	for s.Queued() == 0 {
	}
	close(g.release)
	<-blocked
	if out := <-done; string(out.Reply) != "ok:second" {
		t.Fatalf("outcome %+v", out)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.order) != 3 || g.order[0] != "block" || g.order[1] != "prelude" || g.order[2] != "second" {
		t.Fatalf("order %v: the prelude must run after the earlier call and before its own message", g.order)
	}
}

func TestAFailedPrelude(t *testing.T) {
	g := &recorderGem{}
	s, _ := newSession(g, Options{})
	boom := errors.New("grant refused")
	out := s.DoAfter(context.Background(), req(1, "never"), func(context.Context, worker.Gem) error { return boom })
	t.Run("ends the call with its error", func(t *testing.T) {
		if !errors.Is(out.Err, boom) || out.Reply != nil {
			t.Fatalf("outcome %+v", out)
		}
	})
	t.Run("sends the gem nothing", func(t *testing.T) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if len(g.order) != 0 {
			t.Fatalf("the gem ran %v after a failed prelude", g.order)
		}
	})
}
