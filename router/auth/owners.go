package auth

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// ErrNoPrincipal means a session was to be opened or used without a verified token; in the
// network-facing mode that never succeeds.
var ErrNoPrincipal = errors.New("auth: no verified bearer token on this request")

// Owner is the request's principal as a session's owner: the issuer and subject of its
// token. The router keeps it on the session it opens and compares it on every later request,
// so a session id on its own is worth nothing: another subject's token, or the same subject
// from another issuer, is answered exactly as an unknown session id (404).
//
// A token that expires does not end the session: the next request with a fresh token of the
// same subject continues it (the gem's own login, made with the first token, is not redone).
// Requests with the expired token get 401 like any other.
func Owner(ctx context.Context) (session.Owner, error) {
	p := PrincipalFrom(ctx)
	if p == nil {
		return session.Owner{}, ErrNoPrincipal
	}
	return session.Owner{Issuer: p.Issuer, Subject: p.Subject}, nil
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

// Identity is what the router's network-facing mode needs, in one value: the owner of a
// request, the per-token worker login and the refused-login hint.
type Identity struct {
	userIDClaim string
	log         zerolog.Logger
}

// NewIdentity makes an Identity; userIDClaim is MCP_USERID_CLAIM.
func NewIdentity(userIDClaim string, log zerolog.Logger) Identity {
	return Identity{userIDClaim: userIDClaim, log: log.With().Str("component", "auth").Logger()}
}

// Owner is the package function Owner.
func (Identity) Owner(ctx context.Context) (session.Owner, error) { return Owner(ctx) }

// TokenDeadline is the package function TokenDeadline (router.TokenDeadline).
func (Identity) TokenDeadline(ctx context.Context) (time.Time, bool) { return TokenDeadline(ctx) }

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
