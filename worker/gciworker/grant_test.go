package gciworker

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// A grant in the prepare and through McpGrant; each subtest is one step on the same gem, in order.
func TestAGrant(t *testing.T) {
	cfg := prepareConfig()
	cfg.Toolsets = []string{"McpFixtureToolset", "McpFixtureWriteToolset", "McpFixtureExecToolset"}
	cfg.Grant = &worker.Grant{Toolsets: []string{"McpFixtureWriteToolset"}}
	g, err := NewLauncher(standinLibrary(t), Options{}).Launch(ctxFor(t), loginSpec(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(ctxFor(t)) })
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes","arguments":{}}}`)
	t.Run("travels in the prepare and is echoed", func(t *testing.T) {
		if p := g.Prepared(); p.Grant == nil || !slices.Equal(p.Grant.Toolsets, cfg.Grant.Toolsets) {
			t.Fatalf("the prepare answer does not echo the grant: %+v", p)
		}
	})
	t.Run("refuses a call outside it", func(t *testing.T) {
		if out, _ := g.Handle(ctxFor(t), call); !strings.Contains(string(out), `"kind":"toolNotGranted"`) {
			t.Fatalf("outside the grant: %s", out)
		}
	})
	t.Run("changes through McpGrant", func(t *testing.T) {
		got, err := g.(worker.Granter).Grant(ctxFor(t), worker.Grant{Toolsets: []string{"McpFixtureExecToolset"}})
		if err != nil || !slices.Equal(got.Toolsets, []string{"McpFixtureExecToolset"}) {
			t.Fatalf("Grant = %+v, %v", got, err)
		}
		if out, _ := g.Handle(ctxFor(t), call); strings.Contains(string(out), `"error"`) {
			t.Fatalf("inside the new grant: %s", out)
		}
	})
	t.Run("outside the surface is badGrant", func(t *testing.T) {
		_, err := g.(worker.Granter).Grant(ctxFor(t), worker.Grant{Toolsets: []string{"McpElsewhereToolset"}})
		var ge *worker.GrantError
		if !errors.As(err, &ge) || ge.Kind != errkind.BadGrant {
			t.Fatalf("a grant outside the surface: %v", err)
		}
	})
}
