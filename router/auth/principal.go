package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rs/zerolog"
)

// Principal is who a verified bearer token speaks for. The raw token is kept for one use
// only, the worker gem's JWT login, and every way of printing a Principal leaves it out.
type Principal struct {
	Issuer  string
	Subject string
	// UserID is the GemStone user the token names (the MCP_USERID_CLAIM claim).
	UserID string
	Scopes []string
	Expiry time.Time
	// AudienceIsArray records that the token's aud was a JSON array: valid for this server,
	// but GemStone 3.7.5 refuses such a token at login ("Invalid or missing aud").
	AudienceIsArray bool

	token string
}

// BearerToken is the raw token, for the worker's JWT login and nothing else. Never log it.
func (p *Principal) BearerToken() string { return p.token }

// String identifies the principal without the token.
func (p *Principal) String() string {
	return fmt.Sprintf("%s (sub %q of %s)", p.UserID, p.Subject, p.Issuer)
}

// GoString keeps %#v from printing the token.
func (p *Principal) GoString() string { return "auth.Principal{" + p.String() + "}" }

// MarshalZerologObject lets a log line carry the principal, never its token.
func (p *Principal) MarshalZerologObject(e *zerolog.Event) {
	e.Str("iss", p.Issuer).Str("sub", p.Subject).Str("user", p.UserID).Time("exp", p.Expiry)
}

// MarshalJSON keeps encoding/json from ever writing the token.
func (p *Principal) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Issuer  string `json:"iss"`
		Subject string `json:"sub"`
		UserID  string `json:"user"`
	}{p.Issuer, p.Subject, p.UserID})
}

// SameOwner says two principals are the same subject of the same issuer.
func (p *Principal) SameOwner(q *Principal) bool {
	return p != nil && q != nil && p.Issuer == q.Issuer && p.Subject == q.Subject
}

type principalKey struct{}

// WithPrincipal is the context the middleware hands on.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom answers the verified principal of a request, or nil if none was verified.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
