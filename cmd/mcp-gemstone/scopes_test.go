package main

import (
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
)

const scopeMap = `{"mcp:read":["McpBrowsingToolset","McpListingToolset","McpSearchToolset"],` +
	`"mcp:write":["McpMutationToolset","McpSessionToolset"],"mcp:exec":["McpExecutionToolset","McpTestingToolset"]}`

func oidcWith(extra map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range oidc {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// The mapping's checks against the surface are internal/config's; here: it reaches the router.
func TestAScopeMapOverMcpServersDefaultSurfaceWiresTheGrants(t *testing.T) {
	m, err := modeFor(t, nil, oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": scopeMap}))
	if err != nil {
		t.Fatal(err)
	}
	var o router.Options
	m.apply(&o)
	if o.Grants == nil {
		t.Fatal("the scope map did not reach the router")
	}
	// Without a mapping nothing is granted per token: every token sees the whole surface.
	m, _ = modeFor(t, nil, oidcWith(nil))
	o = router.Options{}
	m.apply(&o)
	if o.Grants != nil {
		t.Fatal("grants wired without MCP_SCOPE_TOOLSETS")
	}
	_, err = modeFor(t, nil, map[string]string{"MCP_SCOPE_TOOLSETS": scopeMap})
	if err == nil || !strings.Contains(err.Error(), "MCP_SCOPE_TOOLSETS needs MCP_AUTH=oidc") {
		t.Fatalf("a mapping without tokens: %v", err)
	}
}
