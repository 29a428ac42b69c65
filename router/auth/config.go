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
// server is called in them, and what they must carry.
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
	// offered (MCP_SCOPE_TOOLSETS); nil offers every token the whole surface.
	ScopeToolsets *ScopeMap
	// Surface is the configured tool surface by toolset name, which ScopeToolsets is held
	// against; SurfaceFrom says where it came from, for the messages.
	Surface     []string
	SurfaceFrom string
}

// Variable names, in one place so messages and docs agree.
const (
	EnvMode           = "MCP_AUTH"
	EnvIssuer         = "MCP_OIDC_ISSUER"
	EnvResource       = "MCP_RESOURCE"
	EnvRequiredScopes = "MCP_REQUIRED_SCOPES"
	EnvExtraScopes    = "MCP_EXTRA_SCOPES"
	EnvUserIDClaim    = "MCP_USERID_CLAIM"
	EnvClockSkew      = "MCP_OIDC_CLOCK_SKEW"
	EnvWorkerUser     = "MCP_WORKER_USER"
)

const (
	defaultClockSkew = 60 * time.Second
	maxClockSkew     = 5 * time.Minute
)

// FromEnv reads the mode from the environment. It answers nil and no error when MCP_AUTH is
// unset or "none" (the localhost mode). Every problem is reported at once, each naming its
// variable; no value that could be a secret is echoed.
func FromEnv(getenv func(string) string) (*Config, error) {
	mode := strings.TrimSpace(getenv(EnvMode))
	switch mode {
	case "", "none":
		return nil, nil
	case "oidc":
	default:
		return nil, fmt.Errorf("%s=%q: must be oidc or none", EnvMode, mode)
	}
	c := &Config{
		Issuer:         strings.TrimSpace(getenv(EnvIssuer)),
		Resource:       strings.TrimSpace(getenv(EnvResource)),
		RequiredScopes: scopeList(getenv(EnvRequiredScopes)),
		ExtraScopes:    scopeList(getenv(EnvExtraScopes)),
		UserIDClaim:    strings.TrimSpace(getenv(EnvUserIDClaim)),
		ClockSkew:      defaultClockSkew,
	}
	var problems []string
	if v := strings.TrimSpace(getenv(EnvClockSkew)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > maxClockSkew {
			problems = append(problems, fmt.Sprintf("%s=%q: must be a duration from 0s to %s", EnvClockSkew, v, maxClockSkew))
		} else {
			c.ClockSkew = d
		}
	}
	if m, err := ParseScopeMap(getenv(EnvScopeToolsets)); err != nil {
		problems = append(problems, err.Error())
	} else {
		c.ScopeToolsets = m
	}
	if getenv(EnvWorkerUser) != "" {
		problems = append(problems, EnvWorkerUser+" is refused with MCP_AUTH=oidc: each worker gem logs in as the GemStone user "+
			"its bearer token names ("+EnvUserIDClaim+"); unset it, and give that user a restricted profile instead")
	}
	if err := c.Validate(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return nil, errors.New("refusing to start; bad authentication configuration:\n  " + strings.Join(problems, "\n  "))
	}
	return c, nil
}

// Validate checks a Config (filling in the defaults), naming the variable of each problem.
func (c *Config) Validate() error {
	if c.UserIDClaim == "" {
		c.UserIDClaim = "sub"
	}
	if c.ClockSkew == 0 {
		c.ClockSkew = defaultClockSkew
	}
	var problems []string
	if err := checkURL(c.Issuer, false); err != nil {
		problems = append(problems, fmt.Sprintf("%s=%q: %v", EnvIssuer, c.Issuer, err))
	}
	if err := checkURL(c.Resource, true); err != nil {
		problems = append(problems, fmt.Sprintf("%s=%q: %v", EnvResource, c.Resource, err))
	}
	for _, s := range [][2]any{{EnvRequiredScopes, c.RequiredScopes}, {EnvExtraScopes, c.ExtraScopes}} {
		for _, scope := range s[1].([]string) {
			if !scopeToken.MatchString(scope) {
				problems = append(problems, fmt.Sprintf("%s: %q is not a scope token (RFC 6749 3.3: printable ASCII, no space, quote or backslash)", s[0], scope))
			}
		}
	}
	if !claimName.MatchString(c.UserIDClaim) {
		problems = append(problems, fmt.Sprintf("%s=%q: must be a claim name (letters, digits, _ - . :)", EnvUserIDClaim, c.UserIDClaim))
	}
	if c.ClockSkew < 0 || c.ClockSkew > maxClockSkew {
		problems = append(problems, fmt.Sprintf("%s: must be from 0s to %s", EnvClockSkew, maxClockSkew))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n  "))
	}
	return nil
}

// SupportedScopes is what clients are told to request: the required scopes, then the extra
// ones, then the mapped ones (MCP_SCOPE_TOOLSETS), without repeats. Being a union, it can
// never leave a required scope out.
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

func scopeList(v string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' }) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// checkURL accepts an absolute https URL (http only for a loopback host, which is what a
// test or a same-host proxy uses), with no fragment, no user info and, for an issuer, no
// query. A resource may carry a path (RFC 8707 section 2).
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
