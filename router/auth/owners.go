package auth

import (
	"context"
	"errors"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Owners binds each MCP session to the issuer and subject whose token opened it, so that
// a session id on its own is worth nothing: a request on the session must carry a valid
// token of that same subject. Anything else -- another subject's token, a session never
// bound -- is answered exactly as an unknown session id (404), which tells a holder of a
// leaked id neither that the session exists nor whose it is.
//
// A token that expires does not end the session: the next request with a fresh token of
// the same subject continues it (the gem's own login, made with the first token, is not
// redone). Requests with the expired token get 401 like any other.
type Owners struct {
	mu    sync.Mutex
	owner map[string]owner
}

type owner struct{ issuer, subject string }

// NewOwners makes an empty binding table.
func NewOwners() *Owners { return &Owners{owner: make(map[string]owner)} }

// ErrNoPrincipal means a session was to be opened or bound without a verified token; in
// the network-facing mode that never succeeds.
var ErrNoPrincipal = errors.New("auth: no verified bearer token on this request")

// Bind records that the request's principal owns sessionID. Call it before the session
// id is given to the client.
func (o *Owners) Bind(ctx context.Context, sessionID string) error {
	p := PrincipalFrom(ctx)
	if p == nil {
		return ErrNoPrincipal
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.owner[sessionID] = owner{p.Issuer, p.Subject}
	return nil
}

// Owns says the request's principal is the one sessionID is bound to. A session with no
// binding is nobody's (closed by default).
func (o *Owners) Owns(ctx context.Context, sessionID string) bool {
	p := PrincipalFrom(ctx)
	if p == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	got, ok := o.owner[sessionID]
	return ok && got.issuer == p.Issuer && got.subject == p.Subject
}

// Forget drops a session's binding once the session has ended.
func (o *Owners) Forget(sessionID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.owner, sessionID)
}

// Len is how many sessions are bound (tests, metrics).
func (o *Owners) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.owner)
}

// WorkerLogin is the login of a worker gem for the request's principal: base's stone and
// gem NRS, the user the token names, and the token itself as a JWT password, which the
// stone verifies again (GemStone 3.7.5+). The router holds no key and no password for
// these users.
func WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error) {
	p := PrincipalFrom(ctx)
	if p == nil {
		return worker.LoginSpec{}, ErrNoPrincipal
	}
	login := base
	login.User = p.UserID
	login.Password = p.BearerToken()
	login.PasswordKind = worker.PasswordJWT
	return login, nil
}

// LoginRefusedHint is what a client is told when the stone refuses a JWT login: what the
// stone's administrator has to provision. It names the claim, not its value: the user id
// goes to the server's log (Identity.LoginRefusedHint), never into an answer.
func LoginRefusedHint(ctx context.Context, userIDClaim string) string {
	p := PrincipalFrom(ctx)
	if p == nil {
		return "no bearer token was verified for this login"
	}
	hint := "the stone refused the JWT login of the GemStone user this token names (its " + userIDClaim + " claim): " +
		"the stone's administrator must provision that user for JWT login with this issuer and audience " +
		"(setup-oidc-users.sh), or the token is not one the stone accepts"
	if p.AudienceIsArray {
		hint += "; this token's aud is a JSON array, which GemStone 3.7.5 refuses: the authorization server " +
			"must issue a single-string aud"
	}
	return hint
}

// Identity is what the router's network-facing mode needs, in one value: the session
// owners, the per-token worker login and the refused-login hint.
type Identity struct {
	*Owners
	userIDClaim string
	log         zerolog.Logger
}

// NewIdentity makes an Identity with an empty owner table; userIDClaim is MCP_USERID_CLAIM.
func NewIdentity(userIDClaim string, log zerolog.Logger) Identity {
	return Identity{Owners: NewOwners(), userIDClaim: userIDClaim, log: log.With().Str("component", "auth").Logger()}
}

// WorkerLogin is the package function WorkerLogin.
func (Identity) WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error) {
	return WorkerLogin(ctx, base)
}

// LoginRefusedHint logs, for the operator, which user the stone refused, and answers the
// package function's hint for the client.
func (id Identity) LoginRefusedHint(ctx context.Context) string {
	if p := PrincipalFrom(ctx); p != nil {
		id.log.Warn().Object("principal", p).Bool("audIsArray", p.AudienceIsArray).
			Msg("the stone refused the JWT login of this user: provision it with setup-oidc-users.sh (issuer, audience, claim, key)")
	}
	return LoginRefusedHint(ctx, id.userIDClaim)
}
