package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/internal/tlsconf"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth"
)

// networkMode is what makes the server fit to face a network: bearer-token authentication
// (MCP_AUTH=oidc, docs/auth.md) and TLS (MCP_TLS_CERT / MCP_TLS_KEY). Each is optional; the
// zero value is the localhost mode.
type networkMode struct {
	auth     *auth.Authenticator
	identity auth.Identity
	tls      *tls.Config
}

// newNetworkMode builds both parts from the configuration, which internal/config checked
// value by value; what only building shows (a key pair that does not load) refuses the start
// here, naming its settings.
func newNetworkMode(cfg *config.Config, log zerolog.Logger) (*networkMode, error) {
	m := &networkMode{}
	if cfg.TLS.Enabled() {
		var err error
		if m.tls, err = tlsconf.Load(cfg.TLS); err != nil {
			return nil, fmt.Errorf("refusing to start; MCP_TLS_CERT / MCP_TLS_KEY: %w", err)
		}
	}
	if cfg.Auth == nil {
		return m, nil
	}
	a, err := auth.New(*cfg.Auth, log, auth.VerifierOptions{})
	if err != nil {
		return nil, err
	}
	m.auth, m.identity = a, auth.NewIdentity(cfg.Auth.UserIDClaim, log)
	return m, nil
}

// authenticated says every /mcp request needs a bearer token.
func (m *networkMode) authenticated() bool { return m.auth != nil }

// apply puts the token gate and the session owners into the router, and lets clients reach
// it by the resource's host name (the Host check would refuse it otherwise).
func (m *networkMode) apply(o *router.Options) {
	if m.auth == nil {
		return
	}
	o.Auth = m.auth.Middleware
	o.Identity = m.identity
	o.Public = m.auth.PublicRoutes()
	if m.auth.Config().ScopeToolsets != nil {
		o.Grants = m.auth
	}
	if o.Metrics != nil {
		o.Metrics = loopbackOnly(o.Metrics)
	}
	if u, err := url.Parse(m.auth.Config().Resource); err == nil && u.Hostname() != "" {
		o.AllowedHosts = append(o.AllowedHosts, u.Hostname())
	}
}

// loopbackOnly keeps /metrics off the network in this mode: it carries no token check of its
// own, so only a peer on this host (a local scraper, or a proxy that adds its own
// authentication) may read it; anyone else gets 404, as for a path that is not there.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (m *networkMode) scheme() string {
	if m.tls != nil {
		return "https"
	}
	return "http"
}

// serve runs the HTTP server on ln, over TLS when configured (then a plaintext request on the
// port is answered 400 by net/http and never reaches a handler).
func (m *networkMode) serve(hs *http.Server, ln net.Listener) error {
	if m.tls == nil {
		return hs.Serve(ln)
	}
	hs.TLSConfig = m.tls
	return hs.ServeTLS(ln, "", "")
}

// announce logs the mode and checks the issuer's discovery once in the background, so an
// unreachable issuer shows in the log at start rather than at the first client.
func (m *networkMode) announce(log zerolog.Logger) {
	if m.tls != nil {
		log.Info().Msg("TLS on: HTTPS only on this port (TLS 1.2 minimum)")
	}
	if m.auth == nil {
		return
	}
	c := m.auth.Config()
	log.Info().Str("issuer", c.Issuer).Str("resource", c.Resource).Strs("requiredScopes", c.RequiredScopes).
		Strs("scopesSupported", c.SupportedScopes()).Str("userIdClaim", c.UserIDClaim).
		Str("metadata", m.auth.MetadataURL()).Msg("authentication: OAuth bearer tokens (MCP_AUTH=oidc); each worker gem logs in as its token's user")
	if sm := c.ScopeToolsets; sm != nil {
		for _, s := range sm.Scopes() {
			log.Info().Str("scope", s).Strs("toolsets", sm.Toolsets(s)).Msg("scope grants toolsets (MCP_SCOPE_TOOLSETS): a token sees only the toolsets of its scopes")
		}
	}
	if m.tls == nil {
		log.Warn().Msg("authentication without TLS here: only behind a TLS-terminating proxy on loopback (deploy/nginx), never on an open port")
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := m.auth.Verifier().Discover(ctx); err != nil {
			log.Warn().Err(err).Msg("OpenID discovery failed; /mcp answers 503 until it succeeds (retried on demand)")
			return
		}
		log.Info().Str("issuer", c.Issuer).Msg("OpenID discovery done")
	}()
}
