package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/sync/singleflight"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// Rejection is why a token was not accepted, in the terms the challenge needs.
type Rejection struct {
	// Status is 401 (no usable token), 403 (a good token lacking a scope) or 503 (the
	// issuer could not be reached, so no verdict).
	Status int
	// Code is the RFC 6750 error code ("invalid_token", "insufficient_scope", "invalid_request"),
	// "" when the request carried no bearer token at all.
	Code string
	// Description is safe to show the client: it never quotes the token or its claims.
	Description string
	// Subject is set once the signature held (for the log; never shown to another client).
	Subject string
}

func (r *Rejection) Error() string { return r.Code + ": " + r.Description }

func invalidToken(desc string) *Rejection {
	return &Rejection{Status: http.StatusUnauthorized, Code: "invalid_token", Description: desc}
}

// Verifier checks bearer tokens against one issuer. Discovery happens on first use and is
// retried (at most every 5 s) until it succeeds, so the router can start while the
// authorization server is still coming up; meanwhile requests get 503. Requests arriving
// during a discovery wait for it (flight) instead of starting another.
type Verifier struct {
	cfg    Config
	client *http.Client
	now    func() time.Time
	flight singleflight.Group

	mu       sync.Mutex
	verifier *oidc.IDTokenVerifier
	lastTry  time.Time
	lastErr  error
}

// VerifierOptions are for tests and special deployments; zero values take defaults.
type VerifierOptions struct {
	// Client fetches discovery and JWKS (default: 10 s timeout).
	Client *http.Client
	// Now is the clock for exp and nbf (default time.Now).
	Now func() time.Time
}

// NewVerifier makes a verifier for a validated Config.
func NewVerifier(cfg Config, o VerifierOptions) *Verifier {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Verifier{cfg: cfg, client: o.Client, now: o.Now}
}

// Discover fetches the discovery document now (the router calls it at start, to log early
// whether the issuer is reachable). Verify does the same lazily.
func (v *Verifier) Discover(ctx context.Context) error {
	_, err := v.ready(ctx)
	return err
}

const discoveryRetry = 5 * time.Second

func (v *Verifier) ready(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	v.mu.Lock()
	verifier := v.verifier
	v.mu.Unlock()
	if verifier != nil {
		return verifier, nil
	}
	// discover runs on its own context, so a client hanging up does not cancel a discovery
	// other requests wait for; this request alone stops waiting.
	select {
	case r := <-v.flight.DoChan("discovery", v.discover):
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*oidc.IDTokenVerifier), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for OpenID discovery: %w", ctx.Err())
	}
}

// discover fetches the discovery document and makes the verifier, unless one exists already
// or the last failed attempt is younger than discoveryRetry.
func (v *Verifier) discover() (any, error) {
	v.mu.Lock()
	if v.verifier != nil {
		defer v.mu.Unlock()
		return v.verifier, nil
	}
	if !v.lastTry.IsZero() && v.now().Sub(v.lastTry) < discoveryRetry {
		defer v.mu.Unlock()
		return nil, v.lastErr
	}
	v.lastTry = v.now()
	v.mu.Unlock()
	verifier, err := v.newVerifier()
	v.mu.Lock()
	defer v.mu.Unlock()
	if err != nil {
		v.lastErr = fmt.Errorf("OpenID discovery at %s failed: %w", v.cfg.Issuer, err)
		return nil, v.lastErr
	}
	v.verifier, v.lastErr = verifier, nil
	return verifier, nil
}

// newVerifier reads the issuer's discovery document and makes a verifier over its JWKS.
func (v *Verifier) newVerifier() (*oidc.IDTokenVerifier, error) {
	ctx, cancel := context.WithTimeout(oidc.ClientContext(context.Background(), v.client), 15*time.Second)
	defer cancel()
	// NewProvider also checks that the document's issuer is the configured one.
	provider, err := oidc.NewProvider(ctx, v.cfg.Issuer)
	if err != nil {
		return nil, err
	}
	var doc struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := provider.Claims(&doc); err != nil {
		return nil, err
	}
	if doc.JWKSURI == "" {
		return nil, errors.New("the discovery document has no jwks_uri")
	}
	keys := newKeySet(doc.JWKSURI, v.client, v.now)
	return oidc.NewVerifier(v.cfg.Issuer, keys, &oidc.Config{
		SupportedSigningAlgs: allowedAlgorithmNames(),
		// iss, aud, exp and nbf are checked below, with this server's skew and with
		// reasons a client can act on.
		SkipIssuerCheck:   true,
		SkipClientIDCheck: true,
		SkipExpiryCheck:   true,
	}), nil
}

// maxTokenBytes bounds what is parsed: real access tokens are a few KiB.
const maxTokenBytes = 16 << 10

// Verify checks a raw bearer token: signature by a current key of the issuer with an
// allowed algorithm, then iss, aud, exp, nbf, the required scopes and the user-id claim.
func (v *Verifier) Verify(ctx context.Context, raw string) (*Principal, *Rejection) {
	if len(raw) > maxTokenBytes {
		return nil, invalidToken("the token is too long")
	}
	if strings.Count(raw, ".") != 2 {
		return nil, invalidToken("the token is not a signed JWT")
	}
	verifier, err := v.ready(ctx)
	if err != nil {
		return nil, &Rejection{Status: http.StatusServiceUnavailable, Code: "temporarily_unavailable",
			Description: "the authorization server's discovery document could not be fetched; try again shortly"}
	}
	// go-oidc flattens the key set's error into text; the key set also leaves it here.
	var keyErr error
	tok, err := verifier.Verify(context.WithValue(ctx, keyErrorKey{}, &keyErr), raw)
	if err != nil {
		if errors.Is(keyErr, errKeysUnavailable) {
			return nil, &Rejection{Status: http.StatusServiceUnavailable, Code: "temporarily_unavailable",
				Description: "the authorization server's signing keys could not be fetched; try again shortly"}
		}
		return nil, invalidToken("the token's signature could not be verified (an allowed asymmetric algorithm and a current key of the issuer are required)")
	}
	var c claims
	if err := tok.Claims(&c); err != nil {
		return nil, invalidToken("the token's claims are malformed")
	}
	return v.check(raw, &c)
}

