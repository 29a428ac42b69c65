package auth

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

const threeScopes = `{"mcp:read":["McpBrowsingToolset","McpListingToolset","McpSearchToolset"],` +
	`"mcp:write":["McpMutationToolset","McpSessionToolset"],"mcp:exec":["McpExecutionToolset","McpTestingToolset"]}`

var defaultSurface = []string{"McpBrowsingToolset", "McpExecutionToolset", "McpListingToolset", "McpMutationToolset",
	"McpSearchToolset", "McpSessionToolset", "McpTestingToolset"}

func TestParseScopeMapKeepsTheConfiguredOrder(t *testing.T) {
	m, err := ParseScopeMap(threeScopes)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Scopes(); !reflect.DeepEqual(got, []string{"mcp:read", "mcp:write", "mcp:exec"}) {
		t.Fatalf("Scopes %v", got)
	}
	if err := m.CheckSurface(defaultSurface, "MCP_TOOLSETS"); err != nil {
		t.Fatal(err)
	}
	if m, err := ParseScopeMap("  "); m != nil || err != nil {
		t.Fatalf("empty: %v %v", m, err)
	}
}

func TestParseScopeMapNamesEveryBadShape(t *testing.T) {
	cases := map[string]string{
		`["mcp:read"]`:                         "must be a JSON object of scope -> [toolset, ...]",
		`{"mcp:read":"McpBrowsingToolset"}`:    `scope "mcp:read" must map to an array of toolset class names`,
		`{"mcp read":["McpBrowsingToolset"]}`:  `"mcp read" is not a scope token`,
		`{"mcp:read":[]}`:                      `scope "mcp:read" maps to no toolset`,
		`{"mcp:read":["Mcp Browsing"]}`:        `scope "mcp:read" names "Mcp Browsing", which is not a toolset class name`,
		`{"mcp:read":["A","A"]}`:               `scope "mcp:read" names A twice`,
		`{"a":["A"],"a":["B"]}`:                `scope "a" is given twice`,
		`{}`:                                   "maps no scope",
		`{"a":["A"]} x`:                        "holds something after the JSON object",
		`{"a":["A"]`:                           "not valid JSON",
		`{"mcp:\"q":["A"],"b\\c":["McpX"]}`:    `"mcp:\"q" is not a scope token`,
		`{"mcp:read":["McpBrowsingToolset"],}`: "not valid JSON",
	}
	for in, want := range cases {
		_, err := ParseScopeMap(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want it to say %q", in, err, want)
		}
	}
}

func TestCheckSurfaceNamesEveryMismatch(t *testing.T) {
	m, err := ParseScopeMap(`{"mcp:read":["McpBrowsingToolset","McpBrowsingToolsett"]}`)
	if err != nil {
		t.Fatal(err)
	}
	err = m.CheckSurface([]string{"McpBrowsingToolset", "McpMutationToolset"}, "MCP_TOOLSETS")
	for name, want := range map[string]string{
		"a toolset outside the surface": `scope "mcp:read" names McpBrowsingToolsett, which is not in the tool surface (MCP_TOOLSETS: McpBrowsingToolset McpMutationToolset)`,
		"a toolset no scope grants":     "no scope grants McpMutationToolset of the tool surface (MCP_TOOLSETS)",
	} {
		t.Run(name, func(t *testing.T) {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("CheckSurface: %v; want %q", err, want)
			}
		})
	}
}

func TestGrantIsTheSurfaceOrderOfTheHeldScopesToolsets(t *testing.T) {
	m, _ := ParseScopeMap(threeScopes)
	cases := []struct {
		scopes []string
		want   []string
	}{
		{nil, []string{}},
		{[]string{"mcp:use", "profile"}, []string{}},
		{[]string{"mcp:read"}, []string{"McpBrowsingToolset", "McpListingToolset", "McpSearchToolset"}},
		{[]string{"mcp:exec", "mcp:read"}, []string{"McpBrowsingToolset", "McpExecutionToolset", "McpListingToolset", "McpSearchToolset", "McpTestingToolset"}},
		{[]string{"mcp:read", "mcp:write", "mcp:exec"}, defaultSurface},
		{[]string{"MCP:READ"}, []string{}}, // scopes are case-sensitive
	}
	for _, c := range cases {
		if got := m.Grant(c.scopes, defaultSurface); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Grant(%v) = %v, want %v", c.scopes, got, c.want)
		}
	}
}

