// Package auth is the network-facing mode's OAuth 2.1 resource server: it verifies the
// bearer token on every /mcp request against the issuer's discovery document and JWKS
// (go-oidc), answers the RFC 6750 / MCP challenges, serves the RFC 9728 protected resource
// metadata, hands the verified Principal on in the request context, and names the Owner
// (issuer and subject) that each MCP session is bound to. Its rules, from the outside, are
// in docs/auth.md.
//
// It never logs a token: refusals are logged with their reason and, once the signature
// held, the subject; a Principal prints without its token in every format.
package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Authenticator is the configured resource server: middleware, metadata and verifier.
type Authenticator struct {
	cfg         Config
	verifier    *Verifier
	log         zerolog.Logger
	metadataURL string
	metadata    []byte
}

// New builds an Authenticator for a Config (validated here too) .
func New(cfg Config, log zerolog.Logger, o VerifierOptions) (*Authenticator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	if cfg.ScopeToolsets != nil {
		// Only here is the surface known (the router's configuration gives it).
		if err := cfg.ScopeToolsets.CheckSurface(cfg.Surface, cfg.SurfaceFrom); err != nil {
			return nil, fmt.Errorf("refusing to start; bad authentication configuration:\n  %w", err)
		}
	}
	doc, err := json.Marshal(ProtectedResourceMetadata{
		Resource:               cfg.Resource,
		AuthorizationServers:   []string{cfg.Issuer},
		ScopesSupported:        cfg.SupportedScopes(),
		BearerMethodsSupported: []string{"header"},
	})
	if err != nil {
		return nil, fmt.Errorf("auth: metadata: %w", err)
	}
	return &Authenticator{
		cfg:         cfg,
		verifier:    NewVerifier(cfg, o),
		log:         log.With().Str("component", "auth").Logger(),
		metadataURL: metadataURL(cfg.Resource),
		metadata:    doc,
	}, nil
}

// Config is the configuration in force (defaults filled in).
func (a *Authenticator) Config() Config { return a.cfg }

// Verifier is the token verifier (the router calls Discover on it at start).
func (a *Authenticator) Verifier() *Verifier { return a.verifier }

// MetadataURL is the resource_metadata URL the challenges carry: the path-based form
// RFC 9728 section 3.1 derives from the resource (https://h/mcp -> https://h/.well-known/
// oauth-protected-resource/mcp).
func (a *Authenticator) MetadataURL() string { return a.metadataURL }

// Middleware lets a request through only with a valid bearer token; the Principal is in
// the context that follows (PrincipalFrom). A GET stream lasts no longer than its token:
// its context ends when the token expires, and the client reconnects with a fresh one.
func (a *Authenticator) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, rej := bearerToken(r)
		var p *Principal
		if rej == nil {
			p, rej = a.verifier.Verify(r.Context(), raw)
		}
		if rej != nil {
			a.refuse(w, r, rej)
			return
		}
		ctx := WithPrincipal(r.Context(), p)
		ctx = context.WithValue(ctx, tokenDeadlineKey{}, p.Expiry.Add(a.cfg.ClockSkew))
		if r.Method == http.MethodGet {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, p.Expiry.Add(a.cfg.ClockSkew))
			defer cancel()
		}
		a.log.Debug().Object("principal", p).Str("method", r.Method).Msg("bearer token accepted")
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bearerToken takes the token from the one Authorization header (RFC 6750 section 2.1); a
// token in the query string is refused rather than ignored (MCP forbids it, and it would
// land in access logs).
func bearerToken(r *http.Request) (string, *Rejection) {
	if r.URL.Query().Has("access_token") {
		return "", &Rejection{Status: http.StatusBadRequest, Code: "invalid_request",
			Description: "a token is accepted only in the Authorization header, never in the URL"}
	}
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		return "", &Rejection{Status: http.StatusUnauthorized,
			Description: "a bearer token is required (Authorization: Bearer <token>)"}
	}
	if len(values) > 1 {
		return "", &Rejection{Status: http.StatusBadRequest, Code: "invalid_request",
			Description: "more than one Authorization header"}
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// Another scheme is no bearer credential at all: the challenge without an error code.
		return "", &Rejection{Status: http.StatusUnauthorized,
			Description: "this server accepts only Bearer tokens"}
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", &Rejection{Status: http.StatusBadRequest, Code: "invalid_request",
			Description: "the Authorization header carries no token"}
	}
	return token, nil
}

// refuse answers a rejection: the challenge (RFC 6750 section 3, with the RFC 9728 section
// 5.1 resource_metadata and the scopes to request) and an OAuth-style JSON body.
func (a *Authenticator) refuse(w http.ResponseWriter, r *http.Request, rej *Rejection) {
	ev := a.log.Info()
	if rej.Status == http.StatusServiceUnavailable {
		ev = a.log.Warn()
	}
	ev = ev.Int("status", rej.Status).Str("error", rej.Code).Str("reason", rej.Description).
		Str("method", r.Method).Str("remote", r.RemoteAddr)
	if rej.Subject != "" {
		ev = ev.Str("sub", rej.Subject)
	}
	ev.Msg("request refused: bearer token")

	h := w.Header()
	if rej.Status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "5")
	} else {
		h.Set("WWW-Authenticate", a.challenge(rej))
	}
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	body := map[string]string{"error_description": rej.Description}
	if rej.Code != "" {
		body["error"] = rej.Code
	}
	b, _ := json.Marshal(body)
	w.WriteHeader(rej.Status)
	_, _ = w.Write(append(b, '\n'))
}

// challenge is the WWW-Authenticate value. Every parameter is a quoted-string holding text
// this package wrote (scopes are validated to contain no quote or backslash).
func (a *Authenticator) challenge(rej *Rejection) string {
	// What a client should request: for a 403 this is the step-up set (the scopes it lacks
	// plus those it already has), for a 401 the set to start with.
	return a.challengeFor(rej, a.cfg.SupportedScopes())
}

func (a *Authenticator) challengeFor(rej *Rejection, scopes []string) string {
	var parts []string
	if rej.Code != "" {
		parts = append(parts, `error="`+rej.Code+`"`, `error_description="`+rej.Description+`"`)
	}
	parts = append(parts, `resource_metadata="`+a.metadataURL+`"`)
	if len(scopes) > 0 {
		parts = append(parts, `scope="`+strings.Join(scopes, " ")+`"`)
	}
	return "Bearer " + strings.Join(parts, ", ")
}

func metadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return ""
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	return u.Scheme + "://" + u.Host + WellKnownPath + path
}

type tokenDeadlineKey struct{}

// TokenDeadline is when the request's token stops being good (its expiry plus the clock skew):
// a stream the request opens, a GET or a subscriptions/listen, lasts no longer.
func TokenDeadline(ctx context.Context) (time.Time, bool) {
	d, ok := ctx.Value(tokenDeadlineKey{}).(time.Time)
	return d, ok
}
