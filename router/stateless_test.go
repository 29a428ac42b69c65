package router_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
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

func TestTheServerDiscoverResult(t *testing.T) {
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
	t.Run("lists the one list of supported versions, newest first", func(t *testing.T) {
		if !slices.Equal(res.SupportedVersions, router.SupportedProtocolVersions) || res.SupportedVersions[0] != "2026-07-28" {
			t.Errorf("supportedVersions %v, want %v", res.SupportedVersions, router.SupportedProtocolVersions)
		}
	})
	t.Run("carries the worker's capabilities, uncached", func(t *testing.T) {
		if _, ok := res.Capabilities["tools"]; !ok || res.ResultType != "complete" || res.TTL == nil || *res.TTL != 0 || res.CacheScope != "private" {
			t.Errorf("discover result %s: want the worker's tools capability, resultType complete, ttlMs 0, cacheScope private", r.RPC.Result)
		}
	})
	t.Run("names the server and the front end's build", func(t *testing.T) {
		if res.Meta["io.modelcontextprotocol/serverInfo"].Name == "" {
			t.Errorf("discover result %s: no serverInfo in _meta", r.RPC.Result)
		}
		if res.Meta["io.github.gemstone-mcp/frontEnd"].Name != "mcp-gemstone" {
			t.Errorf("discover result %s: the front end's build is not named in _meta", r.RPC.Result)
		}
	})
	t.Run("hands out no session id", func(t *testing.T) {
		if r.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("a stateless answer handed out a session id")
		}
	})
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
		{"_meta names a member twice", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `"_meta":{`,
				`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`, 1))
		}, http.StatusBadRequest, -32602, "invalidMeta"},
		{"_meta has no client capabilities", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `,"io.modelcontextprotocol/clientCapabilities":{}`, "", 1))
		}, http.StatusBadRequest, -32602, "invalidMeta"},
		{"_meta's client capabilities are no object", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `clientCapabilities":{}`, `clientCapabilities":[]`, 1))
		}, http.StatusBadRequest, -32602, "invalidMeta"},
		{"_meta's version is no string", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `"2026-07-28"`, `20260728`, 1))
		}, http.StatusBadRequest, -32602, "invalidMeta"},
		{"_meta's version is null", func(f *fixture) reply {
			return f.stateless(strings.Replace(statelessBody(4, "tools/list", ""), `"2026-07-28"`, `null`, 1))
		}, http.StatusBadRequest, -32020, "headerMismatch"},
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
	t.Run("a version written with escapes is the version it decodes to", func(t *testing.T) {
		escaped := strings.Replace(statelessBody(9, "tools/list", ""), `"2026-07-28"`, `"2026\u002d07-28"`, 1)
		if r := f.in(t).stateless(escaped); r.Status != http.StatusOK || r.RPC.Error != nil {
			t.Fatalf("answered %d %s, want the tool list", r.Status, r.Body)
		}
	})
	t.Run("a revision this server does not speak", func(t *testing.T) {
		future := strings.Replace(statelessBody(8, "server/discover", ""), `"2026-07-28"`, `"2099-01-01"`, 1)
		r := f.in(t).post("", future, "Mcp-Protocol-Version", "2099-01-01")
		wantError(t, r, http.StatusBadRequest, -32022, errkind.UnsupportedProtocolVersion)
		if r.RPC.Error.Data["requested"] != "2099-01-01" {
			t.Errorf("data.requested %v, want the requested version", r.RPC.Error.Data["requested"])
		}
	})
	t.Run("GET", func(t *testing.T) {
		wantStatus(t, f.in(t).do(http.MethodGet, "", "", "Mcp-Protocol-Version", router.StatelessVersion), http.StatusMethodNotAllowed)
	})
}

// A method the revision removed is "method not found" whatever else the request lacks: the Go
// SDK's Ping sends ping with no _meta at all, and must learn the real reason.
func TestARemovedMethodIsNotFoundEvenWithoutItsEnvelope(t *testing.T) {
	f := newFixture(t)
	for _, m := range []string{"ping", "initialize", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"} {
		t.Run(m, func(t *testing.T) {
			f := f.in(t)
			bare := `{"jsonrpc":"2.0","id":5,"method":"` + m + `"}`
			wantError(t, f.post("", bare, "Mcp-Protocol-Version", router.StatelessVersion), http.StatusNotFound, -32601, errkind.MethodNotFound)
			noMeta := `{"jsonrpc":"2.0","id":5,"method":"` + m + `","params":{}}`
			wantError(t, f.post("", noMeta, "Mcp-Protocol-Version", router.StatelessVersion, "Mcp-Method", m), http.StatusNotFound, -32601, errkind.MethodNotFound)
		})
	}
}

func TestAStatelessClientCannotSendTheFrontEndsPrivateMethods(t *testing.T) {
	f := newFixture(t)
	bare := `{"jsonrpc":"2.0","id":5,"method":"io.github.gemstone-mcp/resourceUpdates"}`
	wantError(t, f.post("", bare, "Mcp-Protocol-Version", router.StatelessVersion), http.StatusNotFound, -32601, errkind.MethodNotFound)
}
