// Package gciworker implements worker.Launcher, worker.Gem and worker.Control on top of the
// gemstone binding, following docs/worker-contract.md: every entry is a perform on the worker
// class (resolved by name in the user's symbol list) with byte-String arguments, and every
// answer is fetched as bytes.
//
//	Launcher.Launch ── Login ─ Abort ─ perform mcpPrepare: ──▶ Gem
//	Gem.Handle      ── perform mcpHandle: (ctx-aware: soft break → hard break → stop)
//	Control         ── its own login, transactionless; System stopSession:, stone readings,
//	                   one-time passwords for Options.OneTimeUser (onetime.go)
//
// The escalation's last step of every Gem calls the Control's StopSession with the gem's
// session number; without a Control the binding ends the session itself (GciTsNbLogout).
//
// Every error of a Launcher or a Gem is a *worker.Failure, made from the binding's error in one
// function (failure.go), so the router never reads a *gemstone.Error.
package gciworker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// The contract's selectors (docs/worker-contract.md, "Entries").
const (
	selectorPrepare     = "mcpPrepare:"
	selectorHandle      = "mcpHandle:"
	selectorViewStatus  = "mcpViewStatus"
	selectorRefreshView = "mcpRefreshView"
	selectorGrant       = "mcpGrant:"
)

// undoTimeout bounds the logout that undoes a failed launch.
const undoTimeout = 10 * time.Second

// Options tune a Launcher.
type Options struct {
	// BreakGap is the escalation's gap between soft break, hard break and stop
	// (gemstone.MinBreakGap when shorter).
	BreakGap time.Duration
	// Control stops a gem that ignored both breaks. Nil: the binding logs the gem out itself.
	Control worker.Control
	// OneTimeUser, when set, is the user every gem logs in as, with a one-time password
	// Control mints for each login (docs/read-only-user.md); the spec's user and password
	// are then not used.
	OneTimeUser string
}

// Launcher logs worker gems in through a loaded GCI library.
type Launcher struct {
	lib  *gemstone.Library
	opts Options
}

var _ worker.Launcher = (*Launcher)(nil)

// NewLauncher answers a Launcher on lib. A lib whose load failed is accepted: every Launch
// then fails with the load error.
func NewLauncher(lib *gemstone.Library, opts Options) *Launcher {
	return &Launcher{lib: lib, opts: opts}
}

// Launch logs a gem in, aborts, and prepares it; on any failure the gem is logged out. A
// failure is a *worker.Failure (failure.go).
func (l *Launcher) Launch(ctx context.Context, spec worker.LoginSpec, config worker.PrepareConfig) (worker.Gem, error) {
	g, err := l.launch(ctx, spec, config)
	if err != nil {
		return nil, failure(err)
	}
	return g, nil
}

func (l *Launcher) launch(ctx context.Context, spec worker.LoginSpec, config worker.PrepareConfig) (*Gem, error) {
	if config.WorkerClass == "" {
		return nil, errors.New("gciworker: the prepare config names no worker class")
	}
	if config.Contract == 0 {
		config.Contract = worker.ContractVersion
	}
	body, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("gciworker: encoding the prepare config: %w", err)
	}
	if spec, err = l.oneTimeLogin(ctx, spec); err != nil {
		return nil, err
	}
	s, err := l.lib.Login(ctx, loginParams(spec, l.opts.BreakGap))
	if err != nil {
		return nil, l.oneTimeLoginFailure(err)
	}
	g, err := l.prepare(ctx, s, config.WorkerClass, body)
	if err != nil {
		undo, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
		defer cancel()
		s.Close(undo)
		return nil, err
	}
	return g, nil
}