func TestScopeForPrefersTheNarrowestScope(t *testing.T) {
	m, _ := ParseScopeMap(`{"mcp:admin":["A","B","C"],"mcp:b":["B","C"],"mcp:c":["C"],"mcp:c2":["C"]}`)
	for toolset, want := range map[string]string{"A": "mcp:admin", "B": "mcp:b", "C": "mcp:c", "D": ""} {
		if got := m.ScopeFor(toolset); got != want {
			t.Errorf("ScopeFor(%s) = %q, want %q", toolset, got, want)
		}
	}
}

func scopedAuthenticator(t *testing.T) *Authenticator {
	t.Helper()
	m, err := ParseScopeMap(threeScopes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Issuer: "https://id.example", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile"}, ScopeToolsets: m, Surface: defaultSurface, SurfaceFrom: "MCP_TOOLSETS"}, discardLog(), VerifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestMappedScopesAreAdvertised(t *testing.T) {
	a := scopedAuthenticator(t)
	want := []string{"mcp:use", "profile", "mcp:read", "mcp:write", "mcp:exec"}
	cfg := a.Config()
	t.Run("as the supported scopes", func(t *testing.T) {
		if got := cfg.SupportedScopes(); !reflect.DeepEqual(got, want) {
			t.Fatalf("SupportedScopes %v", got)
		}
	})
	t.Run("in the metadata", func(t *testing.T) {
		if !strings.Contains(string(a.metadata), `"scopes_supported":["mcp:use","profile","mcp:read","mcp:write","mcp:exec"]`) {
			t.Fatalf("metadata %s", a.metadata)
		}
	})
	t.Run("in the 401 challenge", func(t *testing.T) {
		if got := a.challenge(&Rejection{}); !strings.HasSuffix(got, `scope="mcp:use profile mcp:read mcp:write mcp:exec"`) {
			t.Fatalf("401 challenge %s", got)
		}
	})
}

func TestStepUpAsksForWhatTheTokenHoldsPlusTheOneScopeNeeded(t *testing.T) {
	a := scopedAuthenticator(t)
	ctx := WithPrincipal(context.Background(), &Principal{Issuer: "https://id.example", Subject: "s", Scopes: []string{"mcp:read", "mcp:use", "email"}})
	challenge, scopes, ok := a.StepUp(ctx, "McpMutationToolset")
	want := `Bearer error="insufficient_scope", error_description="the token's scopes do not grant the toolset McpMutationToolset of this tool", ` +
		`resource_metadata="https://gs.example/.well-known/oauth-protected-resource/mcp", scope="mcp:use mcp:read mcp:write"`
	if !ok || challenge != want || !reflect.DeepEqual(scopes, []string{"mcp:use", "mcp:read", "mcp:write"}) {
		t.Fatalf("StepUp:\n got %s %v %v\nwant %s", challenge, scopes, ok, want)
	}
	if _, _, ok := a.StepUp(ctx, "McpNotMappedToolset"); ok {
		t.Fatal("a toolset no scope grants got a step-up")
	}
	if got := a.Granted(ctx); !reflect.DeepEqual(got, []string{"McpBrowsingToolset", "McpListingToolset", "McpSearchToolset"}) {
		t.Fatalf("Granted %v", got)
	}
	if got := a.Granted(context.Background()); len(got) != 0 || got == nil {
		t.Fatalf("Granted without a principal: %#v", got)
	}
}

func TestNewRefusesAMappingThatDoesNotFitTheSurface(t *testing.T) {
	m, _ := ParseScopeMap(`{"mcp:read":["McpBrowsingToolset"]}`)
	_, err := New(Config{Issuer: "https://id.example", Resource: "https://gs.example/mcp", ScopeToolsets: m,
		Surface: []string{"McpBrowsingToolset", "McpMutationToolset"}, SurfaceFrom: "MCP_TOOLSETS"}, discardLog(), VerifierOptions{})
	if err == nil || !strings.Contains(err.Error(), "no scope grants McpMutationToolset") {
		t.Fatalf("New: %v", err)
	}
}
