package router_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest/fixtureworker"
)

// headerGrants grants what the test's X-Grant header lists (the stand-in for a token's
// scopes); its step-up names the scope "need:<toolset>".
type headerGrants struct{}

type grantKey struct{}

func (headerGrants) Granted(ctx context.Context) []string {
	v, _ := ctx.Value(grantKey{}).(string)
	out := []string{}
	for _, t := range strings.Split(v, ",") {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

func (headerGrants) StepUp(_ context.Context, toolset string) (string, []string, bool) {
	if toolset == "" {
		return "", nil, false
	}
	return `Bearer error="insufficient_scope", scope="need:` + toolset + `"`, []string{"need:" + toolset}, true
}

func grantsFixture(t *testing.T, tune ...func(*router.Options, *workertest.Launcher)) *fixture {
	return newFixture(t, append([]func(*router.Options, *workertest.Launcher){func(o *router.Options, _ *workertest.Launcher) {
		o.Prepare.Toolsets = []string{fixtureworker.ToolsetName, fixtureworker.WriteToolsetName, fixtureworker.ExecToolsetName}
		o.Grants = headerGrants{}
		o.Auth = func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), grantKey{}, r.Header.Get("X-Grant"))))
			})
		}
	}}, tune...)...)
}

func (f *fixture) toolNames(sid, grant string) []string {
	f.t.Helper()
	r := f.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`, "X-Grant", grant)
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(r.RPC.Result, &res); err != nil {
		f.t.Fatalf("tools/list: %d %s", r.Status, r.Body)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestTheTokensGrant(t *testing.T) {
	f := grantsFixture(t)
	r := f.do(http.MethodPost, "", initBody, "X-Grant", fixtureworker.WriteToolsetName)
	sid := r.Header.Get("Mcp-Session-Id")
	if r.Status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", r.Status, r.Body)
	}
	t.Run("goes into the prepare config", func(t *testing.T) {
		cfgs := f.l.Configs()
		if len(cfgs) != 1 || cfgs[0].Grant == nil || !slices.Equal(cfgs[0].Grant.Toolsets, []string{fixtureworker.WriteToolsetName}) {
			t.Fatalf("prepare config grant: %+v", cfgs)
		}
	})
	t.Run("chooses the listed tools", func(t *testing.T) {
		if names := f.in(t).toolNames(sid, fixtureworker.WriteToolsetName); !slices.Equal(names, []string{"note"}) {
			t.Fatalf("tools/list: %v", names)
		}
	})
}

// Step-up on one session; each subtest is one step, in order.
func TestStepUpOnASession(t *testing.T) {
	f := grantsFixture(t)
	write := fixtureworker.WriteToolsetName
	sid := f.do(http.MethodPost, "", initBody, "X-Grant", write).Header.Get("Mcp-Session-Id")
	if r := f.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"note","arguments":{"text":"before the step-up"}}}`, "X-Grant", write); r.Status != 200 || r.RPC.Error != nil {
		t.Fatalf("note: %d %s", r.Status, r.Body)
	}
	notes := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"notes","arguments":{}}}`
	t.Run("a call outside the grant is answered 403 insufficient_scope naming the scope", func(t *testing.T) {
		r := f.in(t).do(http.MethodPost, sid, notes, "X-Grant", write)
		if r.Status != 403 || r.Header.Get("WWW-Authenticate") != `Bearer error="insufficient_scope", scope="need:McpFixtureExecToolset"` {
			t.Fatalf("outside the grant: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
		}
		if string(r.RPC.ID) != "2" || r.RPC.Kind() != errkind.InsufficientScope || !strings.Contains(string(r.Body), `"scope":"need:McpFixtureExecToolset"`) {
			t.Fatalf("403 body: %s", r.Body)
		}
	})
	t.Run("a wider token makes the call on the same session's gem", func(t *testing.T) {
		wider := write + "," + fixtureworker.ExecToolsetName
		r := f.in(t).do(http.MethodPost, sid, notes, "X-Grant", wider)
		if r.Status != 200 || r.RPC.Error != nil || !strings.Contains(string(r.RPC.Result), "before the step-up") {
			t.Fatalf("the wider token's call: %d %s", r.Status, r.Body)
		}
		if f.l.Launches() != 1 {
			t.Fatalf("the step-up launched %d gems; the session's own must serve it", f.l.Launches())
		}
	})
	t.Run("a narrower token shrinks the surface for its calls", func(t *testing.T) {
		f := f.in(t)
		if names := f.toolNames(sid, fixtureworker.ExecToolsetName); !slices.Equal(names, []string{"notes"}) {
			t.Fatalf("after a narrower token, tools/list: %v", names)
		}
		if r := f.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"note","arguments":{"text":"x"}}}`, "X-Grant", fixtureworker.ExecToolsetName); r.Status != 403 {
			t.Fatalf("note with the narrower token: %d %s", r.Status, r.Body)
		}
	})
}

