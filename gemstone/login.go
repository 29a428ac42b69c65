package gemstone

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// abandonedLoginLimit bounds how long a cancelled login is waited for in the background
// before its session is logged out.
const abandonedLoginLimit = 5 * time.Minute

// PasswordKind says how LoginParams.Password is presented to the stone.
type PasswordKind int

const (
	// PasswordPlain is an ordinary GemStone password.
	PasswordPlain PasswordKind = iota
	// PasswordOneTime is a one-time password (GCI_LOGIN_ONETIME_PASSWORD, 3.7.0+).
	PasswordOneTime
	// PasswordJWT is a JSON web token the stone validates (GCI_LOGIN_JWT_PASSWORD, 3.7.5+).
	PasswordJWT
)

// LoginParams says where and as whom to log in. Password and HostPassword are secrets and
// the NRS strings name hosts: never log a LoginParams.
type LoginParams struct {
	// StoneNRS is the stone's NRS (StoneNRS builds one); empty means gs64stone.
	StoneNRS string
	// GemNRS is the gem's NRS (GemNRS builds one, with an optional -C gem configuration);
	// empty means the library default, !@localhost!gemnetobject.
	GemNRS       string
	User         string
	Password     string
	PasswordKind PasswordKind
	// HostUser, when set, is the OS account the NetLDI starts the gem as.
	HostUser     string
	HostPassword string
	// BreakGap is the time between the escalation's steps; less than MinBreakGap (or zero)
	// means MinBreakGap.
	BreakGap time.Duration
}

func login(ctx context.Context, lib *Library, p LoginParams) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gemstone: login: %w", err)
	}
	if p.GemNRS != "" {
		if err := checkGemNRS(p.GemNRS); err != nil {
			return nil, err
		}
	}
	flags := uint(loginQuiet)
	switch p.PasswordKind {
	case PasswordPlain:
	case PasswordOneTime:
		flags |= loginOneTimePassword
	case PasswordJWT:
		flags |= loginJWTPassword
	default:
		return nil, fmt.Errorf("gemstone: login: unknown password kind %d", p.PasswordKind)
	}
	wake, err := newWaker()
	if err != nil {
		return nil, err
	}
	api := lib.api
	strs := newLoginStrings(p)
	h, pollFd := api.nbLogin(strs, flags)
	if h == nil {
		strs.free()
		wake.close()
		return nil, &Error{Op: "GciTsNbLogin", Message: "the library did not start a login"}
	}
	stop := context.AfterFunc(ctx, wake.poke)
	warning, lerr := awaitLogin(ctx, api, h, pollFd, wake)
	stop()
	if errors.Is(lerr, errLoginAbandoned) {
		go finishAbandonedLogin(api, h, pollFd, strs)
		wake.close()
		return nil, fmt.Errorf("gemstone: login: %w", ctx.Err())
	}
	strs.free()
	if lerr != nil {
		wake.close()
		return nil, lerr
	}
	fd, ferr := api.socket(h)
	if ferr != nil {
		api.logout(h)
		wake.close()
		return nil, ferr
	}
	gap := p.BreakGap
	if gap < MinBreakGap {
		gap = MinBreakGap
	}
	s := &Session{
		api: api, gap: gap, slot: make(chan struct{}, 1),
		h: h, fd: fd, wake: wake, receivers: map[string]oop{}, loginWarning: warning,
	}
	return s, nil
}

var errLoginAbandoned = errors.New("login abandoned")

// awaitLogin waits for GciTsNbLogin to finish without blocking in the library: poll(2) on the
// login socket and the wake-up pipe, then GciTsNbLoginFinished.
func awaitLogin(ctx context.Context, api *gciAPI, h handle, pollFd int, wake *waker) (*Error, error) {
	readyButPending := false
	for {
		r, e := api.nbLoginFinished(h)
		switch {
		case r > 0:
			return e, nil // e, if any, is a warning: the login succeeded
		case r < 0:
			return nil, e
		}
		if ctx.Err() != nil {
			return nil, errLoginAbandoned
		}
		// Re-check at least every second: the descriptor belongs to the library, which may
		// close it once the login is done.
		timeout := 1000
		if pollFd < 0 || readyButPending {
			// No socket to watch, or it turned readable before the login finished.
			timeout = 10
		}
		fd := pollFd
		if fd < 0 {
			fd = wake.readFd()
		}
		ready, woken, err := waitReadable(fd, wake.readFd(), timeout)
		if err != nil {
			return nil, err
		}
		if woken {
			wake.drain()
		}
		readyButPending = ready && pollFd >= 0
	}
}

// finishAbandonedLogin waits for a login whose caller gave up, then logs it out, so the gem
// does not outlive the request that started it.
func finishAbandonedLogin(api *gciAPI, h handle, pollFd int, strs *loginStrings) {
	defer strs.free()
	deadline := time.Now().Add(abandonedLoginLimit)
	for time.Now().Before(deadline) {
		r, _ := api.nbLoginFinished(h)
		if r > 0 {
			api.logout(h)
			return
		}
		if r < 0 {
			return
		}
		if pollFd >= 0 {
			waitReadable(pollFd, -1, 100)
		} else {
			time.Sleep(100 * time.Millisecond)
		}
	}
}
