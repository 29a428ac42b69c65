package gciworker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Worker gems of a restricted user (docs/read-only-user.md) log in with a one-time password
// the control session mints for each login, so the router never holds that user's password.

// oneTimeTag leads the mint source; the test stand-in matches on it.
const oneTimeTag = `"mcp-control:onetime-password v1"`

// OneTimeValidFor is how long a minted password may wait for its login: the login follows the
// mint at once, so this only has to cover a slow gem start.
const OneTimeValidFor = 60 * time.Second

// userIDPattern is what a user id must look like before it is written into Smalltalk source:
// a quote or a space could otherwise change what the control session runs.
var userIDPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// ErrBadUserID is the refusal of a user id that does not match userIDPattern.
var ErrBadUserID = errors.New("gciworker: a one-time password is minted only for a user id of letters, digits and _ that starts with a letter")

// CheckUserID refuses a user id no one-time password can be minted for.
func CheckUserID(user string) error {
	if !userIDPattern.MatchString(user) {
		return ErrBadUserID
	}
	return nil
}

// mintSource is the control source of docs/read-only-user.md for a checked user id.
func mintSource(user string, validFor time.Duration) string {
	seconds := int64(math.Ceil(validFor.Seconds()))
	if seconds < 1 {
		seconds = 1
	}
	return fmt.Sprintf("%s\nGsCurrentSession currentSession createOnetimePasswordForUserId: '%s' validForSeconds: %d",
		oneTimeTag, user, seconds)
}

// MintOneTimePassword mints, on the control session, a password that logs user in once within
// validFor (GCI_LOGIN_ONETIME_PASSWORD). The user id is checked before any source is built.
// The answer is a secret: it is never logged and never part of an error.
func (c *Control) MintOneTimePassword(ctx context.Context, user string, validFor time.Duration) (string, error) {
	if err := CheckUserID(user); err != nil {
		return "", err
	}
	var password string
	err := c.do(ctx, func(s *gemstone.Session) error {
		answer, err := s.Execute(ctx, mintSource(user, validFor))
		if err != nil {
			return err
		}
		password = string(answer)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("gciworker: minting a one-time password for %s: %w", user, err)
	}
	if password == "" {
		return "", fmt.Errorf("gciworker: minting a one-time password for %s: the control session answered no password", user)
	}
	return password, nil
}

// OneTimeLoginError says the stone would not let the router log a worker in as the
// restricted user: it refused to mint the password (no grant, or the control user lacks
// CreateOnetimePassword), or it refused the login with the minted one. Both are fixed by
// provisioning, not by retrying. Its text names the user and the GemStone error, never the
// password.
type OneTimeLoginError struct {
	User string
	// Step is "mint" or "login".
	Step string
	Err  error
}

func (e *OneTimeLoginError) Error() string {
	if e.Step == "login" {
		return fmt.Sprintf("gciworker: the stone refused the worker login as %s with a minted one-time password (run ./setup-read-only-user.sh for that user): %v", e.User, e.Err)
	}
	return fmt.Sprintf("gciworker: the control session may not mint one-time passwords for %s (run ./setup-read-only-user.sh for that user, as the control session's user): %v", e.User, e.Err)
}

func (e *OneTimeLoginError) Unwrap() error { return e.Err }

// ClientMessage is the refusal as a client may see it: it names the setting, not its value.
func (e *OneTimeLoginError) ClientMessage() string {
	return "the server cannot log workers in as its MCP_WORKER_USER"
}

// CheckOneTimeGrant mints one password for user on control and discards it: a server's
// startup check that the grant is in place. A refusal by the stone is a *OneTimeLoginError;
// any other error means the check could not be made (the stone is unreachable, say).
func CheckOneTimeGrant(ctx context.Context, control worker.Control, user string) error {
	_, err := control.MintOneTimePassword(ctx, user, checkValidFor)
	if err != nil && refusedByStone(err) {
		return &OneTimeLoginError{User: user, Step: "mint", Err: err}
	}
	return err
}

// checkValidFor is the life of the password CheckOneTimeGrant mints and never uses.
const checkValidFor = 5 * time.Second

// oneTimeLogin turns spec into a login as Options.OneTimeUser with a freshly minted password;
// without OneTimeUser it answers spec unchanged.
func (l *Launcher) oneTimeLogin(ctx context.Context, spec worker.LoginSpec) (worker.LoginSpec, error) {
	user := l.opts.OneTimeUser
	if user == "" {
		return spec, nil
	}
	if l.opts.Control == nil {
		return spec, errors.New("gciworker: a one-time worker login needs a control session to mint the password")
	}
	password, err := l.opts.Control.MintOneTimePassword(ctx, user, OneTimeValidFor)
	if err != nil && refusedByStone(err) {
		return spec, &OneTimeLoginError{User: user, Step: "mint", Err: err}
	}
	if err != nil {
		return spec, err
	}
	spec.User, spec.Password, spec.PasswordKind = user, password, worker.PasswordOneTime
	return spec, nil
}

// oneTimeLoginFailure names a refused one-time login for what it is: a provisioning problem.
func (l *Launcher) oneTimeLoginFailure(err error) error {
	if l.opts.OneTimeUser != "" && gemstone.IsLoginDenied(err) {
		return &OneTimeLoginError{User: l.opts.OneTimeUser, Step: "login", Err: err}
	}
	return err
}

// refusedByStone says the control session ran the mint and GemStone raised an error: the
// session is fine, the grant is not. A fatal error (the control session could not log in, or
// died) is the stone being unreachable, not a missing grant.
func refusedByStone(err error) bool {
	var ge *gemstone.Error
	return errors.As(err, &ge) && !gemstone.IsFatal(err)
}
