package config

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

var oidcBase = []string{"MCP_AUTH", "oidc", "MCP_OIDC_ISSUER", "https://id.example/realms/gs", "MCP_RESOURCE", "https://gs.example/mcp"}

func oidcEnv(kv ...string) func(string) string { return env(append(slices.Clone(oidcBase), kv...)...) }

func TestTheLocalhostModeHasNeitherAuthNorTLS(t *testing.T) {
	for _, mode := range []string{"", "none"} {
		t.Run("MCP_AUTH="+mode, func(t *testing.T) {
			c, err := Load(nil, env("MCP_AUTH", mode, "MCP_WORKER_USER", "McpReadOnly"), io.Discard)
			if err != nil || c.Auth != nil || c.TLS.Enabled() {
				t.Fatalf("MCP_AUTH=%q: %+v %v", mode, c, err)
			}
		})
	}
}

func TestTheOIDCModesSettings(t *testing.T) {
	t.Run("are read from variables, flags overriding", func(t *testing.T) {
		c, err := Load([]string{"-userid-claim", "preferred_username", "-oidc-clock-skew", "30"},
			oidcEnv("MCP_REQUIRED_SCOPES", "mcp:use, mcp:use", "MCP_EXTRA_SCOPES", "profile offline_access", "MCP_USERID_CLAIM", "sub"), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		a := c.Auth
		if a == nil || a.Issuer != "https://id.example/realms/gs" || a.Resource != "https://gs.example/mcp" || a.UserIDClaim != "preferred_username" ||
			a.ClockSkew != 30*time.Second || !reflect.DeepEqual(a.RequiredScopes, []string{"mcp:use"}) ||
			!reflect.DeepEqual(a.ExtraScopes, []string{"profile", "offline_access"}) || a.ScopeToolsets != nil {
			t.Fatalf("%+v", a)
		}
	})
	t.Run("are read from flags alone, with the defaults", func(t *testing.T) {
		c, err := Load([]string{"-auth", "oidc", "-oidc-issuer", "http://127.0.0.1:8080/realms/gs", "-resource", "http://localhost:8000/mcp"}, env(), io.Discard)
		if err != nil || c.Auth == nil || c.Auth.UserIDClaim != "sub" || c.Auth.ClockSkew != time.Minute {
			t.Fatalf("flags alone, loopback http: %+v %v", c.Auth, err)
		}
	})
}

func TestTheOIDCModeNamesEveryBadSetting(t *testing.T) {
	_, err := Load([]string{"-worker-user", "McpReadOnly"}, env("MCP_AUTH", "oidc", "MCP_OIDC_ISSUER", "http://id.example",
		"MCP_RESOURCE", "https://gs.example/mcp#frag", "MCP_REQUIRED_SCOPES", `mcp:"use`, "MCP_USERID_CLAIM", "a b", "MCP_OIDC_CLOCK_SKEW", "1h"), io.Discard)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`MCP_OIDC_ISSUER (-oidc-issuer) = "http://id.example" from MCP_OIDC_ISSUER: must be https (http only for a loopback host)`,
		`MCP_RESOURCE (-resource) = "https://gs.example/mcp#frag" from MCP_RESOURCE: must not have a fragment`,
		`MCP_REQUIRED_SCOPES (-required-scopes) = "mcp:\"use" from MCP_REQUIRED_SCOPES: "mcp:\"use" is not a scope token`,
		`MCP_USERID_CLAIM (-userid-claim) = "a b"`,
		`MCP_OIDC_CLOCK_SKEW (-oidc-clock-skew) = "1h" from MCP_OIDC_CLOCK_SKEW: must be a duration above 0s and at most 5m0s`,
		"-worker-user is refused with MCP_AUTH=oidc",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	_, err = Load(nil, env("MCP_AUTH", "oidc", "MCP_WORKER_USER", "DataCurator"), io.Discard)
	for _, want := range []string{"MCP_OIDC_ISSUER must be set with MCP_AUTH=oidc", "MCP_RESOURCE must be set with MCP_AUTH=oidc",
		"MCP_WORKER_USER is refused with MCP_AUTH=oidc"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	_, err = Load(nil, env("MCP_AUTH", "saml"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), `MCP_AUTH (-auth) = "saml" from MCP_AUTH: must be oidc or none`) {
		t.Fatalf("unknown mode: %v", err)
	}
}

// A setting of the network-facing mode without the mode would leave the server open while its
// configuration reads as closed.
func TestANetworkFacingSettingWithoutMCPAuthOIDCRefusesTheStart(t *testing.T) {
	for _, given := range [][]string{
		{"MCP_OIDC_ISSUER", "https://id.example"}, {"MCP_RESOURCE", "https://gs.example/mcp"}, {"MCP_REQUIRED_SCOPES", "mcp:use"},
		{"MCP_EXTRA_SCOPES", "profile"}, {"MCP_USERID_CLAIM", "sub"}, {"MCP_OIDC_CLOCK_SKEW", "30s"},
		{"MCP_SCOPE_TOOLSETS", `{"mcp:read":["McpBrowsingToolset"]}`},
	} {
		_, err := Load(nil, env(given...), io.Discard)
		if err == nil || !strings.Contains(err.Error(), given[0]+" needs MCP_AUTH=oidc") {
			t.Errorf("%s without MCP_AUTH: %v", given[0], err)
		}
	}
	_, err := Load([]string{"-oidc-issuer", "https://id.example"}, env("MCP_AUTH", "none"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-oidc-issuer needs MCP_AUTH=oidc") {
		t.Fatalf("a flag is named as the flag: %v", err)
	}
}

const scopeMap = `{"mcp:read":["McpBrowsingToolset","McpListingToolset","McpSearchToolset"],` +
	`"mcp:write":["McpMutationToolset","McpSessionToolset"],"mcp:exec":["McpExecutionToolset","McpTestingToolset"]}`

func TestAScopeMapIsHeldAgainstTheToolSurface(t *testing.T) {
	c, err := Load(nil, oidcEnv("MCP_SCOPE_TOOLSETS", scopeMap), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Auth.Surface, mcpServerDefaultToolsets) || !strings.Contains(c.Auth.SurfaceFrom, "default surface of McpServer") ||
		!slices.Equal(c.Auth.SupportedScopes(), []string{"mcp:read", "mcp:write", "mcp:exec"}) {
		t.Fatalf("surface %v from %q, scopes %v", c.Auth.Surface, c.Auth.SurfaceFrom, c.Auth.SupportedScopes())
	}
	cases := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"unknown toolset", []string{"-toolsets", "McpBrowsingToolset"}, []string{"MCP_SCOPE_TOOLSETS", `{"mcp:read":["McpBrowsingToolset","McpBrowsingToolsett"]}`},
			`MCP_SCOPE_TOOLSETS: scope "mcp:read" names McpBrowsingToolsett, which is not in the tool surface (-toolsets: McpBrowsingToolset)`},
		{"unmapped toolset", nil, []string{"MCP_SCOPE_TOOLSETS", `{"mcp:read":["McpBrowsingToolset"]}`}, "no scope grants McpExecutionToolset of the tool surface"},
		{"bad shape", nil, []string{"MCP_SCOPE_TOOLSETS", `{"mcp:read":"McpBrowsingToolset"}`},
			`from MCP_SCOPE_TOOLSETS: scope "mcp:read" must map to an array of toolset class names`},
		{"another worker class's default", nil, []string{"MCP_SCOPE_TOOLSETS", scopeMap, "MCP_WORKER_CLASS", "AcmeServer"},
			"MCP_SCOPE_TOOLSETS needs MCP_TOOLSETS with MCP_WORKER_CLASS=AcmeServer"},
	}
	for _, tc := range cases {
		_, err := Load(tc.args, oidcEnv(tc.env...), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

// The router's copy of McpServer's default surface is the Smalltalk one.
func TestTheDefaultSurfaceIsMcpServersDefaultToolsetNames(t *testing.T) {
	src, err := os.ReadFile("../../smalltalk/core/McpServer.gs")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)classmethod: McpServer\ndefaultToolsetNames\n(?:\s*"[^"]*"\n)?\s*\^#\((.*?)\)\n%`).FindSubmatch(src)
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

func TestTLSTakesBothFilesOrNeither(t *testing.T) {
	dir := t.TempDir()
	cert, key, _ := mcptest.SelfSignedCert(t, dir, "x", "127.0.0.1")
	c, err := Load([]string{"-tls-key", key}, env("MCP_TLS_CERT", cert), io.Discard)
	if err != nil || c.TLS.CertFile != cert || c.TLS.KeyFile != key || !c.TLS.Enabled() {
		t.Fatalf("%+v %v", c.TLS, err)
	}
	_, err = Load(nil, env("MCP_TLS_CERT", cert), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "MCP_TLS_CERT is set but MCP_TLS_KEY is not") {
		t.Fatalf("half a pair: %v", err)
	}
	_, err = Load([]string{"-tls-key", key}, env(), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-tls-key is set but MCP_TLS_CERT is not") {
		t.Fatalf("half a pair by flag: %v", err)
	}
	_, err = Load(nil, env("MCP_TLS_CERT", filepath.Join(dir, "missing.pem"), "MCP_TLS_KEY", key), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "MCP_TLS_CERT (-tls-cert) = ") || !strings.Contains(err.Error(), "cannot read it") {
		t.Fatalf("a missing file: %v", err)
	}
}
