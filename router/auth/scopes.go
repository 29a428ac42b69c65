package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// ScopeMap says which toolsets of the tool surface each scope grants: a token is offered the
// toolsets of every mapped scope it carries, and nothing else of the surface. The scopes
// keep the order the configuration gave them, which is the order they are advertised in.
type ScopeMap struct {
	entries []scopeEntry
}

type scopeEntry struct {
	scope    string
	toolsets []string
}

// toolsetName is a Smalltalk class name, as MCP_TOOLSETS accepts it.
var toolsetName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,255}$`)

// ParseScopeMap reads a scope-to-toolset mapping (MCP_SCOPE_TOOLSETS): a JSON object whose members are scopes (RFC 6749
// scope tokens) and whose values are non-empty arrays of toolset class names. Every problem is
// named, with the scope it concerns; "" is no mapping (nil, no error).
func ParseScopeMap(v string) (*ScopeMap, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(v)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(`must be a JSON object of scope -> [toolset, ...], e.g. {"mcp:read":["McpBrowsingToolset"]}`)
	}
	m := &ScopeMap{}
	var problems []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		scope := tok.(string) // an object's member name is always a string
		var toolsets []string
		if err := dec.Decode(&toolsets); err != nil {
			problems = append(problems, fmt.Sprintf("scope %q must map to an array of toolset class names", scope))
			continue
		}
		problems = append(problems, checkScopeEntry(m, scope, toolsets)...)
		m.entries = append(m.entries, scopeEntry{scope, toolsets})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("holds something after the JSON object")
	}
	if len(m.entries) == 0 && len(problems) == 0 {
		problems = append(problems, "maps no scope; unset it to offer every token the whole surface")
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n  "))
	}
	return m, nil
}

func checkScopeEntry(m *ScopeMap, scope string, toolsets []string) []string {
	var problems []string
	if !scopeToken.MatchString(scope) {
		problems = append(problems, fmt.Sprintf("%q is not a scope token (RFC 6749 3.3: printable ASCII, no space, quote or backslash)", scope))
	}
	if slices.ContainsFunc(m.entries, func(e scopeEntry) bool { return e.scope == scope }) {
		problems = append(problems, fmt.Sprintf("scope %q is given twice", scope))
	}
	if len(toolsets) == 0 {
		problems = append(problems, fmt.Sprintf("scope %q maps to no toolset", scope))
	}
	for i, t := range toolsets {
		switch {
		case !toolsetName.MatchString(t):
			problems = append(problems, fmt.Sprintf("scope %q names %q, which is not a toolset class name", scope, t))
		case slices.Contains(toolsets[:i], t):
			problems = append(problems, fmt.Sprintf("scope %q names %s twice", scope, t))
		}
	}
	return problems
}

// CheckSurface holds the mapping against the configured tool surface (surfaceFrom names the
// setting it came from, for the messages): a mapped toolset
// outside the surface (a typo, or a toolset not served) and a toolset of the surface that no
// scope grants (nobody could ever see it) both refuse the start, each named.
func (m *ScopeMap) CheckSurface(surface []string, surfaceFrom string) error {
	var problems []string
	granted := map[string]bool{}
	for _, e := range m.entries {
		for _, t := range e.toolsets {
			granted[t] = true
			if !slices.Contains(surface, t) {
				problems = append(problems, fmt.Sprintf("scope %q names %s, which is not in the tool surface (%s: %s)",
					e.scope, t, surfaceFrom, strings.Join(surface, " ")))
			}
		}
	}
	for _, t := range surface {
		if !granted[t] {
			problems = append(problems, fmt.Sprintf("no scope grants %s of the tool surface (%s); map it to a scope, or take it out of the surface",
				t, surfaceFrom))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n  "))
	}
	return nil
}

// Scopes are the mapped scopes, in the configuration's order.
func (m *ScopeMap) Scopes() []string {
	out := make([]string, len(m.entries))
	for i, e := range m.entries {
		out[i] = e.scope
	}
	return out
}

// Toolsets are the toolsets scope grants (nil for a scope not mapped).
func (m *ScopeMap) Toolsets(scope string) []string {
	for _, e := range m.entries {
		if e.scope == scope {
			return slices.Clone(e.toolsets)
		}
	}
	return nil
}

// Grant is what a token holding scopes may see: the toolsets of surface that one of its
// mapped scopes grants, in the surface's order; never nil, so an empty grant stays a grant.
func (m *ScopeMap) Grant(scopes, surface []string) []string {
	out := []string{}
	for _, t := range surface {
		for _, e := range m.entries {
			if slices.Contains(e.toolsets, t) && slices.Contains(scopes, e.scope) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// ScopeFor is the scope to ask for when a call needs toolset: of the scopes granting it, the
// one granting the fewest toolsets (least privilege), the first configured on a tie; "" when
// none does.
func (m *ScopeMap) ScopeFor(toolset string) string {
	best, size := "", 0
	for _, e := range m.entries {
		if slices.Contains(e.toolsets, toolset) && (best == "" || len(e.toolsets) < size) {
			best, size = e.scope, len(e.toolsets)
		}
	}
	return best
}

// Granted is the part of the surface the request's token may see (MCP_SCOPE_TOOLSETS); with
// no mapping, the whole surface. A request without a verified token is granted nothing.
func (a *Authenticator) Granted(ctx context.Context) []string {
	p := PrincipalFrom(ctx)
	if p == nil {
		return []string{}
	}
	if a.cfg.ScopeToolsets == nil {
		return slices.Clone(a.cfg.Surface)
	}
	return a.cfg.ScopeToolsets.Grant(p.Scopes, a.cfg.Surface)
}

// StepUp is the answer to a call of a tool in toolset, which the request's token does not
// grant: the WWW-Authenticate challenge of a 403 insufficient_scope (RFC 6750 section 3.1,
// MCP's scope challenge) and the scope list it asks for. The list is the required scopes,
// the advertised scopes the token already holds, and the one scope that grants toolset
// (ScopeFor), in the advertised order, so a client that replaces its scopes with the
// challenge's loses nothing it had. ok is false when no scope grants toolset.
func (a *Authenticator) StepUp(ctx context.Context, toolset string) (challenge string, scopes []string, ok bool) {
	m := a.cfg.ScopeToolsets
	if m == nil {
		return "", nil, false
	}
	need := m.ScopeFor(toolset)
	if need == "" {
		return "", nil, false
	}
	var held []string
	if p := PrincipalFrom(ctx); p != nil {
		held = p.Scopes
	}
	for _, s := range a.cfg.SupportedScopes() {
		if s == need || slices.Contains(a.cfg.RequiredScopes, s) || slices.Contains(held, s) {
			scopes = append(scopes, s)
		}
	}
	rej := &Rejection{Status: http.StatusForbidden, Code: "insufficient_scope",
		Description: "the token's scopes do not grant the toolset " + toolset + " of this tool"}
	ev := a.log.Info().Str("toolset", toolset).Str("scope", need)
	if p := PrincipalFrom(ctx); p != nil {
		ev = ev.Str("sub", p.Subject)
	}
	ev.Msg("step-up: a tool outside the token's scopes was called; answered 403 insufficient_scope")
	return a.challengeFor(rej, scopes), scopes, true
}
