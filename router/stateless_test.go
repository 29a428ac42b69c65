package router_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func statelessBody(id int, method, params string) string {
	if params != "" {
		params += ","
	}
	b, _ := json.Marshal(id)
	return `{"jsonrpc":"2.0","id":` + string(b) + `,"method":"` + method + `","params":{` + params + statelessMeta + `}}`
}

// stateless posts a 2026-07-28 request with the Mcp-Method and Mcp-Name headers its body
// implies (headers given later replace them).
func (f *fixture) stateless(body string, headers ...string) reply {
	f.t.Helper()
	var m struct {
		Method string
		Params map[string]any
	}
	_ = json.Unmarshal([]byte(body), &m)
	std := []string{"Mcp-Protocol-Version", router.StatelessVersion, "Mcp-Method", m.Method}
	for _, k := range []string{"name", "uri", "taskId"} {
		if v, ok := m.Params[k].(string); ok {
			std = append(std, "Mcp-Name", v)
		}
	}
	return f.post("", body, append(std, headers...)...)
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
	if res.Meta["io.github.gemstone-mcp/frontEnd"].Name != "mcp-gemstone" {
		t.Fatalf("discover result %s: the front end's build is not named in _meta", r.RPC.Result)
	}
	if r.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("a stateless answer handed out a session id")
	}
}

