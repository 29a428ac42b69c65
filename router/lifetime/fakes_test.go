package lifetime

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// fakeClock runs timers synchronously, in due order, inside Advance: a test moves time and
// then asserts, with nothing left to chance.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c       *fakeClock
	due     time.Time
	f       func()
	stopped bool
	fired   bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, due: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped && !t.fired
	t.stopped = true
	return was
}

// Advance moves time forward by d, firing every timer that falls due on the way at its own
// due time.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		t := c.nextDue(target)
		if t == nil {
			break
		}
		c.mu.Lock()
		if t.due.After(c.now) {
			c.now = t.due
		}
		c.mu.Unlock()
		t.f()
	}
	c.mu.Lock()
	c.now = target
	c.mu.Unlock()
}

// Jump moves time forward by d at once, as a host suspend does, and only then fires what fell
// due, late.
func (c *fakeClock) Jump(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	target := c.now
	c.mu.Unlock()
	for {
		t := c.nextDue(target)
		if t == nil {
			return
		}
		t.f()
	}
}

func (c *fakeClock) nextDue(target time.Time) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	live := c.timers[:0]
	for _, t := range c.timers {
		if !t.stopped && !t.fired {
			live = append(live, t)
		}
	}
	c.timers = live
	sort.SliceStable(live, func(i, j int) bool { return live[i].due.Before(live[j].due) })
	if len(live) == 0 || live[0].due.After(target) {
		return nil
	}
	live[0].fired = true
	return live[0]
}

// fakeSession is a session whose every fact the test sets.
type fakeSession struct {
	h        *fakeHost
	id       string
	created  time.Time
	last     time.Time
	seen     time.Time
	inFlight bool
	gen      uint64
	open     bool
	gem      int
	view     worker.ViewStatus
	viewErr  error
	refresh  worker.RefreshResult

	viewCalls, refreshCalls int
	stateless               bool
	memory                  Memory
	// dropped is a session whose record has ended while the host still lists it: the router's
	// session gives up its parts, the Memory among them, when it ends.
	dropped bool
}

func (s *fakeSession) NeverStreams() bool { return s.stateless }
func (s *fakeSession) Memory() *Memory {
	if s.dropped {
		return nil
	}
	return &s.memory
}

func (s *fakeSession) ID() string { return s.id }
func (s *fakeSession) Created() time.Time {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.created
}
func (s *fakeSession) LastActivity() time.Time {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.last
}
func (s *fakeSession) LastSeen() time.Time {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return latest(s.last, s.seen)
}
func (s *fakeSession) InFlight() bool {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.inFlight
}
func (s *fakeSession) StreamGeneration() (uint64, bool) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.gen, s.open
}
func (s *fakeSession) GemSession() int { return s.gem }
func (s *fakeSession) ViewStatus(context.Context) (worker.ViewStatus, error) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.viewCalls++
	if s.inFlight {
		return worker.ViewStatus{}, ErrBusy
	}
	return s.view, s.viewErr
}
func (s *fakeSession) RefreshView(context.Context) (worker.RefreshResult, error) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if s.inFlight {
		return worker.RefreshResult{}, ErrBusy
	}
	s.refreshCalls++
	s.view.CommitsBehind = 0
	return s.refresh, nil
}

type sentProbe struct {
	id  string
	gen uint64
}

// fakeHost records every action the engine takes.
type fakeHost struct {
	mu       sync.Mutex
	clock    *fakeClock
	sessions map[string]*fakeSession
	reaped   map[string]Reason
	ended    map[string]Reason
	probes   []sentProbe
	probeErr error
}

func newFakeHost(c *fakeClock) *fakeHost {
	return &fakeHost{clock: c, sessions: map[string]*fakeSession{}, reaped: map[string]Reason{}, ended: map[string]Reason{}}
}

// add opens a session now, with its first request now.
func (h *fakeHost) add(id string) *fakeSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock.Now()
	s := &fakeSession{h: h, id: id, created: now, last: now, gem: len(h.sessions) + 10}
	h.sessions[id] = s
	return s
}

func (h *fakeHost) Sessions() []Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Session, 0, len(h.sessions))
	ids := make([]string, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		out = append(out, h.sessions[id])
	}
	return out
}

func (h *fakeHost) Session(id string) (Session, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[id]
	return s, ok
}

func (h *fakeHost) Reap(id string, why Reason) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reaped[id] = why
	delete(h.sessions, id)
}

func (h *fakeHost) Probe(id string, gen uint64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.probeErr != nil {
		return h.probeErr
	}
	s, ok := h.sessions[id]
	if !ok || !s.open || s.gen != gen {
		return errors.New("stream gone")
	}
	h.probes = append(h.probes, sentProbe{id, gen})
	return nil
}

func (h *fakeHost) EndCall(id string, why Reason) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended[id] = why
}

// set changes a session's facts under the host lock.
func (h *fakeHost) set(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f()
}

// touch records a request now.
func (h *fakeHost) touch(s *fakeSession) { h.set(func() { s.last = h.clock.Now() }) }

// ping records a message that is not activity (a client ping, a POSTed response) now.
func (h *fakeHost) ping(s *fakeSession) { h.set(func() { s.seen = h.clock.Now() }) }

func (h *fakeHost) reapedFor(id string) (Reason, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.reaped[id]
	return r, ok
}

func (h *fakeHost) probeCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.probes)
}

func (h *fakeHost) lastProbe() sentProbe {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.probes[len(h.probes)-1]
}

// fakeStone answers a fixed reading, or an error.
type fakeStone struct {
	mu  sync.Mutex
	st  worker.StoneStatus
	err error
}

func (f *fakeStone) ReadStone(context.Context) (worker.StoneStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st, f.err
}

func (f *fakeStone) set(st worker.StoneStatus, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st, f.err = st, err
}

type rig struct {
	t     *testing.T
	clock *fakeClock
	host  *fakeHost
	stone *fakeStone
	eng   *Engine
}

// in is the rig for the subtest t: the same engine, clock and host, its checks failing t.
func (r *rig) in(t *testing.T) *rig {
	c := *r
	c.t = t
	return &c
}

// newRig starts an engine on a fake clock. The config starts from the defaults with view
// hygiene off, so a lifetime test sees only lifetime rules; mutate switches on what it tests.
func newRig(t *testing.T, mutate func(*Config)) *rig {
	t.Helper()
	c := newFakeClock()
	cfg := Defaults()
	cfg.MaxCommitsBehind = 0
	cfg.StuckViewGrace = Off()
	cfg.PinnedViewGrace = Off()
	if mutate != nil {
		mutate(&cfg)
	}
	r := &rig{t: t, clock: c, host: newFakeHost(c), stone: &fakeStone{st: worker.StoneStatus{CommitRecordBacklog: 0, SignalAbortBacklog: -1}}}
	eng, err := New(cfg, r.stone, WithClock(c))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	r.eng = eng
	eng.Start(r.host)
	t.Cleanup(eng.Stop)
	return r
}

func (r *rig) mustBeReaped(id, kind string) {
	r.t.Helper()
	why, ok := r.host.reapedFor(id)
	if !ok {
		r.t.Fatalf("session %s not reaped, want reaped for %s", id, kind)
	}
	if why.Kind != kind {
		r.t.Fatalf("session %s reaped for %s (%s), want %s", id, why.Kind, why.Detail, kind)
	}
}

func (r *rig) mustLive(id string) {
	r.t.Helper()
	if why, ok := r.host.reapedFor(id); ok {
		r.t.Fatalf("session %s reaped for %s (%s), want it kept", id, why.Kind, why.Detail)
	}
}
