package e2eauth

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// challengeFor is the exact WWW-Authenticate the server must send.
func challengeFor(s *server, code, desc string) string {
	prm := `resource_metadata="https://` + s.addr + `/.well-known/oauth-protected-resource/mcp"`
	if code == "" {
		return `Bearer ` + prm + `, scope="mcp:use profile"`
	}
	return `Bearer error="` + code + `", error_description="` + desc + `", ` + prm + `, scope="mcp:use profile"`
}

// An OAuth client discovers the metadata, then initializes, calls a tool and deletes its
// session; each subtest is one step, in order.
func TestAnOAuthClientsSession(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	is.AddClient("analyst-bot", "s3cret")

	// 1. Unauthenticated: the challenge points at the metadata, which names the issuer.
	t.Run("without a token it is challenged to the metadata", func(t *testing.T) {
		s := s.in(t)
		a := s.do(s.client, http.MethodPost, "", "", initializeBody)
		if a.Status != 401 || a.Header.Get("WWW-Authenticate") != challengeFor(s, "", "") {
			t.Fatalf("no token: %d %q", a.Status, a.Header.Get("WWW-Authenticate"))
		}
	})
	resp, err := s.client.Get("https://" + s.addr + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Scopes               []string `json:"scopes_supported"`
		Bearer               []string `json:"bearer_methods_supported"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	t.Run("the metadata names the resource, the issuer and the scopes", func(t *testing.T) {
		if resp.StatusCode != 200 || prm.Resource != s.resource() || len(prm.AuthorizationServers) != 1 ||
			prm.AuthorizationServers[0] != is.URL() || strings.Join(prm.Scopes, " ") != "mcp:use profile" || strings.Join(prm.Bearer, ",") != "header" {
			t.Fatalf("metadata: %d %+v", resp.StatusCode, prm)
		}
	})
	if len(prm.AuthorizationServers) == 0 {
		t.Fatal("no authorization server to get a token from")
	}

	// 2. The client gets a token from the authorization server the metadata names, for the
	// resource, with the scopes it advertises -- golang.org/x/oauth2, client credentials.
	is.SetAudience(prm.Resource, nil)
	cc := clientcredentials.Config{ClientID: "analyst-bot", ClientSecret: "s3cret", TokenURL: prm.AuthorizationServers[0] + "/token", Scopes: prm.Scopes}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, s.client)
	client := cc.Client(ctx)

	var sid string
	t.Run("its token initializes a session", func(t *testing.T) {
		s := s.in(t)
		a := s.do(client, http.MethodPost, "", "", initializeBody)
		sid = a.Header.Get("Mcp-Session-Id")
		if a.Status != 200 || sid == "" || a.RPC.Error != nil {
			t.Fatalf("initialize: %d %s", a.Status, a.Body)
		}
		if a = s.do(client, http.MethodPost, "", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); a.Status != 202 {
			t.Fatalf("initialized: %d %s", a.Status, a.Body)
		}
	})
	t.Run("which calls a tool", func(t *testing.T) {
		s := s.in(t)
		a := s.do(client, http.MethodPost, "", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"over TLS, as analyst-bot"}}}`)
		if a.Status != 200 || a.RPC.Error != nil || !strings.Contains(string(a.RPC.Result), "over TLS, as analyst-bot") {
			t.Fatalf("tools/call: %d %s", a.Status, a.Body)
		}
	})
	t.Run("and ends with DELETE", func(t *testing.T) {
		s := s.in(t)
		if a := s.do(client, http.MethodDelete, "", sid, ""); a.Status != 200 && a.Status != 204 {
			t.Fatalf("DELETE: %d %s", a.Status, a.Body)
		}
		if a := s.do(client, http.MethodPost, "", sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); a.Status != 404 {
			t.Fatalf("after DELETE: %d, want 404", a.Status)
		}
	})
	t.Run("the client secret never reaches the log", func(t *testing.T) {
		if strings.Contains(s.log.String(), "s3cret") {
			t.Fatal("the client secret reached the server log")
		}
	})
}

