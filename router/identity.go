package router

import (
	"context"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
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
	// Owner is the request's principal: a new session belongs to it, and only a request of
	// the same principal may use that session again (another's is answered exactly as an
	// unknown session id, 404, so a leaked id tells its holder nothing). An error means no
	// verified principal.
	Owner(ctx context.Context) (session.Owner, error)
	// LoginRefusedHint is what the client is told when the stone refuses the principal's
	// login: what to provision. It must name no user id.
	LoginRefusedHint(ctx context.Context) string
}