// claims are the registered claims this server reads, plus the whole set for the user claim.
// They are read by exact name (RFC 7519 section 4: claim names are case-sensitive), and a
// claim given twice refuses the token: encoding/json's struct tags would match "SUB" as sub
// and keep the last of two, so the session's owner and the gem's login could be two users.
type claims struct {
	Issuer   string
	Subject  string
	Audience json.RawMessage
	Expiry   *json.Number
	NotBef   *json.Number
	Scope    json.RawMessage
	Scp      json.RawMessage
	all      map[string]json.RawMessage
}

func (c *claims) UnmarshalJSON(b []byte) error {
	all, err := jsonrpc.Members(b)
	if err != nil {
		return fmt.Errorf("token claims: %w", err)
	}
	c.all = all
	for name, dst := range map[string]*string{"iss": &c.Issuer, "sub": &c.Subject} {
		if raw, ok := all[name]; ok && json.Unmarshal(raw, dst) != nil {
			return fmt.Errorf("token claims: %s is not a string", name)
		}
	}
	for name, dst := range map[string]**json.Number{"exp": &c.Expiry, "nbf": &c.NotBef} {
		raw, ok := all[name]
		if !ok || string(raw) == "null" {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var n json.Number
		if d.Decode(&n) != nil {
			return fmt.Errorf("token claims: %s is not a number", name)
		}
		*dst = &n
	}
	c.Audience, c.Scope, c.Scp = all["aud"], all["scope"], all["scp"]
	return nil
}

func (v *Verifier) check(raw string, c *claims) (*Principal, *Rejection) {
	now := v.now()
	skew := v.cfg.ClockSkew
	if c.Issuer != v.cfg.Issuer {
		return nil, invalidToken("the token was issued by another issuer than this server trusts")
	}
	aud, isArray, ok := audiences(c.Audience)
	if !ok || !slices.Contains(aud, v.cfg.Resource) {
		return nil, invalidToken("the token's audience is not this server (its aud must include the resource named in the protected resource metadata)")
	}
	exp, ok := numericDate(c.Expiry)
	if !ok {
		return nil, invalidToken("the token has no valid exp claim")
	}
	if now.After(exp.Add(skew)) {
		return nil, invalidToken("the token has expired")
	}
	if c.NotBef != nil {
		nbf, ok := numericDate(c.NotBef)
		if !ok {
			return nil, invalidToken("the token's nbf claim is malformed")
		}
		if now.Add(skew).Before(nbf) {
			return nil, invalidToken("the token is not valid yet (nbf is in the future)")
		}
	}
	if c.Subject == "" {
		return nil, invalidToken("the token has no sub claim")
	}
	user, ok := stringClaim(c.all[v.cfg.UserIDClaim])
	if !ok {
		return nil, invalidToken("the token has no " + v.cfg.UserIDClaim + " claim naming a GemStone user")
	}
	scopes := scopesOf(c.Scope, c.Scp)
	for _, need := range v.cfg.RequiredScopes {
		if !slices.Contains(scopes, need) {
			return nil, &Rejection{Status: http.StatusForbidden, Code: "insufficient_scope",
				Description: "the token lacks a required scope", Subject: c.Subject}
		}
	}
	return &Principal{
		Issuer: c.Issuer, Subject: c.Subject, UserID: user, Scopes: scopes,
		Expiry: exp, AudienceIsArray: isArray, token: raw,
	}, nil
}

// audiences reads aud, a string or an array of strings (RFC 7519 section 4.1.3).
func audiences(raw json.RawMessage) (aud []string, isArray, ok bool) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, false, one != ""
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many, true, len(many) > 0
	}
	return nil, false, false
}

// numericDate reads seconds since the epoch, fractional seconds allowed (RFC 7519 section 2).
func numericDate(n *json.Number) (time.Time, bool) {
	if n == nil {
		return time.Time{}, false
	}
	f, err := n.Float64()
	if err != nil || f <= 0 || f > 1e11 {
		return time.Time{}, false
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)), true
}

// stringClaim accepts a non-empty JSON string of printable characters (a GemStone user id).
func stringClaim(raw json.RawMessage) (string, bool) {
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil || s == "" || len(s) > 1024 {
		return "", false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return "", false
		}
	}
	return s, true
}

// scopesOf reads scope (RFC 8693/9068: one space-separated string) and scp (an array, or a
// string, as some issuers send it).
func scopesOf(scope, scp json.RawMessage) []string {
	var out []string
	add := func(raw json.RawMessage) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, strings.Fields(s)...)
			return
		}
		var list []string
		if json.Unmarshal(raw, &list) == nil {
			for _, x := range list {
				out = append(out, strings.Fields(x)...)
			}
		}
	}
	if scope != nil {
		add(scope)
	}
	if scp != nil {
		add(scp)
	}
	return out
}
