package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
)

const scopeMap = `{"mcp:read":["McpBrowsingToolset","McpListingToolset","McpSearchToolset"],` +
	`"mcp:write":["McpMutationToolset","McpSessionToolset"],"mcp:exec":["McpExecutionToolset","McpTestingToolset"]}`

func oidcWith(extra map[string]string) func(string) string {
	m := map[string]string{"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "https://id.example", "MCP_RESOURCE": "https://gs.example/mcp"}
	for k, v := range extra {
		m[k] = v
	}
	return envOf(m)
}

func TestAScopeMapOverMcpServersDefaultSurfaceWiresTheGrants(t *testing.T) {
	m, err := loadNetworkMode(nil, oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": scopeMap}), surface{workerClass: "McpServer"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	var o router.Options
	m.apply(&o)
	if o.Grants == nil {
		t.Fatal("the scope map did not reach the router")
	}
	cfg := m.auth.Config()
	if !slices.Equal(cfg.Surface, mcpServerDefaultToolsets) || !slices.Equal(cfg.SupportedScopes(), []string{"mcp:read", "mcp:write", "mcp:exec"}) {
		t.Fatalf("surface %v, scopes %v", cfg.Surface, cfg.SupportedScopes())
	}
	// Without a mapping nothing is granted per token: every token sees the whole surface.
	m, _ = loadNetworkMode(nil, oidcWith(nil), surface{workerClass: "McpServer"}, zerolog.Nop())
	o = router.Options{}
	m.apply(&o)
	if o.Grants != nil {
		t.Fatal("grants wired without MCP_SCOPE_TOOLSETS")
	}
}

func TestStartRefusesABadScopeMapNamingWhatIsWrong(t *testing.T) {
	cases := []struct {
		name string
		env  func(string) string
		surf surface
		want string
	}{
		{"unknown toolset", oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": `{"mcp:read":["McpBrowsingToolset","McpBrowsingToolsett"]}`}),
			surface{toolsets: []string{"McpBrowsingToolset"}, workerClass: "McpServer"},
			`scope "mcp:read" names McpBrowsingToolsett, which is not in the tool surface (MCP_TOOLSETS: McpBrowsingToolset)`},
		{"unmapped toolset", oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": `{"mcp:read":["McpBrowsingToolset"]}`}),
			surface{workerClass: "McpServer"}, "no scope grants McpExecutionToolset of the tool surface"},
		{"bad shape", oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": `{"mcp:read":"McpBrowsingToolset"}`}),
			surface{workerClass: "McpServer"}, `MCP_SCOPE_TOOLSETS: scope "mcp:read" must map to an array`},
		{"another worker class's default", oidcWith(map[string]string{"MCP_SCOPE_TOOLSETS": scopeMap}),
			surface{workerClass: "AcmeServer"}, "MCP_SCOPE_TOOLSETS needs MCP_TOOLSETS with MCP_WORKER_CLASS=AcmeServer"},
		{"no tokens", envOf(map[string]string{"MCP_SCOPE_TOOLSETS": scopeMap}),
			surface{workerClass: "McpServer"}, "MCP_SCOPE_TOOLSETS needs MCP_AUTH=oidc"},
	}
	for _, c := range cases {
		_, err := loadNetworkMode(nil, c.env, c.surf, zerolog.Nop())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

// The router's copy of McpServer's default surface is the Smalltalk one.
func TestTheDefaultSurfaceIsMcpServersDefaultToolsetNames(t *testing.T) {
	src, err := os.ReadFile("../../smalltalk/core/McpServer.gs")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)classmethod: McpServer\ndefaultToolsetNames\n\s*\^#\((.*?)\)\n%`).FindSubmatch(src)
	if body == nil {
		t.Fatal("McpServer class >> defaultToolsetNames not found")
	}
	var names []string
	for _, m := range regexp.MustCompile(`'([A-Za-z0-9_]+)'`).FindAllSubmatch(body[1], -1) {
		names = append(names, string(m[1]))
	}
	if !slices.Equal(names, mcpServerDefaultToolsets) {
		t.Fatalf("McpServer's default surface is %v; the router's copy is %v", names, mcpServerDefaultToolsets)
	}
}