func TestAttackTableAgainstTheServerProcess(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	aud := s.resource()
	var tokens []string
	tok := func(sub string, edit func(map[string]any)) string {
		c := is.Claims(aud, sub, "mcp:use profile")
		if edit != nil {
			edit(c)
		}
		tk := is.Sign(c)
		tokens = append(tokens, tk)
		return tk
	}
	alice := tok("alice", nil)
	a := s.do(s.client, http.MethodPost, alice, "", initializeBody)
	sid := a.Header.Get("Mcp-Session-Id")
	if a.Status != 200 || sid == "" {
		t.Fatalf("alice's initialize: %d %s", a.Status, a.Body)
	}
	ping := `{"jsonrpc":"2.0","id":9,"method":"ping"}`
	badSig := "the token's signature could not be verified (an allowed asymmetric algorithm and a current key of the issuer are required)"
	rogue := authtest.NewIssuer(t) // a key the server's issuer never published
	rk, _ := rogue.Current()
	cases := []struct {
		name, token, sid string
		status           int
		challenge        string
	}{
		{"no token", "", sid, 401, challengeFor(s, "", "")},
		{"not a JWT", "hello", sid, 401, challengeFor(s, "invalid_token", "the token is not a signed JWT")},
		{"alg none", "eyJhbGciOiJub25lIn0." + strings.Split(alice, ".")[1] + ".", sid, 401, challengeFor(s, "invalid_token", badSig)},
		{"key not in the JWKS", authtest.SignRSA(t, rk, "k1", is.Claims(aud, "alice", "mcp:use")), sid, 401, challengeFor(s, "invalid_token", badSig)},
		{"wrong issuer", tok("alice", func(c map[string]any) { c["iss"] = rogue.URL() }), sid, 401,
			challengeFor(s, "invalid_token", "the token was issued by another issuer than this server trusts")},
		{"wrong audience", tok("alice", func(c map[string]any) { c["aud"] = "https://elsewhere.example/mcp" }), sid, 401,
			challengeFor(s, "invalid_token", "the token's audience is not this server (its aud must include the resource named in the protected resource metadata)")},
		{"expired", tok("alice", func(c map[string]any) { c["exp"] = time.Now().Add(-10 * time.Minute).Unix() }), sid, 401,
			challengeFor(s, "invalid_token", "the token has expired")},
		{"nbf in the future", tok("alice", func(c map[string]any) { c["nbf"] = time.Now().Add(10 * time.Minute).Unix() }), sid, 401,
			challengeFor(s, "invalid_token", "the token is not valid yet (nbf is in the future)")},
		{"required scope missing", tok("alice", func(c map[string]any) { c["scope"] = "profile" }), sid, 403,
			challengeFor(s, "insufficient_scope", "the token lacks a required scope")},
		{"another subject's token on alice's session", tok("mallory", nil), sid, 404, ""},
		{"alice with a fresh token", tok("alice", nil), sid, 200, ""},
	}
	for _, c := range cases {
		a := s.do(s.client, http.MethodPost, c.token, c.sid, ping)
		if a.Status != c.status || a.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("%s: %d %q\n  want %d %q\n  body %s", c.name, a.Status, a.Header.Get("WWW-Authenticate"), c.status, c.challenge, a.Body)
		}
	}
	// mallory's 404 is the very answer an unknown session gets.
	unknown := s.do(s.client, http.MethodPost, tok("mallory", nil), "no-such-session", ping)
	theirs := s.do(s.client, http.MethodPost, tok("mallory", nil), sid, ping)
	if unknown.Status != 404 || string(unknown.Body) != string(theirs.Body) {
		t.Errorf("another subject's session is told apart from an unknown one:\n%s\n%s", unknown.Body, theirs.Body)
	}
	// mallory cannot end alice's session either; alice can.
	if a := s.do(s.client, http.MethodDelete, tok("mallory", nil), sid, ""); a.Status != 404 {
		t.Errorf("mallory's DELETE of alice's session: %d", a.Status)
	}
	if a := s.do(s.client, http.MethodPost, tok("alice", nil), sid, ping); a.Status != 200 {
		t.Errorf("alice's session after mallory's DELETE: %d", a.Status)
	}
	time.Sleep(200 * time.Millisecond) // the last log lines
	logs := s.log.String()
	if !strings.Contains(logs, "request refused: bearer token") {
		t.Fatalf("no refusal was logged; the token check below would prove nothing:\n%s", logs)
	}
	for _, tk := range append(tokens, alice) {
		if strings.Contains(logs, tk) || strings.Contains(logs, strings.Split(tk, ".")[2]) {
			t.Fatal("a bearer token (or its signature) is in the server log")
		}
	}
}

