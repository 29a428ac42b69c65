package router

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// grantedGem is a session's gem with the grant it was last given. Its grant changes only in
// a call's turn (the prelude), so no lock against the gem is needed; mu guards current for
// readers outside the turn (tests).
type grantedGem struct {
	worker.Gem
	granter worker.Granter

	mu      sync.Mutex
	current []string
}

// newGrantedGem checks that the worker applied the prepare config's grant and wraps the gem
// so the grant can follow the token of each later request.
func newGrantedGem(gem worker.Gem, want []string) (*grantedGem, error) {
	granter, ok := gem.(worker.Granter)
	echo := gem.Prepared().Grant
	if !ok || echo == nil {
		return nil, errors.New("the worker does not apply a scope grant (worker contract: grant, mcpGrant:); " +
			"update the worker, or unset MCP_SCOPE_TOOLSETS")
	}
	if !sameSet(echo.Toolsets, want) {
		return nil, fmt.Errorf("the worker applied the grant %v, not the %v it was given", echo.Toolsets, want)
	}
	return &grantedGem{Gem: gem, granter: granter, current: slices.Clone(want)}, nil
}

// regrant gives the gem want when it holds another grant: a wider token grows the surface
// and a narrower one shrinks it, for this call and those after it; nothing else changes.
func (g *grantedGem) regrant(ctx context.Context, want []string) error {
	g.mu.Lock()
	same := sameSet(g.current, want)
	g.mu.Unlock()
	if same {
		return nil
	}
	got, err := g.granter.Grant(ctx, worker.Grant{Toolsets: want})
	if err != nil {
		return fmt.Errorf("changing the session's grant: %w", err)
	}
	if !sameSet(got.Toolsets, want) {
		return fmt.Errorf("the worker applied the grant %v, not the %v it was given", got.Toolsets, want)
	}
	g.mu.Lock()
	g.current = slices.Clone(want)
	g.mu.Unlock()
	return nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// prelude is what runs before a request on a session's gem: the request's grant, when the
// session has one.
func (s *Server) prelude(ctx context.Context, sess *session.Session) session.Prelude {
	gg, ok := sess.Gem().(*grantedGem)
	if !ok || s.o.Grants == nil {
		return nil
	}
	want := s.o.Grants.Granted(ctx)
	return func(callCtx context.Context, _ worker.Gem) error { return gg.regrant(callCtx, want) }
}

// stepUp turns the worker's "tool outside the grant" answer to a tools/call into the 403
// insufficient_scope challenge, so the client can get a token with that scope and call again
// on the same session. The body stays a JSON-RPC error with the request's id (should the
// answer already be an event stream, that is what the client reads).
func (s *Server) stepUp(ctx context.Context, m jsonrpc.Message, status int, reply []byte) (int, http.Header, []byte) {
	if s.o.Grants == nil || status != http.StatusOK || m.Method != "tools/call" {
		return status, nil, reply
	}
	kind, toolset := jsonrpc.ErrorKind(reply, "toolset")
	if kind != worker.NotGrantedKind || toolset == "" {
		return status, nil, reply
	}
	challenge, scopes, ok := s.o.Grants.StepUp(ctx, toolset)
	if !ok {
		return status, nil, reply
	}
	scope := strings.Join(scopes, " ")
	return http.StatusForbidden, http.Header{"WWW-Authenticate": {challenge}},
		errorBodyWith(m.ID, jsonrpc.CodeServer,
			"Forbidden: this tool's toolset "+toolset+" is not granted by the token's scopes; "+
				"obtain a token with scope \""+scope+"\" and call again on this session", scopeData{Kind: errkind.InsufficientScope, Scope: scope, Toolset: toolset})
}

// valuesOf is a context with the lifetime of one and the values of another.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any { return v.values.Value(key) }

// withValuesOf answers lifetime with the values of values: a stateless call runs for as long as
// the server does, yet its grant is its request's token's.
func withValuesOf(lifetime, values context.Context) context.Context {
	return valuesOf{Context: lifetime, values: values}
}
