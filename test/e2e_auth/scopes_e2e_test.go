package e2eauth

import (
	"encoding/json"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest/fixtureworker"
)

// The stand-in's three fixture toolsets, each granted by one scope.
var scopeEnv = []string{
	"MCP_MAX_SESSIONS=none",
	"MCP_TOOLSETS=" + fixtureworker.ToolsetName + "," + fixtureworker.WriteToolsetName + "," + fixtureworker.ExecToolsetName,
	`MCP_SCOPE_TOOLSETS={"mcp:read":["` + fixtureworker.ToolsetName + `"],"mcp:write":["` + fixtureworker.WriteToolsetName +
		`"],"mcp:exec":["` + fixtureworker.ExecToolsetName + `"]}`,
}

func (s *server) toolNames(token, sid string) []string {
	s.t.Helper()
	a := s.do(s.client, http.MethodPost, token, sid, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if a.Status != 200 || json.Unmarshal(a.RPC.Result, &res) != nil {
		s.t.Fatalf("tools/list: %d %s", a.Status, a.Body)
	}
	names := []string{}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

func (s *server) open(token string) string {
	s.t.Helper()
	a := s.do(s.client, http.MethodPost, token, "", initializeBody)
	sid := a.Header.Get("Mcp-Session-Id")
	if a.Status != 200 || sid == "" || a.RPC.Error != nil {
		s.t.Fatalf("initialize: %d %s", a.Status, a.Body)
	}
	return sid
}

func TestThreeTokensWithDifferentScopesSeeThreeSurfaces(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), scopeEnv...)
	tok := func(sub, scope string) string { return is.Sign(is.Claims(s.resource(), sub, scope)) }

	// The mapped scopes are advertised: metadata and the 401 challenge.
	resp, err := s.client.Get("https://" + s.addr + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var prm struct {
		Scopes []string `json:"scopes_supported"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	all := "mcp:use profile mcp:read mcp:write mcp:exec"
	if strings.Join(prm.Scopes, " ") != all {
		t.Fatalf("scopes_supported %v", prm.Scopes)
	}
	if a := s.do(s.client, http.MethodPost, "", "", initializeBody); a.Status != 401 || !strings.HasSuffix(a.Header.Get("WWW-Authenticate"), `scope="`+all+`"`) {
		t.Fatalf("401: %d %q", a.Status, a.Header.Get("WWW-Authenticate"))
	}

	base := []string{"echo", "sleep", "fail", "big", "unicode", "die", "set_view_status", "flood"}
	reader := tok("alice", "mcp:use mcp:read")
	writer := tok("bob", "mcp:use mcp:write")
	runner := tok("carol", "mcp:use mcp:exec profile")
	readNames := s.toolNames(reader, s.open(reader))
	for _, want := range base {
		if !slices.Contains(readNames, want) {
			t.Errorf("the mcp:read surface lacks %s: %v", want, readNames)
		}
	}
	if slices.Contains(readNames, "note") || slices.Contains(readNames, "notes") {
		t.Errorf("the mcp:read surface holds another toolset's tool: %v", readNames)
	}
	if got := s.toolNames(writer, s.open(writer)); !slices.Equal(got, []string{"note"}) {
		t.Errorf("the mcp:write surface: %v", got)
	}
	if got := s.toolNames(runner, s.open(runner)); !slices.Equal(got, []string{"notes"}) {
		t.Errorf("the mcp:exec surface: %v", got)
	}
	// Only the required scope: an empty surface, not the whole one.
	bare := tok("dave", "mcp:use")
	if got := s.toolNames(bare, s.open(bare)); len(got) != 0 {
		t.Errorf("a token with no mapped scope sees %v", got)
	}
}

// Step-up on one session; each subtest is one step, in order.
func TestStepUpOnASession(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), scopeEnv...)
	tok := func(sub, scope string) string { return is.Sign(is.Claims(s.resource(), sub, scope)) }
	writer := tok("alice", "mcp:use mcp:write")
	sid := s.open(writer)
	if a := s.do(s.client, http.MethodPost, writer, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"note","arguments":{"text":"written before the step-up"}}}`); a.Status != 200 || a.RPC.Error != nil {
		t.Fatalf("note: %d %s", a.Status, a.Body)
	}

	notes := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"notes","arguments":{}}}`
	t.Run("a tool the token does not grant is 403 with the exact challenge", func(t *testing.T) {
		s := s.in(t)
		a := s.do(s.client, http.MethodPost, writer, sid, notes)
		want := `Bearer error="insufficient_scope", error_description="the token's scopes do not grant the toolset McpFixtureExecToolset of this tool", ` +
			`resource_metadata="https://` + s.addr + `/.well-known/oauth-protected-resource/mcp", scope="mcp:use mcp:write mcp:exec"`
		if a.Status != 403 || a.Header.Get("WWW-Authenticate") != want {
			t.Fatalf("step-up:\n got %d %q\nwant 403 %q\n%s", a.Status, a.Header.Get("WWW-Authenticate"), want, a.Body)
		}
		if string(a.RPC.ID) != "3" || a.RPC.Kind() != errkind.InsufficientScope {
			t.Fatalf("the 403's body: %s", a.Body)
		}
	})
	wider := tok("alice", "mcp:use mcp:write mcp:exec")
	t.Run("a wider token of the same subject runs it on the same session", func(t *testing.T) {
		s := s.in(t)
		a := s.do(s.client, http.MethodPost, wider, sid, notes)
		if a.Status != 200 || a.RPC.Error != nil || !strings.Contains(string(a.RPC.Result), "written before the step-up") {
			t.Fatalf("the wider token's call: %d %s", a.Status, a.Body)
		}
		if got := s.toolNames(wider, sid); !slices.Equal(got, []string{"note", "notes"}) {
			t.Fatalf("after the step-up: %v", got)
		}
	})
	narrower := tok("alice", "mcp:use mcp:exec")
	t.Run("a narrower token loses the tool", func(t *testing.T) {
		s := s.in(t)
		if got := s.toolNames(narrower, sid); !slices.Equal(got, []string{"notes"}) {
			t.Fatalf("after the narrower token: %v", got)
		}
		a := s.do(s.client, http.MethodPost, narrower, sid, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"note","arguments":{"text":"x"}}}`)
		if a.Status != 403 || !strings.HasSuffix(a.Header.Get("WWW-Authenticate"), `scope="mcp:use mcp:write mcp:exec"`) {
			t.Fatalf("note with the narrower token: %d %q", a.Status, a.Header.Get("WWW-Authenticate"))
		}
	})
	t.Run("another subject's token, however wide, is 404", func(t *testing.T) {
		s := s.in(t)
		if a := s.do(s.client, http.MethodPost, tok("mallory", "mcp:use mcp:read mcp:write mcp:exec"), sid, notes); a.Status != 404 {
			t.Fatalf("another subject on the session: %d %s", a.Status, a.Body)
		}
	})
	t.Run("no token reaches the log", func(t *testing.T) {
		for _, secret := range []string{writer, wider, narrower} {
			if strings.Contains(s.log.String(), secret) {
				t.Fatal("a token reached the server log")
			}
		}
	})
}

