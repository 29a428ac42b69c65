// Package workertest is an in-process worker.Launcher, worker.Gem and worker.Control for the
// router's unit tests. Each "gem" is a worker/workertest/fixtureworker Worker (the same fixture MCP
// worker the stand-in's gem processes run), driven the way the binding drives a real gem:
//
//   - one call at a time (a second concurrent call fails with kind worker.CallInProgress);
//   - cancelling a call's context escalates soft break → hard break → stop, BreakGap apart,
//     and the failure says which step ended it (worker.Failure.Ending);
//   - the `die` tool, Kill (a SIGKILL from outside) and the escalation's stop leave the gem
//     dead: the call gets a fatal worker.Failure of kind GemGone and so does every later one;
//   - a refused prepare is a worker.Failure of kind PrepareRefused, as from a real worker.
//
// Its failures carry the numbers and client texts the binding's would (gciworker), so the
// router's answers read the same over either.
//
// It counts launches and live gems so a test can prove that no login was attempted past the
// cap and that every gem was logged out.
package workertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest/fixtureworker"
)

// Launcher starts fake gems. Set its fields before the first Launch.
type Launcher struct {
	// BreakGap is the time between escalation steps (default 20 ms: tests need not wait the
	// real binding's 300 ms).
	BreakGap time.Duration
	// LoginDelay makes each Launch take this long (bounded by its context).
	LoginDelay time.Duration
	// LoginError, when set, fails every Launch with it (as a refused login would).
	LoginError error

	launches atomic.Int64
	mu       sync.Mutex
	next     int
	gems     map[int]*Gem
	configs  []worker.PrepareConfig
	logins   []worker.LoginSpec
}

var _ worker.Launcher = (*Launcher)(nil)

// New makes a Launcher with the default break gap.
func New() *Launcher { return &Launcher{} }

// Launch implements worker.Launcher.
func (l *Launcher) Launch(ctx context.Context, login worker.LoginSpec, cfg worker.PrepareConfig) (worker.Gem, error) {
	l.launches.Add(1)
	l.mu.Lock()
	l.logins = append(l.logins, login)
	l.mu.Unlock()
	if l.LoginDelay > 0 {
		select {
		case <-time.After(l.LoginDelay):
		case <-ctx.Done():
			return nil, fmt.Errorf("workertest: login abandoned: %w", ctx.Err())
		}
	}
	if l.LoginError != nil {
		return nil, l.LoginError
	}
	body, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("workertest: encoding the prepare config: %w", err)
	}
	w, err := fixtureworker.New(body)
	if err != nil {
		var pe *fixtureworker.PrepareError
		if errors.As(err, &pe) {
			return nil, worker.Refused(pe.Kind, pe.Message)
		}
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gems == nil {
		l.gems = make(map[int]*Gem)
	}
	l.next++
	g := &Gem{l: l, w: w, number: l.next, kill: make(chan struct{})}
	if g.prepared, err = worker.ParsePrepareAnswer(w.PrepareAnswer(g.number)); err != nil {
		return nil, fmt.Errorf("workertest: the prepare answer: %w", err)
	}
	l.gems[g.number] = g
	l.configs = append(l.configs, cfg)
	return g, nil
}

// Launches is how many logins were attempted.
func (l *Launcher) Launches() int { return int(l.launches.Load()) }

// Live is how many gems are logged in and not logged out (dead ones count until Close:
// a real dead gem's session is still the router's to log out).
func (l *Launcher) Live() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, g := range l.gems {
		if !g.isClosed() {
			n++
		}
	}
	return n
}

// Configs are the prepare configs of every successful launch, in order.
func (l *Launcher) Configs() []worker.PrepareConfig {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]worker.PrepareConfig(nil), l.configs...)
}

// Logins are the login specs of every launch attempted, in order. They hold passwords:
// tests only.
func (l *Launcher) Logins() []worker.LoginSpec {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]worker.LoginSpec(nil), l.logins...)
}

// Gem finds a gem by its GemStone session number.
func (l *Launcher) Gem(number int) (*Gem, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.gems[number]
	return g, ok
}

