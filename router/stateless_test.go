package router_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
)

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func statelessBody(id int, method, params string) string {
	if params != "" {
		params += ","
	}
	b, _ := json.Marshal(id)
	return `{"jsonrpc":"2.0","id":` + string(b) + `,"method":"` + method + `","params":{` + params + statelessMeta + `}}`
}

func (f *fixture) stateless(body string, headers ...string) reply {
	f.t.Helper()
	return f.post("", body, append([]string{"Mcp-Protocol-Version", router.StatelessVersion}, headers...)...)
}

func TestStatelessDiscoverAdvertisesTheOneListAndTheWorkersCapabilities(t *testing.T) {
	f := newFixture(t)
	r := f.stateless(statelessBody(7, "server/discover", ""))
	wantStatus(t, r, http.StatusOK)
	var res struct {
		SupportedVersions []string                         `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage       `json:"capabilities"`
		ResultType        string                           `json:"resultType"`
		TTL               *int                             `json:"ttlMs"`
		CacheScope        string                           `json:"cacheScope"`
		Meta              map[string]struct{ Name string } `json:"_meta"`
	}
	if err := json.Unmarshal(r.RPC.Result, &res); err != nil {
		t.Fatalf("result %s: %v", r.Body, err)
	}
	if !slices.Equal(res.SupportedVersions, router.SupportedProtocolVersions) || res.SupportedVersions[0] != "2026-07-28" {
		t.Fatalf("supportedVersions %v, want %v", res.SupportedVersions, router.SupportedProtocolVersions)
	}
	if _, ok := res.Capabilities["tools"]; !ok || res.ResultType != "complete" || res.TTL == nil || *res.TTL != 0 || res.CacheScope != "private" {
		t.Fatalf("discover result %s: want the worker's tools capability, resultType complete, ttlMs 0, cacheScope private", r.RPC.Result)
	}
	if res.Meta["io.modelcontextprotocol/serverInfo"].Name == "" {
		t.Fatalf("discover result %s: no serverInfo in _meta", r.RPC.Result)
	}
	if r.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("a stateless answer handed out a session id")
	}
}

func TestStatelessRefusalsNameWhatWasWrong(t *testing.T) {
	f := newFixture(t)
	noMeta := `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`
	wantError(t, f.stateless(noMeta), http.StatusBadRequest, -32602, "invalidMeta")
	mismatch := strings.Replace(statelessBody(4, "tools/list", ""), `"2026-07-28"`, `"2025-11-25"`, 1)
	wantError(t, f.stateless(mismatch), http.StatusBadRequest, -32020, "headerMismatch")
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe"} {
		r := f.stateless(statelessBody(5, m, ""))
		wantError(t, r, http.StatusNotFound, -32601, "methodNotFound")
		if string(r.RPC.ID) != "5" {
			t.Fatalf("%s: refusal id %s, want 5", m, r.RPC.ID)
		}
	}
	wrongName := f.stateless(statelessBody(6, "tools/call", `"name":"echo","arguments":{"text":"x"}`), "Mcp-Name", "sleep")
	wantError(t, wrongName, http.StatusBadRequest, -32020, "headerMismatch")
	future := strings.Replace(statelessBody(8, "server/discover", ""), `"2026-07-28"`, `"2099-01-01"`, 1)
	r := f.post("", future, "Mcp-Protocol-Version", "2099-01-01")
	wantError(t, r, http.StatusBadRequest, -32022, "unsupportedProtocolVersion")
	if r.RPC.Error.Data["requested"] != "2099-01-01" {
		t.Fatalf("data.requested %v, want the requested version", r.RPC.Error.Data["requested"])
	}
	wantStatus(t, f.do(http.MethodGet, "", "", "Mcp-Protocol-Version", router.StatelessVersion), http.StatusMethodNotAllowed)
}

func TestStatelessCallRunsOnAPoolGemThatIsNobodysSession(t *testing.T) {
	f := newFixture(t)
	for i := range 5 {
		r := f.stateless(statelessBody(i+1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`))
		wantStatus(t, r, http.StatusOK)
		if !strings.Contains(string(r.RPC.Result), `"hi"`) || !strings.Contains(string(r.RPC.Result), `"resultType":"complete"`) {
			t.Fatalf("call %d: result %s, want the echo with resultType complete", i, r.RPC.Result)
		}
	}
	if n := len(f.l.Configs()); n < 1 || n > router.DefaultStatelessPool {
		t.Fatalf("%d logins for five sequential stateless calls, want 1 to %d (the pool)", n, router.DefaultStatelessPool)
	}
	for _, sess := range f.srv.Sessions().All() {
		r := f.post(sess.ID(), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		wantError(t, r, http.StatusNotFound, -32001, "sessionNotFound")
	}
}

func TestStatelessRequestStateIsTamperProof(t *testing.T) {
	f := newFixture(t)
	for _, bad := range []string{`null`, `7`, `{"user_name":12345}`} {
		r := f.stateless(statelessBody(10, "tools/call", `"name":"echo","arguments":{"text":"x"},"inputResponses":`+bad))
		wantError(t, r, http.StatusBadRequest, -32602, "invalidInputResponses")
	}
	asks := strings.Replace(statelessBody(11, "tools/call", `"name":"echo","arguments":{"text":"x"}`), `"_meta":{`, `"_meta":{"io.github.gemstone-mcp/state":"new",`, 1)
	wantError(t, f.stateless(asks), http.StatusBadRequest, -32602, "stateUnavailable")
	for _, state := range []string{"garbage", "eyJmIjoiZmwtMSJ9.AAAA", ""} {
		r := f.stateless(statelessBody(9, "tools/call", `"name":"echo","arguments":{"text":"x"},"requestState":"`+state+`","inputResponses":{}`))
		wantError(t, r, http.StatusBadRequest, -32602, "badRequestState")
	}
}
