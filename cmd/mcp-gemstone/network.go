package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth"
	"github.com/gemstone-mcp/mcp-gemstone/router/tlsconf"
)

// networkMode is what makes the server fit to face a network: bearer-token authentication
// (MCP_AUTH=oidc, docs/auth.md) and TLS (MCP_TLS_CERT / MCP_TLS_KEY). Each is optional; the
// zero value is the localhost mode.
type networkMode struct {
	auth     *auth.Authenticator
	identity auth.Identity
	tls      *tls.Config
}

// surface is the configured tool surface: MCP_TOOLSETS, or empty for the worker class's
// default (which the router knows for McpServer only).
type surface struct {
	toolsets    []string
	workerClass string
}

// mcpServerDefaultToolsets is McpServer class >> defaultToolsetNames (smalltalk/core/McpServer.gs;
// a test holds the two equal): the surface when MCP_TOOLSETS is empty.
var mcpServerDefaultToolsets = []string{"McpBrowsingToolset", "McpExecutionToolset", "McpListingToolset",
	"McpMutationToolset", "McpSearchToolset", "McpSessionToolset", "McpTestingToolset"}

// resolve is the surface by toolset name and where it came from, for the scope mapping's check.
func (s surface) resolve() ([]string, string, error) {
	switch {
	case len(s.toolsets) > 0:
		return s.toolsets, "MCP_TOOLSETS", nil
	case s.workerClass == "McpServer":
		return mcpServerDefaultToolsets, "the default surface of McpServer, MCP_TOOLSETS being empty", nil
	}
	return nil, "", fmt.Errorf("%s needs MCP_TOOLSETS with MCP_WORKER_CLASS=%s: the router knows the default surface of McpServer only, "+
		"and holds the mapping against the surface at start", auth.EnvScopeToolsets, s.workerClass)
}

// loadNetworkMode reads and checks both parts; a bad value refuses the start, naming the
// variable.
func loadNetworkMode(args []string, getenv func(string) string, surf surface, log zerolog.Logger) (*networkMode, error) {
	m := &networkMode{}
	certFile, keyFile, err := tlsconf.FromEnv(getenv)
	if err != nil {
		return nil, err
	}
	if certFile != "" {
		if m.tls, err = tlsconf.Load(certFile, keyFile); err != nil {
			return nil, err
		}
	}
	cfg, err := auth.FromEnv(getenv)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		if getenv(auth.EnvScopeToolsets) != "" {
			return nil, errors.New(auth.EnvScopeToolsets + " needs MCP_AUTH=oidc: without bearer tokens there are no scopes to choose a surface")
		}
		return m, nil
	}
	if cfg.ScopeToolsets != nil {
		if cfg.Surface, cfg.SurfaceFrom, err = surf.resolve(); err != nil {
			return nil, fmt.Errorf("refusing to start; bad authentication configuration:\n  %w", err)
		}
	}
	for _, a := range args {
		if name := strings.TrimLeft(a, "-"); name == "worker-user" || strings.HasPrefix(name, "worker-user=") {
			return nil, errors.New("-worker-user is refused with MCP_AUTH=oidc: each worker gem logs in as the GemStone user its bearer token names")
		}
	}
	if m.auth, err = auth.New(*cfg, log, auth.VerifierOptions{}); err != nil {
		return nil, err
	}
	m.identity = auth.NewIdentity(cfg.UserIDClaim, log)
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