func TestStartRefusesABadScopeMapping(t *testing.T) {
	base := []string{"MCP_AUTH=oidc", "MCP_OIDC_ISSUER=https://id.example", "MCP_RESOURCE=https://gs.example/mcp", "MCP_PORT=0"}
	cases := map[string][]string{
		`scope "mcp:read" names McpBrowsingToolsett, which is not in the tool surface`: {"MCP_TOOLSETS=McpBrowsingToolset",
			`MCP_SCOPE_TOOLSETS={"mcp:read":["McpBrowsingToolset","McpBrowsingToolsett"]}`},
		`MCP_SCOPE_TOOLSETS: scope "mcp:read" must map to an array of toolset class names`: {`MCP_SCOPE_TOOLSETS={"mcp:read":"McpBrowsingToolset"}`},
		"no scope grants McpMutationToolset of the tool surface":                           {`MCP_SCOPE_TOOLSETS={"mcp:read":["McpBrowsingToolset"]}`},
	}
	for want, env := range cases {
		cmd := exec.Command(binary)
		cmd.Env = append(append([]string(nil), base...), env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), want) {
			t.Errorf("%v: %v\n%s", env, err, out)
		}
	}
}

// statelessCall is one 2026-07-28 request (no session): the token's scopes choose its grant.
func (s *server) statelessCall(token string, id int, method, params string) answer {
	s.t.Helper()
	return s.stateless(id, method, params, `{}`, "", "Authorization", "Bearer "+token)
}

func TestAStatelessRequestsToken(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), scopeEnv...)
	tok := func(scope string) string { return is.Sign(is.Claims(s.resource(), "alice", scope)) }
	writer := tok("mcp:use mcp:write")
	t.Run("chooses the surface it sees", func(t *testing.T) {
		s := s.in(t)
		a := s.statelessCall(writer, 1, "tools/list", "")
		var res struct {
			Tools []struct{ Name string } `json:"tools"`
		}
		if a.Status != 200 || json.Unmarshal(a.RPC.Result, &res) != nil || len(res.Tools) != 1 || res.Tools[0].Name != "note" {
			t.Fatalf("stateless tools/list: %d %s", a.Status, a.Body)
		}
	})
	t.Run("steps up as a session's does", func(t *testing.T) { statelessStepUp(t, s.in(t), writer, tok) })
}

func statelessStepUp(t *testing.T, s *server, writer string, tok func(string) string) {
	a := s.statelessCall(writer, 2, "tools/call", `"name":"notes","arguments":{}`)
	want := `Bearer error="insufficient_scope", error_description="the token's scopes do not grant the toolset McpFixtureExecToolset of this tool", ` +
		`resource_metadata="https://` + s.addr + `/.well-known/oauth-protected-resource/mcp", scope="mcp:use mcp:write mcp:exec"`
	if a.Status != 403 || a.Header.Get("WWW-Authenticate") != want {
		t.Fatalf("stateless step-up: %d %q\n%s", a.Status, a.Header.Get("WWW-Authenticate"), a.Body)
	}
	if a = s.statelessCall(tok("mcp:use mcp:exec"), 3, "tools/call", `"name":"notes","arguments":{}`); a.Status != 200 || a.RPC.Error != nil {
		t.Fatalf("stateless call with the wider token: %d %s", a.Status, a.Body)
	}
}
