package router

import (
	"context"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// Identity is the network-facing mode's view of who is asking (router/auth implements it
// as auth.Identity). With it, a session belongs to the principal whose token opened it, and
// its gem logs in as that principal; without it (the local mode) every gem logs in as
// Options.Login and a session id is all a client needs.
type Identity interface {
	// WorkerLogin is the login for a new gem on behalf of the request's principal, from the
	// configured base (stone and gem NRS).
	WorkerLogin(ctx context.Context, base worker.LoginSpec) (worker.LoginSpec, error)
	// Bind records that the request's principal owns the session; it runs before the
	// session id is given to the client.
	Bind(ctx context.Context, sessionID string) error
	// Owns says the request's principal owns the session. A request that does not is
	// answered exactly as an unknown session id (404), so a leaked id tells its holder nothing.
	Owns(ctx context.Context, sessionID string) bool
	// Forget drops the binding of a session that ended.
	Forget(sessionID string)
	// LoginRefusedHint is what the client is told when the stone refuses the principal's
	// login: what to provision. It must name no user id.
	LoginRefusedHint(ctx context.Context) string
}