func TestAnUnknownToolIsNoStepUp(t *testing.T) {
	f := grantsFixture(t)
	sid := f.do(http.MethodPost, "", initBody, "X-Grant", fixtureworker.ToolsetName).Header.Get("Mcp-Session-Id")
	r := f.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, "X-Grant", fixtureworker.ToolsetName)
	if r.Status != 200 || r.RPC.Error == nil || r.RPC.Error.Code != -32602 || r.Header.Get("WWW-Authenticate") != "" {
		t.Fatalf("unknown tool: %d %s", r.Status, r.Body)
	}
}

// grantless hides the gem's Grant: a worker that cannot change a session's grant.
type grantless struct{ worker.Launcher }

type plainGem struct{ worker.Gem }

func (g grantless) Launch(ctx context.Context, login worker.LoginSpec, cfg worker.PrepareConfig) (worker.Gem, error) {
	gem, err := g.Launcher.Launch(ctx, login, cfg)
	if err != nil {
		return nil, err
	}
	return plainGem{gem}, nil
}

func TestAWorkerThatCannotApplyAGrantOpensNoSession(t *testing.T) {
	f := grantsFixture(t, func(o *router.Options, l *workertest.Launcher) { o.Launcher = grantless{l} })
	r := f.do(http.MethodPost, "", initBody, "X-Grant", fixtureworker.ToolsetName)
	if r.Status != 200 || r.RPC.Kind() != errkind.GrantUnsupported || r.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize on a grantless worker: %d %s", r.Status, r.Body)
	}
	if f.l.Live() != 0 {
		t.Fatalf("%d gems still logged in", f.l.Live())
	}
}

func TestAStatelessRequestsGrant(t *testing.T) {
	f := grantsFixture(t)
	write, exec := fixtureworker.WriteToolsetName, fixtureworker.ExecToolsetName
	notes := statelessBody(2, "tools/call", `"name":"notes","arguments":{}`)
	t.Run("is its own token's", func(t *testing.T) {
		r := f.in(t).stateless(statelessBody(1, "tools/list", ""), "X-Grant", write)
		var res struct {
			Tools []struct{ Name string } `json:"tools"`
		}
		if r.Status != 200 || json.Unmarshal(r.RPC.Result, &res) != nil || len(res.Tools) != 1 || res.Tools[0].Name != "note" {
			t.Fatalf("stateless tools/list with the write grant: %d %s", r.Status, r.Body)
		}
	})
	t.Run("steps up as a session's does", func(t *testing.T) {
		f := f.in(t)
		r := f.stateless(notes, "X-Grant", write)
		if r.Status != 403 || r.Header.Get("WWW-Authenticate") != `Bearer error="insufficient_scope", scope="need:McpFixtureExecToolset"` ||
			r.RPC.Kind() != errkind.InsufficientScope || string(r.RPC.ID) != "2" {
			t.Fatalf("stateless call outside the grant: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
		}
		if r = f.stateless(notes, "X-Grant", write+","+exec); r.Status != 200 || r.RPC.Error != nil {
			t.Fatalf("stateless call with the wider grant: %d %s", r.Status, r.Body)
		}
	})
}