func TestStatelessRefusalsNameWhatWasWrong(t *testing.T) {
	f := newFixture(t)
	call := statelessBody(6, "tools/call", `"name":"echo","arguments":{"text":"x"}`)
	type refusal struct {
		name         string
		send         func(f *fixture) reply
		status, code int
		kind         string
	}
	refusals := []refusal{
		{"no _meta", func(f *fixture) reply {
			return f.stateless(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`)
		}, http.StatusBadRequest, -32602, "invalidMeta"},
		{"_meta's version differs from the header's", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `"2026-07-28"`, `"2025-11-25"`, 1))
		}, http.StatusBadRequest, -32020, "headerMismatch"},
		{"Mcp-Name differs from the tool", func(f *fixture) reply { return f.stateless(call, "Mcp-Name", "sleep") },
			http.StatusBadRequest, -32020, "headerMismatch"},
		{"no Mcp-Method", func(f *fixture) reply {
			return f.post("", statelessBody(6, "tools/list", ""), "Mcp-Protocol-Version", router.StatelessVersion)
		}, http.StatusBadRequest, -32020, "headerMismatch"},
		{"no Mcp-Name", func(f *fixture) reply {
			return f.post("", call, "Mcp-Protocol-Version", router.StatelessVersion, "Mcp-Method", "tools/call")
		}, http.StatusBadRequest, -32020, "headerMismatch"},
	}
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe"} {
		refusals = append(refusals, refusal{"removed method " + m, func(f *fixture) reply {
			r := f.stateless(statelessBody(5, m, ""))
			if string(r.RPC.ID) != "5" {
				f.t.Errorf("refusal id %s, want 5", r.RPC.ID)
			}
			return r
		}, http.StatusNotFound, -32601, "methodNotFound"})
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, c.send(f.in(t)), c.status, c.code, c.kind)
		})
	}
	t.Run("a revision this server does not speak", func(t *testing.T) {
		future := strings.Replace(statelessBody(8, "server/discover", ""), `"2026-07-28"`, `"2099-01-01"`, 1)
		r := f.in(t).post("", future, "Mcp-Protocol-Version", "2099-01-01")
		wantError(t, r, http.StatusBadRequest, -32022, "unsupportedProtocolVersion")
		if r.RPC.Error.Data["requested"] != "2099-01-01" {
			t.Errorf("data.requested %v, want the requested version", r.RPC.Error.Data["requested"])
		}
	})
	t.Run("GET", func(t *testing.T) {
		wantStatus(t, f.in(t).do(http.MethodGet, "", "", "Mcp-Protocol-Version", router.StatelessVersion), http.StatusMethodNotAllowed)
	})
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
		t.Run("inputResponses "+bad, func(t *testing.T) {
			r := f.in(t).stateless(statelessBody(10, "tools/call", `"name":"echo","arguments":{"text":"x"},"inputResponses":`+bad))
			wantError(t, r, http.StatusBadRequest, -32602, "invalidInputResponses")
		})
	}
	for _, state := range []string{"garbage", "eyJmIjoiZmwtMSJ9.AAAA", ""} {
		t.Run("requestState "+state, func(t *testing.T) {
			r := f.in(t).stateless(statelessBody(9, "tools/call", `"name":"echo","arguments":{"text":"x"},"requestState":"`+state+`","inputResponses":{}`))
			wantError(t, r, http.StatusBadRequest, -32602, "badRequestState")
		})
	}
}

func TestUncommittedWorkOfAStatelessCallDoesNotSurviveIntoTheNext(t *testing.T) {
	f := newFixture(t)
	// A write on a pooled request is refused by the worker (worker contract), as the
	// Smalltalk worker refuses it.
	r := f.stateless(statelessBody(1, "tools/call", `"name":"set_view_status","arguments":{"uncommitted":true}`))
	if !strings.Contains(string(r.RPC.Result), `"kind":"sessionRequired"`) {
		t.Fatalf("a write on a pool gem: %s, want the worker's sessionRequired refusal", r.Body)
	}
	g, ok := f.l.Gem(1)
	if !ok {
		t.Fatal("no pool gem")
	}
	leaveInPoolGem(t, g, `{"uncommitted":true}`)
	// The next stateless request begins with the worker's abort (worker contract).
	wantStatus(t, f.stateless(statelessBody(2, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins: want the one pool gem, reused", f.l.Launches())
	}
	if v, err := g.ViewStatus(t.Context()); err != nil || v.Uncommitted {
		t.Fatalf("the pool gem after the next call: %+v %v, want no uncommitted work", v, err)
	}
}

func TestPoolGemBehindTheRepositorySeesTheCurrentCommitInItsNextCall(t *testing.T) {
	f := newFixture(t)
	wantStatus(t, f.stateless(statelessBody(1, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	g, ok := f.l.Gem(1)
	if !ok {
		t.Fatal("no gem 1")
	}
	leaveInPoolGem(t, g, `{"commitsBehind":3}`)
	wantStatus(t, f.stateless(statelessBody(2, "tools/call", `"name":"echo","arguments":{"text":"x"}`)), http.StatusOK)
	if f.l.Launches() != 1 {
		t.Fatalf("%d logins: a gem whose view is behind is refreshed, not replaced", f.l.Launches())
	}
	if v, err := g.ViewStatus(t.Context()); err != nil || v.CommitsBehind != 0 {
		t.Fatalf("the pool gem's view after its next call: %+v %v, want refreshed (0 behind)", v, err)
	}
}

func TestMirroredArgumentHeadersReachTheWorkerWhichHoldsThemToTheArguments(t *testing.T) {
	f := newFixture(t)
	call := statelessBody(1, "tools/call", `"name":"test_custom_header","arguments":{"region":"Hello"}`)
	for _, c := range []struct {
		header string
		status int
	}{
		{"Hello", http.StatusOK},
		{"=?base64?SGVsbG8=?=", http.StatusOK},
		{"=?base64?SGVsbG8?=", http.StatusBadRequest},     // bad padding
		{"=?base64?SGVs!!!bG8=?=", http.StatusBadRequest}, // not the alphabet
		{"Bye", http.StatusBadRequest},
	} {
		r := f.stateless(call, "Mcp-Param-Region", c.header)
		if r.Status != c.status || (c.status == http.StatusBadRequest && (r.RPC.Error == nil || r.RPC.Error.Code != -32020)) {
			t.Fatalf("Mcp-Param-Region %q: %d %s, want %d (and -32020 when refused)", c.header, r.Status, r.Body, c.status)
		}
	}
	wantError(t, f.stateless(call), http.StatusBadRequest, -32020, "")
}

// A method the revision removed is "method not found" whatever else the request lacks: the Go
// SDK's Ping sends ping with no _meta at all, and must learn the real reason.
func TestARemovedMethodIsNotFoundEvenWithoutItsEnvelope(t *testing.T) {
	f := newFixture(t)
	for _, m := range []string{"ping", "initialize", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"} {
		t.Run(m, func(t *testing.T) {
			f := f.in(t)
			bare := `{"jsonrpc":"2.0","id":5,"method":"` + m + `"}`
			wantError(t, f.post("", bare, "Mcp-Protocol-Version", router.StatelessVersion), http.StatusNotFound, -32601, "methodNotFound")
			noMeta := `{"jsonrpc":"2.0","id":5,"method":"` + m + `","params":{}}`
			wantError(t, f.post("", noMeta, "Mcp-Protocol-Version", router.StatelessVersion, "Mcp-Method", m), http.StatusNotFound, -32601, "methodNotFound")
		})
	}
}

// leaveInPoolGem puts a pool gem's fixture view in the state set_view_status args describes,
// through the gem itself: the worker refuses that write on a pooled request, and the state
// stands for whatever an earlier request could leave behind.
func leaveInPoolGem(t *testing.T, g *workertest.Gem, args string) {
	t.Helper()
	if _, err := g.Handle(t.Context(), []byte(`{"jsonrpc":"2.0","id":"setup","method":"tools/call","params":{"name":"set_view_status","arguments":`+args+`}}`)); err != nil {
		t.Fatal(err)
	}
}

func TestAStatelessClientCannotSendTheFrontEndsPrivateMethods(t *testing.T) {
	f := newFixture(t)
	bare := `{"jsonrpc":"2.0","id":5,"method":"io.github.gemstone-mcp/resourceUpdates"}`
	wantError(t, f.post("", bare, "Mcp-Protocol-Version", router.StatelessVersion), http.StatusNotFound, -32601, "methodNotFound")
}