func (l *Launcher) prepare(ctx context.Context, s *gemstone.Session, class string, config []byte) (*Gem, error) {
	if err := s.Abort(ctx); err != nil {
		return nil, fmt.Errorf("gciworker: abort after login: %w", err)
	}
	answer, err := s.Perform(ctx, class, selectorPrepare, gemstone.String(config))
	if err != nil {
		return nil, err
	}
	prepared, err := worker.ParsePrepareAnswer(answer)
	if err != nil {
		return nil, err
	}
	g := &Gem{session: s, class: class, prepared: prepared}
	if c := l.opts.Control; c != nil {
		n := prepared.GemSession
		s.SetStopHook(func(ctx context.Context) error { return c.StopSession(ctx, n) })
	}
	return g, nil
}

func loginParams(spec worker.LoginSpec, gap time.Duration) gemstone.LoginParams {
	kind := gemstone.PasswordPlain
	switch spec.PasswordKind {
	case worker.PasswordOneTime:
		kind = gemstone.PasswordOneTime
	case worker.PasswordJWT:
		kind = gemstone.PasswordJWT
	}
	return gemstone.LoginParams{
		StoneNRS: spec.StoneNRS, GemNRS: spec.GemNRS,
		User: spec.User, Password: spec.Password, PasswordKind: kind,
		BreakGap: gap,
	}
}

// Gem is one prepared worker gem.
type Gem struct {
	session  *gemstone.Session
	class    string
	prepared worker.PrepareResult
}

var (
	_ worker.Gem     = (*Gem)(nil)
	_ worker.Granter = (*Gem)(nil)
)

// Handle forwards one JSON-RPC message; an empty answer (a notification) is nil. Like every
// method of a Gem, it reports a failure as a *worker.Failure.
func (g *Gem) Handle(ctx context.Context, message []byte) ([]byte, error) {
	reply, err := g.session.Perform(ctx, g.class, selectorHandle, gemstone.String(message))
	if err != nil {
		return nil, failure(err)
	}
	if len(reply) == 0 {
		return nil, nil
	}
	return reply, nil
}

// ViewStatus asks the worker how far behind its view is.
func (g *Gem) ViewStatus(ctx context.Context) (worker.ViewStatus, error) {
	var v worker.ViewStatus
	err := g.performJSON(ctx, selectorViewStatus, &v)
	return v, err
}

// RefreshView asks the worker to move its view, keeping uncommitted work.
func (g *Gem) RefreshView(ctx context.Context) (worker.RefreshResult, error) {
	var r worker.RefreshResult
	err := g.performJSON(ctx, selectorRefreshView, &r)
	return r, err
}

func (g *Gem) performJSON(ctx context.Context, selector string, into any) error {
	answer, err := g.session.Perform(ctx, g.class, selector)
	if err != nil {
		return failure(err)
	}
	dec := json.NewDecoder(bytes.NewReader(answer))
	if err := dec.Decode(into); err != nil {
		return failure(fmt.Errorf("gciworker: %s answered something that is not its JSON: %w", selector, err))
	}
	return nil
}

// Grant changes the toolsets the session offers (mcpGrant:) and answers the grant the
// worker now applies; a refusal wraps a *worker.GrantError.
func (g *Gem) Grant(ctx context.Context, grant worker.Grant) (worker.Grant, error) {
	body, err := json.Marshal(grant)
	if err != nil {
		return worker.Grant{}, failure(fmt.Errorf("gciworker: encoding the grant: %w", err))
	}
	answer, err := g.session.Perform(ctx, g.class, selectorGrant, gemstone.String(body))
	if err != nil {
		return worker.Grant{}, failure(err)
	}
	granted, err := worker.ParseGrantAnswer(answer)
	if err != nil {
		return worker.Grant{}, failure(err)
	}
	return granted, nil
}

// Prepared is the worker's prepare answer.
func (g *Gem) Prepared() worker.PrepareResult { return g.prepared }

// Close logs the gem out (ending a running call first); idempotent.
func (g *Gem) Close(ctx context.Context) error { return failure(g.session.Close(ctx)) }

// Session exposes the binding session, for Break and for tests.
func (g *Gem) Session() *gemstone.Session { return g.session }