// Kill makes a gem vanish as a SIGKILL would: a running call fails fatally, and so does
// every later one.
func (l *Launcher) Kill(number int) bool {
	g, ok := l.Gem(number)
	if ok {
		g.die()
	}
	return ok
}

func (l *Launcher) gap() time.Duration {
	if l.BreakGap > 0 {
		return l.BreakGap
	}
	return 20 * time.Millisecond
}

// Gem is one fake worker gem.
type Gem struct {
	l        *Launcher
	w        *fixtureworker.Worker
	number   int
	prepared worker.PrepareResult

	call     sync.Mutex // held for one call
	mu       sync.Mutex
	dead     bool
	closed   bool
	kill     chan struct{}
	killOnce sync.Once
	calls    int
}

var _ worker.Gem = (*Gem)(nil)

// Number is the gem's GemStone session number.
func (g *Gem) Number() int { return g.number }

// Calls is how many Handle calls reached the worker.
func (g *Gem) Calls() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls
}

func (g *Gem) die() {
	g.mu.Lock()
	g.dead = true
	g.mu.Unlock()
	g.killOnce.Do(func() { close(g.kill) })
}

func (g *Gem) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// Dead says the gem died or was stopped.
func (g *Gem) Dead() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dead
}

func (g *Gem) usable() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.closed:
		return &worker.Failure{Kind: worker.GemGone, Fatal: true, Safe: "GemStone session closed",
			Err: errors.New("workertest: the gem is logged out")}
	case g.dead:
		return gone("the fake gem is dead", worker.NotEnded)
	}
	g.calls++
	return nil
}

// netError is GemStone's number for a gem whose connection broke (NET_ERROR), the error a
// vanished gem's call reports.
const netError = 4137

func gone(why string, ending worker.Ending) *worker.Failure {
	return &worker.Failure{Kind: worker.GemGone, Number: netError, Fatal: true, Ending: ending,
		Safe: fmt.Sprintf("GemStone error %d (session gone)", netError), Err: errors.New("workertest: " + why)}
}

func broken(b fixtureworker.Break, ending worker.Ending) *worker.Failure {
	n := b.ErrorNumber()
	return &worker.Failure{Kind: worker.CallBroken, Number: n, Ending: ending,
		Safe: fmt.Sprintf("GemStone error %d (%s)", n, b), Err: &fixtureworker.BreakError{Break: b}}
}

// LoginDenied is the failure a refused login reports through the binding (GemStone 4051),
// for LoginError; detail stands for its full text, which names the user and the host.
func LoginDenied(detail string) *worker.Failure {
	return &worker.Failure{Kind: worker.LoginRefused, Number: 4051, Fatal: true,
		Safe: "GemStone error 4051 (login denied)", Err: errors.New("workertest: " + detail)}
}

func busy() *worker.Failure {
	return &worker.Failure{Kind: worker.CallInProgress, Safe: "GemStone session busy",
		Err: errors.New("workertest: a call is already in progress on this gem")}
}

// Handle implements worker.Gem.
func (g *Gem) Handle(ctx context.Context, message []byte) ([]byte, error) {
	if !g.call.TryLock() {
		return nil, busy()
	}
	defer g.call.Unlock()
	if err := g.usable(); err != nil {
		return nil, err
	}
	var ending atomic.Value // the worker.Ending of the last step taken
	ending.Store(worker.NotEnded)
	breaks := make(chan fixtureworker.Break, 2)
	run, stop := context.WithCancel(context.Background())
	defer stop()
	finished := make(chan struct{})
	go g.escalate(ctx, breaks, stop, finished, &ending)
	reply, err := g.w.HandleWithBreaks(run, message, breaks)
	close(finished)
	if err == nil {
		return reply, nil
	}
	var be *fixtureworker.BreakError
	switch {
	case errors.Is(err, fixtureworker.ErrDied):
		g.die()
		return nil, gone("the die tool ended the gem", worker.NotEnded)
	case errors.As(err, &be):
		return nil, broken(be.Break, ending.Load().(worker.Ending))
	case errors.Is(err, fixtureworker.ErrStopped):
		return nil, gone("the gem was stopped", ending.Load().(worker.Ending))
	case errors.Is(err, fixtureworker.ErrCallInProgress):
		return nil, busy()
	}
	return nil, err
}