func TestStoneRefusingTheTokensUserSaysWhatToProvision(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), "MCP_USERID_CLAIM=preferred_username")
	c := is.Claims(s.resource(), "3f2a-opaque", "mcp:use")
	c["preferred_username"] = "baduser" // the stand-in's stone refuses this user
	a := s.do(s.client, http.MethodPost, is.Sign(c), "", initializeBody)
	if a.Status != 200 || a.RPC.Error == nil || a.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("%d %s", a.Status, a.Body)
	}
	msg := a.RPC.Error.Message
	if a.RPC.Kind() != errkind.LoginDenied || !strings.Contains(msg, "its preferred_username claim") || !strings.Contains(msg, "setup-oidc-users.sh") {
		t.Fatalf("the refusal does not say what to provision: kind %q: %s", a.RPC.Kind(), msg)
	}
	if strings.Contains(msg, "baduser") {
		t.Fatalf("the refusal echoes a user id to the client: %s", msg)
	}
	time.Sleep(100 * time.Millisecond)
	if !strings.Contains(s.log.String(), `"user":"baduser"`) {
		t.Fatal("the operator's log does not name the user the stone refused")
	}
	if strings.Contains(msg, "MCP_WORKER_USER") || strings.Contains(msg, "!tcp@") {
		t.Fatalf("the refusal points at the localhost mode's settings or shows an NRS: %s", msg)
	}
	c["preferred_username"] = "analyst"
	if a := s.do(s.client, http.MethodPost, is.Sign(c), "", initializeBody); a.Status != 200 || a.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("a provisioned user: %d %s", a.Status, a.Body)
	}
}

func TestPlaintextOnTheTLSPortIsRefused(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	conn, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	tk := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	_, _ = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: "+s.addr+"\r\nAuthorization: Bearer "+tk+
		"\r\nContent-Type: application/json\r\nContent-Length: "+itoa(len(initializeBody))+"\r\n\r\n"+initializeBody)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no HTTP answer to plaintext: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "Client sent an HTTP request to an HTTPS server") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if strings.Contains(s.log.String(), "session opened") {
		t.Fatal("a plaintext request opened a session")
	}
	if !strings.HasPrefix(s.url, "https://") {
		t.Fatalf("the server announced %s", s.url)
	}
}

func TestAnUnreachableIssuerAnswers503(t *testing.T) {
	is := authtest.NewIssuer(t)
	url := is.URL()
	is.Close()
	s := startAuth(t, url)
	a := s.do(s.client, http.MethodPost, "a.b.c", "", initializeBody)
	if a.Status != 503 || a.Header.Get("Retry-After") == "" {
		t.Fatalf("%d %v %s", a.Status, a.Header, a.Body)
	}
}

func TestTheNetworkModeRefusesAWorkerUser(t *testing.T) {
	cmd := exec.Command(binary)
	cmd.Env = []string{"MCP_AUTH=oidc", "MCP_OIDC_ISSUER=https://id.example", "MCP_RESOURCE=https://gs.example/mcp", "MCP_WORKER_USER=McpReadOnly", "MCP_PORT=0"}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "MCP_WORKER_USER is refused with MCP_AUTH=oidc") {
		t.Fatalf("MCP_WORKER_USER in the network-facing mode: %v\n%s", err, out)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
