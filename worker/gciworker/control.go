package gciworker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Control sources (docs/worker-contract.md, "The control session"). The leading comment of
// the readings source is a tag the test stand-in matches on.
const (
	transactionlessSource = "System transactionMode: #transactionless"
	stoneReadingsSource   = `"mcp-control:stone-readings v1"
| s |
System abortTransaction.
s := WriteStream on: String new.
s print: ([System commitRecordBacklog] on: Error do: [:e | -1]); space;
  print: ([System stoneConfigurationAt: #StnSignalAbortCrBacklog] on: Error do: [:e | -1]).
([System sessionsReferencingOldestCr] on: Error do: [:e | #()]) do: [:each | s space; print: each].
s contents`
)

// Control is the router's own session. Calls queue for it (the binding would refuse a
// second concurrent call); a control session that died is logged in again on next use.
type Control struct {
	lib   *gemstone.Library
	login gemstone.LoginParams
	slot  chan struct{}

	session *gemstone.Session // under slot; nil until logged in, or after it died
	closed  bool              // under slot
	lost    error             // under slot: why the last session was dropped, until the next login
	relogin func(cause error) // under slot: told of each login that replaces a dropped session
}

// OnRelogin sets f to be told, with the error that ended the old one, each time a control
// session that died is replaced by a fresh login (the operator's log should say so).
func (c *Control) OnRelogin(f func(cause error)) {
	c.slot <- struct{}{}
	defer func() { <-c.slot }()
	c.relogin = f
}

var _ worker.Control = (*Control)(nil)

// NewControl logs the control session in and makes it transactionless, so it never pins a
// commit record.
func NewControl(ctx context.Context, lib *gemstone.Library, spec worker.LoginSpec) (*Control, error) {
	c := &Control{lib: lib, login: loginParams(spec, 0), slot: make(chan struct{}, 1)}
	c.slot <- struct{}{}
	defer func() { <-c.slot }()
	if _, err := c.sessionLocked(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// sessionLocked answers the live control session, logging in again if needed.
func (c *Control) sessionLocked(ctx context.Context) (*gemstone.Session, error) {
	if c.closed {
		return nil, gemstone.ErrSessionClosed
	}
	if c.session != nil {
		return c.session, nil
	}
	s, err := c.lib.Login(ctx, c.login)
	if err != nil {
		return nil, fmt.Errorf("gciworker: control session login: %w", err)
	}
	if _, err := s.Execute(ctx, transactionlessSource); err != nil {
		s.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("gciworker: control session transactionless: %w", err)
	}
	c.session = s
	if c.lost != nil && c.relogin != nil {
		c.relogin(c.lost)
	}
	c.lost = nil
	return s, nil
}

// do runs f on the control session, one call at a time. A fatal error drops the session;
// when the session was found dead (not ended by ctx), f runs once more on a fresh login,
// since both control calls may be repeated.
func (c *Control) do(ctx context.Context, f func(*gemstone.Session) error) error {
	select {
	case c.slot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("gciworker: waiting for the control session: %w", ctx.Err())
	}
	defer func() { <-c.slot }()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var s *gemstone.Session
		if s, err = c.sessionLocked(ctx); err != nil {
			return err
		}
		err = f(s)
		if !gemstone.IsFatal(err) {
			return err
		}
		s.Close(context.WithoutCancel(ctx))
		c.session = nil
		c.lost = err
		if ctx.Err() != nil || gemstone.EndingOf(err) != gemstone.NotEnded {
			return err
		}
	}
	return err
}

// StopSession ends another GemStone session by number (System stopSession:).
func (c *Control) StopSession(ctx context.Context, gemSession int) error {
	return c.do(ctx, func(s *gemstone.Session) error {
		_, err := s.Perform(ctx, "System", "stopSession:", gemstone.SmallInteger(int64(gemSession)))
		return err
	})
}

// ReadStone takes the stone readings; each is -1 when it could not be read.
func (c *Control) ReadStone(ctx context.Context) (worker.StoneStatus, error) {
	var out worker.StoneStatus
	err := c.do(ctx, func(s *gemstone.Session) error {
		text, err := s.Execute(ctx, stoneReadingsSource)
		if err != nil {
			return err
		}
		out, err = parseStoneReadings(string(text))
		return err
	})
	return out, err
}

// parseStoneReadings reads "backlog signalBacklog session...".
func parseStoneReadings(text string) (worker.StoneStatus, error) {
	out := worker.StoneStatus{CommitRecordBacklog: -1, SignalAbortBacklog: -1}
	fields := strings.Fields(text)
	nums := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return out, fmt.Errorf("gciworker: stone readings %q: field %d is not an integer", text, i+1)
		}
		nums[i] = n
	}
	if len(nums) > 0 {
		out.CommitRecordBacklog = nums[0]
	}
	if len(nums) > 1 {
		out.SignalAbortBacklog = nums[1]
	}
	if len(nums) > 2 {
		out.OldestCRSessions = nums[2:]
	}
	return out, nil
}

// Close logs the control session out; idempotent.
func (c *Control) Close(ctx context.Context) error {
	select {
	case c.slot <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("gciworker: closing the control session: %w", ctx.Err())
	}
	defer func() { <-c.slot }()
	c.closed = true
	if c.session == nil {
		return nil
	}
	s := c.session
	c.session = nil
	if err := s.Close(ctx); err != nil && !errors.Is(err, gemstone.ErrSessionClosed) {
		return err
	}
	return nil
}