// escalate ends a call whose context is cancelled the way the binding does: soft break,
// then hard break, then stop, each BreakGap after the last unless the call has finished.
func (g *Gem) escalate(ctx context.Context, breaks chan<- fixtureworker.Break, stop func(), finished <-chan struct{}, ending *atomic.Value) {
	if !await(g, ctx.Done(), finished, stop) {
		return
	}
	steps := []worker.Ending{worker.EndedBySoftBreak, worker.EndedByHardBreak, worker.EndedByStop}
	for i, step := range steps {
		if i > 0 && !await(g, time.After(g.l.gap()), finished, stop) {
			return
		}
		ending.Store(step)
		switch step {
		case worker.EndedBySoftBreak:
			breaks <- fixtureworker.SoftBreak
		case worker.EndedByHardBreak:
			breaks <- fixtureworker.HardBreak
		case worker.EndedByStop:
			g.die()
			stop()
		}
	}
}

// await waits for next, the escalation's cue to take its next step. It answers false when the
// call finished first, or the gem was killed first (its call then stops at once).
func await[T any](g *Gem, next <-chan T, finished <-chan struct{}, stop func()) bool {
	select {
	case <-finished:
		return false
	case <-g.kill:
		stop()
		return false
	case <-next:
		return true
	}
}

// ViewStatus implements worker.Gem.
func (g *Gem) ViewStatus(ctx context.Context) (worker.ViewStatus, error) {
	return ask[worker.ViewStatus](g, g.w.ViewStatus)
}

// RefreshView implements worker.Gem.
func (g *Gem) RefreshView(ctx context.Context) (worker.RefreshResult, error) {
	return ask[worker.RefreshResult](g, g.w.RefreshView)
}

// ask runs one of the contract's JSON entries on a usable gem and decodes its answer.
func ask[T any](g *Gem, entry func() []byte) (T, error) {
	var v T
	if err := g.usable(); err != nil {
		return v, err
	}
	err := json.Unmarshal(entry(), &v)
	return v, err
}

// Grant implements worker.Granter.
func (g *Gem) Grant(ctx context.Context, grant worker.Grant) (worker.Grant, error) {
	if err := g.usable(); err != nil {
		return worker.Grant{}, err
	}
	body, err := json.Marshal(grant)
	if err != nil {
		return worker.Grant{}, err
	}
	return worker.ParseGrantAnswer(g.w.Grant(body))
}

// Prepared implements worker.Gem.
func (g *Gem) Prepared() worker.PrepareResult { return g.prepared }

// Close implements worker.Gem: it ends a running call and logs the gem out; idempotent.
func (g *Gem) Close(ctx context.Context) error {
	g.killOnce.Do(func() { close(g.kill) })
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return nil
}

// Control is a fake control session: StopSession kills the named gem.
type Control struct {
	L *Launcher
	// Stone is what ReadStone answers.
	Stone  worker.StoneStatus
	stops  atomic.Int64
	closed atomic.Bool
}

var _ worker.Control = (*Control)(nil)

// StopSession implements worker.Control.
func (c *Control) StopSession(_ context.Context, gemSession int) error {
	c.stops.Add(1)
	if !c.L.Kill(gemSession) {
		return fmt.Errorf("workertest: no gem session %d", gemSession)
	}
	return nil
}

// Stops is how many StopSession calls were made.
func (c *Control) Stops() int { return int(c.stops.Load()) }

// ReadStone implements worker.Control.
func (c *Control) ReadStone(context.Context) (worker.StoneStatus, error) { return c.Stone, nil }

// MintOneTimePassword implements worker.Control; the fake launcher takes any password.
func (c *Control) MintOneTimePassword(_ context.Context, user string, _ time.Duration) (string, error) {
	return "workertest-one-time:" + user, nil
}

// Close implements worker.Control.
func (c *Control) Close(context.Context) error {
	c.closed.Store(true)
	return nil
}
