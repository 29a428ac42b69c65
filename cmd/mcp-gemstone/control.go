package main

import (
	"context"
	"errors"
	"sync"
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
	c.control = ctl
	return ctl, nil
}

// connect tries one login in the background at start; a failure is only logged.
func (c *lazyControl) connect(ctx context.Context) {
	if c.lib == nil || c.lib.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if _, err := c.get(ctx); err != nil {
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
