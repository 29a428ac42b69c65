package auth

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Config is the network-facing mode's configuration: who issues the tokens, what this
// server is called in them, and what they must carry. The binary's loader (internal/config)
// fills it from its settings table, checking each value with the Check functions below.
type Config struct {
	// Issuer is the authorization server's issuer URL; its discovery document and JWKS are
	// fetched from it, and every token's iss must equal it exactly.
	Issuer string
	// Resource is this server's canonical URL (RFC 8707), e.g. https://mcp.example.com/mcp.
	// Every token's aud must contain it; the metadata document names it.
	Resource string
	// RequiredScopes must all be in every token.
	RequiredScopes []string
	// ExtraScopes are advertised (scopes_supported, the challenge's scope) but not required.
	ExtraScopes []string
	// UserIDClaim names the claim that holds the GemStone user id (default "sub").
	UserIDClaim string
	// ClockSkew is how far exp and nbf may be off this host's clock (default 60 s, at most 5 min).
	ClockSkew time.Duration
	// ScopeToolsets, when set, lets a token's scopes choose which toolsets of Surface it is
	// offered; nil offers every token the whole surface.
	ScopeToolsets *ScopeMap
	// Surface is the configured tool surface by toolset name, which ScopeToolsets is held
	// against; SurfaceFrom says where it came from, for the messages.
	Surface     []string
	SurfaceFrom string
}

const (
	// DefaultClockSkew is the ClockSkew of a Config that leaves it zero.
	DefaultClockSkew = 60 * time.Second
	// MaxClockSkew is the most ClockSkew may be: more would keep an expired token alive.
	MaxClockSkew = 5 * time.Minute
)

// Validate checks a Config (filling in the defaults), naming the field of each problem.
func (c *Config) Validate() error {
	if c.UserIDClaim == "" {
		c.UserIDClaim = "sub"
	}
	if c.ClockSkew == 0 {
		c.ClockSkew = DefaultClockSkew
	}
	var problems []string
	check := func(field string, value any, err error) {
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s %q: %v", field, value, err))
		}
	}
	check("Issuer", c.Issuer, CheckIssuer(c.Issuer))
	check("Resource", c.Resource, CheckResource(c.Resource))
	check("RequiredScopes", c.RequiredScopes, checkScopes(c.RequiredScopes))
	check("ExtraScopes", c.ExtraScopes, checkScopes(c.ExtraScopes))
	check("UserIDClaim", c.UserIDClaim, CheckClaim(c.UserIDClaim))
	check("ClockSkew", c.ClockSkew.String(), CheckClockSkew(c.ClockSkew))
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n  "))
	}
	return nil
}

// SupportedScopes is what clients are told to request: the required scopes, then the extra
// ones, then the mapped ones (ScopeToolsets), without repeats. Being a union, it can never
// leave a required scope out.
func (c *Config) SupportedScopes() []string {
	out := append([]string(nil), c.RequiredScopes...)
	more := c.ExtraScopes
	if c.ScopeToolsets != nil {
		more = append(slices.Clone(more), c.ScopeToolsets.Scopes()...)
	}
	for _, s := range more {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

var (
	// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). Excluding the quote
	// and the backslash is also what lets a scope sit inside a quoted challenge parameter.
	scopeToken = regexp.MustCompile(`^[\x21\x23-\x5B\x5D-\x7E]+$`)
	claimName  = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)
)

// ParseScopes reads a scope list separated by spaces or commas, dropping repeats; a scope
// that is not an RFC 6749 scope token is refused by name.
func ParseScopes(v string) ([]string, error) {
	var out []string
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' }) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, checkScopes(out)
}

func checkScopes(scopes []string) error {
	var bad []string
	for _, s := range scopes {
		if !scopeToken.MatchString(s) {
			bad = append(bad, fmt.Sprintf("%q is not a scope token (RFC 6749 3.3: printable ASCII, no space, quote or backslash)", s))
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// CheckClaim accepts a claim name: letters, digits and _ - . : (at most 128).
func CheckClaim(v string) error {
	if !claimName.MatchString(v) {
		return errors.New("must be a claim name (letters, digits, _ - . :)")
	}
	return nil
}

// CheckClockSkew accepts a skew above zero and at most MaxClockSkew.
func CheckClockSkew(d time.Duration) error {
	if d <= 0 || d > MaxClockSkew {
		return fmt.Errorf("must be a duration above 0s and at most %s", MaxClockSkew)
	}
	return nil
}

// CheckIssuer accepts an issuer URL: absolute https (http only for a loopback host, which
// is what a test or a same-host proxy uses), with no fragment, user info or query.
func CheckIssuer(v string) error { return checkURL(v, false) }

// CheckResource accepts a resource URL as CheckIssuer does, a path included (RFC 8707
// section 2).
func CheckResource(v string) error { return checkURL(v, true) }

func checkURL(v string, resource bool) error {
	if v == "" {
		return errors.New("must be set")
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || !u.IsAbs() {
		return errors.New("must be an absolute URL such as https://host/path")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
	default:
		return errors.New("must be https (http only for a loopback host)")
	}
	if u.Fragment != "" || strings.Contains(v, "#") {
		return errors.New("must not have a fragment")
	}
	if u.User != nil {
		return errors.New("must not carry user info")
	}
	if u.RawQuery != "" {
		if resource {
			return errors.New("should not have a query (RFC 8707 section 2); use the bare URL")
		}
		return errors.New("must not have a query")
	}
	return nil
}

func isLoopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
