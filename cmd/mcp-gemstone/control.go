package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

// lazyControl is the router's control session, logged in on first need rather than at
// start, so a stone that is down when the server starts does not stop it from starting.
// Once logged in, gciworker.Control logs itself in again if the session is lost.
type lazyControl struct {
	lib   *gemstone.Library
	login worker.LoginSpec
	log   zerolog.Logger

	mu      sync.Mutex
	control *gciworker.Control
	closed  bool

	// loggedIn is set once the login succeeded, readable without mu, which a login holds for
	// as long as it takes; connecting keeps readiness probes from starting logins in a pile.
	loggedIn   atomic.Bool
	connecting atomic.Bool
	lastTry    atomic.Int64 // unix nanoseconds of the last login attempt connect made
	failed     atomic.Bool  // the last attempt connect made failed
}

var _ worker.Control = (*lazyControl)(nil)

func newLazyControl(lib *gemstone.Library, login worker.LoginSpec, log zerolog.Logger) *lazyControl {
	return &lazyControl{lib: lib, login: login, log: log.With().Str("component", "control").Logger()}
}

var errControlClosed = errors.New("control session closed")

// get answers the control session, logging it in if it is not yet.
func (c *lazyControl) get(ctx context.Context) (*gciworker.Control, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errControlClosed
	}
	if c.control != nil {
		return c.control, nil
	}
	ctl, err := gciworker.NewControl(ctx, c.lib, c.login)
	if err != nil {
		return nil, err
	}
	c.log.Info().Msg("control session logged in (transactionless)")
	ctl.OnRelogin(func(cause error) {
		c.log.Warn().Err(cause).Msg("control session lost (its gem is gone); logged in again (transactionless)")
	})
	c.control = ctl
	c.loggedIn.Store(true)
	return ctl, nil
}

// Errors readiness answers with; /readyz shows them to anyone, so they name what is missing
// and never a host, user or path (the log has the detail).
var (
	errLibraryNotLoaded = errors.New("the GemStone client library is not loaded: set GCI_LIBRARY or GEMSTONE (the server log names the paths tried)")
	errNotLoggedIn      = errors.New("the router's own GemStone login (its control session) is under way")
	errLoginFailed      = errors.New("the router's own GemStone login (its control session) failed; it is tried again every 5 s: check the stone, its NetLDI, GS_USER and the password (the server log says why)")
)

// ready is the readiness check: the library is loaded and the control session logged in. A
// check that finds no login starts one in the background, so a stone that comes up after the
// server makes it ready without waiting for a client.
func (c *lazyControl) ready(context.Context) error {
	if c.lib == nil || c.lib.Err() != nil {
		return errLibraryNotLoaded
	}
	if c.loggedIn.Load() {
		return nil
	}
	if last := c.lastTry.Load(); last == 0 || time.Since(time.Unix(0, last)) >= retryEvery {
		go c.connect(context.Background())
	}
	if c.failed.Load() {
		return errLoginFailed
	}
	return errNotLoggedIn
}

// retryEvery spaces the logins readiness checks start: a stone that is down is not asked
// again by every probe.
const retryEvery = 5 * time.Second

// connect tries one login in the background (at start, and when a readiness check finds none);
// a failure is only logged. One attempt runs at a time.
func (c *lazyControl) connect(ctx context.Context) {
	if c.lib == nil || c.lib.Err() != nil || c.loggedIn.Load() || !c.connecting.CompareAndSwap(false, true) {
		return
	}
	defer c.connecting.Store(false)
	c.lastTry.Store(time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	_, err := c.get(ctx)
	c.failed.Store(err != nil)
	if err != nil {
		c.log.Warn().Err(err).Msg("control session not logged in yet; it will be tried again when needed")
	}
}

func (c *lazyControl) StopSession(ctx context.Context, gemSession int) error {
	ctl, err := c.get(ctx)
	if err != nil {
		return err
	}
	return ctl.StopSession(ctx, gemSession)
}

func (c *lazyControl) ReadStone(ctx context.Context) (worker.StoneStatus, error) {
	ctl, err := c.get(ctx)
	if err != nil {
		return worker.StoneStatus{CommitRecordBacklog: -1, SignalAbortBacklog: -1}, err
	}
	return ctl.ReadStone(ctx)
}

func (c *lazyControl) MintOneTimePassword(ctx context.Context, user string, validFor time.Duration) (string, error) {
	ctl, err := c.get(ctx)
	if err != nil {
		return "", err
	}
	return ctl.MintOneTimePassword(ctx, user, validFor)
}

func (c *lazyControl) Close(ctx context.Context) error {
	c.mu.Lock()
	ctl := c.control
	c.closed = true
	c.mu.Unlock()
	if ctl == nil {
		return nil
	}
	return ctl.Close(ctx)
}
