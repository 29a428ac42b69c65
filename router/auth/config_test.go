package auth

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func discardLog() zerolog.Logger { return zerolog.Nop() }

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnvLocalModeWhenMCPAuthIsUnsetOrNone(t *testing.T) {
	for _, v := range []string{"", "none"} {
		c, err := FromEnv(env(map[string]string{"MCP_AUTH": v, "MCP_WORKER_USER": "McpReadOnly"}))
		if c != nil || err != nil {
			t.Fatalf("MCP_AUTH=%q: %v %v", v, c, err)
		}
	}
}

func TestFromEnvReadsTheOIDCMode(t *testing.T) {
	c, err := FromEnv(env(map[string]string{
		"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "https://id.example/realms/gs", "MCP_RESOURCE": "https://gs.example/mcp",
		"MCP_REQUIRED_SCOPES": "mcp:use, mcp:use", "MCP_EXTRA_SCOPES": "profile offline_access", "MCP_USERID_CLAIM": "preferred_username",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{Issuer: "https://id.example/realms/gs", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile", "offline_access"}, UserIDClaim: "preferred_username", ClockSkew: time.Minute}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("%+v", c)
	}
	if got := c.SupportedScopes(); !reflect.DeepEqual(got, []string{"mcp:use", "profile", "offline_access"}) {
		t.Fatalf("SupportedScopes %v", got)
	}
}

func TestFromEnvNamesEveryBadVariable(t *testing.T) {
	_, err := FromEnv(env(map[string]string{
		"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "http://id.example", "MCP_RESOURCE": "https://gs.example/mcp#frag",
		"MCP_REQUIRED_SCOPES": `mcp:"use`, "MCP_USERID_CLAIM": "a b", "MCP_WORKER_USER": "DataCurator", "MCP_OIDC_CLOCK_SKEW": "1h",
	}))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`MCP_OIDC_ISSUER="http://id.example": must be https (http only for a loopback host)`,
		`MCP_RESOURCE="https://gs.example/mcp#frag": must not have a fragment`,
		`MCP_REQUIRED_SCOPES: "mcp:\"use" is not a scope token`,
		`MCP_USERID_CLAIM="a b"`,
		"MCP_WORKER_USER is refused with MCP_AUTH=oidc",
		`MCP_OIDC_CLOCK_SKEW="1h"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	_, err = FromEnv(env(map[string]string{"MCP_AUTH": "oidc"}))
	if err == nil || !strings.Contains(err.Error(), `MCP_OIDC_ISSUER="": must be set`) || !strings.Contains(err.Error(), `MCP_RESOURCE="": must be set`) {
		t.Fatalf("missing variables: %v", err)
	}
	_, err = FromEnv(env(map[string]string{"MCP_AUTH": "saml"}))
	if err == nil || !strings.Contains(err.Error(), `MCP_AUTH="saml": must be oidc or none`) {
		t.Fatalf("unknown mode: %v", err)
	}
}

func TestFromEnvAllowsPlainHTTPOnlyOnLoopback(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"MCP_AUTH": "oidc", "MCP_OIDC_ISSUER": "http://127.0.0.1:8080/realms/gs", "MCP_RESOURCE": "http://localhost:8000/mcp"}))
	if err != nil || c.UserIDClaim != "sub" {
		t.Fatalf("%v %+v", err, c)
	}
}
