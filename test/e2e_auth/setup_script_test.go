package e2eauth

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// setupScript runs setup-oidc-users.sh from a copy of the scripts (so its key files land in
// a temporary build/), with the issuer and audience given; it needs curl and python3.
func setupScript(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	repo, _ := filepath.Abs("../..")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "smalltalk/scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gs-env.sh", "setup-oidc-users.sh", "smalltalk/scripts/setup-oidc-users.gs"} {
		b, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(filepath.Join(dir, f), b, 0o755)
	}
	cmd := exec.Command("timeout", append([]string{"60", "./setup-oidc-users.sh"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"MCP_OIDC_KEY_FILE=", "MCP_OIDC_SAMPLE_TOKEN_FILE=", "MCP_SETENV=/nonexistent"}, env...)...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), dir, code
}

func TestSetupOIDCUsersDryRun(t *testing.T) {
	is := authtest.NewIssuer(t)
	env := []string{"MCP_OIDC_ISSUER=" + is.URL(), "MCP_RESOURCE=https://gs.example/mcp", "MCP_USERID_CLAIM=preferred_username"}
	out, dir, code := setupScript(t, env, "--dry-run", "alice", "bob")
	if code != 0 {
		t.Fatalf("%d\n%s", code, out)
	}
	pemFile := filepath.Join(dir, "build/setup/oidc-keys/k1.pem")
	t.Run("fetches the issuer's key", func(t *testing.T) {
		b, err := os.ReadFile(pemFile)
		if err != nil {
			t.Fatalf("no key file for kid k1: %v\n%s", err, out)
		}
		block, _ := pem.Decode(b)
		if block == nil {
			t.Fatalf("the key file holds no PEM block: %s", b)
		}
		pub, err := x509.ParsePKIXPublicKey(block.Bytes)
		key, _ := is.Current()
		if err != nil || !key.PublicKey.Equal(pub) {
			t.Fatalf("the PEM written is not the issuer's public key: %v", err)
		}
	})
	t.Run("writes the provisioning Smalltalk", func(t *testing.T) { provisioningScriptSays(t, out, pemFile, is.URL()) })
}

func provisioningScriptSays(t *testing.T, out, pemFile, issuer string) {
	for _, want := range []string{
		"\nk1\t" + pemFile + "\n",
		"users := split value: '\nalice\nbob\n'",
		"jwt userIdKey: 'preferred_username' asSymbol.",
		"jwt addIssuer: '" + issuer + "'.",
		"jwt addAudience: 'https://gs.example/mcp'.",
		"(jwt validAudiences isEmpty or: [jwt validIssuers isEmpty])",
		"up enableJwtAuthenticationWith: jwt.",
		"password: '<random>'",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the topaz script lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestSetupOIDCUsersCheckToken(t *testing.T) {
	is := authtest.NewIssuer(t)
	env := []string{"MCP_OIDC_ISSUER=" + is.URL(), "MCP_RESOURCE=https://gs.example/mcp"}
	tokFile := filepath.Join(t.TempDir(), "tok")
	c := is.Claims("https://gs.example/mcp", "alice", "mcp:use")
	c["aud"] = []string{"account", "https://gs.example/mcp"}
	tok := is.Sign(c)
	_ = os.WriteFile(tokFile, []byte(tok+"\n"), 0o600)
	out, _, code := setupScript(t, env, "--check-token", tokFile, "alice")
	t.Run("reports an array audience and refuses to provision", func(t *testing.T) {
		if code != 1 || !strings.Contains(out, "FAIL  aud is a JSON array") || !strings.Contains(out, "primitive 295") ||
			!strings.Contains(out, "the sample token would not log in") || strings.Contains(out, "mcp-oidc:setup") {
			t.Fatalf("%d\n%s", code, out)
		}
	})
	t.Run("never prints the token", func(t *testing.T) {
		if strings.Contains(out, strings.Split(tok, ".")[2]) {
			t.Fatal("the script printed the token")
		}
	})
	t.Run("passes a good token", func(t *testing.T) {
		_ = os.WriteFile(tokFile, []byte(is.Sign(is.Claims("https://gs.example/mcp", "alice", "mcp:use"))), 0o600)
		out, _, code := setupScript(t, env, "--check-token", tokFile)
		if code != 0 || !strings.Contains(out, `ok    aud "https://gs.example/mcp"`) || !strings.Contains(out, "ok    user alice (claim sub)") {
			t.Fatalf("a good token: %d\n%s", code, out)
		}
	})
}
